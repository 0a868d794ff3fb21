"""Speed and memory of the dice reader on Pi-sized frames, on one core.

Frames are 1280x720 and built from real photos of the d6 data set
(``../shared/datasets/d6-photos``; MIT (c) 2025 Nikita Menshikov, from photos BSD-3-Clause
(c) 2019 Nell Byler): each photo with at least 15 labelled dice is scaled to 720 px high
and padded left and right with the tray's colour. The reader is set up as on a calibrated
Pi (die size known). Prints latency (median, p95) of a full read (wall clock over all the
frames and over those with 15-16 dice, the target's count; and CPU time, which is steadier
on a machine shared with other work), of the settle decision per frame (and for dice of 12
px, looked at wider, and with a calibrated empty tray), and the process's peak resident
memory, with what of it (at the end, on Linux) is pages of the libraries' files (the code
of OpenCV, NumPy, Python; ONNX Runtime when it runs the networks) and what is the
process's own (heap and other anonymous memory): a kernel that maps files in large
folios (this machine's Linux 6.18 on ext4) counts far more library pages as resident for
the same code, when the files were last read through (a copy, a scan). For information it
also prints the median over frames of each frame's fastest read (of ``--repeat``): the
reader's own cost with little of the other work on a shared machine
in it (not the target's measure).

``--engine opencv`` runs the networks through OpenCV's DNN module instead of ONNX Runtime,
the default where it is installed (:mod:`vision.onnxmodel`; ``TABLESIDE_VISION_ENGINE`` for
the server).

``--reader pips-full`` times the pip reader without its quick first look (every die read
by the face network). ``--reader enrolled`` times the enrolled reader instead (the d6
faces enrolled as symbols from 5 train crops per face, as in ``bench_vision_accuracy.py``:
ink templates and the symbol embedding in place of the face network), as SeaFall dice are
read; ``--reader learned`` the same profile once it has learned its full share of
confirmed dice from the table (``LEARNED_PER_FACE`` per face besides the 5 enrolled), the
largest a profile grows.

``--floor LEVEL`` repaints each frame's tray floor a flat grey of that level
(:func:`vision.synthetic.darker_floor`, as ``bench_tray_floors.py`` repaints the val photos;
outside the timing): under :data:`vision.reader.DARK_NETS_BELOW` the pip reader reads with
its dark-floor networks.
"""

from __future__ import annotations

import argparse
import os
import sys

# one core: NumPy's BLAS (the enrolled reader's matrix product) must not start threads;
# set before NumPy is first imported (unless --threads 0 asks for the libraries' defaults)
THREADS = argparse.ArgumentParser(add_help=False)
THREADS.add_argument("--threads", type=int, choices=(0, 1), default=1,
                     help="threads of OpenCV, ONNX Runtime and NumPy's BLAS: 1 (the target's "
                          "one core) or 0, each library's default, as `tableside serve` and "
                          "the CLI run")
if THREADS.parse_known_args()[0].threads != 0:
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    os.environ.setdefault("OMP_NUM_THREADS", "1")

import json  # noqa: E402
import multiprocessing  # noqa: E402
import resource  # noqa: E402
import statistics  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable, Iterator  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_vision_accuracy import enrolled_profile, learned_profile  # noqa: E402
from procmem import memory_mb  # noqa: E402

from vision.enroll import read_yolo  # noqa: E402
from vision.enrollment import Profile  # noqa: E402
from vision.onnxmodel import ENGINE_ENV, ENGINES, default_engine  # noqa: E402
from vision.reader import DiceReader  # noqa: E402
from vision.settle import SettleDetector  # noqa: E402
from vision.synthetic import darker_floor  # noqa: E402

DATASET = ROOT.parent / "shared" / "datasets" / "d6-photos" / "data"


FEW_DICE = 16
"""The frames with at most this many dice (and at least 15) are timed apart as well: the
target's own case, 15 dice (4 of the 20 photos), beside all the frames (median 22)."""

SMALL_DIE_PX = 12
"""Die size of the second settle row: dice this small in 1280x720 (a camera high over a
large tray) are looked at 640 px wide for motion (vision.settle.MIN_DIE_ANALYSIS_PX)."""


