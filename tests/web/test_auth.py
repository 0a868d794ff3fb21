"""Joining and roles (web.auth): the host PIN, join links that expire and can be replaced,
the QR code, session cookies, CSRF and the join rate limit."""

from __future__ import annotations

import re
import sqlite3
import xml.etree.ElementTree as ET
from urllib.parse import parse_qs, urlparse

import pytest

from companion.store.sqlite import SQLiteStore
from tests.support.web import browser
from web.app import create_app
from web.auth import JOIN_ATTEMPTS, Auth, console_text, demo_links
from web.auth_store import AuthStore
from web.services import Services

SEAFALL = {"game": "seafall", "options": {"start_at": "turn", "provinces": [
    {"colour": "red", "player": "Ann"}, {"colour": "blue", "player": "Bob"}]}}


class Seconds:
    """A manual clock in seconds (the auth module's clock is ``time.time``)."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Seconds:
    return Seconds()


@pytest.fixture
def services(tmp_path, clock):
    services = Services(SQLiteStore(tmp_path / "t.sqlite3"))
    services.auth.store.close()
    services.auth = Auth(AuthStore.beside(tmp_path / "t.sqlite3"), clock=clock)
    yield services
    services.close()


@pytest.fixture
def app(services):
    return create_app(services, {"TESTING": True})


def create(client) -> dict:
    answer = client.post("/api/tables", json=SEAFALL)
    assert answer.status_code == 201, answer.json
    return answer.json


def test_the_creator_is_host_and_the_pin_is_shown_once_and_stored_hashed(app, services,
                                                                         tmp_path):
    host = browser(app)
    table = create(host)
    pin = table["host_pin"]
    assert len(pin) == 6 and pin.isdigit()
    assert host.get(f"/api/tables/{table['id']}/me").json["role"] == "host"
    assert "host_pin" not in host.get(f"/api/tables/{table['id']}").json
    raw = sqlite3.connect(tmp_path / "t.web-auth.sqlite3")
    dump = "\n".join(raw.iterdump())
    raw.close()
    assert pin not in dump and "hosts" in dump
    assert not (tmp_path / "t.sqlite3").read_bytes().count(pin.encode())


def test_the_pin_makes_another_device_host(app):
    table = create(browser(app))
    tid = table["id"]
    laptop = browser(app)
    assert laptop.get(f"/api/tables/{tid}/me").json["role"] == "spectator"
    wrong = laptop.post(f"/api/tables/{tid}/host", json={"pin": "nope"})
    assert wrong.status_code == 403 and wrong.json["error"] == "forbidden"
    right = laptop.post(f"/api/tables/{tid}/host", json={"pin": table["host_pin"]})
    assert right.status_code == 200 and right.json["role"] == "host"


def test_the_host_link_sets_a_host_session_and_opens_the_table(app):
    table = create(browser(app))
    phone = app.test_client()
    answer = phone.get(f"/host/{table['id']}?pin={table['host_pin']}")
    assert answer.status_code == 303 and answer.headers["Location"].endswith(
        f"/t/{table['id']}")
    assert phone.get(f"/api/tables/{table['id']}/me").json["role"] == "host"
    assert app.test_client().get(f"/host/{table['id']}?pin=123").status_code == 403


def test_session_cookies_are_httponly_and_samesite(app):
    answer = app.test_client().get("/api/session")
    cookie = answer.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Path=/" in cookie


def test_a_session_needs_its_csrf_token_to_change_anything(app):
    client = app.test_client()
    table = create(client)  # no session yet: creating one needs no token
    tid = table["id"]
    refused = client.post(f"/api/tables/{tid}/commands", json={"type": "end_turn"})
    assert refused.status_code == 403 and refused.json["error"] == "csrf"
    token = client.get(f"/api/tables/{tid}/me").json["csrf_token"]
    assert token == table["csrf_token"]
    ok = client.post(f"/api/tables/{tid}/commands", json={"type": "end_turn"},
                     headers={"X-CSRF-Token": token})
    assert ok.status_code == 200, ok.json


def test_join_with_the_link_picks_a_province(app):
    host = browser(app)
    tid = create(host)["id"]
    invite = host.get(f"/api/tables/{tid}/invite").json
    url = urlparse(invite["join_url"])
    assert url.path == f"/join/{tid}" and parse_qs(url.query)["token"] == [invite["token"]]
    svg = ET.fromstring(invite["qr_svg"])
    assert svg.tag.endswith("svg") and len(list(svg.iter())) > 1
    assert host.get(f"/api/tables/{tid}/invite").json["token"] == invite["token"]  # stable
    phone = browser(app)
    me = phone.post(f"/api/tables/{tid}/join",
                    json={"token": invite["token"], "name": "Bob", "province": "Bob"}).json
    assert (me["role"], me["province"], me["name"]) == ("player", "blue", "Bob")
    assert [s["id"] for s in me["seats"]] == ["red", "blue"]
    watcher = browser(app)
    me = watcher.post(f"/api/tables/{tid}/join",
                      json={"token": invite["token"], "name": "Cat", "province": None}).json
    assert me["role"] == "spectator"


@pytest.mark.parametrize("body, status", [
    pytest.param({"name": "Bob", "province": "blue"}, 400, id="no token"),
    pytest.param({"token": "T", "name": "", "province": "blue"}, 400, id="empty name"),
    pytest.param({"token": "T", "name": "Bob", "province": "purple"}, 400,
                 id="no such province"),
    pytest.param({"token": "T", "name": "Bob", "province": 3}, 400, id="province not text"),
])
def test_malformed_joins_are_400(app, body, status):
    host = browser(app)
    tid = create(host)["id"]
    if body.get("token") == "T":
        body = {**body, "token": host.get(f"/api/tables/{tid}/invite").json["token"]}
    answer = browser(app).post(f"/api/tables/{tid}/join", json=body)
    assert answer.status_code == status and answer.json["error"] == "invalid"


def test_join_links_expire_and_a_new_one_replaces_the_old(app, clock):
    host = browser(app)
    tid = create(host)["id"]
    old = host.get(f"/api/tables/{tid}/invite").json["token"]
    new = host.post(f"/api/tables/{tid}/invite").json["token"]
    assert new != old
    body = {"name": "Bob", "province": "blue"}
    replaced = browser(app).post(f"/api/tables/{tid}/join", json={**body, "token": old})
    assert replaced.status_code == 403 and "expired or replaced" in replaced.json["message"]
    clock.now += 13 * 3600
    expired = browser(app).post(f"/api/tables/{tid}/join", json={**body, "token": new})
    assert expired.status_code == 403
    for token in (old, new):  # the join page says so at once, without the form
        html = browser(app).get(f"/join/{tid}?token={token}").get_data(as_text=True)
        assert 'id="link-gone"' in html and 'id="join-form"' not in html
        assert "expired" in html
    # a link cut short (no token at all) says so, not that it expired
    html = browser(app).get(f"/join/{tid}").get_data(as_text=True)
    (said,) = re.findall(r'<p class="notice error" id="link-gone">(.*?)</p>', html)
    assert "cut short" in said and "expired" not in said
    fresh = host.get(f"/api/tables/{tid}/invite").json["token"]  # the expired one is renewed
    html = browser(app).get(f"/join/{tid}?token={fresh}").get_data(as_text=True)
    assert 'id="join-form"' in html and 'id="link-gone"' not in html
    assert browser(app).post(f"/api/tables/{tid}/join",
                             json={**body, "token": fresh}).status_code == 200


def test_a_demo_join_link_from_before_a_restart_says_the_server_restarted(services, clock,
                                                                         tmp_path):
    """`tableside serve --demo` makes a new link at each start: an old link said it had
    expired or that the host made a new one. The link current when the server stopped says
    the server restarted; one the host had replaced before still says so, in French too."""
    app = create_app(services, {"TESTING": True})
    host = browser(app)
    tid = create(host)["id"]
    replaced = host.get(f"/api/tables/{tid}/invite").json["token"]
    clock.now += 60  # the host makes a new link a minute later
    current = host.post(f"/api/tables/{tid}/invite").json["token"]
    clock.now += 3600
    services.auth.store.close()  # the server stops, and starts again an hour later
    services.auth = Auth(AuthStore.beside(tmp_path / "t.sqlite3"), clock=clock)
    new = demo_links(services.auth, tid, "http://table/")["token"]  # what the console shows
    assert new not in (current, replaced)
    assert demo_links(services.auth, tid, "http://table/")["token"] == new  # for this run

    def said(token: str, lang: str = "en") -> str:
        page = browser(app).get(f"/join/{tid}?token={token}", headers={"Accept-Language": lang})
        (text,) = re.findall(r'<p class="notice error" id="link-gone">(.*?)</p>',
                             page.get_data(as_text=True))
        return text

    assert "server was restarted" in said(current) and "expired" not in said(current)
    assert "redémarré" in said(current, "fr")
    assert "expired" in said(replaced) and "restarted" not in said(replaced)
    clock.now += 12 * 3600  # expired anyway by now
    assert "expired" in said(current)


def test_a_tables_join_link_survives_a_restart_on_the_same_database(tmp_path, clock):
    """After `tableside serve` restarted on the same database, a host-made link (a printed
    QR code) said "the table's server was restarted": the link was kept only in memory.
    It still works until it expires, and the host page shows the same link."""
    db = tmp_path / "t.sqlite3"

    def start() -> Services:
        services = Services(SQLiteStore(db))
        services.auth.store.close()
        services.auth = Auth(AuthStore.beside(db), clock=clock)
        return services

    first = start()
    host = browser(create_app(first, {"TESTING": True}))
    tid = create(host)["id"]
    link = host.get(f"/api/tables/{tid}/invite").json
    cookie = host.get_cookie("tableside_session").value
    first.close()
    clock.now += 3600  # a power cut; the server starts again an hour later
    second = start()
    try:
        app = create_app(second, {"TESTING": True})
        again = app.test_client()
        again.set_cookie("tableside_session", cookie)
        assert again.get(f"/api/tables/{tid}/invite").json["token"] == link["token"]
        page = browser(app).get(urlparse(link["join_url"]).path + "?token=" + link["token"])
        html = page.get_data(as_text=True)
        assert 'id="join-form"' in html and 'id="link-gone"' not in html
        joined = browser(app).post(f"/api/tables/{tid}/join", json={
            "token": link["token"], "name": "Ann", "province": "red"})
        assert joined.status_code == 200 and joined.json["province"] == "red"
        clock.now = link["expires_at"] + 1  # it still expires
        late = browser(app).post(f"/api/tables/{tid}/join", json={
            "token": link["token"], "name": "Bob", "province": "blue"})
        assert late.status_code == 403
        assert again.get(f"/api/tables/{tid}/invite").json["token"] != link["token"]
    finally:
        second.close()


def test_a_made_up_join_link_says_it_is_no_join_link_not_that_it_expired(app):
    """/join/<id>?token=bogus said the link "expired … or the host made a new one", though
    it never existed: a token the table never made is said to be no valid join link, on the
    page (in French too) and in the join's refusal."""
    host = browser(app)
    tid = create(host)["id"]

    def said(lang: str) -> str:
        page = browser(app).get(f"/join/{tid}?token=bogus", headers={"Accept-Language": lang})
        html = page.get_data(as_text=True)
        assert 'id="join-form"' not in html
        (text,) = re.findall(r'<p class="notice error" id="link-gone">(.*?)</p>', html)
        return text

    assert "not a valid join link" in said("en") and "expired" not in said("en")
    assert "Ask the host for the link again" in said("en")
    assert "n’est pas un lien valide" in said("fr") and "expiré" not in said("fr")
    refused = browser(app).post(f"/api/tables/{tid}/join",
                                json={"token": "bogus", "name": "Eve", "province": None})
    assert refused.status_code == 403 and "expired" not in refused.json["message"]
    assert refused.json["said"]["key"] == "join.link_unknown"


