"""The game registry: engines are found by name, as python-chess finds variants.

>>> find_game("seafall").name
'seafall'
"""

from __future__ import annotations

from importlib import import_module

from companion.engine import Engine

# name -> "module:attribute" of the engine class; imported on first use.
_ENGINES: dict[str, str] = {
    "seafall": "companion.games.seafall.engine:SeaFall",
}


def game_names() -> list[str]:
    """The names of every registered game, sorted."""
    return sorted(_ENGINES)


def find_game(name: str) -> Engine:
    """Return a fresh engine for the game called ``name`` (``KeyError`` names the choices)."""
    try:
        target = _ENGINES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known games: {', '.join(game_names())}") from None
    module_name, _, attr = target.partition(":")
    engine = getattr(import_module(module_name), attr)()
    if not isinstance(engine, Engine):
        raise TypeError(f"{target} does not implement the engine protocol")
    return engine


def register_game(name: str, target: str) -> None:
    """Register an engine class by ``"module:attribute"`` (used by tests and plugins)."""
    _ENGINES[name] = target
