"""``tableside calibrate``, ``read-dice``, ``enroll`` and ``watch``: the camera pipeline from
the shell."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from vision.calibration import Calibration, check, remember_in_use, source_frames, tray_share
from vision.enrollment import EnrollmentError, Profile, enroll
from vision.facenet import ModelError
from vision.imagefile import ImageError
from vision.reader import DiceReader
from vision.settle import Roll, SettleDetector
from vision.sources import SourceError, open_source
from vision.watcher import SourceNotice, watch


def register(subparsers: Any) -> None:
    c = subparsers.add_parser(
        "calibrate", help="learn the empty tray and check the picture (light, focus)",
        description="Learn a setup from frames of the empty tray (its background, the tray "
        "floor and the die size) and report the picture's quality with advice: run it, fix "
        "what it says, run it again, then play. The setup is saved under its name for "
        "read-dice --setup and watch --setup (docs/vision.md, Calibration).",
    )
    c.add_argument("source", help="camera:N, /dev/videoN, picamera, images:DIR, video:FILE "
                   "or a photo, of the empty tray")
    c.add_argument("--setup", required=True, help="the setup's name (a letter or digit first)")
    c.add_argument("--frames", type=int, default=10,
                   help="frames of the empty tray to take (default 10; a camera's first "
                        "15 are passed over while its exposure settles)")
    c.add_argument("--dice", metavar="SOURCE",
                   help="a photo (or source) of the same tray with a few dice in it, taken "
                        "the same way: measures the die size (else the framing default)")
    c.add_argument("--no-save", action="store_true", help="only report; save nothing")
    c.add_argument("--json", action="store_true", help="print one JSON object")
    c.set_defaults(handler=_calibrate)

    p = subparsers.add_parser(
        "read-dice", help="read the dice in photos",
        description="Find and read every die in each photo (pip d6 by default).",
    )
    p.add_argument("images", nargs="+", metavar="IMAGE")
    p.add_argument("--die", default="d6", help="d6 (built in), seafall or a custom die name")
    p.add_argument("--profile", help="an enrolled profile (needed for any die but d6)")
    p.add_argument("--die-px", type=float, help="die size in the photos' pixels, if known")
    p.add_argument("--setup", help="a calibrated setup (tableside calibrate): its die size and "
                   "tray floor, for photos from its camera at its size")
    p.add_argument("--json", action="store_true", help="print a JSON list, one object per image")
    p.set_defaults(handler=_read_dice)

    e = subparsers.add_parser(
        "enroll", help="enroll the faces of a custom die",
        description="Learn a die's faces from crops (one folder per face) or labelled photos.",
    )
    e.add_argument("--die", required=True)
    e.add_argument("--profile", required=True)
    src = e.add_mutually_exclusive_group(required=True)
    src.add_argument("--crops", type=Path, help="folder with one sub-folder of crops per face")
    src.add_argument("--photos", type=Path, help="photos with YOLO label files")
    e.add_argument("--faces", help="face labels in class order, comma separated (--photos)")
    e.add_argument("--per-face", type=int, help="use at most N crops per face")
    e.set_defaults(handler=_enroll)

    w = subparsers.add_parser(
        "watch", help="print settled rolls from a camera or recording",
        description="Watch a source (camera:0, picamera, images:DIR, video:FILE, /dev/videoN) "
        "and print each roll once the dice have settled.",
    )
    w.add_argument("source")
    w.add_argument("--die", default="d6")
    w.add_argument("--profile")
    w.add_argument("--die-px", type=float)
    w.add_argument("--setup", help="a calibrated setup (tableside calibrate): its die size, "
                   "tray floor and empty-tray background (which shows a still hand)")
    w.add_argument("--fps", type=float, default=0.0,
                   help="frame rate of a recording without timestamps (images:DIR)")
    w.add_argument("--json", action="store_true", help="one JSON object per roll")
    w.set_defaults(handler=_watch)


def _setup(args: argparse.Namespace) -> Calibration | None:
    return Calibration.load(args.setup) if args.setup else None


def _reader(args: argparse.Namespace, setup: Calibration | None = None) -> DiceReader:
    profile = Profile.load(args.profile) if args.profile else None
    die_px = args.die_px or (setup.die_px if setup else None)
    return DiceReader(args.die, profile=profile, die_px=die_px,
                      roi=setup.roi if setup else None)


def _read_dice(args: argparse.Namespace) -> int:
    try:
        reader = _reader(args, _setup(args))
    except (EnrollmentError, ValueError, ModelError) as exc:
        print(f"tableside read-dice: {exc}", file=sys.stderr)
        return 2
    results: list[dict[str, Any]] = []
    failed = 0
    for path in args.images:
        try:
            read = reader.read_path(path)
        except (ImageError, ValueError) as exc:  # ValueError: not the setup's frame size
            failed += 1
            results.append({"image": path, "error": str(exc), "dice": []})
            if not args.json:
                print(f"{path}: error: {exc}")
            continue
        entry: dict[str, Any] = {
            "image": path, "dice": [d.to_json() for d in read.dice], "ms": round(read.ms, 1)
        }
        if read.warnings:
            entry["warnings"] = list(read.warnings)
        results.append(entry)
        if not args.json:
            print(_summary(path, read.faces, [d.uncertain for d in read.dice], read.ms))
            for warning in read.warnings:
                print(f"  warning: {warning}")
    if args.json:
        print(json.dumps(results, indent=1))
    return 1 if failed else 0


def _summary(name: str, faces: tuple[str, ...], uncertain: list[bool], ms: float) -> str:
    if not faces:
        return f"{name}: no dice ({ms:.0f} ms)"
    shown = " ".join(f + ("?" if u else "") for f, u in zip(faces, uncertain, strict=True))
    note = f"; {sum(uncertain)} uncertain (marked ?), please confirm" if any(uncertain) else ""
    return f"{name}: {len(faces)} dice: {shown}{note} ({ms:.0f} ms)"


def _enroll(args: argparse.Namespace) -> int:
    faces = [f.strip() for f in args.faces.split(",")] if args.faces else None
    try:
        profile = enroll(args.profile, args.die, crops_dir=args.crops, photos_dir=args.photos,
                         faces=faces, per_face=args.per_face)
        path = profile.save()
    except (EnrollmentError, OSError, ModelError) as exc:
        print(f"tableside enroll: {exc}", file=sys.stderr)
        return 2
    print(f"enrolled {args.die} faces {', '.join(profile.labels)} as profile "
          f"{profile.name!r} ({len(profile.vectors)} vectors) -> {path}")
    return 0


def _watch(args: argparse.Namespace) -> int:
    frame_period = 1.0 / args.fps if args.fps > 0 else 0.0
    clock = _FrameClock(frame_period) if frame_period else time.monotonic
    try:
        setup = _setup(args)
        reader = _reader(args, setup)
        source = open_source(args.source, clock=clock)
    except (EnrollmentError, ValueError, SourceError, ModelError) as exc:
        print(f"tableside watch: {exc}", file=sys.stderr)
        return 2
    detector = SettleDetector(clock=clock, background=setup.background if setup else None,
                              die_px=reader.die_px)
    with source:
        try:
            for item in watch(source, reader, detector, reopen_attempts=10,
                              wait=lambda: time.sleep(1.0)):
                if isinstance(item, SourceNotice):
                    print(f"[{item.kind}] {item.message}", file=sys.stderr, flush=True)
                    continue
                _print_roll(item, args.json)
        except ValueError as exc:  # frames of another size than the setup's
            print(f"tableside watch: {exc}", file=sys.stderr)
            return 2
    return 0


def _calibrate(args: argparse.Namespace) -> int:
    if args.frames < 1:
        print("tableside calibrate: --frames must be at least 1", file=sys.stderr)
        return 2
    try:
        with open_source(args.source) as source:
            empty = source_frames(source, args.frames)
        dice = None
        if args.dice:
            with open_source(args.dice) as source:
                dice = source_frames(source, 1)[0]
        result = check(args.setup, empty, dice)
        saved = result.setup.save() if result.keepable and not args.no_save else None
        if saved:
            remember_in_use(result.setup.name)  # the one `serve` reads with from now on
    except (SourceError, ValueError, OSError, ModelError) as exc:
        print(f"tableside calibrate: {exc}", file=sys.stderr)
        return 2
    status = 0 if result.keepable else 1
    if args.json:
        print(json.dumps({**result.to_json(), "source": args.source,
                          "saved": str(saved) if saved else None}, indent=1))
        return status
    setup, q = result.setup, result.setup.quality
    h, w = setup.background.shape[:2]
    frames = f"{result.frames} frame{'s' if result.frames > 1 else ''}"
    print(f"setup {setup.name!r}: {frames} of the empty tray from {args.source} ({w}x{h})")
    print(f"  focus {q.focus:.3f}  brightness {q.brightness:.2f}  clipped dark "
          f"{100 * q.dark_clipped:.1f}% / bright {100 * q.bright_clipped:.1f}%  glare "
          f"{100 * q.glare:.2f}%  contrast {q.contrast:.2f}")
    size = "measured on the dice" if dice is not None else "the framing default: add --dice"
    print(f"  tray floor {100 * tray_share(setup):.0f}% of the frame; a die about "
          f"{setup.die_px:.0f} px across ({size})")
    for line in result.advice:
        print(f"  advice: {line}")
    if not result.advice:
        print("  the picture is good: play")
    if saved:
        print(f"saved to {saved}")
    elif result.keepable:
        print("not saved (--no-save)")
    else:
        print("nothing was saved")
    return status


class _FrameClock:
    """A clock that advances one frame period per call (recordings without timestamps)."""

    def __init__(self, period: float) -> None:
        self.period = period
        self.now = 0.0

    def __call__(self) -> float:
        self.now += self.period
        return self.now


def _print_roll(roll: Roll, as_json: bool) -> None:
    if as_json:
        out = {"roll": roll.id, "previous": roll.previous_id, "rerolled": list(roll.rerolled),
               "kept": list(roll.kept), **roll.read.to_json()}
        print(json.dumps(out), flush=True)
        return
    uncertain = [d.uncertain for d in roll.read.dice]
    line = _summary(f"roll {roll.id}", roll.faces, uncertain, roll.read.ms)
    if roll.previous_id is not None and roll.kept:
        line += f" [re-roll of {roll.previous_id}: kept {len(roll.kept)}]"
    print(line, flush=True)
