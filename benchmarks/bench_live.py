"""How fast does a change reach every phone? A real waitress server (a child process, as
``tableside serve`` runs it, with the vision dice reader loaded and used once), 12 SSE
clients in threads (three players with their own views, nine spectators), N changes sent
over HTTP one after another: the time from sending a command to the moment all 12 streams
have its version. Then 16 streams held open at once while the API still answers, and the
server's memory (and how much of it is the libraries' files, which a kernel that maps
files in large folios counts in large pieces: docs/runtime.md).

Targets (issue 6): p95 <= 100 ms on loopback; 16 open streams held; server RSS <= 150 MB
with the dice reader loaded. Prints a table; exits 1 if a target is missed.

    .venv/bin/python benchmarks/bench_live.py [--changes N] [--clients 12]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from procmem import memory_mb

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

P95_LIMIT_MS = 100.0
RSS_LIMIT_MB = 150.0
STREAMS_HELD = 16
PHOTO = ROOT / "tests" / "vision" / "photos" / "IMG_20191209_100019.jpg"


# -- the server (child process) ----------------------------------------------------------------


def server_main(db: str) -> None:
    """Serve like ``tableside serve``: file database, 24 threads, the dice reader loaded."""
    from companion.store.sqlite import SQLiteStore
    from vision.reader import DiceReader, load_image
    from web.app import create_app
    from web.live import LiveServer
    from web.services import Services

    try:
        reader = DiceReader()
        read = reader.read(load_image(PHOTO))  # loads the detection and face networks
        loaded = "net detector + face net"
    except Exception as exc:  # the detector's model not trained in this checkout yet
        reader = DiceReader(detector="classic")
        read = reader.read(load_image(PHOTO))
        loaded = f"classic detector + face net ({type(exc).__name__})"
    services = Services(SQLiteStore(Path(db)))
    app = create_app(services)
    server = LiveServer(app, services.live, port=0, threads=24)
    idle = memory_mb(os.getpid())["VmRSS"]
    print(json.dumps({"port": server.port, "dice_read": len(read.dice), "reader": loaded,
                      "idle_rss": idle}),
          flush=True)
    try:
        server.run()
    finally:
        services.close()


# -- clients -------------------------------------------------------------------------------------


class Browser:
    """An HTTP client with a session cookie and its CSRF token."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookie: str | None = None
        self.csrf: str | None = None

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"Content-Type": "application/json"}
        if self.cookie:
            headers["Cookie"] = f"tableside_session={self.cookie}"
        if self.csrf:
            headers["X-CSRF-Token"] = self.csrf
        conn.request(method, path, json.dumps(body) if body is not None else None, headers)
        response = conn.getresponse()
        data = response.read()
        cookie = response.getheader("Set-Cookie")
        if cookie and cookie.startswith("tableside_session="):
            self.cookie = cookie.split(";")[0].split("=", 1)[1]
        conn.close()
        out = json.loads(data) if data else None
        if isinstance(out, dict) and out.get("csrf_token"):
            self.csrf = out["csrf_token"]
        return response.status, out


