"""``tableside serve --demo`` for real: a waitress server in a child process, spoken to over
HTTP on loopback, then stopped."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def fetch(url: str, body: dict | None = None) -> tuple[int, dict | str]:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=5) as response:
            text = response.read().decode()
            status = response.status
    except urllib.error.HTTPError as exc:
        text = exc.read().decode()
        status = exc.code
        exc.close()
    try:
        return status, json.loads(text)
    except json.JSONDecodeError:
        return status, text


@pytest.fixture
def server(tmp_path: Path):
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "web", "serve", "--demo", "--port", str(port),
         "--db", str(tmp_path / "t.sqlite3")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                out, err = proc.communicate()
                pytest.fail(f"server did not start: {err}")
            time.sleep(0.1)
    yield base
    proc.send_signal(signal.SIGINT)
    try:
        proc.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()


def test_demo_server_serves_the_page_the_odds_and_a_playable_table(server):
    status, page = fetch(f"{server}/")
    assert status == 200 and "SeaFall endeavor odds" in page
    status, odds = fetch(f"{server}/api/odds/seafall?dice=4&defense=4&fortune=1")
    assert status == 200 and odds["exact"]["p_no_damage"] == "16/27"  # docs/odds.md, Blue
    status, listing = fetch(f"{server}/api/tables")
    (demo,) = listing["tables"]
    url = f"{server}/api/tables/{demo['id']}"
    status, changed = fetch(f"{url}/commands", {"type": "hire_guild", "guild": "explorers",
                                               "actor": "blue"})
    assert status == 200 and changed["state"]["turn"]["guild"] == "explorers"
    status, error = fetch(f"{url}/commands", {"type": "hire_guild", "guild": "soldiers"})
    assert status == 409 and "already hired" in error["message"]
