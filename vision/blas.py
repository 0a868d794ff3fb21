"""NumPy's BLAS held to one thread for the reader's small matrix products.

An enrolled read compares a frame's dice with a profile in a few batched matrix products
of a few MB. Left at its default (a thread per core), OpenBLAS starts its threads for
each of them and they wait for work by spinning: on 2 cores the enrolled reader took
20.2 ms a frame and 40 ms of CPU time with them, 18.2 ms and 29 ms with one (twenty-second
session). The server and the CLI leave the library's threads at their defaults, and its
thread count is read when NumPy is loaded, so :func:`one_thread` sets it for the length
of a call only, through threadpoolctl, and gives the process its setting back after.
The setting is the process's, not the thread's: two reads at once (the camera's and a
phone's photo) can leave it at one thread after both, which only makes later matrix
products run as the reader wants them.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, wraps
from typing import ParamSpec, TypeVar

from threadpoolctl import ThreadpoolController

P = ParamSpec("P")
R = TypeVar("R")


@cache
def _controller() -> ThreadpoolController:
    """The BLAS libraries loaded (NumPy's; OpenCV's own where it has one), found once."""
    return ThreadpoolController()


def one_thread(function: Callable[P, R]) -> Callable[P, R]:
    """``function`` with every loaded BLAS library held to one thread while it runs."""
    @wraps(function)
    def on_one_thread(*args: P.args, **kwargs: P.kwargs) -> R:
        with _controller().limit(limits=1, user_api="blas"):
            return function(*args, **kwargs)
    return on_one_thread
