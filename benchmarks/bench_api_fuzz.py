"""Does any request break the server or the game? 5,000 requests made by hypothesis against
the whole application (every blueprint), from six kinds of client (the host, two players,
a spectator, a stranger without a session, a player who lost the CSRF token): real
commands of the turn and answers to the prompts mixed with broken ones (unknown types,
wrong field types, random JSON, bytes that are not JSON, JSON nested hundreds or thousands
of levels deep, commands cut short, stale and absurd
``expected_version``), new tables and campaigns from setups with one value damaged
(``tests/support/damage.py``), one campaign's next games set up, recorded and taken back
(the step shown, or a stale one), random paths, headers (``Content-Type``, ``X-CSRF-Token``,
``Last-Event-ID``) and query strings.

Counts answers by status; any 5xx is a failure. Every 500 requests and at the end, each
table must be intact: the state rebuilt from its log (a full replay, and a reopening from
the latest snapshot) equals the live state, versions seen by clients never went down, and
the log's event numbers run 1, 2, 3, ... without a gap; the campaign has at most one game
under way and its export imports.

    .venv/bin/python benchmarks/bench_api_fuzz.py [--requests 5000] [--seed 1]
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hypothesis import HealthCheck, Phase, given, seed, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from companion.games.seafall.setup import demo_options  # noqa: E402
from companion.store.campaign_export import parse_campaign  # noqa: E402
from companion.store.sqlite import SQLiteStore  # noqa: E402
from companion.table import Table, replay  # noqa: E402
from tests.support.damage import damaged  # noqa: E402
from tests.support.web import browser, join  # noqa: E402
from web.app import create_app  # noqa: E402
from web.services import Services  # noqa: E402

FACES = ["blank", "standard", "weak", "strong"]
COMMAND_TYPES = ["hire_guild", "explore", "raid", "roll", "spend_fortune", "assign_damage",
                 "return_good", "plunder", "end_turn", "add_component", "add_island",
                 "deal_advisor", "reveal_event", "hire_advisor", "buy_treasure", "repair",
                 "no_such_command", ""]
ROUTES = [
    ("GET", "/api/tables"), ("POST", "/api/tables"), ("GET", "/api/tables/{id}"),
    ("GET", "/api/tables/{id}/history"), ("GET", "/api/tables/{id}/choices"),
    ("GET", "/api/tables/{id}/next-game"), ("POST", "/api/tables/{id}/commands"),
    ("POST", "/api/tables/{id}/undo"), ("POST", "/api/tables/{id}/redo"),
    ("GET", "/api/tables/{id}/buttons"), ("POST", "/api/tables/{id}/buttons"),
    ("GET", "/api/tables/{id}/me"), ("POST", "/api/tables/{id}/host"),
    ("GET", "/api/tables/{id}/invite"), ("POST", "/api/tables/{id}/invite"),
    ("POST", "/api/tables/{id}/join"), ("POST", "/api/tables/{id}/settings"),
    ("DELETE", "/api/tables/{id}/seats/{text}"), ("GET", "/api/stream/{id}"),
    ("GET", "/api/session"), ("GET", "/api/odds/seafall"), ("GET", "/api/odds/sum/{text}"),
    ("GET", "/api/tables/{id}/dice/latest"), ("GET", "/api/tables/{id}/dice/{text}"),
    ("GET", "/api/tables/{id}/dice/stats"),
    ("POST", "/api/tables/{id}/dice/{text}/confirm"),
    ("POST", "/api/tables/{id}/dice/{text}/correct"),
    ("POST", "/api/tables/{id}/dice/{text}/not-a-die"),
    ("POST", "/api/tables/{id}/dice/{text}/add"),
    ("POST", "/api/tables/{id}/dice/reread"), ("GET", "/api/hardware"),
    ("GET", "/api/dice/profiles"), ("POST", "/api/tables/{id}/dice/profiles/{text}/forget"),
    ("POST", "/api/tables/{id}/dice/profiles/{text}/restore"),
    ("POST", "/api/hardware/camera/restore"),
    ("GET", "/api/campaigns"), ("GET", "/api/campaigns/{text}"), ("POST", "/api/campaigns"),
    ("GET", "/api/campaigns/{campaign}"), ("POST", "/api/campaigns/{campaign}/next"),
    ("POST", "/api/campaigns/{campaign}/record"),
    ("POST", "/api/campaigns/{campaign}/take-back"),
    ("GET", "/api/rules/search"), ("GET", "/api/rules/glossary"),
    ("PUT", "/api/tables/{id}"), ("PATCH", "/api/tables/{id}/commands"),
    ("GET", "/api/{text}"), ("POST", "/api/{text}"),
]
CHANGES = [("POST", "/api/tables/{id}/commands")] * 6 + [
    ("POST", "/api/tables/{id}/undo"), ("POST", "/api/tables/{id}/redo"),
    ("POST", "/api/tables/{id}/buttons"), ("POST", "/api/campaigns/{campaign}/next"),
    ("POST", "/api/campaigns/{campaign}/take-back")]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**40, 2**40) | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner,
                                                                 max_size=4),
    max_leaves=12)
texts = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=30)
FIELDS = ["guild", "flagship", "site", "faces", "count", "player", "actor", "target", "ship",
          "good", "args", "kind", "card", "island"]
PLANS = st.fixed_dictionaries({
    "mostly_changes": st.integers(0, 9).map(lambda n: n < 6),
    "who": st.integers(0, 100), "route": st.integers(0, 1000), "table": st.integers(0, 9),
    "use_bad_table": st.integers(0, 9).map(lambda n: n == 0),
    "bad_table": texts.filter(lambda t: not set(t) & set("/?#")),
    "text": st.from_regex(r"[A-Za-z0-9_.%-]{0,12}", fullmatch=True),
    "query": st.dictionaries(st.sampled_from(["viewer", "since", "dice", "defense", "fortune",
                                              "q", "game", "lang", "bonus"]), texts,
                             max_size=2),
    "csrf": st.none() | st.none() | st.from_regex(r"[ -~]{0,40}", fullmatch=True),
    "last_event_id": st.none() | st.none() | st.from_regex(r"-?[0-9a-z]{0,6}", fullmatch=True),
    "shape": st.integers(0, 9), "flag": st.booleans(), "pick": st.integers(0, 10**6),
    "command_kind": st.sampled_from(["legal", "legal", "prompt", "random", "junk"]),
    "command_type": st.sampled_from(COMMAND_TYPES),
    "fields": st.dictionaries(st.sampled_from(FIELDS), json_values, max_size=3),
    "faces": st.lists(st.sampled_from(FACES), min_size=12, max_size=12),
    "json": json_values,
    "setup": damaged(demo_options()).map(lambda case: case[0]),
    "raw": st.binary(max_size=64) | st.integers(60, 5000).map(  # nested past any request
        lambda n: b"[" * n + b"]" * n) | st.integers(60, 5000).map(
        lambda n: b'{"a": ' * n + b"1" + b"}" * n),
    "content_type": st.sampled_from(["application/json", "text/plain", "multipart/form-data",
                                     "application/x-www-form-urlencoded"]),
})


class Fuzz:
    def __init__(self, folder: Path) -> None:
        self.services = Services(SQLiteStore(folder / "fuzz.sqlite3"))
        self.app = create_app(self.services)
        host = browser(self.app)
        self.tables: list[str] = []
        for _ in range(2):
            created = host.post("/api/tables", json={"game": "seafall",
                                                     "options": demo_options()})
            assert created.status_code == 201, created.json
            self.tables.append(created.json["id"])
        made = host.post("/api/campaigns", json={"name": "fuzz", "setup": demo_options()})
        assert made.status_code == 201, made.json
        self.campaign: str = made.json["id"]
        assert host.post(f"/api/campaigns/{self.campaign}/next").status_code == 201  # its host
        first = self.tables[0]
        red = join(self.app, host, first, "Ann", "red")
        blue = join(self.app, host, first, "Bob", "blue")
        watcher = join(self.app, host, first, "Cat", None)
        no_csrf = self.app.test_client()
        no_csrf.set_cookie("tableside_session", red.get_cookie("tableside_session").value)
        self.clients = {"host": host, "red": red, "blue": blue, "spectator": watcher,
                        "stranger": self.app.test_client(), "red without csrf": no_csrf}
        self.statuses: collections.Counter[int] = collections.Counter()
        self.server_errors: list[str] = []
        self.versions: dict[str, int] = {}
        self.version_went_down: list[str] = []
        self.changes = 0
        self.count = 0

    # -- making requests ---------------------------------------------------------------------
    # Each request is one plan drawn from a fixed strategy (PLANS); choices that depend on
    # the table (the legal commands now, the prompt's options) pick with the plan's numbers,
    # so hypothesis sees the same kind of draw whatever the state.

    def command(self, plan: dict[str, Any], table_id: str) -> Any:
        table = self.services.tables.get(table_id)
        kind, pick = plan["command_kind"], plan["pick"]
        if kind == "legal":
            legal = table.engine.legal_commands(table.state)  # type: ignore[attr-defined]
            if legal:
                chosen = legal[pick % len(legal)]
                return {"type": chosen["type"], **chosen.get("args", {})}
        prompts = list(table.prompts())
        if kind in ("legal", "prompt") and prompts:
            prompt = prompts[0].to_json()
            if prompt.get("kind") == "roll":
                count = max(1, int(prompt.get("count", 1)))
                faces = (plan["faces"] * (count // len(plan["faces"]) + 1))[:count]
                return {"type": prompt["command"], prompt["arg"]: faces}
            options = prompt.get("options") or []
            value = options[pick % len(options)]["value"] if options else pick % 4
            return {"type": prompt["command"], prompt.get("arg") or "value": value}
        if kind == "random":
            return {"type": plan["command_type"], **plan["fields"]}
        return plan["json"]

    def request(self, plan: dict[str, Any]) -> None:
        if plan["mostly_changes"]:  # so the game goes somewhere
            who = ["host", "host", "red", "blue", "spectator", "red without csrf"][
                plan["who"] % 6]
            method, template = CHANGES[plan["route"] % len(CHANGES)]
        else:
            who = list(self.clients)[plan["who"] % len(self.clients)]
            method, template = ROUTES[plan["route"] % len(ROUTES)]
        client = self.clients[who]
        table_id = plan["bad_table"] if plan["use_bad_table"] else \
            self.tables[plan["table"] % len(self.tables)]
        path = template.replace("{id}", table_id).replace("{text}", plan["text"]).replace(
            "{campaign}", plan["bad_table"] if plan["use_bad_table"] else self.campaign)
        headers: dict[str, str] = {}
        if plan["csrf"] is not None:
            headers["X-CSRF-Token"] = plan["csrf"]
        if plan["last_event_id"] is not None:
            headers["Last-Event-ID"] = plan["last_event_id"]
        body: Any = None
        raw: bytes | None = None
        if method != "GET":
            shape = plan["shape"]
            if path.endswith("/buttons") and shape < 7:
                body = {"button": plan["pick"] % 8, "long": plan["flag"]}
            elif path.endswith(("/undo", "/redo")) and shape < 7:
                body = {}
            elif path.endswith("/take-back") and shape < 6:  # the step shown, or a stale one
                body = self.services.store.campaign(self.campaign).to_json()["last_step"] \
                    if plan["flag"] else {"kind": "game", "session": table_id}
            elif path.endswith("/next") and shape < 5:
                body = {"changes": [{"absent": {"colour": ["red", "blue", "pink"][
                    plan["pick"] % 3]}}]} if plan["flag"] else {}
            elif path in ("/api/tables", "/api/campaigns") and shape < 5:
                body = {"game": "seafall", "name": "fuzz",
                        "options" if path == "/api/tables" else "setup": plan["setup"]}
            elif path.endswith("/commands") and shape < 9 and table_id in self.tables:
                body = self.command(plan, table_id)
                if isinstance(body, dict) and plan["flag"]:
                    version = self.services.tables.get(table_id).version
                    body["expected_version"] = [version, version, version - 1, -5, "2", None,
                                                10**9][plan["pick"] % 7]
                if plan["pick"] % 10 == 0:  # a command cut short on the way
                    raw = json.dumps(body).encode()[:-1]
                    headers["Content-Type"] = "application/json"
                    body = None
            elif shape < 8:
                body = plan["json"]
            else:
                raw = plan["raw"]
                headers["Content-Type"] = plan["content_type"]
        self.send(client, method, path, plan["query"], headers, body, raw)

    def send(self, client: Any, method: str, path: str, query: dict[str, str],
             headers: dict[str, str], body: Any, raw: bytes | None) -> None:
        kwargs: dict[str, Any] = {"query_string": query, "headers": headers}
        if raw is not None:
            kwargs["data"] = raw
        elif body is not None:
            kwargs["json"] = body
        streaming = path.startswith("/api/stream/")
        if streaming:
            kwargs["buffered"] = False
        response = client.open(path, method=method, **kwargs)
        try:
            if streaming and response.status_code == 200:
                chunks = iter(response.response)
                first = b"".join([next(chunks), next(chunks)])  # the retry hint, a message
                assert b"event: table" in first, first[:200]
        finally:
            response.close()
        self.count += 1
        self.statuses[response.status_code] += 1
        if response.status_code >= 500:
            self.server_errors.append(f"{method} {path} {query} {body!r:.200} -> "
                                      f"{response.get_data(as_text=True)[:200]}")
        if not streaming and response.is_json and response.status_code == 200:
            out = response.get_json(silent=True)
            if isinstance(out, dict) and isinstance(out.get("version"), int) and \
                    out.get("id") in self.tables:
                before = self.versions.get(out["id"], 0)
                if out["version"] < before:
                    self.version_went_down.append(f"{out['id']}: {before} -> {out['version']}")
                if out["version"] > before and before:
                    self.changes += 1
                self.versions[out["id"]] = max(before, out["version"])

    # -- checking the tables -------------------------------------------------------------------

    def check(self) -> list[str]:
        problems = []
        store = self.services.store
        for table_id in self.tables:
            live = self.services.tables.get(table_id)
            records = store.records(table_id)
            full = replay(live.engine, records)
            reopened = Table.open(store, table_id)
            dump = live.engine.dump_state
            if dump(full.state) != dump(live.state) or full.version != live.version:
                problems.append(f"{table_id}: the log does not replay to the live state")
            if dump(reopened.state) != dump(live.state) or reopened.version != live.version:
                problems.append(f"{table_id}: reopening from the snapshot differs")
            if (full.applied_numbers, full.redoable_numbers) != (live.applied, live.redoable):
                problems.append(f"{table_id}: the undo/redo stacks differ from the log's")
            seqs = [e.seq for e in store.events(table_id)]
            if seqs != list(range(1, len(seqs) + 1)):
                problems.append(f"{table_id}: event numbers have a gap or a repeat")
        campaign = store.campaign(self.campaign)  # set up and taken back many times
        live = [g for g in campaign.games if g.version == campaign.version and not g.withdrawn]
        if len(live) > 1:
            problems.append(f"campaign: {len(live)} games under way from one ledger")
        try:
            parse_campaign(store.export_campaign(self.campaign))
        except ValueError as exc:
            problems.append(f"campaign: its export does not import ({exc})")
        return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-fuzz-") as tmp:
        fuzz = Fuzz(Path(tmp))
        problems: list[str] = []

        @seed(args.seed)
        @settings(max_examples=args.requests, database=None, deadline=None,
                  phases=[Phase.generate], suppress_health_check=list(HealthCheck))
        @given(PLANS)
        def one_request(plan: dict[str, Any]) -> None:
            fuzz.request(plan)
            if fuzz.count % 500 == 0:
                problems.extend(fuzz.check())

        started = time.perf_counter()
        one_request()
        elapsed = time.perf_counter() - started
        problems.extend(fuzz.check())
        final = {t: fuzz.services.tables.get(t).version for t in fuzz.tables}
        games = fuzz.services.store.campaign(fuzz.campaign).games
        fuzz.services.close()

    server_errors = sum(n for s, n in fuzz.statuses.items() if s >= 500)
    rows = [("requests", str(fuzz.count)), ("time", f"{elapsed:.1f} s"),
            *[(f"status {s}", str(n)) for s, n in sorted(fuzz.statuses.items())],
            ("server errors (5xx)", str(server_errors)),
            ("changes accepted (version moved)", str(fuzz.changes)),
            ("final versions", ", ".join(str(v) for v in final.values())),
            ("campaign games set up, taken back",
             f"{len(games)}, {sum(g.withdrawn for g in games)}"),
            ("versions that went down", str(len(fuzz.version_went_down))),
            ("state corruption found", str(len(problems)))]
    width = max(len(r[0]) for r in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value:>12}")
    for line in (fuzz.server_errors[:10] + fuzz.version_went_down[:5] + problems[:10]):
        print("  " + line)
    ok = server_errors == 0 and not problems and not fuzz.version_went_down
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
