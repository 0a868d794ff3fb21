"""Per-game button mappings: button events in, generic answers to the table's prompt out.

A mapping file (JSON, one per game, built-ins in ``firmware_bridge/mappings/``) says what
each button means on press or hold, and which LED shows which kind of answer:

    {"game": "seafall",
     "buttons": {"0": {"press": "confirm"}, "4": {"press": "option 1", "hold": "option 3"}},
     "leds": {"0": "confirm", "1": {"role": "option", "mode": "B300/300"}}}

Actions: ``confirm``, ``reread``, ``next``, ``undo``, ``option N`` (N >= 1), ``fortune +``,
``fortune -``. Answers are plain dicts ({"action": "confirm"}, {"action": "option", "n": 2},
{"action": "fortune", "delta": -1}); the web layer turns them into commands. A press is
answered only when the table's current ``Expectation`` accepts that action, and the LEDs
show what it accepts. Releases and stale events never answer anything.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from .events import ButtonEvent, ButtonKind
from .firmware import leds as ledmodes

ROLES = ("confirm", "reread", "next", "undo", "option", "fortune")
_SIMPLE = {"confirm", "reread", "next", "undo"}


class MappingError(ValueError):
    """A mapping file that cannot be used; the message names the file and the entry."""


@dataclass(frozen=True, slots=True)
class Expectation:
    """What the table's current prompt accepts: action roles, and how many options."""

    actions: frozenset[str] = frozenset()
    options: int = 0

    def accepts(self, answer: dict[str, Any]) -> bool:
        action = answer["action"]
        if action not in self.actions:
            return False
        return action != "option" or 1 <= answer["n"] <= self.options


@dataclass(frozen=True, slots=True)
class LedRole:
    role: str
    mode: str = ledmodes.ON


@dataclass(frozen=True, slots=True)
class ButtonMapping:
    game: str
    answers: dict[tuple[int, ButtonKind], dict[str, Any]] = field(default_factory=dict)
    leds: tuple[LedRole | None, ...] = ()

    def answer(self, event: ButtonEvent, expects: Expectation) -> dict[str, Any] | None:
        """The answer ``event`` gives to the current prompt, or None if it gives none."""
        answer = self.answers.get((event.button, event.kind))
        if answer is None or not expects.accepts(answer):
            return None
        return dict(answer)

    def led_modes(self, expects: Expectation, count: int | None = None) -> list[str]:
        """One LED mode per LED: its role's mode when the prompt accepts that role."""
        count = len(self.leds) if count is None else count
        modes = []
        for i in range(count):
            role = self.leds[i] if i < len(self.leds) else None
            lit = role is not None and role.role in expects.actions
            if lit and role is not None and role.role == "option":
                lit = expects.options > 0
            modes.append(role.mode if lit and role is not None else ledmodes.OFF)
        return modes


class TapOrHold:
    """Answers from a stream of one source's events, telling a tap from a hold.

    A button whose mapping gives its hold a meaning answers on release when it was not held
    (a tap), or on hold (and its release then means nothing): a long press never fires its
    short meaning first. A button without a hold meaning answers at once on press, the
    quickest answer. Releases of other buttons and stray edges mean nothing.
    """

    def __init__(self, mapping: ButtonMapping) -> None:
        self.mapping = mapping
        self._tapping: set[int] = set()

    def answer(self, event: ButtonEvent, expects: Expectation) -> dict[str, Any] | None:
        button = event.button
        has_hold = (button, ButtonKind.HOLD) in self.mapping.answers
        if event.kind is ButtonKind.PRESS:
            if has_hold:
                self._tapping.add(button)
                return None
            return self.mapping.answer(event, expects)
        if event.kind is ButtonKind.HOLD:
            self._tapping.discard(button)
            return self.mapping.answer(event, expects)
        if button in self._tapping:  # released before any hold: a tap
            self._tapping.discard(button)
            tap = ButtonEvent(button, ButtonKind.PRESS, event.seq, event.time, event.source)
            return self.mapping.answer(tap, expects)
        return None


def parse_action(text: str) -> dict[str, Any]:
    words = text.split()
    if len(words) == 1 and words[0] in _SIMPLE:
        return {"action": words[0]}
    if len(words) == 2 and words[0] == "option" and words[1].isdigit() and int(words[1]) >= 1:
        return {"action": "option", "n": int(words[1])}
    if len(words) == 2 and words[0] == "fortune" and words[1] in ("+", "-"):
        return {"action": "fortune", "delta": 1 if words[1] == "+" else -1}
    raise MappingError(
        f"unknown action {text!r}: use confirm, reread, next, undo, 'option N', "
        "'fortune +' or 'fortune -'"
    )


