"""``tableside odds``: exact odds on the command line, JSON and tables, one-line refusals."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction
from math import comb
from pathlib import Path
from typing import Any

import pytest

from web.cli import main

ROOT = Path(__file__).resolve().parents[2]


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main(["odds", *argv, "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert out.count("\n") == 1  # one JSON object on one line
    return json.loads(out)


def binomial_p_no_damage(dice: int, defense: int, p: Fraction, tokens: int) -> Fraction:
    """P(rolled + fortune on blanks >= defense), success chance ``p`` per die (no bonus)."""
    return sum(
        (
            comb(dice, k) * p**k * (1 - p) ** (dice - k)
            for k in range(dice + 1)
            if k + min(tokens, dice - k) >= defense
        ),
        Fraction(0),
    )


# ------------------------------------------------------------------ seafall


def test_seafall_json_has_the_headline_keys(capsys: pytest.CaptureFixture[str]) -> None:
    """Blue's raid (Endeavors and Damage): 4 dice against defense 4 with one fortune token."""
    out = run_json(capsys, "seafall", "--dice", "4", "--defense", "4", "--fortune", "1")
    assert out["p_no_damage"] == pytest.approx(16 / 27, abs=1e-12)
    assert out["p_at_least_one_success"] == 1.0
    assert out["expected_damage"] == pytest.approx(43 / 81, abs=1e-12)
    assert out["successes"] == pytest.approx([0, 1 / 81, 8 / 81, 24 / 81, 48 / 81], abs=1e-15)
    assert out["exact"]["p_no_damage"] == "16/27"
    assert out["exact"]["successes"] == ["0/1", "1/81", "8/81", "8/27", "16/27"]
    assert out["rules"]["usable_fortune"] == 1


