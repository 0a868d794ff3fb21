"""The packaged networks give the same answers through OpenCV's DNN module (the default)
and through ONNX Runtime (chosen by the environment, where installed), and a missing or
broken model or engine is a clear error."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from tests.vision.helpers import labelled_photos
from vision import dicefinder, facenet
from vision.crops import crop
from vision.detection import detection_like
from vision.dicefinder import DiceFinder
from vision.embedding import SymbolEmbedder
from vision.facenet import FaceNet
from vision.onnxmodel import (
    ENGINE_ENV,
    ENGINES,
    MAX_BATCH,
    ModelError,
    OnnxModel,
    available_engines,
    default_engine,
)
from vision.reader import DiceReader

needs_onnxruntime = pytest.mark.skipif(
    "onnxruntime" not in available_engines(), reason="ONNX Runtime is not installed")


def _photo_crops() -> tuple[np.ndarray, list[np.ndarray]]:
    photo = next(p for p in labelled_photos() if p.path.name == "IMG_20191208_112541.jpg")
    image = photo.image()
    finder = DiceFinder(engine="opencv")
    boxes = [b for b, _ in finder.find(image, max(image.shape[:2]) * 0.064)]
    assert len(boxes) >= 5
    return image, [crop(image, detection_like(b, 1.0)) for b in boxes]


@needs_onnxruntime
def test_onnxruntime_runs_the_networks_where_installed_unless_opencv_is_asked_for(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # ONNX Runtime reads a frame 5-9 ms sooner on one core for ~30 MB more (docs/vision.md,
    # What runs the networks); OpenCV's module, for a Pi short of memory, when asked for
    monkeypatch.delenv(ENGINE_ENV, raising=False)
    assert available_engines() == ENGINES == ("onnxruntime", "opencv")
    assert default_engine() == "onnxruntime"
    assert FaceNet().model.engine == "onnxruntime"
    assert DiceFinder().model.engine == "onnxruntime"
    monkeypatch.setenv(ENGINE_ENV, "opencv")
    assert default_engine() == "opencv"
    assert FaceNet().model.engine == "opencv"


@needs_onnxruntime
def test_both_engines_give_the_same_outputs_on_a_real_photo() -> None:
    image, crops = _photo_crops()
    small, scale = dicefinder.scaled(image, max(image.shape[:2]) * 0.064)
    blob, _ = dicefinder.prepare(small)
    maps = {e: DiceFinder(engine=e).maps(blob) for e in ENGINES}
    assert maps["onnxruntime"].shape == maps["opencv"].shape
    assert np.allclose(maps["onnxruntime"], maps["opencv"], atol=1e-3)
    faces = {e: FaceNet(engine=e).probabilities(crops) for e in ENGINES}
    assert np.allclose(faces["onnxruntime"], faces["opencv"], atol=1e-4)
    assert (faces["onnxruntime"].argmax(axis=1) == faces["opencv"].argmax(axis=1)).all()
    views = {e: FaceNet(engine=e).view_probabilities(crops, 4) for e in ENGINES}
    assert np.allclose(views["onnxruntime"], views["opencv"], atol=1e-4)
    vectors = {e: SymbolEmbedder(engine=e).embed(crops) for e in ENGINES}
    assert np.allclose(vectors["onnxruntime"], vectors["opencv"], atol=1e-4)


@needs_onnxruntime
def test_onnxruntime_threads_do_not_spin_between_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    # idle threads spinning between a read's three networks took the cores OpenCV and
    # NumPy needed: 3x slower reads where the threads are left at their defaults
    import cv2

    monkeypatch.delenv(ENGINE_ENV, raising=False)
    before = cv2.getNumThreads()
    try:
        cv2.setNumThreads(2)
        options = FaceNet(engine="onnxruntime").model._session.get_session_options()
    finally:
        cv2.setNumThreads(before)
    assert options.get_session_config_entry("session.intra_op.allow_spinning") == "0"
    assert options.intra_op_num_threads == 2


def test_the_reader_reads_without_onnxruntime(monkeypatch: pytest.MonkeyPatch) -> None:
    # as on 32-bit Pi OS, where ONNX Runtime has no wheel: OpenCV runs the networks
    monkeypatch.setitem(sys.modules, "onnxruntime", None)
    monkeypatch.delenv(ENGINE_ENV, raising=False)
    assert available_engines() == ("opencv",)
    net = FaceNet()
    assert net.model.engine == "opencv"
    with pytest.raises(ModelError, match=r"onnxruntime engine is not installed \(pip install "
                                         r"'tableside\[onnxruntime\]'\)"):
        FaceNet(engine="onnxruntime")
    photo = next(p for p in labelled_photos() if p.path.name == "IMG_20191208_112541.jpg")
    monkeypatch.setattr("vision.reader.default_face_net", lambda: net)
    finder = DiceFinder()
    assert finder.model.engine == "opencv"
    monkeypatch.setattr("vision.reader.default_dice_finder", lambda: finder)
    read = DiceReader("d6").read(photo.image())
    assert len(read.dice) >= 5
    assert sum(not d.uncertain for d in read.dice) >= 5


def test_the_engine_can_be_chosen_by_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENGINE_ENV, "onnxruntime")
    monkeypatch.setitem(sys.modules, "onnxruntime", None)  # asked for, but not installed
    with pytest.raises(ModelError, match="onnxruntime engine is not installed"):
        FaceNet()
    monkeypatch.setenv(ENGINE_ENV, "opencv")
    assert default_engine() == "opencv"
    assert FaceNet().model.engine == "opencv"
    monkeypatch.setenv(ENGINE_ENV, "tensorflow")
    with pytest.raises(ModelError, match=f"{ENGINE_ENV}=tensorflow"):
        FaceNet()


@pytest.mark.parametrize("engine", ENGINES)
def test_a_missing_or_corrupt_model_is_a_clear_error(engine: str, tmp_path: Path) -> None:
    if engine not in available_engines():
        pytest.skip(f"{engine} is not installed")
    with pytest.raises(ModelError, match="face model not found.*train_pips.py"):
        FaceNet(tmp_path / "nothing.onnx", engine=engine)
    broken = tmp_path / "broken.onnx"
    broken.write_bytes(facenet.MODEL_PATH.read_bytes()[:300])
    with pytest.raises(ModelError, match="cannot load the embedding model"):
        SymbolEmbedder(broken, engine=engine)
    broken.write_bytes(b"not a model at all")
    with pytest.raises(ModelError, match="cannot load the detector model"):
        DiceFinder(broken, engine=engine)


def test_an_unknown_engine_is_refused() -> None:
    with pytest.raises(ValueError, match="engine must be one of onnxruntime, opencv"):
        OnnxModel(facenet.MODEL_PATH, "face", "train_pips.py", engine="tflite")


@pytest.mark.parametrize("engine", ENGINES)
def test_a_large_batch_is_run_in_pieces_with_the_same_outputs(
        engine: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # a busy frame's crops are run MAX_BATCH at a time (a whole batch's working memory
    # grows with it); each crop's output is the one it gets alone, in order
    if engine not in available_engines():
        pytest.skip(f"{engine} is not installed")
    _, crops = _photo_crops()
    crops = (crops * (2 * MAX_BATCH // len(crops) + 2))[:2 * MAX_BATCH + 3]
    net = FaceNet(engine=engine)
    alone = np.concatenate([net.probabilities([c]) for c in crops])
    sizes: list[int] = []
    run = net.model._run
    monkeypatch.setattr(net.model, "_run", lambda blob: sizes.append(len(blob)) or run(blob))
    together = net.probabilities(crops)
    assert sizes == [MAX_BATCH, MAX_BATCH, 3]
    assert together.shape == alone.shape
    assert np.allclose(together, alone, atol=1e-5)
