"""``tableside calibrate``, ``read-dice``, ``enroll`` and ``watch``: the camera pipeline from
the shell."""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from vision.calibration import (
    KEEP_SETUPS,
    Calibration,
    check,
    remember_in_use,
    restore_setup,
    source_frames,
    tray_share,
)
from vision.camerasize import CameraSize
from vision.compression import HARD_BELOW
from vision.detection import die_size_problem
from vision.enroll import enroll
from vision.enrollment import EnrollmentError, Profile
from vision.facenet import ModelError
from vision.faces import faces_of
from vision.imagefile import ImageError
from vision.onnxmodel import ENGINE_NOTE
from vision.profilefile import keep_previous, profile_path
from vision.reader import DiceReader
from vision.reading import TrayRead
from vision.rolls import Roll
from vision.settle import SettleDetector
from vision.sideview import lens_problem
from vision.sources import (
    IMAGE_SUFFIXES,
    IN_USE_HINT,
    CaptureSource,
    FrameSource,
    ImageSource,
    SourceError,
    open_for_setup,
    open_source,
)
from vision.watcher import SourceNotice, watch
from web.cli import CAMERA_LOG_NOTE, CAMERAS
from web.runtime.hardware import camera_label, found_camera, pi_model, video_devices

LENS_HELP = ("the camera's lens angle across the picture's width, in degrees, over the "
             "setup's and a Pi camera module's own: dice far out, which show their sides, "
             "are read with more care, and from 45 degrees dice are found by detectors "
             "that learned dice seen from the side (docs/vision.md, Camera height and "
             "framing)")


