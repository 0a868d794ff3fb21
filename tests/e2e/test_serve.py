"""``tableside serve --demo`` for real: the server in a child process (waitress, the runtime's
camera and button-box threads), spoken to over HTTP on loopback like a phone, then stopped
with SIGTERM. The demo's recorded camera resolves a SeaFall endeavor's roll, the live stream
carries it, and the simulated serial box answers the next prompt."""

from __future__ import annotations

import http.cookiejar
import json
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from companion.games.seafall.setup import demo_options
from companion.store import SQLiteStore
from companion.store.backup import backups
from web.runtime.demo import OPENING


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Phone:
    """A browser at the table: a session cookie and its CSRF token on every request."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.csrf = ""
        status, session = self.fetch("/api/session")
        assert status == 200, session
        self.csrf = session["csrf_token"]

    def fetch(self, path: str, body: dict | None = None, timeout: float = 10) -> tuple[int, Any]:
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, headers={
            "Content-Type": "application/json", "X-CSRF-Token": self.csrf})
        try:
            with self.opener.open(req, timeout=timeout) as response:
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

    def stream_until(self, table: str, since: int, done: Callable[[dict], bool],
                     timeout: float = 30) -> dict:
        """Read the table's live stream (SSE) until a message satisfies ``done``."""
        req = urllib.request.Request(f"{self.base}/api/stream/{table}?since={since}")
        deadline = time.monotonic() + timeout
        with self.opener.open(req, timeout=timeout) as response:
            data = []
            while time.monotonic() < deadline:
                line = response.readline().decode()
                if line.startswith("data:"):
                    data.append(line[5:].strip())
                elif line in ("\n", "\r\n") and data:
                    message = json.loads("".join(data))
                    data = []
                    if done(message):
                        return message
        pytest.fail("the live stream did not bring the change in time")


def wait_for(check: Callable[[], Any], timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.2)
    pytest.fail(f"timed out waiting for {what}")