def frames(min_dice: int = 15, floor: float | None = None
           ) -> Iterator[tuple[np.ndarray, int, float]]:
    """(1280x720 frame, dice in it, die size in px) for each photo with enough dice, one
    at a time (holding them all would count against the reader's peak memory); with
    ``floor``, the tray floor repainted that grey."""
    for split in ("train", "val", "test"):
        for path in sorted((DATASET / "images" / split).glob("*.jpg")):
            label = DATASET / "labels" / split / (path.stem + ".txt")
            boxes = [b for _, b in read_yolo(label, 720, 720)]
            if len(boxes) < min_dice:
                continue
            # decoded at half size (1368 px): a full 2736 px decode would count ~20 MB of
            # the benchmark's own against the reader's peak memory
            photo = cv2.imread(str(path), cv2.IMREAD_REDUCED_COLOR_2)
            image = cv2.resize(photo, (720, 720), interpolation=cv2.INTER_AREA)
            del photo
            edge = np.concatenate([image[:, :8].reshape(-1, 3), image[:, -8:].reshape(-1, 3)])
            colour = [int(v) for v in np.median(edge, axis=0)]
            frame = cv2.copyMakeBorder(image, 0, 0, 280, 280, cv2.BORDER_CONSTANT, value=colour)
            if floor is not None:
                darker_floor(frame, np.array(boxes, float) + [280, 0, 0, 0],
                             np.random.default_rng(0), level=floor, grain=60.0)
            die_px = float(np.median([max(w, h) for _, _, w, h in boxes]))
            yield frame, len(boxes), die_px


def in_child(what: str, target: Callable[..., None], *args: object) -> None:
    """Run ``target(*args)`` in another process (spawned: nothing of it counts against
    this process's peak memory); ``what`` names it if it fails."""
    child = multiprocessing.get_context("spawn").Process(target=target, args=args)
    child.start()
    child.join()
    if child.exitcode != 0:
        raise SystemExit(f"{what} failed")


def _write_repainted(floor: float, directory: str) -> None:
    meta = []
    for i, (frame, labelled, die_px) in enumerate(frames(floor=floor)):
        cv2.imwrite(str(Path(directory) / f"{i}.png"), frame)
        meta.append((labelled, die_px))
    (Path(directory) / "frames.json").write_text(json.dumps(meta))


def repainted_frames(floor: float) -> Iterator[tuple[np.ndarray, int, float]]:
    """:func:`frames` with the floor repainted, made in another process and read back one
    at a time: the repaint's own arrays are not the reader's memory."""
    with tempfile.TemporaryDirectory() as directory:
        in_child("repainting the frames", _write_repainted, floor, directory)
        meta = json.loads((Path(directory) / "frames.json").read_text())
        for i, (labelled, die_px) in enumerate(meta):
            yield cv2.imread(str(Path(directory) / f"{i}.png")), labelled, die_px


def _make_profile(reader: str, directory: str) -> None:
    profile = enrolled_profile()
    if reader == "learned":
        profile = learned_profile(profile)
    profile.save(Path(directory))


def made_profile(reader: str) -> Profile:
    """The enrolled (or learned) profile, made in another process and loaded from its
    file, as the server loads one: making it decodes full-size photos, which is not the
    reader's memory."""
    with tempfile.TemporaryDirectory() as directory:
        in_child(f"making the {reader} profile", _make_profile, reader, directory)
        (path,) = Path(directory).glob("*.npz")
        profile = Profile.load(str(path))
    print(f"profile: {len(profile.maps)} crops", flush=True)
    return profile