def register(subparsers: Any) -> None:
    c = subparsers.add_parser(
        "calibrate", help="learn the empty tray and check the picture (light, focus, compression)",
        description="Learn a setup from frames of the empty tray (its background, the tray "
        "floor and the die size) and report the picture's quality with advice: run it, fix "
        "what it says, run it again, then play. The setup is saved under its name for "
        "read-dice --setup and watch --setup, and serve reads with it (docs/vision.md, "
        "Calibration); a camera's anti-flicker (camera:0,50hz) is kept with it.",
        epilog=CAMERA_LOG_NOTE,
    )
    c.add_argument("source", nargs="?", help=f"{CAMERAS}, images:DIR, video:FILE or a "
                   f"photo, of the empty tray ({FOUND_CAMERA})")
    c.add_argument("--setup", required=True, help="the setup's name (a letter or digit first)")
    c.add_argument("--frames", type=int, default=10,
                   help="frames of the empty tray to take (default 10; a camera's first "
                        "ones, 15 to 90, are passed over while its exposure settles)")
    c.add_argument("--dice", metavar="SOURCE", nargs="?", const=SAME_SOURCE,
                   help="measure the die size (else the framing default) on a photo (or "
                        "source) of the same tray with a few dice in it, taken the same "
                        "way; --dice alone: the same camera, once you have put the dice "
                        "in and pressed Enter (a recording: its next frame)")
    c.add_argument("--lens", metavar="DEG", type=_lens,
                   help="the camera's lens angle across the picture's width, in degrees "
                        "(Pi Camera Module 2: 62, Module 3: 66, Module 3 Wide: 102; a "
                        "webcam's sheet may give it corner to corner, about 78 for 70 "
                        "across): says how much of their sides the dice at the tray's edge "
                        "show, with advice when a die may be read wrong there, and keeps "
                        "it with the setup, whose reads then take more care of dice far out "
                        "(a Pi camera module tells its own; with neither, a tray that "
                        "fills the picture gets advice to give it)")
    c.add_argument("--no-save", action="store_true", help="only report; save nothing")
    c.add_argument("--restore", action="store_true",
                   help="take no picture: put back the setup as it was before its last "
                        "calibration (each save keeps the one it replaces, the last "
                        f"{KEEP_SETUPS}); run again to put the newer one back")
    c.add_argument("--json", action="store_true", help="print one JSON object")
    c.set_defaults(handler=_calibrate)

    p = subparsers.add_parser(
        "read-dice", help="read the dice in photos",
        description="Find and read every die in each photo (pip d6 by default).",
        epilog="Prints a line per photo: its dice's faces from the top of the picture down, "
               "a face marked ? where the reader is not sure (look at that die and read it "
               "yourself), and under the line any warning that leaves every die to you (a "
               "hand in the tray, a smeared picture, a --die-px the dice do not fit). A "
               "photo of pip dice taken close is read at its dice's own size; custom dice "
               "(SeaFall's) that close, read in pieces, are left to you with a warning. "
               "It exits 1 if "
               "a photo could not be read; the others are still read. " + ENGINE_NOTE,
    )
    p.add_argument("images", nargs="+", metavar="IMAGE",
                   help="photos of the tray (JPEG, PNG, ...; a phone's photo is fine)")
    p.add_argument("--die", type=_die_name,
                   help="d6 (built in, the default), seafall or a custom die name; with "
                   "only --profile, the profile's die")
    p.add_argument("--profile", help="an enrolled profile (by default the one named after "
                   "the die, as serve reads it; d6 needs none, its pips are counted, but "
                   "d6 faces enrolled as symbols are read with one)")
    p.add_argument("--die-px", type=_die_px,
                   help="die size in the photos' pixels, if known (at least 8)")
    p.add_argument("--setup", help="a calibrated setup (tableside calibrate): its die size, "
                   "tray floor and lens, for photos from its camera at its size")
    p.add_argument("--lens", metavar="DEG", type=_lens, help=LENS_HELP)
    p.add_argument("--json", action="store_true", help="print a JSON list, one object per image")
    p.set_defaults(handler=_read_dice)

    e = subparsers.add_parser(
        "enroll", help="enroll the faces of a custom die",
        description="Learn a die's faces from crops (one folder per face) or labelled photos. "
        "Each crop is first read by the others: a crop that looks filed under the wrong face, "
        "or like no die, is named and nothing is saved (unless --keep-suspects).",
        epilog="Profiles are saved in $XDG_DATA_HOME/tableside/vision/profiles "
        "(~/.local/share/tableside/vision/profiles by default). tableside serve reads a die "
        "with the profile named after it (--die seafall --profile seafall). Enrolling "
        "beforehand is optional: with no profile, serve shows the die's dice on the phones "
        "to be named, and makes the profile itself once every face has been named 3 times "
        "(docs/vision.md, Enrolling at the table).",
    )
    e.add_argument("--die", required=True, type=_die_name,
                   help="the die's name (seafall, or any name)")
    e.add_argument("--profile", required=True,
                   help="the profile's name: read-dice and watch take it with --profile")
    src = e.add_mutually_exclusive_group(required=True)
    src.add_argument("--crops", type=Path, help="folder with one sub-folder of crops per face")
    src.add_argument("--photos", type=Path, help="photos with YOLO label files")
    e.add_argument("--faces", help="face labels in class order, comma separated (--photos)")
    e.add_argument("--per-face", type=_count, metavar="N", help="use at most N crops per face")
    e.add_argument("--keep-suspects", action="store_true",
                   help="save the profile even when a crop looks filed under the wrong face "
                   "or not a die (each is checked against the others; see docs/vision.md)")
    e.set_defaults(handler=_enroll)

    w = subparsers.add_parser(
        "watch", help="print settled rolls from a camera or recording",
        description="Watch a source (camera:0, picamera, images:DIR, video:FILE, /dev/videoN) "
        "and print each roll once the dice have settled, with its warnings. A re-roll says "
        "how many dice stayed in place; a tray stirred but left as it "
        "was, or with a die only taken off, is no roll. Notices ([lost], [back], "
        "[warning]: among them a recording's files or frames that cannot be read) go to "
        "stderr.",
        epilog=f"{ENGINE_NOTE} {CAMERA_LOG_NOTE}",
    )
    w.add_argument("source", nargs="?", help=f"{CAMERAS}, images:DIR (frames in name "
                   f"order), video:FILE ({FOUND_CAMERA})")
    w.add_argument("--die", type=_die_name,
                   help="d6 (built in, the default), seafall or a custom die name; with "
                   "only --profile, the profile's die")
    w.add_argument("--profile", help="an enrolled profile (by default the one named after "
                   "the die, as serve reads it; d6 needs none, its pips are counted, but "
                   "d6 faces enrolled as symbols are read with one)")
    w.add_argument("--die-px", type=_die_px, help="die size in the frames' pixels, if known "
                   "(at least 8); without it or --setup, pip d6 are read at the size the "
                   "first roll shows (a camera lower than usual)")
    w.add_argument("--setup", help="a calibrated setup (tableside calibrate): its die size, "
                   "tray floor and empty-tray background (which shows a still hand, and "
                   "a wooden tray or table in view from the first roll), its camera's "
                   "anti-flicker, unless SOURCE names one, and its lens (else the lens a "
                   "Pi camera module tells)")
    w.add_argument("--lens", metavar="DEG", type=_lens, help=LENS_HELP)
    w.add_argument("--fps", type=_fps,
                   help="frame rate of a recording without timestamps (images:DIR; default "
                        f"{RECORDING_FPS:g}): a roll settles after "
                        f"{SettleDetector.settle_seconds:g} s still in the recording's time, "
                        "however fast it is read; a video file keeps its own timing, a "
                        "camera the clock's")
    w.add_argument("--json", action="store_true", help="one JSON object per roll")
    w.add_argument("--states", action="store_true",
                   help="also print each change of the tray's state to stderr ([tray] "
                        "moving, hand, still, settled, with the frame's time): why a roll "
                        "is not read yet, as when setting a camera up")
    w.set_defaults(handler=_watch)


