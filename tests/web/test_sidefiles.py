"""The server's side files (credentials, dice reads): a damaged one is set aside, kept,
and a new one made; a sound one, or one in use, is never touched (``web/sidefiles.py``)."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from web.auth_store import AuthStore
from web.runtime.reads import ReadStore
from web.sidefiles import damage, set_aside_if_damaged


def a_database(path: Path) -> Path:
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE t (x TEXT)")
    conn.executemany("INSERT INTO t VALUES (?)", [(f"row {i} " * 20,) for i in range(400)])
    conn.commit()
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return path


def damaged(path: Path) -> Path:
    data = bytearray(a_database(path).read_bytes())
    data[4096:4096 + 3000] = bytes(range(256)) * 11 + bytes(184)  # the second page and on
    path.write_bytes(bytes(data))
    return path


def test_a_sound_absent_or_empty_file_is_left_alone(tmp_path: Path) -> None:
    sound = a_database(tmp_path / "sound.sqlite3")
    before = sound.read_bytes()
    assert damage(sound) is None and set_aside_if_damaged(sound, "x") is None
    assert sound.read_bytes() == before
    assert set_aside_if_damaged(tmp_path / "absent.sqlite3", "x") is None
    (tmp_path / "empty.sqlite3").write_bytes(b"")
    assert set_aside_if_damaged(tmp_path / "empty.sqlite3", "x") is None


def test_a_damaged_file_is_kept_aside_with_its_journal_and_said(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = damaged(tmp_path / "reads.sqlite3")
    (tmp_path / "reads.sqlite3-wal").write_bytes(b"wal")
    content = path.read_bytes()
    assert damage(path) is not None
    with caplog.at_level(logging.WARNING, logger="web.sidefiles"):
        aside = set_aside_if_damaged(path, "the dice reads")
    assert aside is not None and aside.name.startswith("reads.sqlite3.damaged-")
    assert aside.read_bytes() == content and not path.exists()
    assert aside.with_name(aside.name + "-wal").read_bytes() == b"wal"
    assert "(the dice reads) was damaged" in caplog.text and aside.name in caplog.text
    (tmp_path / "text.sqlite3").write_text("not a database at all, " * 10)
    assert damage(tmp_path / "text.sqlite3") == "not an SQLite file"


def test_a_file_locked_by_another_program_is_not_taken_for_damaged(tmp_path: Path) -> None:
    path = tmp_path / "busy.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("CREATE TABLE t (x)")
    conn.execute("BEGIN EXCLUSIVE")  # a rollback journal locked for writing
    try:
        assert damage(path) is None and set_aside_if_damaged(path, "x") is None
        assert path.exists()
    finally:
        conn.execute("ROLLBACK")
        conn.close()


def test_the_stores_start_afresh_over_a_damaged_file(tmp_path: Path) -> None:
    """A corrupt credentials file stopped ``tableside serve`` starting (a traceback); a
    corrupt reads file let it start, then answered 500 to every dice request."""
    damaged(tmp_path / "t.web-auth.sqlite3")
    auth = AuthStore.beside(tmp_path / "t.sqlite3")
    try:
        assert auth.path == tmp_path / "t.web-auth.sqlite3" and damage(auth.path) is None
        assert len(list(tmp_path.glob("t.web-auth.sqlite3.damaged-*Z"))) == 1
    finally:
        auth.close()
    (tmp_path / "reads").mkdir()
    damaged(tmp_path / "reads" / "reads.sqlite3")
    reads = ReadStore(tmp_path / "reads")
    try:
        assert reads.latest("t") is None  # the new file answers
        assert len(list((tmp_path / "reads").glob("reads.sqlite3.damaged-*Z"))) == 1
    finally:
        reads.close()
