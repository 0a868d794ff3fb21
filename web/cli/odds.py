"""``tableside odds``: exact dice odds on the command line.

Two forms:

* ``tableside odds seafall --dice N --defense D [rules...]``: a SeaFall endeavor (the
  distribution of final successes, the chance of at least one success, of taking no damage,
  the expected damage and fortune spent).
* ``tableside odds 2d6`` (``NdM``: N dice numbered 1..M) or ``tableside odds 3xDIE`` (N dice
  of a built-in die or a die JSON file): the distribution of the total.

``--json`` prints one JSON object instead of a table. Bad input prints one line on stderr
and exits with status 2. The computation is :mod:`companion.dice.odds`.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from fractions import Fraction

from companion.dice.model import MAX_FACES, SEAFALL, Die, find_die, numeric_die
from companion.dice.odds import (
    MAX_DICE,
    EndeavorOdds,
    SumDistribution,
    endeavor_odds,
    exact,
    sum_distribution,
)
from companion.dice.rules import PoolRules

MAX_SIDES = MAX_FACES
MAX_TOTALS = 4001  # distinct totals a sum may have (200d20 is 3801)

_NUMERIC = re.compile(r"(\d+)d(\d+)")
_NAMED = re.compile(r"(\d+)x(.+)")

_EPILOG = """\
examples:
  tableside odds seafall --dice 5 --defense 4 --fortune 1
  tableside odds seafall --dice 7 --defense 5 --dangerous --fortune 3 \\
      --fortune-at-dangerous 2 --reroll-weak
  tableside odds 2d6 --json
  tableside odds 3xmy-die.json

