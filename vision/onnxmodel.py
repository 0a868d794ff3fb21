"""Running the packaged ONNX networks on the CPU.

The networks (the two detectors, the d6 face network and its quick first look, the
die-or-not check, the symbol embedding) run through **ONNX Runtime** where it is installed
(``pip install 'tableside[onnxruntime]'``, which ``make run`` and ``make test`` do; wheels
for x86-64 and 64-bit Pi OS), else through **OpenCV's DNN module**, which is there on
every Pi (32-bit Pi OS has no ONNX Runtime wheel). ONNX Runtime reads a 15-16-dice frame
5-9 ms sooner on one core for about 30 MB more of the process's memory; measured on this
machine, it meets both the speed and the memory target where OpenCV's module meets only
the memory one (seventy-first session; ``docs/vision.md``, *What runs the networks*).
:data:`ENGINE_ENV` picks either. Both give the same outputs to float rounding and the same
reads to the last die. Neither downloads anything: the models ship in ``vision/models/``.

Both use as many threads as OpenCV is set to (``cv2.getNumThreads()`` when the model is
loaded, for ONNX Runtime), so ``cv2.setNumThreads(1)`` holds the whole reader to one
core. ONNX Runtime's threads do not spin while they wait for work (:data:`SPIN`).
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import cv2
import numpy as np

ENGINES = ("onnxruntime", "opencv")
"""The ways a model can be run, the default first (where it is installed)."""

SPIN = "0"
"""ONNX Runtime's ``session.intra_op.allow_spinning``: off. By default its idle threads
spin between runs, and a read runs three small networks between OpenCV's and NumPy's own
work, so the spinning threads took the cores that work needed. On 2 cores, with the
threads the server and the CLI leave at their defaults (two each), the enrolled reader
took 62.7 ms a frame (122 ms of CPU time) with spinning and 20.2 ms (40 ms) without, the
pip reader 18.2 and 7.0 ms; on one thread nothing spins (twenty-second session)."""

MAX_BATCH = 16
"""Most crops a network is run on at once; a larger batch is run in pieces this size.
A network's working memory grows with its batch: on 150 crops the d6 face network took
71 MB more at its peak when run whole, 12 MB in pieces of 32 and 4.6 MB in pieces of 16,
at the same speed (32.9 against 34.9 ms whole); the die-or-not check and the embedding
20 MB whole and none in pieces of 16 (twenty-second session, ONNX Runtime 1.32, one
thread)."""


class ModelError(RuntimeError):
    """A packaged model (face network, detector, embedding) is missing or cannot be
    loaded."""


def available_engines() -> tuple[str, ...]:
    """The engines this machine can run, the default first."""
    try:
        missing = importlib.util.find_spec("onnxruntime") is None
    except ValueError:  # a module set to None (tests standing in for 32-bit Pi OS)
        missing = True
    if missing:
        return ("opencv",)
    return ENGINES


ENGINE_ENV = "TABLESIDE_VISION_ENGINE"
"""Environment variable that picks the engine (``onnxruntime`` or ``opencv``) for the
whole process: OpenCV's module for about 30 MB less memory on a Pi short of it, or either
to compare them."""


ENGINE_NOTE = (f"The dice networks run through ONNX Runtime where it is installed, else "
               f"OpenCV's DNN module; {ENGINE_ENV}=opencv runs them through OpenCV's module "
               "(about 30 MB less memory, a few ms more a read).")
"""What the commands that read dice say of the engine in their ``--help``."""


def default_engine() -> str:
    """The engine named by :data:`ENGINE_ENV`, else ONNX Runtime where it is installed,
    else OpenCV's DNN module."""
    engine = os.environ.get(ENGINE_ENV)
    if engine and engine not in ENGINES:
        raise ModelError(f"{ENGINE_ENV}={engine}: the engine must be one of {', '.join(ENGINES)}")
    return engine or available_engines()[0]


class OnnxModel:
    """One ONNX network with one input and one output, loaded for CPU inference.

    ``what`` names the model in errors and ``trainer`` the script that makes it again.
    """

    def __init__(self, path: str | Path, what: str, trainer: str,
                 engine: str | None = None) -> None:
        p = Path(path)
        if not p.is_file():
            raise ModelError(f"{p}: {what} model not found (re-train: {trainer})")
        engine = engine or default_engine()
        if engine not in ENGINES:
            raise ValueError(f"engine must be one of {', '.join(ENGINES)}")
        if engine not in available_engines():
            raise ModelError(f"the {engine} engine is not installed "
                             f"(pip install 'tableside[{engine}]')")
        self.path, self.engine = p, engine
        try:
            if engine == "onnxruntime":
                self._session = self._load_onnxruntime(p)
            else:
                self._net = self._load_opencv(p)
        except Exception as exc:  # each engine raises its own error types on a bad file
            raise ModelError(f"{p}: cannot load the {what} model ({exc})") from None

    @staticmethod
    def _load_onnxruntime(path: Path):  # noqa: ANN205 - the module is imported lazily
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = max(1, cv2.getNumThreads())
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        options.add_session_config_entry("session.intra_op.allow_spinning", SPIN)
        options.log_severity_level = 3  # errors only: no warnings on the console
        session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        if len(session.get_inputs()) != 1:
            raise ValueError("the model must have one input")
        return session

    @staticmethod
    def _load_opencv(path: Path) -> cv2.dnn.Net:
        engine = getattr(cv2.dnn, "ENGINE_CLASSIC", None)
        if engine is None:  # OpenCV 4: one engine
            return cv2.dnn.readNetFromONNX(str(path))
        # OpenCV 5's classic engine runs these small networks ~35% faster than the new one
        return cv2.dnn.readNetFromONNX(str(path), engine=engine)

    @property
    def input_shape(self) -> tuple[int | str, ...] | None:
        """The input's shape as the model declares it (a name for a free axis), where the
        engine tells it (ONNX Runtime); ``None`` where it does not (OpenCV)."""
        if self.engine != "onnxruntime":
            return None
        return tuple(self._session.get_inputs()[0].shape)

    def run(self, blob: np.ndarray) -> np.ndarray:
        """The network's (first) output for a float32 NCHW ``blob``, run on at most
        :data:`MAX_BATCH` of its items at a time."""
        blob = np.ascontiguousarray(blob, dtype=np.float32)
        if len(blob) > MAX_BATCH:
            return np.concatenate([self._run(blob[i:i + MAX_BATCH])
                                   for i in range(0, len(blob), MAX_BATCH)])
        return self._run(blob)

    def _run(self, blob: np.ndarray) -> np.ndarray:
        if self.engine == "onnxruntime":
            name = self._session.get_inputs()[0].name
            return self._session.run(None, {name: blob})[0]
        self._net.setInput(blob)
        return self._net.forward()
