"""The durability harness: kill a worker at random moments, then check the database.

Shared by ``tests/companion/test_durability.py`` (a handful of kills) and
``benchmarks/bench_durability.py`` (hundreds). Everything random comes from one seeded
generator, so a failing run can be replayed.
"""

from __future__ import annotations

import os
import random
import selectors
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from companion.store import SQLiteStore, StoreError
from companion.table import Table, replay
from tests.support.durability_worker import DEFAULT_DRIVER, load_driver

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Ack:
    command_no: int
    version: int


@dataclass
class Check:
    """What one look at the database found; ``problems`` is empty when all is well."""

    records: int = 0
    version: int = 0
    lost: list[int] = field(default_factory=list)
    half_applied: list[int] = field(default_factory=list)
    integrity: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not (self.lost or self.half_applied or self.integrity or self.problems)


@dataclass
class Summary:
    kills: int = 0
    acknowledged: int = 0
    lost: int = 0
    half_applied: int = 0
    integrity_failures: int = 0
    other_problems: list[str] = field(default_factory=list)
    records: int = 0
    elapsed: float = 0.0

    @property
    def ok(self) -> bool:
        return not (self.lost or self.half_applied or self.integrity_failures
                    or self.other_problems)


class Worker:
    """A running durability worker and the ACK lines it has printed."""

    def __init__(self, db: Path, *, seed: int, driver: str = DEFAULT_DRIVER,
                 snapshot_every: int = 7, commands: int | None = None) -> None:
        argv = [sys.executable, "-m", "tests.support.durability_worker", "--db", str(db),
                "--driver", driver, "--seed", str(seed), "--snapshot-every",
                str(snapshot_every)]
        if commands is not None:
            argv += ["--commands", str(commands)]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(
            p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)}
        self.process = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, bufsize=0)
        self.acks: list[Ack] = []
        self._buffer = b""

    def wait_for_acks(self, count: int, timeout: float) -> None:
        """Read until ``count`` more ACKs arrived; ``TimeoutError`` past ``timeout`` s."""
        assert self.process.stdout is not None
        wanted = len(self.acks) + count
        deadline = time.monotonic() + timeout
        with selectors.DefaultSelector() as selector:
            selector.register(self.process.stdout, selectors.EVENT_READ)
            while len(self.acks) < wanted:
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    raise TimeoutError(f"worker gave {len(self.acks)} ACKs, wanted {wanted}")
                chunk = os.read(self.process.stdout.fileno(), 65536)
                if not chunk:
                    raise RuntimeError(f"worker ended early: {self._stderr()}")
                self._take(chunk)

    def kill(self) -> None:
        """SIGKILL, then collect every ACK it flushed before dying."""
        assert self.process.stdout is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)
        self._take(self.process.stdout.read())
        self.close()

    def finish(self, timeout: float) -> int:
        """Wait for a worker started with ``commands`` to end; its exit status."""
        assert self.process.stdout is not None
        out, err = self.process.communicate(timeout=timeout)
        self._take(out)
        if self.process.returncode:
            raise RuntimeError(f"worker failed: {err.decode(errors='replace')}")
        self.close()
        return self.process.returncode

    def close(self) -> None:
        for stream in (self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()

    def _stderr(self) -> str:
        assert self.process.stderr is not None
        self.process.wait(timeout=10)
        return self.process.stderr.read().decode(errors="replace")

    def _take(self, chunk: bytes) -> None:
        self._buffer += chunk
        *lines, self._buffer = self._buffer.split(b"\n")
        for line in lines:
            words = line.split()
            if words[:1] == [b"ACK"]:
                self.acks.append(Ack(int(words[1]), int(words[2])))


def check(db: Path, acks: list[Ack], driver: str = DEFAULT_DRIVER) -> Check:
    """Everything the durability test promises, looked at after a crash."""
    found = Check()
    conn = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)
    try:
        result = [row[0] for row in conn.execute("PRAGMA integrity_check")]
        if result != ["ok"]:
            found.integrity = result
        _check_log(conn, found)
    finally:
        conn.close()
    load_driver(driver).register()
    with SQLiteStore(db, create=False) as store:
        sessions = store.sessions()
        if not sessions and not acks:
            return found  # killed while creating the game: nothing was promised
        if len(sessions) != 1:
            found.problems.append(f"{len(sessions)} sessions, expected 1")
            return found
        sid = sessions[0].id
        try:
            records = store.records(sid)
        except StoreError as exc:
            found.problems.append(str(exc))
            return found
        found.records = len(records)
        found.version = sessions[0].version
        by_no = {r.command_no: r for r in records}
        for ack in acks:
            record = by_no.get(ack.command_no)
            if record is None:
                found.lost.append(ack.command_no)
            elif record.events and record.events[-1].seq != ack.version:
                found.problems.append(f"ACK {ack.command_no} said version {ack.version}, "
                                      f"the log says {record.events[-1].seq}")
        table = Table.open(store, sid)
        engine = table.engine
        full = replay(engine, records)
        if engine.dump_state(full.state) != engine.dump_state(table.state):
            found.problems.append("Table.open's state differs from replaying the log")
        if (full.applied_numbers, full.redoable_numbers) != (table.applied, table.redoable):
            found.problems.append("Table.open's undo/redo stacks differ from the log's")
        upto = replay(engine, records[:1])
        for snapshot in store.snapshots(sid):  # one pass over the log for all snapshots
            upto = replay(engine, records[upto.last_command + 1:snapshot.command_no + 1], upto)
            if (engine.dump_state(upto.state), upto.applied_numbers, upto.redoable_numbers,
                    upto.version) != (snapshot.data.state, snapshot.data.applied,
                                      snapshot.data.redoable, snapshot.version):
                found.problems.append(f"snapshot at record {snapshot.command_no} differs "
                                      "from replaying the log up to it")
    return found