def parse_mapping(data: Any, origin: str = "<mapping>") -> ButtonMapping:
    if not isinstance(data, dict):
        raise MappingError(f"{origin}: a mapping is a JSON object")
    game = data.get("game")
    if not isinstance(game, str) or not game:
        raise MappingError(f"{origin}: 'game' must name the game")
    answers: dict[tuple[int, ButtonKind], dict[str, Any]] = {}
    buttons = data.get("buttons", {})
    if not isinstance(buttons, dict):
        raise MappingError(f"{origin}: 'buttons' must be an object")
    for key, entry in buttons.items():
        button = _index(key, 8, f"{origin}: button {key!r}")
        if not isinstance(entry, dict):
            raise MappingError(f"{origin}: button {key}: expected {{'press': ..., 'hold': ...}}")
        for kind_name, text in entry.items():
            if kind_name not in ("press", "hold"):
                raise MappingError(f"{origin}: button {key}: {kind_name!r} is not press or hold")
            if not isinstance(text, str):
                raise MappingError(f"{origin}: button {key} {kind_name}: the action is a string")
            try:
                answers[(button, ButtonKind(kind_name))] = parse_action(text)
            except MappingError as exc:
                raise MappingError(f"{origin}: button {key} {kind_name}: {exc}") from None
    leds: list[LedRole | None] = [None] * 4
    led_data = data.get("leds", {})
    if not isinstance(led_data, dict):
        raise MappingError(f"{origin}: 'leds' must be an object")
    for key, entry in led_data.items():
        index = _index(key, 4, f"{origin}: LED {key!r}")
        role, mode = (entry, ledmodes.ON) if isinstance(entry, str) else _led_entry(entry)
        if role not in ROLES:
            raise MappingError(f"{origin}: LED {key}: unknown role {role!r} ({', '.join(ROLES)})")
        if not isinstance(mode, str) or ledmodes.parse_mode(mode) is None:
            raise MappingError(f"{origin}: LED {key}: bad mode {mode!r} (0, 1 or B<on>/<off>)")
        leds[index] = LedRole(role, mode)
    while leds and leds[-1] is None:
        leds.pop()
    return ButtonMapping(game, answers, tuple(leds))


def _led_entry(entry: Any) -> tuple[Any, Any]:
    if not isinstance(entry, dict):
        return (entry, ledmodes.ON)
    return (entry.get("role"), entry.get("mode", ledmodes.ON))


def _index(key: str, limit: int, where: str) -> int:
    if not key.isdigit() or int(key) >= limit:
        raise MappingError(f"{where}: expected a number 0..{limit - 1}")
    return int(key)


def load_mapping(path: str | Path) -> ButtonMapping:
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8-sig"))  # a byte-order mark allowed
    except UnicodeDecodeError as exc:
        raise MappingError(f"{path}: not a text (JSON) file: byte {exc.start} is "
                           f"{exc.object[exc.start]:#04x}, not UTF-8") from None
    except IsADirectoryError:
        raise MappingError(f"{path}: a folder, not a mapping file (JSON)") from None
    except OSError as exc:  # not there, not allowed: as other commands say a missing file
        raise MappingError(f"cannot read {path}: {exc.strerror or exc}") from exc
    except ValueError as exc:  # not JSON
        raise MappingError(f"{path}: not JSON: {exc}") from exc
    except RecursionError:  # [[[[... past the parser's recursion
        raise MappingError(f"{path}: nested too deep to be a mapping") from None
    return parse_mapping(data, str(path))


def builtin_games() -> list[str]:
    folder = resources.files("firmware_bridge.mappings")
    return sorted(
        p.name.removesuffix(".json") for p in folder.iterdir() if p.name.endswith(".json")
    )


def builtin_mapping(game: str) -> ButtonMapping:
    """The shipped mapping for ``game``, or the ``default`` one if the game has none."""
    folder = resources.files("firmware_bridge.mappings")
    name = game if game in builtin_games() else "default"
    text = folder.joinpath(f"{name}.json").read_text(encoding="utf-8")
    return parse_mapping(json.loads(text), f"mappings/{name}.json")