def percentile(values: list[float], q: float) -> float:
    return float(np.percentile(np.array(values), q))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], parents=[THREADS])
    parser.add_argument("--repeat", type=int, default=5, help="reads of each frame")
    parser.add_argument("--detector", choices=["net", "classic"], default="net",
                        help="the learned detector (default) or the classic one")
    parser.add_argument("--reader", choices=["pips", "pips-full", "enrolled", "learned"],
                        default="pips",
                        help="the d6 face network with its quick first look (default), the "
                             "face network alone, an enrolled profile, or the same after "
                             "learning its fill from the table")
    parser.add_argument("--engine", choices=ENGINES, default=None,
                        help="what runs the networks (default: TABLESIDE_VISION_ENGINE, "
                             "else ONNX Runtime where installed, else OpenCV's DNN module)")
    parser.add_argument("--floor", type=float, default=None, metavar="LEVEL",
                        help="repaint each frame's tray floor this grey (0-255)")
    args = parser.parse_args(argv)
    if args.engine:
        os.environ[ENGINE_ENV] = args.engine
    if not DATASET.is_dir():
        print(f"dataset not found: {DATASET}", file=sys.stderr)
        return 2
    if args.threads == 1:
        cv2.setNumThreads(1)
    threads = "one thread" if args.threads == 1 else f"{cv2.getNumThreads()} OpenCV threads"
    profile = None if args.reader.startswith("pips") else made_profile(args.reader)
    dice: list[int] = []
    read_ms: list[float] = []
    read_dice: list[int] = []  # the labelled dice of each read's frame
    read_cpu_ms: list[float] = []
    least_ms: list[float] = []
    settle_ms: list[float] = []
    small_settle_ms: list[float] = []  # dice of SMALL_DIE_PX: motion looked at wider
    calibrated_settle_ms: list[float] = []  # with an empty tray's picture to compare with
    dice_found: list[int] = []
    source = frames() if args.floor is None else repainted_frames(args.floor)
    for frame, labelled, die_px in source:
        dice.append(labelled)
        reader = DiceReader("d6", die_px=die_px, detector=args.detector, profile=profile,
                            quick_look=args.reader != "pips-full")
        detector = SettleDetector(clock=time.monotonic)
        small = SettleDetector(clock=time.monotonic, die_px=SMALL_DIE_PX)
        # the cost does not depend on what the background shows: the frame itself stands in
        calibrated = SettleDetector(clock=time.monotonic, background=frame, die_px=die_px)
        reader.read(frame)  # warm caches
        for settle in (detector, small, calibrated):
            settle.update(frame, timestamp=-1.0)  # (the background's copy made once a setup)
        first = len(read_ms)
        for i in range(args.repeat):
            t, c = time.perf_counter(), time.process_time()
            read = reader.read(frame)
            read_ms.append((time.perf_counter() - t) * 1000)
            read_dice.append(labelled)
            read_cpu_ms.append((time.process_time() - c) * 1000)
            t = time.perf_counter()
            detector.update(frame, timestamp=float(i))
            settle_ms.append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            small.update(frame, timestamp=float(i))
            small_settle_ms.append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            calibrated.update(frame, timestamp=float(i))
            calibrated_settle_ms.append((time.perf_counter() - t) * 1000)
        least_ms.append(min(read_ms[first:]))
        dice_found.append(len(read.dice))
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"frames: {len(dice)} real photos as 1280x720, {min(dice)}-{max(dice)} dice "
          f"(median {statistics.median(dice):.0f}); {threads}; {args.repeat} reads each; "
          f"reader: {args.reader}; engine: {default_engine()}")
    print(f"{'measure':<28} {'median':>8} {'p95':>8} {'target':>10}")
    print(f"{'read (detect+classify) ms':<28} {statistics.median(read_ms):>8.1f} "
          f"{percentile(read_ms, 95):>8.1f} {'<= 25':>10}")
    few = [ms for ms, n in zip(read_ms, read_dice, strict=True) if n <= FEW_DICE]
    if few:
        print(f"{f'read, {min(dice)}-{FEW_DICE} dice ms':<28} {statistics.median(few):>8.1f} "
              f"{percentile(few, 95):>8.1f} {'<= 25':>10}")
    print(f"{'read, CPU time ms':<28} {statistics.median(read_cpu_ms):>8.1f} "
          f"{percentile(read_cpu_ms, 95):>8.1f} {'<= 25':>10}")
    print(f"{'read, least of reads ms':<28} {statistics.median(least_ms):>8.1f} "
          f"{percentile(least_ms, 95):>8.1f} {'(info)':>10}")
    print(f"{'settle decision ms':<28} {statistics.median(settle_ms):>8.2f} "
          f"{percentile(settle_ms, 95):>8.2f} {'<= 5':>10}")
    print(f"{f'settle, dice {SMALL_DIE_PX} px ms':<28} {statistics.median(small_settle_ms):>8.2f} "
          f"{percentile(small_settle_ms, 95):>8.2f} {'<= 5':>10}")
    print(f"{'settle, calibrated tray ms':<28} {statistics.median(calibrated_settle_ms):>8.2f} "
          f"{percentile(calibrated_settle_ms, 95):>8.2f} {'<= 5':>10}")
    print(f"{'peak resident memory MB':<28} {peak_mb:>8.0f} {'':>8} {'<= 150':>10}")
    try:
        memory = memory_mb()
    except OSError:  # not Linux: no parts to tell
        memory = None
    if memory:
        print(f"{'  at the end: library files':<28} {memory['RssFile']:>8.0f} {'':>8} "
              f"{'(info)':>10}")
        print(f"{'  at the end: own memory':<28} {memory['RssAnon']:>8.0f} {'':>8} "
              f"{'(info)':>10}")
    print(f"dice reported per frame: median {statistics.median(dice_found):.0f} "
          f"(labelled {statistics.median(dice):.0f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
