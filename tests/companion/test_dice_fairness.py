"""The dice a table threw against their odds (companion/dice/fairness.py; docs/api.md,
"Dice statistics"). The SeaFall die has 2 blank, 2 standard, 1 weak and 1 strong face
(RULES-FACTS.md, "The die"; rulebook, "Dice"), so fair dice show blank and standard a
third of the time each and weak and strong a sixth each."""

from __future__ import annotations

import math
import random

import pytest

from companion.dice import D6, SEAFALL
from companion.dice.fairness import MIN_EXPECTED, chi_square_sf, fairness


@pytest.mark.parametrize(("x", "dof", "p"), [
    # critical values of the chi-square distribution (any statistics table)
    (3.841, 1, 0.05), (5.991, 2, 0.05), (7.815, 3, 0.05), (9.488, 4, 0.05), (11.070, 5, 0.05),
    (6.635, 1, 0.01), (11.345, 3, 0.01), (15.086, 5, 0.01), (0.115, 3, 0.99), (1.145, 5, 0.95),
])
def test_the_chi_square_tail_matches_the_tables(x, dof, p):
    assert chi_square_sf(x, dof) == pytest.approx(p, abs=5e-4)


@pytest.mark.parametrize("dof", [1, 2, 3, 4, 5, 6, 7, 9])
def test_the_chi_square_tail_is_the_integral_of_its_density(dof):
    """Checked against a numerical integral of the density from x to far out."""
    def density(t: float) -> float:
        return t ** (dof / 2 - 1) * math.exp(-t / 2) / (2 ** (dof / 2) * math.gamma(dof / 2))
    x, far, steps = 4.0, 120.0, 40_000
    width = (far - x) / steps
    integral = sum(density(x + (i + 0.5) * width) for i in range(steps)) * width
    assert chi_square_sf(x, dof) == pytest.approx(integral, rel=1e-6)
    assert chi_square_sf(0.0, dof) == 1.0
    with pytest.raises(ValueError):
        chi_square_sf(1.0, 0)


def test_the_seafall_die_expects_its_faces_by_their_count():
    f = fairness(SEAFALL, ["blank"] * 10 + ["standard"] * 10 + ["weak"] * 5 + ["strong"] * 5)
    assert f.dice == 30 and f.chi_square == 0.0 and f.p_value == 1.0
    assert [(c.label, c.observed, c.expected) for c in f.faces] == [
        ("blank", 10, 10.0), ("standard", 10, 10.0), ("weak", 5, 5.0), ("strong", 5, 5.0)]


def test_too_few_dice_are_not_judged():
    """A face must be expected MIN_EXPECTED times: 29 SeaFall dice expect strong 4.8
    times."""
    assert MIN_EXPECTED == 5.0
    assert fairness(SEAFALL, ["strong"] * 29).p_value is None
    assert fairness(SEAFALL, []).to_json()["dice"] == 0
    assert fairness(D6, ["6"] * 30).p_value is not None


def test_loaded_dice_are_unusual_and_fair_dice_are_not():
    """A die that shows strong half the time, not a sixth, stands out after 120 throws;
    dice thrown fairly (seeded) do not, across many tables."""
    loaded = fairness(SEAFALL, ["strong"] * 60 + ["blank"] * 60)
    assert loaded.p_value is not None and loaded.p_value < 1e-6
    rng = random.Random(4)
    faces = [f.label for f in SEAFALL.faces]
    values = [fairness(SEAFALL, rng.choices(faces, k=120)).p_value for _ in range(200)]
    unusual = sum(p < 0.01 for p in values if p is not None)
    assert unusual <= 6  # about 1% of fair tables, by the test's own meaning


def test_a_face_the_die_does_not_have_is_refused():
    with pytest.raises(ValueError, match="kraken"):
        fairness(SEAFALL, ["blank", "kraken"])


def test_seafall_says_which_dice_were_thrown_and_by_whom():
    """Each roll and re-roll of an endeavor's pool is thrown dice (rulebook, "Endeavors and
    Damage": a re-rolled die is rolled again), the province the EndeavorStarted before it
    names; an empty pool throws nothing."""
    from companion.engine import Event
    from companion.games.seafall.engine import SeaFall

    events = [Event("EndeavorStarted", {"player": "blue"}),
              Event("DiceRolled", {"faces": ["weak", "blank"], "source": "camera"}),
              Event("DiceRerolled", {"indices": [0], "faces": ["strong"], "source": "photo"}),
              Event("EndeavorStarted", {"player": "red"}),
              Event("DiceRolled", {"faces": [], "source": "empty pool"}),
              Event("DiceRolled", {"faces": ["standard"]})]
    assert SeaFall().dice_thrown(events) == [
        {"player": "blue", "die": "seafall", "source": "camera", "faces": ["weak", "blank"]},
        {"player": "blue", "die": "seafall", "source": "photo", "faces": ["strong"]},
        {"player": "red", "die": "seafall", "source": "typed", "faces": ["standard"]}]