def test_join_attempts_are_rate_limited_per_address(app, clock):
    host = browser(app)
    tid = create(host)["id"]
    guesser = browser(app)
    body = {"token": "guess", "name": "Eve", "province": None}
    for _ in range(JOIN_ATTEMPTS):
        assert guesser.post(f"/api/tables/{tid}/join", json=body).status_code == 403
    limited = guesser.post(f"/api/tables/{tid}/join", json=body)
    assert limited.status_code == 429 and limited.json["error"] == "too_many_requests"
    assert 1 <= int(limited.headers["Retry-After"]) <= 60 and limited.json["message"]
    pin = guesser.post(f"/api/tables/{tid}/host", json={"pin": "000000"})
    assert pin.status_code == 429  # PIN guesses share the budget
    other = browser(app)
    other.environ_base["REMOTE_ADDR"] = "192.168.1.20"
    assert other.post(f"/api/tables/{tid}/join", json=body).status_code == 403  # own budget
    clock.now += 61
    assert guesser.post(f"/api/tables/{tid}/join", json=body).status_code == 403


def test_roles_survive_a_restart_with_the_auth_file(tmp_path, clock):
    services = Services(SQLiteStore(tmp_path / "t.sqlite3"))
    app = create_app(services, {"TESTING": True})
    host = browser(app)
    tid = create(host)["id"]
    cookie = host.get_cookie("tableside_session").value
    services.close()
    services = Services(SQLiteStore(tmp_path / "t.sqlite3"))
    try:
        again = create_app(services, {"TESTING": True}).test_client()
        again.set_cookie("tableside_session", cookie)
        assert again.get(f"/api/tables/{tid}/me").json["role"] == "host"
    finally:
        services.close()


def test_demo_links_show_the_host_link_and_the_join_qr(app, services):
    tid = create(browser(app))["id"]
    links = demo_links(services.auth, tid, "http://192.168.1.5:8000/")
    assert links["host_url"] == f"http://192.168.1.5:8000/host/{tid}?pin={links['host_pin']}"
    assert links["join_url"].startswith(f"http://192.168.1.5:8000/join/{tid}?token=")
    assert demo_links(services.auth, tid, "http://x/")["host_pin"] == links["host_pin"]
    text = console_text(services.auth, tid, "http://192.168.1.5:8000/")
    assert links["host_url"] in text and any(block in text for block in "█▀▄")
    phone = app.test_client()
    assert phone.get(urlparse(links["host_url"]).path + "?pin=" + links["host_pin"]
                     ).status_code == 303