FOUND_CAMERA = ("default: the camera serve finds, the first USB camera plugged in (not "
                "a laptop's built-in one), else a Pi's own camera")

SAME_SOURCE = "same"
"""``calibrate --dice`` with no source: the dice are taken from the empty tray's source."""

RECORDING_FPS = 10.0
"""The frame rate a recording without timestamps (``images:DIR``) is taken to have when
``watch --fps`` does not say: timed by the clock, frames read faster than they were taken
would never stay still long enough to settle, and the rolls found would depend on the
machine's speed."""


def _die_name(text: str) -> str:
    """``--die``: a name, its spaces about it left out (``--die ''`` spoke of "the  die"); a
    built-in die's in any case (``D6``, ``SeaFall``)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("a die has a name: d6, seafall, or one of your own")
    name = text.strip()
    return name.lower() if faces_of(name.lower()) is not None else name


def _number(text: str, unit: str, problem_of: Callable[[float], str | None]) -> float:
    """An option's number of ``unit``, refused with ``problem_of``'s reason."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of {unit}") from None
    if problem := problem_of(value):
        raise argparse.ArgumentTypeError(problem)
    return value


def _die_px(text: str) -> float:
    """``--die-px``: a die size the reader can read at."""
    return _number(text, "pixels", die_size_problem)


def _lens(text: str) -> float:
    """``--lens``: a lens angle across the picture, in degrees."""
    return _number(text, "degrees", lens_problem)


def _count(text: str) -> int:
    """``--per-face``: a whole number above 0 (-1 used to drop each face's last crop)."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of crops: give 1 or more")
    return value


def _fps(text: str) -> float:
    """``--fps``: a frame rate above 0."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"{text!r} is not a frame rate: give frames a "
                                         "second above 0, as 10 or 29.97")
    return value


def _setup(args: argparse.Namespace) -> Calibration | None:
    return Calibration.load(args.setup) if args.setup else None


def _saved(profile: str) -> bool:
    """Whether a profile of that name is saved here (a name no file may have: no)."""
    try:
        return profile_path(profile).is_file()
    except ValueError:
        return False


def _reader(args: argparse.Namespace, setup: Calibration | None = None) -> DiceReader:
    """The reader ``read-dice`` and ``watch`` read with. With only ``--profile``, its die;
    with neither, d6; a die with no built-in reader and no ``--profile``, the profile named
    after the die when there is one (as ``serve`` reads it)."""
    name = args.profile
    if name is None and args.die is not None and args.die != "d6" and _saved(args.die):
        name = args.die
    profile = Profile.load(name) if name else None
    if args.die is None:
        args.die = profile.die if profile is not None else "d6"
    die_px = args.die_px or (setup.die_px if setup else None)
    lens = args.lens if args.lens is not None else (setup.lens_degrees if setup else None)
    return DiceReader(args.die, profile=profile, die_px=die_px,
                      roi=setup.roi if setup else None, lens_degrees=lens)


def _reason(exc: Exception) -> str:
    """Why an image was not read, without its path (a file's own error names it in its
    message; its reason is without it): ``read-dice`` gives the path itself."""
    return str(exc.reason if isinstance(exc, ImageError) else exc)


def _error_line(path: str, exc: Exception) -> str:
    """``PATH: error: REASON`` for an image not read, the path said once."""
    name = path if path.strip() else repr(path)
    return f"{name}: error: {_reason(exc)}"


