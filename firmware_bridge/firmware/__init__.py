"""The button box firmware (MicroPython, Raspberry Pi Pico / RP2040).

Every module here is written in the common subset of CPython 3.11 and MicroPython 1.2x so
that the very same code runs on the board, in the host's tests (with an injected fake
``machine``) and under the MicroPython WebAssembly build in Node. On the board the package
is installed as ``/lib/tableside_box/`` and started by ``main.py``.

MicroPython has no ``__future__`` module, so these files omit the house
``from __future__ import annotations``: annotations here are written so that CPython can
evaluate them and MicroPython ignores them.
"""
