"""Durability is proven, not assumed: SIGKILL a process that applies commands, then look.

A worker subprocess (``tests/support/durability_worker.py``) plays tally on a database
file, printing ``ACK <command_no> <version>`` only after each command, undo or redo has
committed. We kill it at random moments (seeded, so a failure can be replayed), reopen the
file and check: every acknowledged record is there; no record is half-written; the log is
gapless; replaying it equals every snapshot and ``Table.open``; SQLite's integrity check
passes; and a new worker resumes on the same file. ``benchmarks/bench_durability.py`` runs
the same harness with hundreds of kills.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.support.durability import Ack, Worker, check, run

SEED = 20261122


@pytest.mark.slow
@pytest.mark.parametrize("driver", [
    pytest.param("tests.support.drivers:TallyDriver", id="tally"),
    pytest.param("tests.support.drivers:SeaFallDriver", id="seafall endeavors"),
])
def test_durability_survives_random_sigkills(tmp_path: Path, driver: str) -> None:
    db = tmp_path / "durability.sqlite3"
    seen: list[int] = []
    summary = run(db, kills=8, seed=SEED, driver=driver,
                  progress=lambda n, found: seen.append(found.records))
    assert summary.kills == 8
    assert summary.acknowledged > 20
    assert (summary.lost, summary.half_applied, summary.integrity_failures) == (0, 0, 0)
    assert summary.other_problems == []
    assert seen == sorted(seen)  # the log only grows
    assert summary.records > summary.acknowledged  # plus the setup (and unacked tails)


def test_durability_check_notices_a_lost_acknowledged_command(tmp_path: Path) -> None:
    db = tmp_path / "durability.sqlite3"
    run(db, kills=0, seed=SEED)  # a clean run of 20 commands
    found = check(db, [Ack(1, 2), Ack(500, 900)])
    assert found.lost == [500]
    assert not found.ok


def test_durability_check_notices_a_half_written_command(tmp_path: Path) -> None:
    db = tmp_path / "durability.sqlite3"
    run(db, kills=0, seed=SEED)
    conn = sqlite3.connect(db)
    try:  # forge a record that claims three events and has none
        conn.execute("INSERT INTO commands SELECT session_id, 21, 'command', 'add', '{}', "
                     "NULL, time, NULL, 3 FROM commands WHERE command_no = 20")
        conn.commit()
    finally:
        conn.close()
    found = check(db, [])
    assert found.half_applied == [21]
    assert not found.ok


def test_durability_worker_plays_any_game_through_its_prompts(tmp_path: Path) -> None:
    db = tmp_path / "prompts.sqlite3"
    driver = "tests.support.drivers:TallyPromptDriver"
    worker = Worker(db, seed=SEED, driver=driver, commands=30)
    assert worker.finish(timeout=60) == 0
    assert len(worker.acks) == 30
    found = check(db, worker.acks, driver)
    assert found.ok, found
    assert found.records == 31
