"""The two ways a command can be refused, as in python-chess.

Both are ``ValueError`` so callers that only care "was it refused?" can catch one thing.

* :class:`InvalidCommand`: the command is malformed (unknown type, missing or badly typed
  field). The API answers 400.
* :class:`IllegalCommand`: the command is well formed but the rules forbid it now. The
  message is written for a player ("Red has 2 enmity tokens left; this raid needs 3").
  The API answers 409.
"""

from __future__ import annotations


class InvalidCommand(ValueError):
    """A malformed command: wrong shape, unknown type, missing or bad field."""


class IllegalCommand(ValueError):
    """A well-formed command that the rules do not allow in the current state."""
