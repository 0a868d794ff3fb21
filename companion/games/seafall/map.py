"""The sea: which spaces touch which, for checking sail distances (rulebook, "What's on the
Map?" and "Ships and Sailing" > "Sailing").

The default adjacency is a fan transcription of the base board (``data/map_adjacency.csv``,
BSD 3-Clause, provenance in ``data/MAP-README.txt``): open-sea hexes named ``"(col, a, b)"``
(column 0 touches the coastal waters), ``coastal_waters`` and the home harbors
``"<colour>_harbor"``. Labels are normalised, so ``"(6, -3,  3)"`` and ``"(6,-3,3)"`` name
the same hex.

Every home harbor touches the coastal waters and nothing else, whatever the data holds
(rulebook, "What's on the Map?" > "The Basics", page 6: the coastal waters lie between the
home harbors and the open sea; "Terminology" > "Coastal Waters", page 23): so the yellow
harbor, which the transcription lacks, is known too (:func:`harbors_on_the_coast`).

Where a place has no known space (an island whose hex was not recorded), distances through
it cannot be checked: :meth:`SeaMap.adjacent` answers ``None``.
"""

from __future__ import annotations

import csv
import io
import re
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources

from companion.games.seafall.components import COLOURS

_HEX = re.compile(r"^\(\s*(-?\d+)\s*,\s*(-?\d+)\s*,\s*(-?\d+)\s*\)$")
COASTAL_WATERS = "coastal_waters"


def normalise(label: str) -> str:
    """The canonical spelling of a space label: ``"(6, -3, 3)"``, ``"coastal_waters"``."""
    text = label.strip()
    match = _HEX.match(text)
    if match:
        return "({}, {}, {})".format(*(int(g) for g in match.groups()))
    return text.lower()


def harbor_space(colour: str) -> str:
    """The map space of a province's home harbor."""
    return f"{colour}_harbor"


@dataclass(frozen=True)
class SeaMap:
    """Spaces and their neighbours (symmetric; a space is not its own neighbour)."""

    neighbours: Mapping[str, frozenset[str]]

    def knows(self, space: str | None) -> bool:
        return space is not None and space in self.neighbours

    def adjacent(self, a: str | None, b: str | None) -> bool | None:
        """Whether one move takes a ship from ``a`` to ``b``; None when either is unknown."""
        if not self.knows(a) or not self.knows(b):
            return None
        assert a is not None and b is not None
        return b in self.neighbours[a]

    def distance(self, a: str, b: str) -> int | None:
        """The fewest moves from ``a`` to ``b`` (None when unknown or unreachable)."""
        path = self.path(a, b)
        return None if path is None else len(path)

    def path(self, a: str, b: str, avoid: frozenset[str] = frozenset()) -> list[str] | None:
        """A shortest way from ``a`` to ``b``: the spaces entered, ``b`` last (None when
        unknown or unreachable; [] when ``a`` is ``b``); with ``avoid``, a shortest way
        that enters none of those spaces (``b`` aside), if there is one."""
        if not self.knows(a) or not self.knows(b):
            return None
        came_from: dict[str, str | None] = {a: None}
        queue = deque([a])
        while queue:
            here = queue.popleft()
            if here == b:
                steps: list[str] = []
                while came_from[here] is not None:
                    steps.append(here)
                    here = came_from[here]  # type: ignore[assignment]
                return steps[::-1]
            for nxt in sorted(self.neighbours[here]):
                if nxt not in came_from and (nxt == b or nxt not in avoid):
                    came_from[nxt] = here
                    queue.append(nxt)
        return None


def parse_adjacency(text: str) -> SeaMap:
    """A map from a square 0/1 adjacency matrix in CSV (first row and column: labels)."""
    rows = list(csv.reader(io.StringIO(text)))
    header = [normalise(h) for h in rows[0][1:]]
    if len(set(header)) != len(header):
        raise ValueError("map adjacency: a space is named twice")
    links: dict[str, set[str]] = {h: set() for h in header}
    body = [row for row in rows[1:] if row]
    if len(body) != len(header):
        raise ValueError("map adjacency: the matrix is not square")
    for row in body:
        name = normalise(row[0])
        if name not in links or len(row) != len(header) + 1:
            raise ValueError(f"map adjacency: bad row {row[0]!r}")
        for other, cell in zip(header, row[1:], strict=True):
            if cell.strip() not in ("0", "1"):
                raise ValueError(f"map adjacency: {name} / {other} is not 0 or 1")
            if cell.strip() == "1" and other != name:
                links[name].add(other)
                links[other].add(name)
    return SeaMap({k: frozenset(v) for k, v in links.items()})


@cache
def default_map() -> SeaMap:
    """The base board's adjacency (``data/map_adjacency.csv``); immutable, loaded once."""
    data = resources.files(__package__).joinpath("data").joinpath("map_adjacency.csv")
    return harbors_on_the_coast(parse_adjacency(data.read_text("utf-8")))


def harbors_on_the_coast(sea: SeaMap, colours: tuple[str, ...] = COLOURS) -> SeaMap:
    """``sea`` with each province's home harbor next to the coastal waters only, as the
    board has it (a harbor the data lacks is added; a link of a harbor to any other space
    is dropped)."""
    harbors = {harbor_space(c) for c in colours}
    links = {k: set(v) - harbors for k, v in sea.neighbours.items() if k not in harbors}
    links.setdefault(COASTAL_WATERS, set()).update(harbors)
    for harbor in harbors:
        links[harbor] = {COASTAL_WATERS}
    return SeaMap({k: frozenset(v) for k, v in links.items()})
