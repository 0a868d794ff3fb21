"""Exact odds for dice pools of any size: SeaFall endeavors and plain sums (2d6, 3d6, ...).

Every result is exact (:class:`fractions.Fraction`). The computation counts equally likely
outcomes with integers over one common denominator and only builds fractions at the end:

* After re-rolls each die is independent and ends on face ``f`` with an integer weight over
  ``m`` (``m**2`` with re-rolls, ``m`` faces): a face that is not re-rolled keeps its first
  roll (weight ``m``) and every face can be the new face of a re-rolled die (weight ``r``,
  the number of re-rolled faces).
* A pool is then a polynomial power: ``(sum of weight * x**value) ** dice``, computed as one
  integer power through :mod:`companion.dice.polynomial`.
* Fortune depends on how many dice show a blank, so the pool is split by that number
  ``b``: the ``b < usable`` cases one by one (``comb(n, b) * blank**b * rest**(n - b)``), and
  every ``b >= usable`` case at once (the whole pool minus those), since then all usable
  tokens are available. Bonus successes and fortune spending are moves of whole ranges of
  coefficients, done on the packed integers.

See ``docs/odds.md`` for the readings chosen where the rulebook is ambiguous and
``benchmarks/bench_odds.py`` for the speed (a 40-die pool with re-rolls well under 1 ms).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb, gcd
from typing import Any

from companion.dice.model import Die
from companion.dice.polynomial import (
    coefficient_sum,
    coefficient_width,
    low_part,
    pack,
    shift,
    unpack,
)
from companion.dice.rules import PoolRules
from companion.errors import InvalidCommand

MAX_DICE = 200
"""The most dice, defense, fortune or bonus successes the odds are worked out for: more than
any table has, and the answer stays instant and small (a defense of 10^8 with fortune to
spend took 6 s and 486 MB of packed counts before this bound held here)."""

NO_RULES = PoolRules()


@dataclass(frozen=True)
class EndeavorOdds:
    """The odds of one endeavor: a pool of ``dice`` against ``defense`` under ``rules``.

    ``successes[k]`` is the probability of ending with exactly ``k`` successes after
    re-rolls, bonus and fortune. The list runs from 0 to the highest count that can happen,
    which exceeds the number of dice when a face counts 2 or a bonus applies.
    ``counts``/``denominator`` hold the same distribution as integers.
    """

    die: str
    dice: int
    defense: int
    rules: PoolRules
    denominator: int
    counts: tuple[int, ...]
    successes: tuple[Fraction, ...]
    p_at_least_one_success: Fraction
    p_no_damage: Fraction
    expected_damage: Fraction
    expected_fortune_spent: Fraction

    @property
    def max_successes(self) -> int:
        return len(self.successes) - 1

    def p_at_least(self, successes: int) -> Fraction:
        """The probability of ending with ``successes`` or more."""
        return Fraction(sum(self.counts[max(successes, 0) :]), self.denominator)

    def to_json(self) -> dict[str, Any]:
        """The figures as JSON: floats, and the same values exact as ``"a/b"`` strings."""
        rules = self.rules
        figures = ("p_at_least_one_success", "p_no_damage", "expected_damage",
                   "expected_fortune_spent")
        out: dict[str, Any] = {
            "die": self.die,
            "dice": self.dice,
            "defense": self.defense,
            "rules": {
                "fortune": rules.fortune,
                "dangerous": rules.dangerous,
                "fortune_at_dangerous": rules.fortune_at_dangerous,
                "usable_fortune": rules.usable_fortune,
                "reroll": sorted(rules.reroll),
                "values": dict(rules.values),
                "bonus": rules.bonus,
            },
        }
        for name in figures:
            out[name] = float(getattr(self, name))
        out["successes"] = [float(p) for p in self.successes]
        out["exact"] = {name: exact(getattr(self, name)) for name in figures}
        out["exact"]["successes"] = [exact(p) for p in self.successes]
        return out


@dataclass(frozen=True)
class SumDistribution:
    """The distribution of the total of ``count`` dice: ``probabilities[i]`` is P(lowest + i)."""

    die: str
    count: int
    lowest: int
    denominator: int
    counts: tuple[int, ...]
    probabilities: tuple[Fraction, ...]
    mean: Fraction

    @property
    def highest(self) -> int:
        return self.lowest + len(self.counts) - 1

    def probability(self, total: int) -> Fraction:
        """P(the dice add up to ``total``); 0 outside ``lowest..highest``."""
        if self.lowest <= total <= self.highest:
            return self.probabilities[total - self.lowest]
        return Fraction(0)

    def items(self) -> list[tuple[int, Fraction]]:
        """``(total, probability)`` for every total from lowest to highest."""
        return [(self.lowest + i, p) for i, p in enumerate(self.probabilities)]

    def to_json(self, what: str | None = None) -> dict[str, Any]:
        """The distribution as JSON: floats by total, and the same values exact."""
        return {
            "dice": what or f"{self.count}x{self.die}",
            "die": self.die,
            "count": self.count,
            "lowest": self.lowest,
            "highest": self.highest,
            "mean": float(self.mean),
            "sums": {str(total): float(p) for total, p in self.items()},
            "exact": {
                "mean": exact(self.mean),
                "sums": {str(total): exact(p) for total, p in self.items()},
            },
        }


def exact(p: Fraction) -> str:
    """A fraction as ``"numerator/denominator"``."""
    return f"{p.numerator}/{p.denominator}"


@lru_cache(maxsize=256)
def face_weights(die: Die, reroll: frozenset[str]) -> tuple[int, tuple[int, ...]]:
    """How one die ends up after re-rolling faces of the ``reroll`` kinds once.

    Returns ``(denominator, weights)``: face ``i`` of ``die.faces`` is the final face with
    probability ``weights[i] / denominator`` (reduced by their common divisor).
    """
    sides = len(die.faces)
    rerolled = sum(1 for f in die.faces if f.kind in reroll)
    if rerolled == 0:
        return sides, (1,) * sides
    weights = [rerolled + (0 if f.kind in reroll else sides) for f in die.faces]
    denominator = sides * sides
    common = gcd(denominator, *weights)
    return denominator // common, tuple(w // common for w in weights)


def endeavor_odds(die: Die, dice: int, defense: int, rules: PoolRules = NO_RULES) -> EndeavorOdds:
    """The exact odds of rolling ``dice`` dice of ``die`` against ``defense``.

    Fortune is spent only as needed: ``min(usable tokens, blank dice, max(0, target -
    successes))`` where the target is the defense, or 1 at a defense of 0 (a player spends a
    token rather than fail the endeavor with no success at all).
    """
    _check_amount(dice, "the number of dice")
    _check_amount(defense, "the defense")
    for name in ("fortune", "fortune_at_dangerous", "bonus"):
        _check_amount(getattr(rules, name), name.replace("_", " "))
    rules.check_kinds(die)
    per_die, blank, rest = _success_weights(die, rules)
    top_value = len(rest) - 1
    whole = [rest[0] + blank, *rest[1:]]

    outcomes = per_die**dice
    width = coefficient_width(outcomes)
    usable = min(rules.usable_fortune, dice) if blank else 0
    target = max(defense, 1)
    bonus = rules.bonus
    size = top_value * dice + bonus + usable + 1

    pool = pow(pack(whole, width), dice)
    if usable == 0:
        final = _add_bonus(pool, width, bonus)
    else:
        # b blank dice for b < usable, one case at a time (b = usable - 1 down to 0)
        rest_packed = pack(rest, width)
        power = pow(rest_packed, dice - usable + 1)
        final = 0
        enough_blanks = pool
        for b in range(usable - 1, -1, -1):
            exact_b = comb(dice, b) * blank**b * power
            enough_blanks -= exact_b
            final += _spend_fortune(_add_bonus(exact_b, width, bonus), width, b, target)
            if b:
                power *= rest_packed
        final += _spend_fortune(_add_bonus(enough_blanks, width, bonus), width, usable, target)

    counts = unpack(final, width, size)
    while len(counts) > 1 and counts[-1] == 0:
        counts.pop()
    mean_final = sum(k * c for k, c in enumerate(counts))
    # before fortune: n dice of mean successes, plus the bonus unless every die shows 0
    per_die_total = sum(v * w for v, w in enumerate(rest))
    mean_rolled = bonus * (outcomes - whole[0] ** dice)
    if dice:
        mean_rolled += dice * per_die_total * per_die ** (dice - 1)
    short = sum((defense - k) * c for k, c in enumerate(counts[:defense]))
    return EndeavorOdds(
        die=die.name,
        dice=dice,
        defense=defense,
        rules=rules,
        denominator=outcomes,
        counts=tuple(counts),
        successes=tuple(Fraction(c, outcomes) for c in counts),
        p_at_least_one_success=Fraction(outcomes - counts[0], outcomes),
        p_no_damage=Fraction(sum(counts[defense:]), outcomes),
        expected_damage=Fraction(short, outcomes),
        expected_fortune_spent=Fraction(mean_final - mean_rolled, outcomes),
    )


def sum_distribution(die: Die, count: int, rules: PoolRules = NO_RULES) -> SumDistribution:
    """The exact distribution of the total of ``count`` dice (2d6: ``sum_distribution(D6, 2)``).

    ``rules`` may re-roll kinds once and change face values; fortune and bonus successes
    belong to endeavors and are refused here.
    """
    _check_amount(count, "the number of dice")
    if rules.fortune or rules.bonus:
        raise InvalidCommand("fortune and bonus successes apply to endeavors, not to sums")
    rules.check_kinds(die)
    per_die, weights = face_weights(die, rules.reroll)
    values = [rules.value_of(f) for f in die.faces]
    low, high = min(values), max(values)
    single = [0] * (high - low + 1)
    for value, weight in zip(values, weights, strict=True):
        single[value - low] += weight
    outcomes = per_die**count
    width = coefficient_width(outcomes)
    counts = unpack(pow(pack(single, width), count), width, (high - low) * count + 1)
    total = sum(k * c for k, c in enumerate(counts))
    return SumDistribution(
        die=die.name,
        count=count,
        lowest=low * count,
        denominator=outcomes,
        counts=tuple(counts),
        probabilities=tuple(Fraction(c, outcomes) for c in counts),
        mean=low * count + Fraction(total, outcomes),
    )


def _success_weights(die: Die, rules: PoolRules) -> tuple[int, int, list[int]]:
    """One die after re-rolls: ``(denominator, blank weight, weights by success value)``.

    Blank here means a face fortune can turn (a ``fortune_kinds`` face worth 0); every other
    face is counted in ``rest[value]``.
    """
    per_die, weights = face_weights(die, rules.reroll)
    blank = 0
    others: dict[int, int] = {}
    for face, weight in zip(die.faces, weights, strict=True):
        value = rules.value_of(face)
        if value < 0:
            raise InvalidCommand(f"{face.kind!r} faces count {value} successes; must be >= 0")
        if value == 0 and face.kind in rules.fortune_kinds:
            blank += weight
        else:
            others[value] = others.get(value, 0) + weight
    rest = [0] * (max(others, default=0) + 1)
    for value, weight in others.items():
        rest[value] += weight
    return per_die, blank, rest


def _check_amount(amount: int, what: str) -> None:
    if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
        raise InvalidCommand(f"{what} must be a whole number >= 0, not {amount!r}")
    if amount > MAX_DICE:
        raise InvalidCommand(f"{what} must be at most {MAX_DICE}, not {amount}")


def _add_bonus(packed: int, width: int, bonus: int) -> int:
    """Move every count of 1+ rolled successes up by ``bonus`` (none without a success)."""
    if not bonus:
        return packed
    none = low_part(packed, width, 1)
    return none + shift(packed - none, width, bonus)


def _spend_fortune(packed: int, width: int, tokens: int, target: int) -> int:
    """Spend up to ``tokens`` (each on a blank die) to bring the successes up to ``target``."""
    if not tokens:
        return packed
    start = max(target - tokens, 0)
    far = low_part(packed, width, start)  # every token helps: shift up by ``tokens``
    near = coefficient_sum(packed, width, start, target)  # reaches the target exactly
    met = packed - low_part(packed, width, target)  # already there: spend nothing
    return met + shift(near, width, target) + shift(far, width, tokens)