def _check_log(conn: sqlite3.Connection, found: Check) -> None:
    """Gapless numbering and all-or-nothing records, straight from the tables."""
    for sid, in conn.execute("SELECT id FROM sessions"):
        numbers = [r[0] for r in conn.execute(
            "SELECT command_no FROM commands WHERE session_id = ? ORDER BY command_no", (sid,))]
        if numbers != list(range(len(numbers))):
            found.problems.append(f"session {sid}: command numbers have gaps")
        seqs = [r[0] for r in conn.execute(
            "SELECT seq FROM events WHERE session_id = ? ORDER BY seq", (sid,))]
        if seqs != list(range(1, len(seqs) + 1)):
            found.problems.append(f"session {sid}: event sequence has gaps")
        for no, expected, present in conn.execute(
                "SELECT c.command_no, c.event_count, COUNT(e.seq) FROM commands c "
                "LEFT JOIN events e ON e.session_id = c.session_id "
                "AND e.command_no = c.command_no WHERE c.session_id = ? "
                "GROUP BY c.command_no", (sid,)):
            if expected != present:
                found.half_applied.append(no)
        orphans = conn.execute(
            "SELECT COUNT(*) FROM events e WHERE session_id = ? AND NOT EXISTS (SELECT 1 FROM "
            "commands c WHERE c.session_id = e.session_id AND c.command_no = e.command_no)",
            (sid,)).fetchone()[0]
        if orphans:
            found.problems.append(f"session {sid}: {orphans} events without their command")


def run(db: Path, *, kills: int, seed: int, driver: str = DEFAULT_DRIVER,
        max_acks_between_kills: int = 40, ack_timeout: float = 30.0,
        progress: Callable[[int, Check], None] | None = None) -> Summary:
    """Start, kill at a random moment, check, resume: ``kills`` times; then finish cleanly."""
    rng = random.Random(seed)
    summary = Summary()
    started = time.monotonic()
    acks: list[Ack] = []
    for round_no in range(kills):
        worker = Worker(db, seed=rng.randrange(2**31), driver=driver)
        try:
            if rng.random() < 0.1:  # early: while it starts, opens or replays the log
                time.sleep(rng.random() * 0.3)
            else:
                worker.wait_for_acks(rng.randint(1, max_acks_between_kills), ack_timeout)
                time.sleep(rng.random() * 0.004)  # land the kill anywhere in a transaction
        finally:
            worker.kill()
        acks.extend(worker.acks)
        found = check(db, acks, driver)
        _tally(summary, found)
        summary.kills = round_no + 1
        if progress is not None:
            progress(round_no + 1, found)
    final = Worker(db, seed=rng.randrange(2**31), driver=driver, commands=20)
    final.finish(timeout=ack_timeout)
    acks.extend(final.acks)
    if len(final.acks) != 20:
        summary.other_problems.append(f"the resumed worker acknowledged {len(final.acks)}/20")
    found = check(db, acks, driver)
    _tally(summary, found)
    summary.acknowledged = len(acks)
    summary.records = found.records
    summary.elapsed = time.monotonic() - started
    return summary


def _tally(summary: Summary, found: Check) -> None:
    summary.lost = max(summary.lost, len(found.lost))
    summary.half_applied = max(summary.half_applied, len(found.half_applied))
    summary.integrity_failures += bool(found.integrity)
    summary.other_problems.extend(found.problems)