Fortune is spent only as needed to reach the defense, one token per blank die; bonus
successes count only when at least one success was rolled; a re-rolled die is rolled once
and keeps its new face. See docs/odds.md.
"""


class _BadInput(ValueError):
    """Input the odds command refuses, with the one-line reason."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``odds`` subcommand."""
    parser = subparsers.add_parser(
        "odds",
        help="exact dice odds: SeaFall endeavors, sums like 2d6",
        description=(
            "Exact dice odds. 'seafall' gives the odds of a SeaFall endeavor (explore or\n"
            "raid); NdM (2d6, 3d6) or NxDIE (DIE: a built-in die or a die JSON file) gives\n"
            "the distribution of the total."
        ),
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "what",
        metavar="DICE",
        help="'seafall' for an endeavor, NdM for N dice numbered 1..M, NxDIE for N dice of DIE",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    endeavor = parser.add_argument_group("SeaFall endeavor (with 'seafall')")
    endeavor.add_argument("--dice", metavar="N", help="dice in the pool (required)")
    endeavor.add_argument(
        "--defense", metavar="D", help="the site's defense (required)"
    )
    endeavor.add_argument(
        "--fortune", metavar="F", help="fortune tokens you hold (default 0)"
    )
    endeavor.add_argument(
        "--dangerous",
        action="store_true",
        help="the site is dangerous: no fortune unless --fortune-at-dangerous allows some",
    )
    endeavor.add_argument(
        "--fortune-at-dangerous",
        metavar="N",
        help="a power lets you spend up to N fortune at a dangerous site (default 0)",
    )
    endeavor.add_argument(
        "--reroll-weak",
        action="store_true",
        help="re-roll each weak success once and keep the new face",
    )
    endeavor.add_argument(
        "--reroll",
        action="append",
        metavar="KIND",
        help="re-roll each die showing KIND (blank, standard, weak, strong) once; repeatable",
    )
    endeavor.add_argument(
        "--strong-counts-double",
        action="store_true",
        help="a strong success counts as 2 successes",
    )
    endeavor.add_argument(
        "--weak-counts-zero",
        action="store_true",
        help="a weak success counts as no success (fortune cannot change it)",
    )
    endeavor.add_argument(
        "--bonus",
        metavar="N",
        help="N more successes from powers, only if at least one success is rolled",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Print the odds asked for; 2 with a one-line error for bad input."""
    try:
        if args.what == "seafall":
            odds = endeavor_odds(SEAFALL, *_pool(args), rules=_rules(args))
            text = _endeavor_json(odds) if args.json else _endeavor_table(odds)
        else:
            _refuse_endeavor_options(args)
            dist = _sum(args.what)
            text = _sum_json(dist, args.what) if args.json else _sum_table(dist, args.what)
    except ValueError as exc:  # _BadInput, InvalidCommand, a bad die file
        print(f"tableside odds: error: {exc}", file=sys.stderr)
        return 2
    print(text)
    return 0


def _pool(args: argparse.Namespace) -> tuple[int, int]:
    if args.dice is None or args.defense is None:
        raise _BadInput("'seafall' needs --dice N and --defense D")
    return _whole(args.dice, "--dice", MAX_DICE), _whole(args.defense, "--defense", MAX_DICE)


def _rules(args: argparse.Namespace) -> PoolRules:
    fortune = _whole(args.fortune or "0", "--fortune", MAX_DICE)
    fortune_at_dangerous = _whole(args.fortune_at_dangerous or "0", "--fortune-at-dangerous",
                                  MAX_DICE)
    bonus = _whole(args.bonus or "0", "--bonus", MAX_DICE)
    reroll = set(args.reroll or ())
    if args.reroll_weak:
        reroll.add("weak")
    unknown = sorted(reroll - set(SEAFALL.kinds))
    if unknown:
        raise _BadInput(
            f"--reroll {unknown[0]!r}: SeaFall faces are {', '.join(SEAFALL.kinds)}"
        )
    values: dict[str, int] = {}
    if args.strong_counts_double:
        values["strong"] = 2
    if args.weak_counts_zero:
        values["weak"] = 0
    return PoolRules(
        reroll=frozenset(reroll),
        values=tuple(sorted(values.items())),
        fortune=fortune,
        dangerous=args.dangerous,
        fortune_at_dangerous=fortune_at_dangerous,
        bonus=bonus,
    )


def _refuse_endeavor_options(args: argparse.Namespace) -> None:
    used = [
        flag
        for flag, value in (
            ("--dice", args.dice),
            ("--defense", args.defense),
            ("--fortune", args.fortune),
            ("--dangerous", args.dangerous or None),
            ("--fortune-at-dangerous", args.fortune_at_dangerous),
            ("--reroll-weak", args.reroll_weak or None),
            ("--reroll", args.reroll),
            ("--strong-counts-double", args.strong_counts_double or None),
            ("--weak-counts-zero", args.weak_counts_zero or None),
            ("--bonus", args.bonus),
        )
        if value is not None
    ]
    if used:
        raise _BadInput(f"{used[0]} only applies to 'seafall', not to {args.what!r}")


def _sum(what: str) -> SumDistribution:
    numeric = _NUMERIC.fullmatch(what)
    named = _NAMED.fullmatch(what)
    if numeric:
        count, sides = int(numeric[1]), int(numeric[2])
        _check_range(sides, "the number of sides", 1, MAX_SIDES)
        die = numeric_die(sides)
    elif named:
        count = int(named[1])
        die = _die(named[2])
    else:
        raise _BadInput(f"{what!r} is not 'seafall', NdM (like 2d6) or NxDIE (like 3xmy-die.json)")
    _check_range(count, "the number of dice", 1, MAX_DICE)
    values = [f.value for f in die.faces]
    totals = count * (max(values) - min(values)) + 1
    if totals > MAX_TOTALS:
        raise _BadInput(f"{what} has {totals} possible totals; the limit is {MAX_TOTALS}")
    return sum_distribution(die, count)


def _die(name: str) -> Die:
    try:
        return find_die(name)
    except KeyError as exc:
        raise _BadInput(str(exc.args[0])) from None


def _whole(text: str, flag: str, high: int | None = None) -> int:
    """An option's whole number >= 0 (at most ``high``), or a one-line refusal."""
    try:
        value = int(text)
    except ValueError:
        raise _BadInput(f"{flag} takes a whole number, not {text!r}") from None
    _check_range(value, flag, 0, high)
    return value


def _check_range(value: int, what: str, low: int, high: int | None) -> None:
    if value < low or (high is not None and value > high):
        limit = f"from {low} to {high}" if high is not None else f"{low} or more"
        raise _BadInput(f"{what} must be {limit}, not {value}")


# ---------------------------------------------------------------- output


def _percent(p: Fraction) -> str:
    if p == 0:
        return "0"
    if p == 1:
        return "100%"
    pct = float(p) * 100
    return f"{pct:.2f}%" if pct >= 0.005 else f"{pct:.1e}%"


def _describe(rules: PoolRules) -> list[str]:
    out = []
    if rules.dangerous:
        allowed = rules.fortune_at_dangerous
        out.append(
            f"dangerous site (a power allows up to {allowed} fortune)"
            if allowed
            else "dangerous site (no fortune)"
        )
    if rules.fortune:
        out.append(f"{rules.fortune} fortune ({rules.usable_fortune} usable)")
    for kind in sorted(rules.reroll):
        out.append(f"re-roll {kind} once")
    for kind, value in rules.values:
        out.append(f"{kind} counts {value}")
    if rules.bonus:
        out.append(f"+{rules.bonus} successes if one is rolled")
    return out or ["no powers"]


def _endeavor_table(odds: EndeavorOdds) -> str:
    lines = [
        f"SeaFall endeavor: {odds.dice} dice against defense {odds.defense}",
        "rules: " + ", ".join(_describe(odds.rules)),
        "",
        f"{'successes':>9}  {'probability':>11}  {'at least':>8}",
    ]
    for k, p in enumerate(odds.successes):
        mark = "  <- defense" if k == odds.defense else ""
        lines.append(f"{k:>9}  {_percent(p):>11}  {_percent(odds.p_at_least(k)):>8}{mark}")
    lines += [
        "",
        f"at least one success      {_percent(odds.p_at_least_one_success):>8}",
        f"no damage                 {_percent(odds.p_no_damage):>8}",
        f"expected damage           {float(odds.expected_damage):>8.3f}",
        f"expected fortune spent    {float(odds.expected_fortune_spent):>8.3f}",
    ]
    return "\n".join(lines)


def _endeavor_json(odds: EndeavorOdds) -> str:
    return json.dumps(odds.to_json())


def _sum_table(dist: SumDistribution, what: str) -> str:
    lines = [
        f"{what}: the total of {dist.count} {dist.die} dice",
        "",
        f"{'total':>7}  {'probability':>11}  {'at least':>8}  exact",
    ]
    remaining = Fraction(1)
    for total, p in dist.items():
        lines.append(f"{total:>7}  {_percent(p):>11}  {_percent(remaining):>8}  {exact(p)}")
        remaining -= p
    lines += ["", f"mean {float(dist.mean):.4f} (exact {exact(dist.mean)})"]
    return "\n".join(lines)


def _sum_json(dist: SumDistribution, what: str) -> str:
    return json.dumps(dist.to_json(what))
