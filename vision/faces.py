"""The face sets the vision package reads without a profile, by die name.

``d6`` faces are read by the face network or by counting pips; any other die (``seafall``
included) needs an enrolled profile. The labels match the companion's dice data but this
module does not import it: ``vision`` knows nothing of the companion.
"""

from __future__ import annotations

D6_FACES: tuple[str, ...] = ("1", "2", "3", "4", "5", "6")
SEAFALL_FACES: tuple[str, ...] = ("blank", "standard", "weak", "strong")

KNOWN_FACES: dict[str, tuple[str, ...]] = {"d6": D6_FACES, "seafall": SEAFALL_FACES}


def faces_of(die: str) -> tuple[str, ...] | None:
    """The face labels of a built-in die, or ``None`` for a die known only by a profile."""
    return KNOWN_FACES.get(die)
