"""Buttons answer the table's prompt: the composition of firmware_bridge and companion.

``firmware_bridge.mapping`` turns a button event into a generic answer (``confirm``,
``option N``, ``fortune +``/``-``, ``undo``, ``next``, ``reread``) given what the table
expects; this module says what the table expects from its prompts, and turns an answer into
the command the prompt names, so the button box never re-implements a rule:

* ``option N`` picks the prompt's N-th option; ``confirm`` picks a prompt's only option, or
  spends the fortune counted so far;
* ``fortune +``/``-`` count the tokens to spend, within the prompt's bounds; the count,
  which changes no version of the table, is told to :attr:`TableButtons.on_count` (the live
  stream's ``event: buttons``) so that the pages show it beside the roll it is for;
* ``undo`` undoes the last command; ``next`` ends the turn where the rules allow it;
* on a roll prompt, ``confirm`` applies the dice read waiting for the table as read
  (:meth:`web.runtime.dice.DiceService.waiting_read`): one whose every die was read sure
  and that waits only for the table's word (the dice settled before the roll was asked
  for), or one whose roll was undone, applied again. A read with a die the reader was
  unsure of, an unread die, a warning (a hand in the tray, the wrong dice kept for a
  re-roll) or another number of dice than the roll asks for is left to a phone, where the
  players see each die;
* on a roll prompt, ``reread`` reads the tray again when the camera's read of it waits
  for the table (:meth:`web.runtime.Runtime.reread`): after a hand is taken out, a lamp
  moved or a die straightened, the still tray is read as the same roll, and the new read
  replaces the one that waited (applied at once if now sure of every die).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from companion.engine import Command
from companion.errors import IllegalCommand, InvalidCommand
from companion.prompts import ChoicePrompt, RollPrompt, SpendPrompt
from companion.store.records import StoredEvent
from companion.table import Table
from firmware_bridge.events import ButtonEvent
from firmware_bridge.mapping import ButtonMapping, Expectation, TapOrHold, builtin_mapping

# the command "next" sends, per game
NEXT_COMMAND = {"seafall": "end_turn"}


BUTTON_BOX = "the button box"
"""Who a dice read confirmed by a button is recorded as confirmed by."""


class WaitingReads(Protocol):
    """The dice reads a button may confirm (:class:`web.runtime.dice.DiceService`)."""

    def waiting_read(self, table: Table) -> Any: ...

    def confirm_as_read(self, table: Table, read_id: str, who: str) -> Any: ...


class Rereads(Protocol):
    """The camera's re-read of a table's tray (:class:`web.runtime.Runtime`)."""

    def can_reread(self, table: Table) -> bool: ...

    def reread(self, table: Table) -> None: ...


@dataclass
class TableButtons:
    """The buttons of one table: its mapping and the fortune counted on a spend prompt."""

    mapping: ButtonMapping
    counted: dict[str, int] = field(default_factory=dict)  # spend prompt id -> tokens
    reads: Callable[[], WaitingReads] | None = None
    """The dice reads, asked for only on a roll prompt (none: a roll is left to phones)."""
    camera: Callable[[], Rereads | None] | None = None
    """The camera that reads the table's tray, if one runs (``tableside serve``)."""
    on_count: Callable[[], None] | None = None
    """Told each time a fortune button counts (no version of the table changes)."""
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _sources: dict[str, TapOrHold] = field(default_factory=dict)  # one per event source

    @classmethod
    def for_game(cls, game: str, reads: Callable[[], WaitingReads] | None = None,
                 camera: Callable[[], Rereads | None] | None = None,
                 on_count: Callable[[], None] | None = None) -> TableButtons:
        return cls(builtin_mapping(game), reads=reads, camera=camera, on_count=on_count)

    def expectation(self, table: Table) -> Expectation:
        actions: set[str] = set()
        options = 0
        prompts = list(table.prompts())
        if prompts:
            prompt = prompts[0]
            if isinstance(prompt, ChoicePrompt):
                actions.add("option")
                options = len(prompt.options)
                if options == 1:
                    actions.add("confirm")
            elif isinstance(prompt, SpendPrompt):
                actions.update(("fortune", "confirm"))
            elif isinstance(prompt, RollPrompt):
                if self._waiting_read(table) is not None:
                    actions.add("confirm")
                if (camera := self._camera()) is not None and camera.can_reread(table):
                    actions.add("reread")
        if table.can_undo:
            actions.add("undo")
        if self._next_command(table) is not None:
            actions.add("next")
        return Expectation(frozenset(actions), options)

    def leds(self, table: Table) -> list[str]:
        return self.mapping.led_modes(self.expectation(table))

    def pending_fortune(self, table: Table) -> int | None:
        """The tokens ``confirm`` spends on the spend prompt open now (its least before a
        fortune button is pressed); None without a spend prompt."""
        prompt = _first(table)
        if isinstance(prompt, SpendPrompt):
            return self.counted.get(prompt.id, prompt.minimum)
        return None

    def has_counted(self, table: Table) -> bool:
        """Whether a fortune button counted on the spend prompt open now."""
        prompt = _first(table)
        return isinstance(prompt, SpendPrompt) and prompt.id in self.counted

    def press(self, table: Table, event: ButtonEvent) -> dict[str, Any] | None:
        """Act on one button event; the answer and what it did, or None if it means nothing
        to the table now."""
        with self._lock:
            reader = self._sources.setdefault(event.source, TapOrHold(self.mapping))
            answer = reader.answer(event, self.expectation(table))
            if answer is None:
                return None
            events = self._act(table, answer)
            return {"answer": answer, "events": events}

    def _act(self, table: Table, answer: dict[str, Any]) -> list[StoredEvent]:
        action = answer["action"]
        if action == "undo":
            return table.undo(_undo_actor(table))
        if action == "next":
            command = self._next_command(table)
            assert command is not None
            return table.apply(command)
        prompt = _first(table)
        if isinstance(prompt, ChoicePrompt):
            index = answer["n"] - 1 if action == "option" else 0
            return table.apply(option_command(prompt, index))
        if isinstance(prompt, SpendPrompt):
            count = self.counted.get(prompt.id, prompt.minimum)
            if action == "fortune":
                count = max(prompt.minimum, min(prompt.maximum, count + answer["delta"]))
                self.counted = {prompt.id: count}
                if self.on_count is not None:
                    self.on_count()
                return []
            self.counted = {}
            return table.apply(Command(prompt.command, {prompt.arg: count}, prompt.player))
        if isinstance(prompt, RollPrompt) and action == "reread":
            if (camera := self._camera()) is not None:
                camera.reread(table)  # the read comes from the camera's thread
            return []
        if isinstance(prompt, RollPrompt) and self.reads is not None:
            read = self._waiting_read(table)
            if read is not None:
                before = table.version
                self.reads().confirm_as_read(table, read.id, BUTTON_BOX)
                return table.events(before)
        return []

    def _waiting_read(self, table: Table) -> Any:
        return self.reads().waiting_read(table) if self.reads is not None else None

    def _camera(self) -> Rereads | None:
        return self.camera() if self.camera is not None else None

    @staticmethod
    def _next_command(table: Table) -> Command | None:
        name = NEXT_COMMAND.get(table.game)
        if name is None:
            return None
        command = Command(name, {})
        try:
            table.engine.decide(table.state, command)
        except (IllegalCommand, InvalidCommand):
            return None
        return command


