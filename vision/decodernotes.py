"""What the image libraries under OpenCV say while they decode a file.

libjpeg decodes a JPEG whose compressed data is damaged part way (a bad copy, a card
failing) without an error: it writes "Corrupt JPEG data: ..." to the process's standard
error and fills the rest of the picture with whatever its decoder drifted into (a green
sheet, grey blocks), and ``cv2.imdecode`` returns that picture as if it were whole. A
reader given it saw dice that are not there. libpng says "libpng error: ..." the same way
for a PNG it then refuses. OpenCV offers no way to hear these notes, so :func:`heard`
catches them at the file descriptor they are written to (2), for the time of one decode:
the caller then refuses a damaged picture in its own words, and the terminal shows
Tableside's words rather than the library's.

Standard error is the process's, shared by its threads: one decode at a time listens
(a lock), and whatever else was written meanwhile (another thread's log line) is written
on to standard error after it, not lost.
"""

from __future__ import annotations

import os
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["DAMAGED", "heard", "damage"]

DAMAGED = ("Corrupt JPEG data", "Premature end of JPEG file", "libpng error",
           "JPEG datastream contains no image")
"""The beginnings of the libraries' notes that say a picture is damaged."""

QUIET = ("libpng warning",)
"""Notes kept from the terminal though they say no damage (a phone's colour profile that
libpng finds unusual): the picture decodes as it should."""

_ONE_AT_A_TIME = threading.Lock()


@contextmanager
def heard() -> Iterator[list[str]]:
    """Within the ``with``, what is written to standard error is kept: the list given
    holds the libraries' notes once the block ends (:data:`DAMAGED`, :data:`QUIET`); any
    other line is written on to standard error then."""
    notes: list[str] = []
    with _ONE_AT_A_TIME, tempfile.TemporaryFile() as kept:
        sys.stderr.flush()
        saved = os.dup(2)
        os.dup2(kept.fileno(), 2)
        try:
            yield notes
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
            kept.seek(0)
            for line in kept.read().decode("utf-8", "replace").splitlines():
                if line.startswith(DAMAGED + QUIET):
                    notes.append(line.strip())
                elif line.strip():
                    sys.stderr.write(line + "\n")


def damage(notes: list[str]) -> str | None:
    """The first note that says the picture is damaged, or None."""
    return next((n for n in notes if n.startswith(DAMAGED)), None)
