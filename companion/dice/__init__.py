"""Dice as data, dice reads from outside, and exact odds.

* :mod:`companion.dice.model`: :class:`Face`, :class:`Die`, the built-in dice and loading
  custom dice from data files; :class:`DiceRead`, physical dice as they arrive.
* :mod:`companion.dice.odds`: exact distributions (fractions) for pools and the rules that
  change them.
"""

from companion.dice.model import D6, SEAFALL, DiceRead, Die, Face, builtin_dice, find_die, load_die

__all__ = ["D6", "SEAFALL", "DiceRead", "Die", "Face", "builtin_dice", "find_die", "load_die"]