def _undo_actor(table: Table) -> str | None:
    """Who an undo from the box is recorded as (the history card shows it; it was null):
    as the box's answers to a prompt, the player the table is asking; with no prompt for a
    player, the player whose command it takes back."""
    player = getattr(_first(table), "player", None)
    if isinstance(player, str):
        return player
    if not table.applied:
        return None  # nothing to undo: the table says so
    actor = table.store.record(table.session_id, table.applied[-1]).actor
    check = getattr(table.engine, "check_actor", None)
    try:  # an actor the table does not know for an undo: recorded as the table's
        if check is not None and actor is not None:
            check(table.state, actor)
    except InvalidCommand:
        return None
    return actor


def _first(table: Table) -> Any:
    prompts = list(table.prompts())
    return prompts[0] if prompts else None


def option_command(prompt: ChoicePrompt, index: int) -> Command:
    """The command a button sends for a prompt's option: with what the option needs typed
    at its defaults (a card's powers left out: the card's own); ``IllegalCommand`` when one
    has none (a button cannot type a name)."""
    option = prompt.options[index]
    typed = [i.label for i in option.inputs if i.required]
    if typed:
        raise IllegalCommand(f"{option.label}: type {' and '.join(typed)} on a phone")
    args = {prompt.arg: option.value,
            **{i.arg: i.default for i in option.inputs if i.default is not None}}
    return Command(prompt.command, args, prompt.player)