def _read_dice(args: argparse.Namespace) -> int:
    try:
        reader = replace(_reader(args, _setup(args)), size_search=True)  # photos
    except (EnrollmentError, ValueError, ModelError) as exc:
        print(f"tableside read-dice: {exc}", file=sys.stderr)
        if args.json:  # still the contract's list: a script reading it learns why
            print(json.dumps([{"image": p, "error": str(exc), "dice": []} for p in args.images],
                             indent=1))
        return 2
    results: list[dict[str, Any]] = []
    failed = 0
    for path in args.images:
        try:
            read = reader.read_path(path)
        except (ImageError, ValueError) as exc:  # ValueError: not the setup's frame size
            failed += 1
            # the reason alone: "image" gives the path
            results.append({"image": path, "error": _reason(exc), "dice": []})
            if not args.json:
                print(_error_line(path, exc))
            continue
        # the read's own JSON, with the contract's "image" for its "frame" and no "die"
        entry: dict[str, Any] = {"image": path, **read.to_json()}
        del entry["frame"], entry["die"]
        results.append(entry)
        if not args.json:
            print(_summary(path, read.faces, [d.uncertain for d in read.dice], read.ms))
            for warning in read.warnings:
                print(f"  warning: {warning}")
            if note := _compression_note(read):
                print(f"  note: {note}")
    if args.json:
        print(json.dumps(results, indent=1))
    return 1 if failed else 0


def _compression_note(read: TrayRead) -> str | None:
    """What a read's compression asked of its dice, or None when it asked nothing."""
    if read.jpeg_quality is None or not read.sure_from:
        return None
    hard = " hard" if read.jpeg_quality < HARD_BELOW else ""
    return (f"the picture is JPEG-compressed{hard} (quality about {read.jpeg_quality}), which "
            "can blur pips into blocks: a die is read sure only from a confidence of "
            f"{read.sure_from:g} "
            "(save or send it less compressed to have more dice read)")


def _summary(name: str, faces: tuple[str, ...], uncertain: list[bool], ms: float) -> str:
    if not faces:
        return f"{name}: no dice ({ms:.0f} ms)"
    shown = " ".join(f + ("?" if u else "") for f, u in zip(faces, uncertain, strict=True))
    note = f"; {sum(uncertain)} uncertain (marked ?), please confirm" if any(uncertain) else ""
    return f"{name}: {len(faces)} {'die' if len(faces) == 1 else 'dice'}: {shown}{note} " \
        f"({ms:.0f} ms)"


def _enroll(args: argparse.Namespace) -> int:
    faces = [f.strip() for f in args.faces.split(",")] if args.faces else None
    doubts: list[str] = []
    notes: list[str] = []
    try:
        profile = enroll(args.profile, args.die, crops_dir=args.crops, photos_dir=args.photos,
                         faces=faces, per_face=args.per_face,
                         keep_suspects=args.keep_suspects, doubts=doubts, notes=notes)
        before = keep_previous(profile_path(profile.name))  # what it learned is not lost
        path = profile.save()
    except (EnrollmentError, OSError, ModelError) as exc:
        print(f"tableside enroll: {exc}", file=sys.stderr)
        return 2
    for line in doubts:
        print(f"tableside enroll: kept, as asked: {line}", file=sys.stderr)
    for line in notes:
        print(f"tableside enroll: note: {line}", file=sys.stderr)
    counts = Counter(profile.labels[o] for o in profile.owners)
    each = ", ".join(f"{f}: {counts[f]} crop{'' if counts[f] == 1 else 's'}"
                     for f in profile.labels)  # "8 1, 8 2" was hard to read
    print(f"enrolled {args.die} faces {', '.join(profile.labels)} as profile "
          f"{profile.name!r} ({each}; checked against one another) -> {path}")
    if before is not None:
        print(f"the profile it replaced is kept as {before.name} (tableside profiles restore "
              f"{profile.name} puts it back)")
    return 0


