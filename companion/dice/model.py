"""Dice are data: a die is a list of faces, each with a label, a kind and a success value.

The SeaFall die has six faces: blank x2, standard x2, weak x1, strong x1 (rulebook,
"Endeavors and Damage" > "Dice"; face counts from RULES-FACTS.md "The die"). Weak and strong
count as one success unless a power says otherwise. A d6 has faces "1".."6" whose value is
the pip count. Custom dice are loaded from JSON files of the same shape as the built-ins in
``companion/dice/data/``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from companion import jsontext
from companion.errors import InvalidCommand

MAX_FACES = 1000
"""The most faces a die may have, counts included (as many as ``odds`` takes for NdM): a
die file from outside with ``"count": 1000000000`` would otherwise fill the memory."""


@dataclass(frozen=True)
class Face:
    """One face of a die.

    ``label`` is what a reader reports ("blank", "4"); ``kind`` groups faces that rules
    treat alike (both blank faces of the SeaFall die are kind "blank"); ``value`` is the
    number of successes (or the pip count for a numeric die).
    """

    label: str
    kind: str
    value: int


@dataclass(frozen=True)
class Die:
    """A die: a name and its faces (each face equally likely)."""

    name: str
    faces: tuple[Face, ...]

    def __post_init__(self) -> None:
        if not self.faces:
            raise ValueError(f"die {self.name!r} has no faces")

    @property
    def labels(self) -> tuple[str, ...]:
        """The distinct face labels, in the order they first appear."""
        return tuple(dict.fromkeys(f.label for f in self.faces))

    @property
    def kinds(self) -> tuple[str, ...]:
        """The distinct face kinds, in the order they first appear."""
        return tuple(dict.fromkeys(f.kind for f in self.faces))

    def face(self, label: str) -> Face:
        """The face with this label; :class:`InvalidCommand` if the die has none."""
        for f in self.faces:
            if f.label == label:
                return f
        raise InvalidCommand(
            f"{label!r} is not a face of the {self.name} die (faces: {', '.join(self.labels)})"
        )

    def count(self, kind: str) -> int:
        """How many of the die's faces are of this kind."""
        return sum(1 for f in self.faces if f.kind == kind)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Die:
        """Build a die from ``{"name": ..., "faces": [{"label", "kind"?, "value", "count"?}]}``."""
        try:
            name = data["name"]
            raw_faces = data["faces"]
        except (KeyError, TypeError) as exc:
            raise ValueError(f"a die needs 'name' and 'faces' ({exc})") from None
        if not isinstance(name, str) or not name:
            raise ValueError("a die's 'name' must be a non-empty string")
        if not isinstance(raw_faces, list) or not raw_faces:
            raise ValueError(f"die {name!r}: 'faces' must be a non-empty list")
        faces: list[Face] = []
        for i, raw in enumerate(raw_faces):
            if not isinstance(raw, Mapping):
                raise ValueError(f"die {name!r}: face {i} must be an object")
            label = raw.get("label")
            value = raw.get("value")
            kind = raw.get("kind", label)
            count = raw.get("count", 1)
            if not isinstance(label, str) or not label:
                raise ValueError(f"die {name!r}: face {i} needs a string 'label'")
            if not isinstance(kind, str) or not kind:
                raise ValueError(f"die {name!r}: face {label!r} has a bad 'kind'")
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError(f"die {name!r}: face {label!r} needs an integer 'value'")
            if not isinstance(count, int) or isinstance(count, bool) or count < 1:
                raise ValueError(f"die {name!r}: face {label!r} has a bad 'count'")
            if len(faces) + count > MAX_FACES:
                raise ValueError(f"die {name!r}: more than {MAX_FACES} faces")
            face = Face(label, kind, value)
            other = next((f for f in faces if f.label == label), face)
            if other != face:  # a read of this label could be either: refuse, never guess
                raise ValueError(f"die {name!r}: face {label!r} is listed twice, with "
                                 "different kinds or values")
            faces.extend([face] * count)
        return cls(name, tuple(faces))

    def to_json(self) -> dict[str, Any]:
        grouped: dict[Face, int] = {}
        for f in self.faces:
            grouped[f] = grouped.get(f, 0) + 1
        return {
            "name": self.name,
            "faces": [
                {"label": f.label, "kind": f.kind, "value": f.value, "count": n}
                for f, n in grouped.items()
            ],
        }


