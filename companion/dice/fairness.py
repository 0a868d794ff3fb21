"""Do the dice land as dice should? The faces a table rolled, counted against the die's own
odds (each face equally likely, a label as likely as its count of faces), with Pearson's
chi-square goodness-of-fit test.

``p_value`` is the chance that fair dice land at least this far from the expected counts:
small (under 1%, say) is unusual; anything else is what fair dice do. It is ``None`` while
a face's expected count is under :data:`MIN_EXPECTED` (the test's usual rule: fewer dice
say nothing either way), or for a die with one label. The survival function of the
chi-square distribution is exact for whole degrees of freedom (the series below), so no
statistics library is needed.

>>> from companion.dice import D6
>>> f = fairness(D6, ["1", "2", "3", "4", "5", "6"] * 5)
>>> f.dice, f.chi_square, f.p_value
(30, 0.0, 1.0)
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from companion.dice.model import Die

MIN_EXPECTED = 5.0


@dataclass(frozen=True)
class FaceCount:
    """One face label: how often it came up, and how often fair dice would show it."""

    label: str
    observed: int
    expected: float


@dataclass(frozen=True)
class Fairness:
    """The faces of ``dice`` dice of one kind, against that die's odds."""

    die: str
    dice: int
    faces: tuple[FaceCount, ...]
    chi_square: float
    p_value: float | None

    def to_json(self) -> dict[str, Any]:
        return {"die": self.die, "dice": self.dice,
                "faces": [{"label": f.label, "observed": f.observed,
                           "expected": round(f.expected, 2)} for f in self.faces],
                "chi_square": round(self.chi_square, 3),
                "p_value": None if self.p_value is None else round(self.p_value, 4)}


def fairness(die: Die, faces: Iterable[str]) -> Fairness:
    """Count ``faces`` (labels of ``die``) against the die's odds; a label the die does not
    have raises ``ValueError``."""
    seen = Counter(faces)
    unknown = set(seen) - set(die.labels)
    if unknown:
        raise ValueError(f"not faces of the {die.name} die: {', '.join(sorted(unknown))}")
    n = sum(seen.values())
    sides = len(die.faces)
    counts = [FaceCount(label, seen[label], n * sum(f.label == label for f in die.faces) / sides)
              for label in die.labels]
    chi = sum((c.observed - c.expected) ** 2 / c.expected for c in counts) if n else 0.0
    judged = n > 0 and len(counts) > 1 and min(c.expected for c in counts) >= MIN_EXPECTED
    return Fairness(die.name, n, tuple(counts), chi,
                    chi_square_sf(chi, len(counts) - 1) if judged else None)


def chi_square_sf(x: float, dof: int) -> float:
    """P(X >= x) for X chi-square distributed with ``dof`` (a whole number >= 1) degrees of
    freedom: for even ``dof`` a Poisson sum, for odd ``dof`` the normal tail plus a sum
    (Abramowitz and Stegun 26.4.4 and 26.4.5)."""
    if dof < 1:
        raise ValueError("a chi-square test needs 1 or more degrees of freedom")
    if x <= 0:
        return 1.0
    half = x / 2
    if dof % 2 == 0:
        term = total = 1.0
        for i in range(1, dof // 2):
            term *= half / i
            total += term
        return min(1.0, math.exp(-half) * total)
    root = math.sqrt(x)
    tail = math.erfc(root / math.sqrt(2))
    if dof == 1:
        return tail
    term = total = root
    for i in range(1, (dof - 1) // 2):
        term *= x / (2 * i + 1)
        total += term
    return min(1.0, tail + math.sqrt(2 / math.pi) * math.exp(-half) * total)