def _watch(args: argparse.Namespace) -> int:
    clock = _FrameClock(1.0 / (args.fps or RECORDING_FPS))
    try:
        setup = _setup(args)
        reader = _reader(args, setup)
        source = open_for_setup(
            _source_spec(args.source, "watch"), setup.mains_hz if setup else None,
            clock=clock, refused=lambda why: print(
                f"tableside watch: without the setup's anti-flicker: {why}", file=sys.stderr))
    except (EnrollmentError, ValueError, SourceError, ModelError) as exc:
        print(f"tableside watch: {exc}{_serving_note(exc)}", file=sys.stderr)
        return 2
    if reader.lens_degrees is None and source.lens_degrees is not None:
        reader = replace(reader, lens_degrees=source.lens_degrees)  # a Pi camera's own
    if source.live:
        if args.fps:
            source.close()
            print(f"tableside watch: --fps is for a recording without timestamps "
                  f"(images:DIR), not a camera: {source.name}'s frames are timed as they "
                  "come", file=sys.stderr)
            return 2
        clock.live = True  # before its first frame is read
    detector = SettleDetector(clock=clock, background=setup.background if setup else None,
                              die_px=reader.die_px)
    rolls = 0
    with source:
        try:
            for item in watch(source, reader, detector, reopen_attempts=10,
                              wait=lambda: time.sleep(1.0), states=args.states,
                              sizes=CameraSize()):
                if isinstance(item, SourceNotice):
                    print(f"[{item.kind}] {item.message}", file=sys.stderr, flush=True)
                    continue
                rolls += 1
                _print_roll(item, args.json)
        except (ValueError, SourceError) as exc:  # frames of another size than the
            # setup's, a folder of which no image can be read
            print(f"tableside watch: {exc}", file=sys.stderr)
            return 2
    if not rolls:
        print(f"tableside watch: {source.name} ended with no roll settled: {_why_none(source)}",
              file=sys.stderr)
    return 0


def _serving_note(exc: Exception) -> str:
    """For a camera that would not open: a running server may hold it."""
    if not (isinstance(exc, SourceError) and IN_USE_HINT in str(exc)):
        return ""
    return ("\nWhile tableside serve runs it holds the camera: stop it first, or check the "
            "tray from a phone (the table page's Hardware panel, Check the tray's picture).")


def _why_none(source: FrameSource) -> str:
    if isinstance(source, ImageSource) or _a_picture_as_video(source):
        return "one picture never settles (read it with tableside read-dice)"
    return (f"the dice are read once they have been still, with no hand in the tray, for "
            f"{SettleDetector.settle_seconds:g} s")


def _a_picture_as_video(source: FrameSource) -> bool:
    """``video:photo.jpg``: a picture's file given as a video (OpenCV opens it as a
    sequence of one picture)."""
    return (isinstance(source, CaptureSource) and not source.live
            and isinstance(source.target, str)
            and Path(source.target).suffix.lower() in IMAGE_SUFFIXES)


def _source_spec(named: str | None, command: str) -> str:
    """The source named, else the camera ``serve`` would find (said on stderr)."""
    if named is not None:
        return named
    devices = video_devices()
    spec = found_camera(devices, is_pi=pi_model() is not None,
                        ask="name the source (camera:N, /dev/videoN, picamera, ...)")
    print(f"tableside {command}: the camera found: {camera_label(spec, devices)}",
          file=sys.stderr)
    return spec


def _dice_frame(source: FrameSource, after: int = 0) -> Any:
    """A frame with dice on the tray: from a camera once the player has put them in and
    pressed Enter; from a recording its next frame (``after`` the empty tray's)."""
    if after and isinstance(source, ImageSource):
        raise ValueError(f"{source.name} is one photo, of the empty tray: give the photo "
                         "with dice as --dice PHOTO")
    if source.live:
        print("Put a few dice on the tray floor, apart, take your hand away and press "
              "Enter", file=sys.stderr, flush=True)
        if not sys.stdin.readline():  # no one to press it: the input is closed
            raise ValueError("--dice alone waits for Enter, and the input is closed: run "
                             "it in a terminal, or give a photo with dice (--dice PHOTO)")
    try:
        return source_frames(source, 1)[0]
    except SourceError:
        if not after or source.live:
            raise
        raise SourceError(f"{source.name}: no frame left for the dice after the "
                          f"{after} of the empty tray") from None