def load_die(path: str | Path) -> Die:
    """Load a custom die from a JSON file (``ValueError`` says what is wrong with it)."""
    path = Path(path)
    try:
        data = jsontext.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:  # not text, not JSON, or nested too deep
        raise ValueError(f"cannot read die file {path}: {exc}") from None
    return Die.from_json(data)


def _builtin(name: str) -> Die:
    data_dir = resources.files("companion.dice").joinpath("data")
    text = data_dir.joinpath(f"{name}.json").read_text("utf-8")
    return Die.from_json(json.loads(text))


SEAFALL = _builtin("seafall")
D6 = _builtin("d6")


def numeric_die(sides: int) -> Die:
    """A die numbered 1..``sides``, named ``d<sides>`` (``numeric_die(6) == D6``)."""
    if not isinstance(sides, int) or isinstance(sides, bool) or sides < 1:
        raise ValueError(f"a numbered die needs 1 or more sides, not {sides!r}")
    return Die(f"d{sides}", tuple(Face(str(n), str(n), n) for n in range(1, sides + 1)))


def builtin_dice() -> dict[str, Die]:
    """The dice Tableside knows without a data file, by name."""
    return {SEAFALL.name: SEAFALL, D6.name: D6}


def find_die(name: str) -> Die:
    """A built-in die by name, or a die loaded from a JSON file path."""
    dice = builtin_dice()
    if name in dice:
        return dice[name]
    if name.endswith(".json"):
        return load_die(name)
    raise KeyError(f"unknown die {name!r}; built-in dice: {', '.join(sorted(dice))}")


@dataclass(frozen=True)
class DiceRead:
    """Physical dice as they arrive from outside (camera, phone photo, or typed in).

    ``faces`` are face labels of ``die``; ``confidence`` per die when a camera read them
    (``None`` when typed); ``source`` says where the read came from; ``read_id`` and
    ``image`` let a front end show the evidence.
    """

    die: str
    faces: tuple[str, ...]
    source: str = "typed"
    confidence: tuple[float, ...] | None = None
    read_id: str | None = None
    image: str | None = None

    def validate(self, die: Die) -> DiceRead:
        """Check every face against ``die``; return self (raises :class:`InvalidCommand`)."""
        if self.die != die.name:
            raise InvalidCommand(f"expected {die.name} dice, got a read of {self.die} dice")
        for label in self.faces:
            die.face(label)
        if self.confidence is not None and len(self.confidence) != len(self.faces):
            raise InvalidCommand("a dice read needs one confidence per die")
        return self

    @classmethod
    def from_json(cls, data: Any, default_die: str | None = None) -> DiceRead:
        """Parse ``{"die": ..., "faces": [...], "source"?, "confidence"?, ...}``."""
        if isinstance(data, list):
            data = {"faces": data}
        if not isinstance(data, Mapping):
            raise InvalidCommand("a dice read is a JSON object or a list of faces")
        die = data.get("die", default_die)
        faces = data.get("faces")
        if not isinstance(die, str):
            raise InvalidCommand("a dice read needs the name of its die ('die')")
        if not isinstance(faces, Sequence) or isinstance(faces, str):
            raise InvalidCommand("a dice read needs a list of face labels ('faces')")
        if not all(isinstance(f, str) for f in faces):
            raise InvalidCommand("every face in a dice read is a string label")
        conf = data.get("confidence")
        if conf is not None:
            if not isinstance(conf, Sequence) or not all(
                isinstance(c, (int, float)) and not isinstance(c, bool) for c in conf
            ):
                raise InvalidCommand("'confidence' is a list of numbers")
            conf = tuple(float(c) for c in conf)
        source = data.get("source", "typed")
        read_id = data.get("read_id")
        image = data.get("image")
        for key, val in (("source", source), ("read_id", read_id), ("image", image)):
            if val is not None and not isinstance(val, str):
                raise InvalidCommand(f"'{key}' must be a string")
        return cls(die, tuple(faces), source, conf, read_id, image)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"die": self.die, "faces": list(self.faces), "source": self.source}
        if self.confidence is not None:
            out["confidence"] = list(self.confidence)
        if self.read_id is not None:
            out["read_id"] = self.read_id
        if self.image is not None:
            out["image"] = self.image
        return out