def test_seafall_successes_run_past_the_dice_when_strong_counts_double(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = run_json(capsys, "seafall", "--dice", "2", "--defense", "2", "--strong-counts-double")
    assert len(out["successes"]) == 5
    assert out["successes"][4] == pytest.approx(1 / 36)
    assert sum(out["successes"]) == pytest.approx(1.0)
    assert out["rules"]["values"] == {"strong": 2}


@pytest.mark.parametrize(
    ("flags", "p", "tokens"),
    [
        pytest.param([], Fraction(2, 3), 0, id="no powers"),
        pytest.param(["--fortune", "2"], Fraction(2, 3), 2, id="2 fortune"),
        pytest.param(["--fortune", "3", "--dangerous"], Fraction(2, 3), 0, id="dangerous"),
        pytest.param(
            ["--fortune", "3", "--dangerous", "--fortune-at-dangerous", "2"],
            Fraction(2, 3),
            2,
            id="dangerous, a power allows 2 fortune",
        ),
        pytest.param(["--reroll-weak"], Fraction(11, 18), 0, id="re-roll weak"),
        pytest.param(
            ["--reroll-weak", "--fortune", "1"], Fraction(11, 18), 1, id="re-roll, 1 fortune"
        ),
    ],
)
def test_seafall_equals_the_binomial_for_pools_1_to_40(
    capsys: pytest.CaptureFixture[str], flags: list[str], p: Fraction, tokens: int
) -> None:
    for dice in range(1, 41):
        defense = (dice * 2 + 2) // 3
        out = run_json(capsys, "seafall", "--dice", str(dice), "--defense", str(defense), *flags)
        want = binomial_p_no_damage(dice, defense, p, tokens)
        assert abs(out["p_no_damage"] - float(want)) <= 1e-12, dice
        assert Fraction(out["exact"]["p_no_damage"]) == want, dice


def test_seafall_weak_counts_zero_bonus_and_reroll_kinds(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = run_json(
        capsys,
        "seafall",
        "--dice",
        "1",
        "--defense",
        "3",
        "--weak-counts-zero",
        "--bonus",
        "2",
        "--reroll",
        "blank",
    )
    # blanks re-rolled once: standard or strong 3/6 + 2/6 * 3/6 = 2/3 -> 1 + 2 bonus;
    # blank again (2/6 * 2/6) or weak (1/6 + 2/6 * 1/6) = 1/3 -> no success, no bonus
    assert out["exact"]["successes"] == ["1/3", "0/1", "0/1", "2/3"]
    assert out["rules"]["reroll"] == ["blank"]
    assert out["rules"]["bonus"] == 2


def test_seafall_table_is_readable(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["odds", "seafall", "--dice", "7", "--defense", "5", "--dangerous", "--fortune", "3"]
    assert main([*argv, "--fortune-at-dangerous", "2", "--reroll-weak"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("SeaFall endeavor: 7 dice against defense 5\n")
    assert "dangerous site (a power allows up to 2 fortune)" in out
    assert "3 fortune (2 usable)" in out
    assert "re-roll weak once" in out
    assert "<- defense" in out
    assert "no damage" in out and "expected damage" in out and "at least one success" in out


# ------------------------------------------------------------------ sums


def test_two_d6_json_is_the_triangle(capsys: pytest.CaptureFixture[str]) -> None:
    """RULES-FACTS.md Catan: P(sum) = (6 - |7 - sum|) / 36."""
    out = run_json(capsys, "2d6")
    assert (out["lowest"], out["highest"], out["mean"]) == (2, 12, 7.0)
    assert list(out["sums"]) == [str(s) for s in range(2, 13)]
    for total in range(2, 13):
        want = Fraction(6 - abs(7 - total), 36)
        assert Fraction(out["exact"]["sums"][str(total)]) == want
        assert out["sums"][str(total)] == pytest.approx(float(want), abs=1e-15)


def test_three_d6_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "3d6"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("3d6: the total of 3 d6 dice\n")
    assert "     10       12.50%" in out  # 27/216
    assert "mean 10.5000 (exact 21/2)" in out


def test_custom_die_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "fate.json"
    faces = [
        {"label": n, "value": v, "count": 2} for n, v in (("minus", -1), ("zero", 0), ("plus", 1))
    ]
    path.write_text(json.dumps({"name": "fate", "faces": faces}), encoding="utf-8")
    out = run_json(capsys, f"4x{path}")
    assert (out["die"], out["lowest"], out["highest"]) == ("fate", -4, 4)
    assert out["exact"]["sums"]["0"] == "19/81"


# ------------------------------------------------------------------ refusals and help


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        pytest.param(
            ["seafall", "--dice", "-1", "--defense", "2"],
            "--dice must be from 0 to 200",
            id="negative dice",
        ),
        pytest.param(
            ["seafall", "--dice", "3", "--defense", "-1"],
            "--defense must be from 0 to 200",
            id="negative defense",
        ),
        pytest.param(
            ["seafall", "--dice", "201", "--defense", "2"],
            "--dice must be from 0 to 200",
            id="too many dice",
        ),
        pytest.param(
            ["seafall", "--dice", "x", "--defense", "2"],
            "--dice takes a whole number",
            id="not a number",
        ),
        pytest.param(["seafall", "--dice", "3"], "needs --dice N and --defense D", id="no defense"),
        pytest.param(
            ["seafall", "--dice", "3", "--defense", "2", "--fortune", "-2"],
            "--fortune must be from 0 to 200",
            id="negative fortune",
        ),
        pytest.param(  # took 6 s and 486 MB
            ["seafall", "--dice", "5", "--defense", "100000000", "--fortune", "3"],
            "--defense must be from 0 to 200, not 100000000",
            id="a defense no site has",
        ),
        pytest.param(
            ["seafall", "--dice", "5", "--defense", "4", "--bonus", "201"],
            "--bonus must be from 0 to 200",
            id="too many bonus successes",
        ),
        pytest.param(
            ["seafall", "--dice", "3", "--defense", "2", "--reroll", "skull"],
            "SeaFall faces are",
            id="unknown face",
        ),
        pytest.param(["3xd7"], "unknown die 'd7'", id="unknown die"),
        pytest.param(["201d6"], "number of dice must be from 1 to 200", id="too many sum dice"),
        pytest.param(["0d6"], "number of dice must be from 1 to 200", id="no sum dice"),
        pytest.param(["2d0"], "number of sides must be from 1 to 1000", id="no sides"),
        pytest.param(["200d100"], "possible totals", id="too many totals"),
        pytest.param(
            ["2d6", "--defense", "3"],
            "--defense only applies to 'seafall'",
            id="seafall flag on a sum",
        ),
        pytest.param(["seafal"], "is not 'seafall', NdM", id="typo"),
        pytest.param(["2x/nonexistent/die.json"], "cannot read die file", id="missing die file"),
    ],
)
def test_bad_input_is_one_line_on_stderr_and_status_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert main(["odds", *argv]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("tableside odds: error: ")
    assert message in err


@pytest.mark.parametrize("argv", [["odds", "--help"], ["--help"]], ids=["odds", "top"])
def test_help(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert "odds" in out
    if argv[0] == "odds":
        for flag in ("--dice", "--defense", "--fortune-at-dangerous", "--reroll-weak", "--bonus"):
            assert flag in out


def test_python_dash_m_web_runs_odds() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    argv = ["odds", "seafall", "--dice", "6", "--defense", "5", "--dangerous", "--json"]
    done = subprocess.run(
        [sys.executable, "-m", "web", *argv],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["exact"]["p_no_damage"] == "256/729"  # Blue's dangerous anchor site
    bad = subprocess.run(
        [sys.executable, "-m", "web", "odds", "seafall", "--dice", "-2", "--defense", "1"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
        check=False,
    )
    assert bad.returncode == 2
    assert bad.stderr.strip().count("\n") == 0 and "Traceback" not in bad.stderr