class Phone(threading.Thread):
    """One SSE stream, noting when each version arrives."""

    def __init__(self, port: int, table: str, cookie: str | None) -> None:
        super().__init__(daemon=True)
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        headers = {"Cookie": f"tableside_session={cookie}"} if cookie else {}
        self.conn.request("GET", f"/api/stream/{table}", headers=headers)
        self.response = self.conn.getresponse()
        assert self.response.status == 200, self.response.status
        self.arrived: dict[int, float] = {}
        self.cond = threading.Condition()

    def run(self) -> None:
        try:
            while True:
                line = self.response.readline()
                if not line:
                    return
                if line.startswith(b"id: "):
                    with self.cond:
                        self.arrived[int(line[4:])] = time.perf_counter()
                        self.cond.notify_all()
        except (OSError, http.client.HTTPException):
            return

    def wait_for(self, version: int, timeout: float = 10.0) -> float:
        with self.cond:
            if not self.cond.wait_for(lambda: version in self.arrived, timeout):
                raise TimeoutError(f"version {version} never arrived")
            return self.arrived[version]

    def close(self) -> None:
        self.conn.close()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--changes", type=int, default=200)
    parser.add_argument("--clients", type=int, default=12)
    parser.add_argument("--server", metavar="DB", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.server:
        server_main(args.server)
        return 0

    from companion.games.seafall.setup import demo_options

    with tempfile.TemporaryDirectory(prefix="bench-live-") as tmp:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        child = subprocess.Popen([sys.executable, __file__, "--server",
                                  str(Path(tmp) / "bench.sqlite3")],
                                 stdout=subprocess.PIPE, text=True, env=env)
        try:
            assert child.stdout is not None
            started = json.loads(child.stdout.readline())
            return run(child, started, demo_options(), args)
        finally:
            child.terminate()
            child.wait(15)


def run(child: subprocess.Popen, started: dict[str, Any], options: dict[str, Any],
        args: argparse.Namespace) -> int:
    port = started["port"]
    host = Browser(port)
    status, table = host.call("POST", "/api/tables", {"game": "seafall", "options": options})
    assert status == 201, table
    tid = table["id"]
    _, invite = host.call("GET", f"/api/tables/{tid}/invite")
    cookies: list[str | None] = []
    for province in ("red", "blue", "green"):
        player = Browser(port)
        status, me = player.call("POST", f"/api/tables/{tid}/join",
                                 {"token": invite["token"], "name": province,
                                  "province": province})
        assert status == 200, me
        cookies.append(player.cookie)
    cookies += [None] * (args.clients - len(cookies))
    phones = [Phone(port, tid, cookie) for cookie in cookies[:args.clients]]
    for phone in phones:
        phone.start()
    version = table["version"]
    for phone in phones:
        phone.wait_for(version)

    # command -> every phone updated: hire a guild, undo it, again and again
    latencies, answers = [], []
    for i in range(args.changes):
        sent = time.perf_counter()
        if i % 2 == 0:
            status, out = host.call("POST", f"/api/tables/{tid}/commands",
                                    {"type": "hire_guild", "guild": "soldiers",
                                     "expected_version": version})
        else:
            status, out = host.call("POST", f"/api/tables/{tid}/undo",
                                    {"expected_version": version})
        answered = time.perf_counter()
        assert status == 200, out
        version = out["version"]
        last = max(phone.wait_for(version) for phone in phones)
        latencies.append((last - sent) * 1000)
        answers.append((answered - sent) * 1000)

    # 16 streams held at once, and the API still answers
    extra = [Phone(port, tid, None) for _ in range(STREAMS_HELD - len(phones))]
    for phone in extra:
        phone.start()
    held = phones + extra
    sent = time.perf_counter()
    status, out = host.call("POST", f"/api/tables/{tid}/commands",
                            {"type": "hire_guild", "guild": "explorers"})
    assert status == 200, out
    all_16 = (max(phone.wait_for(out["version"]) for phone in held) - sent) * 1000
    t0 = time.perf_counter()
    status, _ = Browser(port).call("GET", f"/api/tables/{tid}")
    get_ms = (time.perf_counter() - t0) * 1000
    memory = memory_mb(child.pid)
    rss, peak = memory["VmRSS"], memory["VmHWM"]
    for phone in held:
        phone.close()

    p50, p95 = statistics.median(latencies), percentile(latencies, 0.95)
    rows = [
        ("changes sent", f"{args.changes}", ""),
        ("streams updated per change", f"{len(phones)}", "3 player views + spectators"),
        ("command -> all updated, p50", f"{p50:.1f} ms", ""),
        ("command -> all updated, p95", f"{p95:.1f} ms", f"target <= {P95_LIMIT_MS:.0f} ms"),
        ("command -> all updated, max", f"{max(latencies):.1f} ms", ""),
        ("command answered, p50", f"{statistics.median(answers):.1f} ms",
         "HTTP answer to the sender"),
        ("streams held open at once", f"{len(held)}", f"target >= {STREAMS_HELD}"),
        ("change -> all 16 updated", f"{all_16:.1f} ms", ""),
        ("GET table while 16 held", f"{get_ms:.1f} ms (status {status})", ""),
        ("server RSS (dice reader loaded)", f"{rss:.1f} MB", f"target <= {RSS_LIMIT_MB:.0f} MB"),
        ("server peak RSS", f"{peak:.1f} MB", ""),
        ("  of the RSS, library files", f"{memory['RssFile']:.1f} MB",
         "the code of Python, OpenCV, NumPy..."),
        ("  of the RSS, the server's own", f"{memory['RssAnon']:.1f} MB", "heap and arrays"),
        ("server RSS before any request", f"{started['idle_rss']:.1f} MB",
         "imports, dice reader, threads"),
        ("dice reader in the server", f"{started['dice_read']} dice read", started["reader"]),
    ]
    width = max(len(r[0]) for r in rows)
    print(f"{'measure':<{width}}  {'value':>24}  note")
    for name, value, note in rows:
        print(f"{name:<{width}}  {value:>24}  {note}")
    ok = p95 <= P95_LIMIT_MS and len(held) >= STREAMS_HELD and status == 200 \
        and rss <= RSS_LIMIT_MB
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
