"""Exact dice odds: against brute force, against a second method, and the rulebook's numbers.

Rulebook sections cited are those of ``../shared/seeds/seafall-rulebook-en.txt``.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from fractions import Fraction
from itertools import product
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.dice.model import D6, SEAFALL, Die, Face, numeric_die
from companion.dice.odds import endeavor_odds, face_weights, sum_distribution
from companion.dice.rules import PoolRules
from companion.errors import InvalidCommand

WEAK = frozenset({"weak"})
STRONG_DOUBLE = (("strong", 2),)

# ------------------------------------------------------------------ independent references


def value(face: Face, rules: PoolRules) -> int:
    return dict(rules.values).get(face.kind, face.value)


def settle(rolled: int, blanks: int, defense: int, rules: PoolRules) -> tuple[int, int]:
    """Final successes and tokens spent, one token at a time, as a player would at the table."""
    successes = rolled + (rules.bonus if rolled >= 1 else 0)
    tokens = rules.fortune
    if rules.dangerous:
        tokens = min(tokens, rules.fortune_at_dangerous)
    spent = 0
    while successes < max(defense, 1) and tokens > 0 and blanks > 0:
        tokens -= 1
        blanks -= 1
        successes += 1
        spent += 1
    return successes, spent


def brute_force_rolls(die: Die, dice: int, rules: PoolRules) -> dict[tuple[int, int], Fraction]:
    """P(rolled successes, blank dice) by listing every first roll and every re-roll."""
    sides = len(die.faces)
    faces = range(sides)
    worth = [value(f, rules) for f in die.faces]
    blank = [int(f.kind in rules.fortune_kinds and worth[i] == 0) for i, f in enumerate(die.faces)]
    again = [f.kind in rules.reroll for f in die.faces]
    weights: Counter[tuple[int, int]] = Counter()
    for first in product(faces, repeat=dice):
        rerolled = [i for i, face in enumerate(first) if again[face]]
        for second in product(faces, repeat=len(rerolled)):
            final = list(first)
            for i, face in zip(rerolled, second, strict=True):
                final[i] = face
            key = (sum(worth[f] for f in final), sum(blank[f] for f in final))
            weights[key] += sides ** (dice - len(rerolled))
    total = sides ** (2 * dice)
    return {key: Fraction(w, total) for key, w in weights.items()}


def settle_all(
    rolls: dict[tuple[int, int], Fraction], defense: int, rules: PoolRules
) -> tuple[list[Fraction], Fraction]:
    """The final distribution (trailing zeros trimmed) and the expected tokens spent."""
    final: defaultdict[int, Fraction] = defaultdict(Fraction)
    spent = Fraction(0)
    for (rolled, blanks), p in rolls.items():
        successes, tokens = settle(rolled, blanks, defense, rules)
        final[successes] += p
        spent += tokens * p
    top = max(k for k, p in final.items() if p)
    return [final[k] for k in range(top + 1)], spent


def dp_rolls_by_pool(die: Die, most: int, rules: PoolRules):
    """Yield (dice, P(rolled, min(blanks, tokens))) for pools 1..most, one die at a time.

    A plain Fraction convolution: the per-die final face comes from enumerating the first
    roll and, for a re-rolled face, the second. Blanks beyond the tokens never matter.
    """
    sides = len(die.faces)
    tokens = rules.fortune
    if rules.dangerous:
        tokens = min(tokens, rules.fortune_at_dangerous)
    per_die: defaultdict[tuple[int, int], Fraction] = defaultdict(Fraction)
    for first in die.faces:
        ends = die.faces if first.kind in rules.reroll else (first,)
        for face in ends:
            blank = int(face.kind in rules.fortune_kinds and value(face, rules) == 0)
            per_die[(value(face, rules), blank)] += Fraction(1, sides * len(ends))
    states: dict[tuple[int, int], Fraction] = {(0, 0): Fraction(1)}
    for dice in range(1, most + 1):
        nxt: defaultdict[tuple[int, int], Fraction] = defaultdict(Fraction)
        for (rolled, blanks), p in states.items():
            for (v, blank), q in per_die.items():
                nxt[(rolled + v, min(blanks + blank, tokens))] += p * q
        states = dict(nxt)
        yield dice, states


RULE_SETS = [
    pytest.param(PoolRules(), id="no powers"),
    pytest.param(PoolRules(reroll=WEAK), id="re-roll weak once"),
    pytest.param(PoolRules(values=(("weak", 0),)), id="weak counts 0"),
    pytest.param(PoolRules(values=STRONG_DOUBLE), id="strong counts 2"),
    pytest.param(
        PoolRules(reroll=WEAK, values=(("strong", 2), ("weak", 0))),
        id="re-roll weak, weak 0, strong 2",
    ),
    pytest.param(PoolRules(fortune=2), id="2 fortune"),
    pytest.param(PoolRules(fortune=9), id="more fortune than dice"),
    pytest.param(
        PoolRules(fortune=3, dangerous=True), id="fortune cannot be spent at a dangerous site"
    ),
    pytest.param(
        PoolRules(fortune=3, dangerous=True, fortune_at_dangerous=2),
        id="a power allows 2 fortune at a dangerous site",
    ),
    pytest.param(
        PoolRules(fortune=1, dangerous=True, fortune_at_dangerous=2),
        id="fewer tokens than the power allows",
    ),
    pytest.param(PoolRules(bonus=1), id="bonus 1 needs a rolled success"),
    pytest.param(PoolRules(bonus=2, fortune=2), id="bonus 2 with fortune"),
    pytest.param(PoolRules(reroll=WEAK, fortune=2), id="re-roll weak with fortune"),
    pytest.param(
        PoolRules(
            reroll=WEAK,
            values=STRONG_DOUBLE,
            fortune=3,
            dangerous=True,
            fortune_at_dangerous=2,
            bonus=1,
        ),
        id="everything at once",
    ),
    pytest.param(
        PoolRules(values=(("weak", 0),), fortune=2, fortune_kinds=frozenset({"blank", "weak"})),
        id="weak counts as a blank that fortune can turn",
    ),
]


# ------------------------------------------------------------------ brute force, all 6^n


@pytest.mark.parametrize("rules", RULE_SETS)
def test_endeavor_odds_equal_brute_force_enumeration(rules: PoolRules) -> None:
    for dice in range(0, 6 if rules.reroll else 7):
        rolls = brute_force_rolls(SEAFALL, dice, rules)
        for defense in range(0, dice + 4):
            want, spent = settle_all(rolls, defense, rules)
            odds = endeavor_odds(SEAFALL, dice, defense, rules)
            where = f"{dice} dice vs defense {defense}"
            assert list(odds.successes) == want, where
            assert odds.p_at_least_one_success == 1 - want[0], where
            assert odds.p_no_damage == sum(want[defense:], Fraction(0)), where
            assert odds.expected_damage == sum(
                ((defense - k) * p for k, p in enumerate(want) if k < defense), Fraction(0)
            ), where
            assert odds.expected_fortune_spent == spent, where


@pytest.mark.parametrize(
    "rules",
    [
        pytest.param(PoolRules(reroll=frozenset({"weak", "blank"})), id="re-roll weak and blank"),
        pytest.param(
            PoolRules(reroll=frozenset({"blank"}), fortune=2, bonus=1),
            id="re-roll blank, then fortune and bonus",
        ),
    ],
)
def test_endeavor_odds_with_two_rerolled_kinds_equal_brute_force(rules: PoolRules) -> None:
    for dice in range(0, 5):
        rolls = brute_force_rolls(SEAFALL, dice, rules)
        for defense in range(0, dice + 3):
            want, spent = settle_all(rolls, defense, rules)
            odds = endeavor_odds(SEAFALL, dice, defense, rules)
            assert list(odds.successes) == want, f"{dice} dice vs defense {defense}"
            assert odds.expected_fortune_spent == spent


# ------------------------------------------------------------------ pools 1..40, second method


@pytest.mark.parametrize(
    "rules",
    [
        pytest.param(PoolRules(), id="no powers"),
        pytest.param(PoolRules(fortune=3), id="3 fortune"),
        pytest.param(PoolRules(fortune=4, dangerous=True), id="dangerous site, no fortune"),
        pytest.param(
            PoolRules(fortune=4, dangerous=True, fortune_at_dangerous=2),
            id="dangerous site, 2 fortune allowed",
        ),
        pytest.param(PoolRules(reroll=WEAK), id="re-roll weak"),
        pytest.param(PoolRules(reroll=WEAK, fortune=2), id="re-roll weak with fortune"),
        pytest.param(
            PoolRules(reroll=WEAK, values=STRONG_DOUBLE, fortune=2, bonus=1),
            id="re-roll weak, strong 2, fortune, bonus",
        ),
    ],
)
def test_endeavor_odds_match_fraction_convolution_for_pools_1_to_40(rules: PoolRules) -> None:
    for dice, states in dp_rolls_by_pool(SEAFALL, 40, rules):
        for defense in sorted({1, dice // 2, dice - 1, dice, dice + 2}):
            want, spent = settle_all(states, defense, rules)
            odds = endeavor_odds(SEAFALL, dice, defense, rules)
            where = f"{dice} dice vs defense {defense}"
            assert list(odds.successes) == want, where
            assert odds.expected_fortune_spent == spent, where
            assert abs(float(odds.p_no_damage) - float(sum(want[defense:], Fraction(0)))) < 1e-12


# ------------------------------------------------------------------ the rulebook's numbers


def test_one_die_is_a_success_four_times_in_six() -> None:
    """Endeavors and Damage > Dice: four of the six faces are successes."""
    odds = endeavor_odds(SEAFALL, 1, 1)
    assert odds.successes == (Fraction(1, 3), Fraction(2, 3))
    assert odds.p_no_damage == odds.p_at_least_one_success == Fraction(2, 3)
    assert odds.expected_damage == Fraction(1, 3)


@pytest.mark.parametrize(
    ("fortune", "p_no_damage", "expected_damage"),
    [
        # (2/3)^4
        pytest.param(0, Fraction(16, 81), Fraction(4, 3), id="Blue's raid without fortune"),
        # (2/3)^4 + 4 (2/3)^3 (1/3): three successes and a blank that a token turns
        pytest.param(1, Fraction(16, 27), Fraction(43, 81), id="Blue's raid with 1 fortune"),
    ],
)
def test_blues_raid_four_dice_against_defense_four(
    fortune: int, p_no_damage: Fraction, expected_damage: Fraction
) -> None:
    """Endeavors and Damage > Creating a Dice Pool and Completing an Endeavor & Fortune.

    Blue's pool is 5 dice less 1 for the garrison; the site's defense is 4. Expected damage
    without fortune is 4 - 4 * 2/3; with one token it is 3*P(0) + 2*P(1) + 1*P(2) with
    P(k) = comb(4, k) (2/3)^k (1/3)^(4-k) = (3 + 16 + 24) / 81.
    """
    odds = endeavor_odds(SEAFALL, 4, 4, PoolRules(fortune=fortune))
    assert odds.p_no_damage == p_no_damage
    assert odds.expected_damage == expected_damage


@pytest.mark.parametrize("fortune", [0, 1, 3], ids=lambda f: f"{f} fortune held")
def test_blues_dangerous_anchor_site_fortune_does_not_help(fortune: int) -> None:
    """Explorers Guild actions > 2. Explore: Blue's 6 dice against a dangerous defense 5.

    No fortune at a dangerous site, so P(no damage) = P(5 or 6 successes)
    = 6 (2/3)^5 (1/3) + (2/3)^6 = (192 + 64) / 729.
    """
    odds = endeavor_odds(SEAFALL, 6, 5, PoolRules(fortune=fortune, dangerous=True))
    assert odds.p_no_damage == Fraction(256, 729)
    assert odds.expected_fortune_spent == 0


def test_yellows_spice_raid_rerolls_weak_once_and_spends_two_fortune() -> None:
    """Soldiers Guild actions > 2. Raid: Yellow's 7 dice, dangerous defense 5.

    The island re-rolls weak successes (once: 11/18 per die is a success), and the Advanced
    Scout allows up to 2 fortune at a dangerous site, so 3 rolled successes are enough: 7
    dice with 3 successes show 4 blanks, two of which the tokens turn.
    """
    rules = PoolRules(reroll=WEAK, fortune=4, dangerous=True, fortune_at_dangerous=2)
    odds = endeavor_odds(SEAFALL, 7, 5, rules)
    p = Fraction(11, 18)
    assert odds.p_no_damage == sum(comb(7, k) * p**k * (1 - p) ** (7 - k) for k in range(3, 8))


@pytest.mark.parametrize(
    ("reroll", "p_success"),
    [
        pytest.param(frozenset(), Fraction(2, 3), id="no re-roll: 4 faces of 6"),
        # 3/6 kept + 1/6 weak re-rolled * 4/6: not 3/5, the re-roll-until-not-weak reading
        pytest.param(WEAK, Fraction(11, 18), id="re-roll weak once, keep the new face"),
        pytest.param(frozenset({"blank"}), Fraction(8, 9), id="re-roll blank once"),
    ],
)
def test_one_die_success_after_reroll_once(reroll: frozenset[str], p_success: Fraction) -> None:
    """Soldiers Guild actions > 2. Raid (Yellow): a re-rolled die keeps its new face."""
    assert endeavor_odds(SEAFALL, 1, 1, PoolRules(reroll=reroll)).p_no_damage == p_success


def test_fortune_converted_success_counts_as_at_least_one_success() -> None:
    """RULES-FACTS.md Ambiguities: one die and one token can never end with no success."""
    odds = endeavor_odds(SEAFALL, 1, 1, PoolRules(fortune=1))
    assert odds.p_at_least_one_success == 1
    assert odds.expected_fortune_spent == Fraction(1, 3)


def test_bonus_needs_a_rolled_success_even_with_fortune() -> None:
    """RULES-FACTS.md Rulings: added successes need a rolled success; fortune is not one."""
    odds = endeavor_odds(SEAFALL, 1, 3, PoolRules(bonus=2, fortune=1))
    # success: 1 + 2 = 3; blank: the token makes 1, the bonus does not apply
    assert odds.successes == (0, Fraction(1, 3), 0, Fraction(2, 3))
    assert odds.expected_damage == Fraction(2, 3)


@pytest.mark.parametrize(
    ("defense", "spent"),
    [
        pytest.param(0, Fraction(1, 9), id="defense 0: a token still buys the one success"),
        pytest.param(1, Fraction(1, 9), id="defense 1: only when no success was rolled"),
        pytest.param(2, Fraction(6, 9), id="defense 2: one token per blank, as needed"),
    ],
)
def test_fortune_is_spent_only_as_needed(defense: int, spent: Fraction) -> None:
    """Two dice, three tokens: P(2 blanks) = 1/9, P(1 blank) = 4/9 (then 1 success rolled)."""
    odds = endeavor_odds(SEAFALL, 2, defense, PoolRules(fortune=3))
    assert odds.expected_fortune_spent == spent


def test_strong_counting_two_runs_past_the_number_of_dice() -> None:
    odds = endeavor_odds(SEAFALL, 3, 3, PoolRules(values=STRONG_DOUBLE))
    assert odds.max_successes == 6
    assert odds.successes[6] == Fraction(1, 216)


def test_no_dice_means_no_success() -> None:
    odds = endeavor_odds(SEAFALL, 0, 2, PoolRules(fortune=3, bonus=1))
    assert odds.successes == (1,)
    assert odds.p_at_least_one_success == 0
    assert odds.expected_damage == 2


def test_p_at_least_sums_the_tail() -> None:
    odds = endeavor_odds(SEAFALL, 5, 3, PoolRules(reroll=WEAK, fortune=1))
    assert odds.p_at_least(0) == 1
    assert odds.p_at_least(3) == odds.p_no_damage
    assert odds.p_at_least(99) == 0


# ------------------------------------------------------------------ per-die tables and sums


@pytest.mark.parametrize(
    ("reroll", "denominator", "weights"),
    [
        pytest.param(frozenset(), 6, (1, 1, 1, 1, 1, 1), id="no re-roll"),
        # kept: 6/36 each unless weak; every face gains 1/36 from the weak re-roll
        pytest.param(WEAK, 36, (7, 7, 7, 7, 1, 7), id="re-roll weak"),
        pytest.param(frozenset({"blank"}), 18, (1, 1, 4, 4, 4, 4), id="re-roll blank"),
    ],
)
def test_face_weights_after_rerolls(
    reroll: frozenset[str], denominator: int, weights: tuple[int, ...]
) -> None:
    assert [f.kind for f in SEAFALL.faces] == [
        "blank", "blank", "standard", "standard", "weak", "strong"
    ]
    assert face_weights(SEAFALL, reroll) == (denominator, weights)


def test_two_d6_matches_the_catan_formula() -> None:
    """RULES-FACTS.md Catan: P(sum) = (6 - |7 - sum|) / 36."""
    dist = sum_distribution(D6, 2)
    assert (dist.lowest, dist.highest) == (2, 12)
    assert dist.items() == [(s, Fraction(6 - abs(7 - s), 36)) for s in range(2, 13)]
    assert dist.mean == 7
    assert dist.probability(1) == dist.probability(13) == 0


@pytest.mark.parametrize("count", [1, 2, 3, 4])
def test_sum_distribution_equals_enumeration(count: int) -> None:
    fate = Die.from_json(
        {
            "name": "fate",
            "faces": [
                {"label": "minus", "value": -1, "count": 2},
                {"label": "zero", "value": 0, "count": 2},
                {"label": "plus", "value": 1, "count": 2},
            ],
        }
    )
    for die in (D6, numeric_die(4), fate, SEAFALL):
        totals = Counter(sum(f.value for f in roll) for roll in product(die.faces, repeat=count))
        outcomes = len(die.faces) ** count
        dist = sum_distribution(die, count)
        want = {t: Fraction(n, outcomes) for t, n in totals.items()}
        assert {t: p for t, p in dist.items() if p} == want
        assert dist.mean == sum(t * p for t, p in want.items())


def test_sum_distribution_with_a_reroll_and_values() -> None:
    # d6 re-rolling 1s once: 1 shows with 1/36, every other face with 7/36
    dist = sum_distribution(D6, 1, PoolRules(reroll=frozenset({"1"}), values=(("6", 10),)))
    assert dist.probability(1) == Fraction(1, 36)
    assert dist.probability(10) == Fraction(7, 36)
    assert dist.probability(6) == 0


def test_sum_distribution_refuses_endeavor_rules() -> None:
    with pytest.raises(InvalidCommand, match="endeavors"):
        sum_distribution(D6, 2, PoolRules(fortune=1))


def test_forty_d6_is_exact() -> None:
    dist = sum_distribution(D6, 40)
    assert dist.probability(40) == Fraction(1, 6**40)
    assert sum(dist.probabilities) == 1
    assert dist.mean == 140


# ------------------------------------------------------------------ refusals


@pytest.mark.parametrize(
    ("call", "message"),
    [
        pytest.param(lambda: endeavor_odds(SEAFALL, -1, 2), "number of dice", id="negative dice"),
        pytest.param(lambda: endeavor_odds(SEAFALL, 2, -1), "defense", id="negative defense"),
        pytest.param(lambda: endeavor_odds(SEAFALL, True, 1), "number of dice", id="bool dice"),
        pytest.param(
            lambda: endeavor_odds(SEAFALL, 2, 1, PoolRules(reroll=frozenset({"wek"}))),
            "no face of kind 'wek'",
            id="re-roll of an unknown kind",
        ),
        pytest.param(
            lambda: endeavor_odds(SEAFALL, 2, 1, PoolRules(values=(("weak", -1),))),
            "must be >= 0",
            id="negative success value",
        ),
        pytest.param(lambda: PoolRules(fortune=-1), "fortune", id="negative fortune"),
        pytest.param(  # a defense of 10**8 with fortune to spend took 6 s and 486 MB
            lambda: endeavor_odds(SEAFALL, 5, 10**8, PoolRules(fortune=3)),
            "the defense must be at most 200, not 100000000", id="a defense no site has"),
        pytest.param(lambda: endeavor_odds(SEAFALL, 201, 3), "dice must be at most 200",
                     id="more dice than any table rolls"),
        pytest.param(lambda: endeavor_odds(SEAFALL, 5, 3, PoolRules(bonus=201)),
                     "bonus must be at most 200", id="bonus successes past the bound"),
        pytest.param(lambda: endeavor_odds(SEAFALL, 5, 3, PoolRules(fortune_at_dangerous=999)),
                     "fortune at dangerous must be at most 200", id="dangerous fortune"),
        pytest.param(lambda: PoolRules(bonus=1.5), "bonus", id="fractional bonus"),
        pytest.param(lambda: PoolRules(reroll="weak"), "set of face kinds", id="reroll as str"),
        pytest.param(
            lambda: PoolRules(values=(("weak", 0), ("weak", 2))), "two values", id="two values"
        ),
        pytest.param(lambda: PoolRules(values=(("weak",),)), "pairs", id="not a pair"),
        pytest.param(lambda: PoolRules(values=3), "map face kinds", id="values not a mapping"),
        pytest.param(lambda: PoolRules(dangerous=1), "dangerous", id="dangerous not a bool"),
    ],
)
def test_bad_input_is_an_invalid_command(call, message: str) -> None:
    with pytest.raises(InvalidCommand, match=message):
        call()


def test_pool_rules_accept_a_mapping_of_values_and_stay_hashable() -> None:
    rules = PoolRules(values={"weak": 0, "strong": 2}, reroll=["weak"])  # type: ignore[arg-type]
    assert rules.values == (("strong", 2), ("weak", 0))
    from_json = PoolRules(values=[["weak", 0], ["strong", 2]])  # type: ignore[arg-type]
    assert from_json.values == rules.values
    assert rules == PoolRules(values=(("weak", 0), ("strong", 2)), reroll=WEAK)
    assert hash(rules) == hash(PoolRules(values=(("weak", 0), ("strong", 2)), reroll=WEAK))


@pytest.mark.parametrize(
    ("rules", "usable_tokens"),
    [
        pytest.param(PoolRules(fortune=3), 3, id="safe site: every token"),
        pytest.param(PoolRules(fortune=3, dangerous=True), 0, id="dangerous: none"),
        pytest.param(
            PoolRules(fortune=3, dangerous=True, fortune_at_dangerous=2), 2, id="power allows 2"
        ),
        pytest.param(
            PoolRules(fortune=1, dangerous=True, fortune_at_dangerous=2), 1, id="holds only 1"
        ),
    ],
)
def test_usable_fortune(rules: PoolRules, usable_tokens: int) -> None:
    assert rules.usable_fortune == usable_tokens


# ------------------------------------------------------------------ properties

rules_strategy = st.builds(
    PoolRules,
    reroll=st.frozensets(st.sampled_from(SEAFALL.kinds), max_size=2),
    values=st.lists(
        st.tuples(st.sampled_from(("weak", "strong")), st.integers(0, 2)),
        max_size=2,
        unique_by=lambda kv: kv[0],
    ).map(tuple),
    fortune=st.integers(0, 6),
    dangerous=st.booleans(),
    fortune_at_dangerous=st.integers(0, 3),
    bonus=st.integers(0, 3),
)


@settings(max_examples=200, deadline=None)
@given(dice=st.integers(0, 60), defense=st.integers(0, 70), rules=rules_strategy)
def test_distribution_sums_to_exactly_one(dice: int, defense: int, rules: PoolRules) -> None:
    odds = endeavor_odds(SEAFALL, dice, defense, rules)
    assert sum(odds.successes) == 1
    assert sum(odds.counts) == odds.denominator
    assert all(p >= 0 for p in odds.successes)
    assert odds.successes[-1] > 0
    assert 0 <= odds.p_no_damage <= 1
    assert 0 <= odds.expected_fortune_spent <= rules.usable_fortune


@settings(max_examples=150, deadline=None)
@given(
    dice=st.integers(0, 30),
    defense=st.integers(0, 35),
    rules=rules_strategy,
    more=st.integers(1, 4),
)
def test_more_fortune_never_lowers_the_odds(
    dice: int, defense: int, rules: PoolRules, more: int
) -> None:
    richer = PoolRules(
        reroll=rules.reroll,
        values=rules.values,
        fortune=rules.fortune + more,
        dangerous=rules.dangerous,
        fortune_at_dangerous=rules.fortune_at_dangerous,
        bonus=rules.bonus,
    )
    poor = endeavor_odds(SEAFALL, dice, defense, rules)
    rich = endeavor_odds(SEAFALL, dice, defense, richer)
    assert rich.p_no_damage >= poor.p_no_damage
    assert rich.p_at_least_one_success >= poor.p_at_least_one_success
    assert rich.expected_damage <= poor.expected_damage


@settings(max_examples=150, deadline=None)
@given(dice=st.integers(0, 40), defense=st.integers(0, 45), rules=rules_strategy)
def test_dangerous_site_without_a_power_is_no_fortune(
    dice: int, defense: int, rules: PoolRules
) -> None:
    def variant(fortune: int, dangerous: bool) -> PoolRules:
        return PoolRules(
            reroll=rules.reroll,
            values=rules.values,
            fortune=fortune,
            dangerous=dangerous,
            fortune_at_dangerous=0,
            bonus=rules.bonus,
        )

    dangerous = endeavor_odds(SEAFALL, dice, defense, variant(rules.fortune, True))
    without = endeavor_odds(SEAFALL, dice, defense, variant(0, False))
    assert dangerous.successes == without.successes
    assert dangerous.expected_fortune_spent == 0


@settings(max_examples=100, deadline=None)
@given(dice=st.integers(0, 30), defense=st.integers(0, 35), rules=rules_strategy)
def test_one_more_die_never_lowers_the_odds(dice: int, defense: int, rules: PoolRules) -> None:
    fewer = endeavor_odds(SEAFALL, dice, defense, rules)
    more = endeavor_odds(SEAFALL, dice + 1, defense, rules)
    assert more.p_no_damage >= fewer.p_no_damage
    assert more.p_at_least_one_success >= fewer.p_at_least_one_success


@settings(max_examples=100, deadline=None)
@given(count=st.integers(0, 50), sides=st.integers(1, 20))
def test_sum_distribution_sums_to_one_and_is_symmetric(count: int, sides: int) -> None:
    dist = sum_distribution(numeric_die(sides), count)
    assert sum(dist.probabilities) == 1
    assert dist.probabilities == dist.probabilities[::-1]
    assert dist.mean == Fraction(count * (sides + 1), 2)
