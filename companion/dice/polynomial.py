"""Polynomials with non-negative integer coefficients packed into one Python integer.

Exact dice odds are polynomials: the coefficient of ``x**s`` counts the equally likely
outcomes whose total is ``s``. Packing the coefficients side by side in one big integer,
``width`` bits each (Kronecker substitution), turns polynomial products into integer
products, which CPython does in C. The only condition is that no coefficient of any result
reaches ``2**width``; :func:`coefficient_width` picks a width from a bound on the
coefficients (for probabilities: the common denominator, since every count is at most the
number of outcomes). Coefficient ``i`` lives in bits ``[i * width, (i + 1) * width)``.

Because packing is linear, adding, subtracting, scaling and shifting packed polynomials
acts on every coefficient at once, as long as each resulting coefficient stays in
``[0, 2**width)``.
"""

from __future__ import annotations

from collections.abc import Sequence


def coefficient_width(bound: int) -> int:
    """Bits per coefficient, a whole number of bytes, enough for any value in ``0..bound``."""
    return (bound.bit_length() // 8 + 1) * 8


def pack(coefficients: Sequence[int], width: int) -> int:
    """The packed form of ``coefficients[0] + coefficients[1]*x + ...``."""
    size = width // 8
    return int.from_bytes(b"".join(c.to_bytes(size, "little") for c in coefficients), "little")


def unpack(packed: int, width: int, count: int) -> list[int]:
    """The first ``count`` coefficients of a packed polynomial (missing ones are 0)."""
    size = width // 8
    data = packed.to_bytes(max(count * size, (packed.bit_length() + 7) // 8), "little")
    return [int.from_bytes(data[i * size : (i + 1) * size], "little") for i in range(count)]


def low_part(packed: int, width: int, count: int) -> int:
    """The coefficients below ``x**count``, still packed."""
    return packed & ((1 << (count * width)) - 1)


def shift(packed: int, width: int, places: int) -> int:
    """Multiply by ``x**places`` (``places`` >= 0)."""
    return packed << (places * width)


def coefficient_sum(packed: int, width: int, start: int, stop: int) -> int:
    """The sum of coefficients ``start..stop-1``."""
    if stop <= start:
        return 0
    window = low_part(packed >> (start * width), width, stop - start)
    return sum(unpack(window, width, stop - start))
