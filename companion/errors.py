"""The two ways a command can be refused, as in python-chess.

Both are ``ValueError`` so callers that only care "was it refused?" can catch one thing.

* :class:`InvalidCommand`: the command is malformed (unknown type, missing or badly typed
  field). The API answers 400.
* :class:`IllegalCommand`: the command is well formed but the rules forbid it now. The
  message is written for a player ("Red has 2 enmity tokens left; this raid needs 3").
  The API answers 409.

:class:`SetupRefused` is an ``InvalidCommand`` for a setup a player chose (how many
provinces, their players' names) with its case named, so that a page can say it in its
player's language (web.errors).
"""

from __future__ import annotations


class InvalidCommand(ValueError):
    """A malformed command: wrong shape, unknown type, missing or bad field."""


class IllegalCommand(ValueError):
    """A well-formed command that the rules do not allow in the current state."""


SETUP_REFUSALS: dict[str, str] = {  # the English of each SetupRefused; {name}: a value
    "provinces_new_game": "a game of SeaFall has 3 to 5 provinces (2 only in a scenario "
                          "that starts during a turn)",
    "provinces_in_turn": "a game of SeaFall has 2 to 5 provinces",
    "player_name": "each player's name is 1 to {max} characters (spaces at either end "
                   "do not count)",
    "same_player": "two provinces have the same player's name ({name}): give each player "
                   "a different name",
}


class SetupRefused(InvalidCommand):
    """A setup refused for what a player chose. ``code`` names the case
    (:data:`SETUP_REFUSALS`, its English in a player's words) and ``values`` fill it in."""

    def __init__(self, code: str, **values: str | int) -> None:
        super().__init__(SETUP_REFUSALS[code].format(**values))
        self.code, self.values = code, values