def resolve(phone: Phone, table: str, prompt_id: str, timeout: float = 60) -> dict:
    """Wait for the camera's read of a roll prompt: applied at once, or pending until this
    phone confirms it (the faces as read, padded to the two dice asked for); a newer read
    may supersede the one being confirmed, so try again with the latest."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status, read = phone.fetch(f"/api/tables/{table}/dice/latest")
        if status == 200 and read["prompt_id"] == prompt_id and read["source"] == "camera":
            if read["status"] == "applied":
                return read
            faces = (read["faces"] + ["blank", "blank"])[:2]
            status, out = phone.fetch(f"/api/tables/{table}/dice/{read['read_id']}/confirm",
                                      {"faces": faces, "expected_version": read["table_version"]})
            if status == 200:
                return out
        time.sleep(0.2)
    pytest.fail(f"no camera read answered {prompt_id} in time")


@dataclass
class Served:
    base: str
    proc: subprocess.Popen
    tmp_path: Path
    console: list[str]  # what it printed up to "serving on"

    @property
    def demo_pin(self) -> str:
        line = next(x for x in self.console if x.startswith("Host the demo table"))
        return re.search(r"PIN (\d+)", line).group(1)  # type: ignore[union-attr]


@pytest.fixture
def server(tmp_path: Path):
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "web", "serve", "--demo", "--port", str(port),
         "--db", str(tmp_path / "t.sqlite3")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    console: list[str] = []
    assert proc.stdout is not None
    while not any("Tableside is serving on" in line for line in console):
        line = proc.stdout.readline()  # the console says when it serves (or the end)
        if not line:
            proc.kill()
            out, err = proc.communicate()
            pytest.fail(f"server did not start: {''.join(console)}{out}\n{err}")
        console.append(line)
    base = f"http://127.0.0.1:{port}"
    yield Served(base, proc, tmp_path, console)
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.communicate(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()


def test_demo_server_serves_the_page_the_odds_and_a_playable_table(server):
    phone = Phone(server.base)
    status, page = phone.fetch("/")
    assert status == 200 and "<html" in page.lower()
    status, odds = phone.fetch("/api/odds/seafall?dice=4&defense=4&fortune=1")
    assert status == 200 and odds["exact"]["p_no_damage"] == "16/27"  # docs/odds.md, Blue
    status, listing = phone.fetch("/api/tables")
    (demo,) = listing["tables"]
    assert demo["created_by"] == "demo"


def test_demo_resolves_an_endeavor_from_roll_to_every_phone(server):
    base, proc, tmp_path = server.base, server.proc, server.tmp_path
    host = Phone(base)
    # the runtime: demo recording as the camera, the simulated box handshaken
    hardware = wait_for(lambda: (h := host.fetch("/api/hardware")[1])["button_box"][
        "connected"] and h, 30, "the simulated button box")
    assert hardware["mode"] == "demo" and hardware["button_box"]["simulated"]
    assert hardware["button_box"]["firmware"] == "1.0.0"
    assert hardware["camera"]["state"] == "running"
    assert hardware["camera"]["source"].startswith("demo recording")

    # the demo table opened on Blue's exploration; the recorded camera answers its roll
    demo = host.fetch("/api/tables")[1]["tables"][0]["id"]
    status, me = host.fetch(f"/api/tables/{demo}/host", {"pin": server.demo_pin})
    assert status == 200, me  # the console's host PIN makes this phone the demo's host
    (opening,) = host.fetch(f"/api/tables/{demo}")[1]["prompts"]
    read = resolve(host, demo, opening["id"])
    assert read["source"] == "camera" and len(read["faces"]) == 2

    # a new table driven over HTTP to a roll prompt, as a phone would
    status, table = host.fetch("/api/tables", {"game": "seafall", "options": demo_options()})
    assert status == 201
    tid = table["id"]
    for command in OPENING:
        status, table = host.fetch(f"/api/tables/{tid}/commands",
                                   {"type": command.type, **command.args,
                                    "expected_version": table["version"]})
        assert status == 200, table
    (prompt,) = table["prompts"]
    assert prompt["kind"] == "roll" and prompt["count"] == 2 and prompt["die"] == "seafall"
    asked = table["version"]

    # the next settled roll of the recording is read (and applied, or confirmed by a phone
    # if the reader was unsure); a phone on the live stream sees the table move past it
    read = resolve(host, tid, prompt["id"])
    assert read["status"] == "applied" and read["source"] == "camera"
    message = host.stream_until(tid, asked, lambda m: not any(
        p["kind"] == "roll" for p in m["table"]["prompts"]))
    assert message["version"] > asked and message["version"] == read["applied_version"]
    texts = " ".join(e.get("text", "") for e in message["events"])
    assert message["events"] and texts
    with host.opener.open(base + read["frame_url"], timeout=10) as response:
        assert response.headers["Content-Type"] == "image/jpeg"
        assert response.read(2) == b"\xff\xd8"  # a JPEG: the frame kept as evidence
    history = host.fetch(f"/api/tables/{tid}/history")[1]["history"]
    roll = next(h for h in history if h["type"] == "roll")
    assert roll["args"]["read_id"] == read["read_id"] and roll["args"]["source"] == "camera"

    # the simulated serial box answers what comes next (fortune or damage)
    now = host.fetch(f"/api/tables/{tid}")[1]
    if now["prompts"]:
        kind = now["prompts"][0]["kind"]
        button = 0 if kind == "spend" else 4  # confirm, or option 1
        status, refused = Phone(base).fetch("/api/hardware/box/press", {"button": button})
        assert status == 403 and refused["error"] == "forbidden"  # a spectator's phone
        status, pressed = host.fetch("/api/hardware/box/press", {"button": button})
        assert status == 200, pressed
        wait_for(lambda: host.fetch(f"/api/tables/{tid}")[1]["version"] > now["version"], 20,
                 "the box's answer")
        hardware = host.fetch("/api/hardware")[1]
        assert hardware["button_box"]["presses"] >= 1 and hardware["table"] == tid

    # SIGTERM stops the server, its camera and its box cleanly
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=15)
    assert proc.returncode == 0, err
    assert "Tableside is serving on" in "".join(server.console) and "stopping" in out
    # the terminal told what hardware it found (web.runtime.console)
    assert "Camera: reading demo recording" in out
    assert re.search(r"Button box: connected on \S+ \(simulated\), firmware 1\.0\.0", out)
    assert (tmp_path / "reads" / "reads.sqlite3").is_file()
    # the evening's play is backed up as it stops (an empty database was not, at the start)
    assert not any("backed up" in line for line in server.console)
    [stopped] = backups(tmp_path / "t.sqlite3")
    assert stopped.label == "serve-stop" and f"database backed up to {stopped.path}" in out
    with SQLiteStore(stopped.path) as copy:
        assert tid in {s.id for s in copy.sessions()}