def _calibrate(args: argparse.Namespace) -> int:
    if args.restore:
        return _restore_setup(args)
    if args.frames < 1:
        print("tableside calibrate: --frames must be at least 1", file=sys.stderr)
        return 2
    try:
        spec = _source_spec(args.source, "calibrate")
        dice = None
        with open_source(spec) as source:
            empty = source_frames(source, args.frames)
            if args.dice == SAME_SOURCE:
                dice = _dice_frame(source, after=len(empty))
            mains_hz = source.mains_hz  # kept with the setup: serve and watch set it too
            lens = args.lens if args.lens is not None else source.lens_degrees
        if args.dice not in (None, SAME_SOURCE):
            with open_source(args.dice) as source:
                dice = _dice_frame(source)
        result = check(args.setup, empty, dice, mains_hz, lens)
        saved = result.setup.save() if result.keepable and not args.no_save else None
        if saved:
            remember_in_use(result.setup.name)  # the one `serve` reads with from now on
    except (SourceError, ValueError, OSError, ModelError) as exc:
        print(f"tableside calibrate: {exc}{_serving_note(exc)}", file=sys.stderr)
        return 2
    status = 0 if result.keepable else 1
    if args.json:
        print(json.dumps({**result.to_json(), "source": spec,
                          "saved": str(saved) if saved else None}, indent=1))
        return status
    setup, q = result.setup, result.setup.quality
    h, w = setup.background.shape[:2]
    frames = f"{result.frames} frame{'s' if result.frames > 1 else ''}"
    print(f"setup {setup.name!r}: {frames} of the empty tray from {spec} ({w}x{h})")
    print(f"  focus {q.focus:.3f}  brightness {q.brightness:.2f}  clipped dark "
          f"{100 * q.dark_clipped:.1f}% / bright {100 * q.bright_clipped:.1f}%  glare "
          f"{100 * q.glare:.2f}%  contrast {q.contrast:.2f}")
    size = "measured on the dice" if dice is not None else "the framing default: add --dice"
    print(f"  tray floor {100 * tray_share(setup):.0f}% of the frame; a die about "
          f"{setup.die_px:.0f} px across ({size})")
    if setup.mains_hz is not None:
        print(f"  the camera's anti-flicker at {setup.mains_hz} Hz, kept with the setup: "
              "serve and watch set it on the camera too")
    if result.jpeg_quality is not None:
        print(f"  the frames are JPEG of quality about {result.jpeg_quality} (the camera's "
              "compression)")
    if (side := result.tray_side) is not None:
        whose = "" if args.lens is not None else " (the camera's own)"
        print(f"  with a lens {result.lens_degrees:g} degrees across{whose}, dice at the "
              f"tray's edge show {side:.0%} of their height as side (kept with the setup: "
              "symbol dice far out are read sure only when surer)")
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
    """A recording's clock: it advances one frame period per frame (a recording without
    timestamps), or, once ``live``, tells the time (a camera's frames)."""

    def __init__(self, period: float) -> None:
        self.period = period
        self.now = 0.0
        self.live = False

    def __call__(self) -> float:
        if self.live:
            return time.monotonic()
        self.now += self.period
        return self.now


def _restore_setup(args: argparse.Namespace) -> int:
    if args.source is not None or args.dice is not None:
        print("tableside calibrate: --restore takes no picture: give only --setup",
              file=sys.stderr)
        return 2
    try:
        setup = restore_setup(args.setup)
        remember_in_use(setup.name)  # as a calibration does: serve reads with it
    except (ValueError, OSError) as exc:
        print(f"tableside calibrate: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({"setup": setup.name, "die_px": round(setup.die_px, 1),
                          "quality": setup.quality.to_json()}, indent=1))
    else:
        print(f"setup {setup.name!r} is as it was before its last calibration (a die about "
              f"{setup.die_px:.0f} px across); run again to put the newer one back")
    return 0


def _print_roll(roll: Roll, as_json: bool) -> None:
    if as_json:
        out = {"roll": roll.id, "previous": roll.previous_id, "rerolled": list(roll.rerolled),
               "kept": list(roll.kept), **roll.read.to_json()}
        print(json.dumps(out), flush=True)
        return
    uncertain = [d.uncertain for d in roll.read.dice]
    line = _summary(f"roll {roll.id}", roll.faces, uncertain, roll.read.ms)
    if roll.previous_id is not None and roll.kept:
        kept = len(roll.kept)
        line += (f" [re-roll of roll {roll.previous_id}: {kept} "
                 f"{'die' if kept == 1 else 'dice'} kept]")
    print(line, flush=True)
    for warning in roll.read.warnings:
        print(f"  warning: {warning}", flush=True)
    if roll.read.warnings and roll.kept:  # what the warning marked: the dice read in this frame
        print(f"  note: the warning is about this picture: the {len(roll.kept)} dice kept "
              f"from roll {roll.previous_id} keep what was read of them there", flush=True)
    if note := _compression_note(roll.read):
        print(f"  note: {note}", flush=True)
