"""Who may do what at a table: host, player (with a province) and spectator (docs/api.md,
"Joining and roles").

* The host creates the table and gets a PIN once (``POST /api/tables`` answers
  ``host_pin``); the PIN makes any browser host again (``POST .../host``).
* Players join with a link that carries a token (expiring; the host can make a new one,
  which kills the old link), shown as a QR code, and pick a province. Spectators only read.
* A browser session is a random cookie (HttpOnly, SameSite=Lax) mapped to roles in web's
  own store (:mod:`web.auth_store`); every state-changing ``/api/`` request from a session
  carries its CSRF token in ``X-CSRF-Token``. A request without a session cookie has no
  role, so it can only read, create a table, join or present the PIN.
* A player acts only for their own province, unless the host allows players to act for
  all; undoing someone else's command, editing components and the table's settings are the
  host's. Which province a command acts for is the engine's own judgement: the command is
  tried as the player's province and as the table; if only the table may send it, it is
  another province's (SeaFall's ``require_player``).
* Join and PIN attempts are rate-limited per client address (429 with ``Retry-After``).

The CLI and in-process users of the companion are untouched: this is all in web.
"""

from __future__ import annotations

import functools
import hmac
import io
import math
import secrets
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from flask import Flask, current_app, g, request

from companion.engine import Command
from companion.errors import IllegalCommand, InvalidCommand
from companion.prompts import RollPrompt
from companion.table import Table
from vision.said import Message, message
from web.auth_store import AuthStore, Member
from web.errors import Forbidden, TooManyRequests

COOKIE = "tableside_session"
CSRF_HEADER = "X-CSRF-Token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
ROLES = ("spectator", "player", "host")
SPECTATOR = Member("spectator")
PIN_DIGITS = 6
SESSION_DAYS = 60
JOIN_TOKEN_HOURS = 12.0
JOIN_ATTEMPTS, JOIN_WINDOW = 10, 60.0  # per client address

# commands only the host may send, per game: campaign and component edits
HOST_COMMANDS: dict[str, frozenset[str]] = {
    "seafall": frozenset({"add_component", "add_island", "set_leader"}),
}

F = TypeVar("F", bound=Callable[..., Any])

# too many attempts (vision.said: said in the page's language)
TOO_MANY_PINS = message("auth.too_many_pins", "too many host PIN attempts from this device; "
                        "try again in {seconds} s")
TOO_MANY_JOINS = message("auth.too_many_joins", "too many attempts to join from this device; "
                         "try again in {seconds} s")


class RateLimiter:
    """At most ``limit`` attempts per ``window`` seconds per key (a sliding window)."""

    def __init__(self, limit: int, window: float, clock: Callable[[], float]) -> None:
        self.limit, self.window, self._clock = limit, window, clock
        self._seen: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def attempt(self, key: str, what: Message) -> None:
        """Count one attempt, or raise :class:`TooManyRequests` saying ``what`` (filled in
        with the ``seconds`` to wait; the attempt is not counted)."""
        now = self._clock()
        with self._lock:
            seen = self._seen.setdefault(key, deque())
            while seen and seen[0] <= now - self.window:
                seen.popleft()
            if len(seen) >= self.limit:
                wait = max(1, math.ceil(seen[0] + self.window - now))
                raise TooManyRequests(what(seconds=wait), wait)
            seen.append(now)
            if len(self._seen) > 10_000:  # forget idle addresses
                for k in [k for k, v in self._seen.items() if not v]:
                    del self._seen[k]


@dataclass(frozen=True)
class Invite:
    """A join link: the URL with its token, the token, when it expires and its QR code."""

    join_url: str
    token: str
    expires_at: float

    def qr_svg(self) -> str:
        return qr_svg(self.join_url)

    def to_json(self) -> dict[str, Any]:
        return {"join_url": self.join_url, "token": self.token,
                "expires_at": self.expires_at, "qr_svg": self.qr_svg()}


@dataclass
class Auth:
    """The roles of every table (the service :class:`web.services.Services` holds)."""

    store: AuthStore
    clock: Callable[[], float] = time.time
    token_hours: float = JOIN_TOKEN_HOURS
    limiter: RateLimiter = field(init=False)
    _demo_pins: dict[str, str] = field(default_factory=dict)
    _demo_invited: set[str] = field(default_factory=set)  # demo tables given a link this run
    started_at: float = field(init=False)  # when this server started (its clock)

    def __post_init__(self) -> None:
        self.limiter = RateLimiter(JOIN_ATTEMPTS, JOIN_WINDOW, self.clock)
        self.started_at = self.clock()  # this server's start: links made before are replaced

    # -- host and invites --------------------------------------------------------------------

    def new_host_pin(self, table_id: str) -> str:
        """A new PIN for the table's host (the old one stops working); shown once."""
        pin = "".join(secrets.choice("0123456789") for _ in range(PIN_DIGITS))
        self.store.set_pin(table_id, pin)
        return pin

    def new_invite(self, table_id: str, base_url: str) -> Invite:
        token = secrets.token_urlsafe(16)
        expires = self.clock() + self.token_hours * 3600
        self.store.add_invite(table_id, token, expires)
        return Invite(join_url(base_url, table_id, token), token, expires)

    def invite(self, table_id: str, base_url: str) -> Invite:
        """The table's current join link, or a new one if it has none still valid. The
        current link is kept in the auth file, so a restart on the same database keeps it
        (a printed QR code still works until it expires)."""
        current = self.store.current_invite(table_id)
        if current is not None and self.store.invite_valid(table_id, current[0], self.clock()):
            return Invite(join_url(base_url, table_id, current[0]), *current)
        return self.new_invite(table_id, base_url)

    def demo_invite(self, table_id: str, base_url: str) -> Invite:
        """The demo table's join link: a new one at each start of the server (as its host
        PIN), then the same one for the rest of the run."""
        if table_id in self._demo_invited:
            return self.invite(table_id, base_url)
        self._demo_invited.add(table_id)
        return self.new_invite(table_id, base_url)

    def gone_by_restart(self, table_id: str, token: str) -> bool:
        """Whether a join link that no longer works was the demo table's link when its
        server last started, not yet expired: the demo's new link of this start replaced
        it, not the host. (A normal table keeps its link across a restart.)"""
        if table_id not in self._demo_invited:
            return False
        expires = self.store.invite_expiry(table_id, token)
        start = self.started_at + self.token_hours * 3600  # the expiry of a link made at start
        if expires is None or expires <= self.clock() or expires >= start:
            return False
        return self.store.newest_invite_expiry(table_id, before=start) == expires

    def demo_host(self, table_id: str) -> str:
        """The demo table's PIN, made once per server run so the console and the home page
        can show the host link (a demonstration, on purpose)."""
        pin = self._demo_pins.get(table_id)
        if pin is None:
            pin = self._demo_pins[table_id] = self.new_host_pin(table_id)
        return pin

    # -- sessions ----------------------------------------------------------------------------

    def member(self, sid: str | None, table_id: str) -> Member:
        if sid is None:
            return SPECTATOR
        return self.store.member(sid, table_id) or SPECTATOR


# -- URLs and QR codes --------------------------------------------------------------------------


def join_url(base_url: str, table_id: str, token: str) -> str:
    return f"{base_url.rstrip('/')}/join/{table_id}?token={token}"


def host_url(base_url: str, table_id: str, pin: str) -> str:
    return f"{base_url.rstrip('/')}/host/{table_id}?pin={pin}"


def qr_svg(text: str) -> str:
    """A QR code as inline SVG (segno: pure Python, nothing downloaded)."""
    import segno

    return str(segno.make(text, error="m").svg_inline(scale=4, border=2))


def qr_text(text: str) -> str:
    """A QR code drawn with block characters, for the console."""
    import segno

    out = io.StringIO()
    segno.make(text, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue()


def lan_base_url(host: str, port: int) -> str:
    """The address phones on the local network use: the LAN address when the server
    listens on every interface (no packet is sent to find it)."""
    if host not in ("0.0.0.0", "::", ""):
        return f"http://{host}:{port}/"
    addr = "127.0.0.1"
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))
            addr = s.getsockname()[0]
    except OSError:
        pass
    return f"http://{addr}:{port}/"


def _base_url(base_url: str | None) -> str:
    return base_url if base_url is not None else request.host_url


def _auth() -> Auth:
    auth: Auth = current_app.extensions["tableside"].auth
    return auth


def invite_for(table_id: str, base_url: str | None = None) -> dict[str, Any]:
    """For pages: the table's current join link and QR code (``base_url`` defaults to the
    request's own)."""
    return _auth().invite(table_id, _base_url(base_url)).to_json()


def demo_links(auth: Auth, table_id: str, base_url: str) -> dict[str, Any]:
    """For the console and the home page of ``tableside serve --demo``: the host link with
    its PIN and the join link with its QR code (SVG and console text)."""
    pin = auth.demo_host(table_id)
    invite = auth.demo_invite(table_id, base_url)
    return {"host_url": host_url(base_url, table_id, pin), "host_pin": pin,
            **invite.to_json(), "qr_text": qr_text(invite.join_url)}


def console_text(auth: Auth, table_id: str, base_url: str) -> str:
    """What ``tableside serve --demo`` prints: the host link and the join QR code."""
    links = demo_links(auth, table_id, base_url)
    return (f"Host the demo table: {links['host_url']}  (PIN {links['host_pin']})\n"
            f"Players join with:   {links['join_url']}\n{links['qr_text']}")


# -- the request's session ---------------------------------------------------------------------


def init_app(app: Flask) -> None:
    """Load the session from its cookie, check CSRF, and set the cookie of a new session."""

    @app.before_request
    def _load() -> None:
        auth = _auth()
        sid = request.cookies.get(COOKIE)
        csrf = auth.store.csrf_of(sid) if sid else None
        g.tableside_sid, g.tableside_csrf = (sid, csrf) if csrf is not None else (None, None)
        if (request.method not in SAFE_METHODS and request.path.startswith("/api/")
                and g.tableside_sid is not None):
            sent = request.headers.get(CSRF_HEADER, "")
            if not hmac.compare_digest(sent.encode(), csrf.encode()):  # type: ignore[union-attr]
                raise Forbidden(f"this request needs the page's {CSRF_HEADER} header (GET "
                                "/api/tables/<id>/me gives it)", code="csrf")

    @app.after_request
    def _cookie(response: Any) -> Any:
        sid = g.get("tableside_new_sid")
        if sid is not None:
            response.set_cookie(COOKIE, sid, max_age=SESSION_DAYS * 86400, path="/",
                                httponly=True, samesite="Lax", secure=request.is_secure)
        return response


def session(create: bool = True) -> tuple[str | None, str | None]:
    """The request's session id and CSRF token, making a new session if asked."""
    if g.get("tableside_sid") is None and create:
        sid, csrf = _auth().store.new_session(_auth().clock())
        g.tableside_sid, g.tableside_csrf, g.tableside_new_sid = sid, csrf, sid
    return g.get("tableside_sid"), g.get("tableside_csrf")


def current(table_id: str) -> Member:
    """The role of the request's session at this table (a spectator without a session)."""
    return _auth().member(g.get("tableside_sid"), table_id)


def set_member(table_id: str, member: Member) -> None:
    sid, _ = session()
    assert sid is not None
    _auth().store.set_member(sid, table_id, member)


def client_address() -> str:
    return request.remote_addr or "unknown"


def limiter_attempt(what: Message) -> None:
    """Count a join or PIN attempt from this address (429 past the limit)."""
    _auth().limiter.attempt(client_address(), what)


def rank(role: str) -> int:
    return ROLES.index(role)


def requires(role: str) -> Callable[[F], F]:
    """Protect a table route (``<session_id>`` in its URL): 404 for an unknown table, then
    403 unless the session holds ``role`` (or a higher one: host > player > spectator)."""

    def wrap(view: F) -> F:
        @functools.wraps(view)
        def checked(*args: Any, **kwargs: Any) -> Any:
            table_id = kwargs.get("session_id") or kwargs.get("table_id")
            if table_id is None:
                raise TypeError(f"{view.__name__} has no <session_id> for auth.requires")
            current_app.extensions["tableside"].tables.get(table_id)  # 404 first
            member = current(table_id)
            if rank(member.role) < rank(role):
                raise Forbidden(_refusal(member, role))
            return view(*args, **kwargs)

        return checked  # type: ignore[return-value]

    return wrap


def require_host(table_id: str) -> None:
    """403 unless the session is the table's host: for routes without ``<session_id>`` in
    their URL (a campaign's next game or record: pass the campaign's current table)."""
    if current(table_id).role != "host":
        raise Forbidden(_refusal(SPECTATOR, "host"))


# why a session may not (vision.said: said in the page's language)
HOST_ONLY = message(
    "auth.host_only", "only the table's host may do this (enter the host PIN first)")()
SPECTATORS_WATCH = message(
    "auth.spectators_watch", "spectators only watch: join the table as a player to act")()
YOU_PLAY = message("auth.you_play", "you play {own}; you may not act as '{actor}'")
NOT_YOURS = message("auth.not_yours", "not yours to do: {why}")
UNDO_OTHERS = message(
    "auth.undo_others",
    "the command to undo is {whose}'s ({command}); only the host may undo someone else's "
    "command")
REDO_OTHERS = message(
    "auth.redo_others",
    "the command to redo is {whose}'s ({command}); only the host may redo someone else's "
    "command")
BY_TABLE = message("auth.by_table", "the table")()  # whose command: the host acting for all
BY_CAMERA = message("auth.by_camera", "the camera")()  # a roll the camera read and applied
HOST_EDITS = message(
    "auth.host_edits", "only the table's host may change the game's components")()
OWN_VIEW = message("auth.own_view", "you may only see your own province's view")()
PUBLIC_VIEW = message(
    "auth.public_view", "you may only see the public view: join the table as a player to "
    "see your province's")()


def _refusal(member: Member, needed: str) -> str:
    if needed == "host":
        return HOST_ONLY
    if member.role == "spectator":
        return SPECTATORS_WATCH
    return f"this needs the {needed} role"


# -- seats and viewers ---------------------------------------------------------------------------


def seats(table: Table) -> list[dict[str, Any]]:
    """The provinces (or players) one can play at this table: ``{"id", "name"}`` each."""
    view = table.view(None)
    if isinstance(view, dict):
        provinces = view.get("provinces")
        if isinstance(provinces, dict):
            order = view.get("seating") or list(provinces)
            return [{"id": c, "name": provinces[c].get("player") or c}
                    for c in order if c in provinces]
        players = view.get("players")
        if isinstance(players, list):
            return [{"id": p, "name": p} for p in players if isinstance(p, str)]
    return []


def seat_of(table: Table, who: str | None) -> str | None:
    """The seat id an actor or viewer names (by id or by player name), or None."""
    if who is None:
        return None
    for seat in seats(table):
        if who in (seat["id"], seat["name"]):
            return str(seat["id"])
    return None


def _whose(table: Table, actor: str | None) -> str:
    """Who sent a command, for a sentence: its province's player, the table or the camera
    (a message of its own), else the actor as recorded."""
    if actor is None:
        return BY_TABLE
    if actor == "camera":
        return BY_CAMERA
    seat = seat_of(table, actor)
    return next((str(s["name"]) for s in seats(table) if s["id"] == seat), actor)


def viewer_for(table: Table) -> str | None:
    """Whose view this request gets: the session's own province. ``?viewer=`` may only
    name it (hidden information is only in its owner's view)."""
    own = current(table.session_id).province
    asked = request.args.get("viewer")
    if asked not in (None, "") and seat_of(table, asked) != own:
        raise Forbidden(OWN_VIEW if own else PUBLIC_VIEW)
    return own


# -- what a session may change -------------------------------------------------------------------


def acts_for_all(member: Member, table_id: str) -> bool:
    return member.role == "host" or (
        member.role == "player" and _auth().store.players_act_for_all(table_id))


def authorize_command(table: Table, command: Command) -> Command:
    """The command as this session may send it (with its province as the actor), or
    :class:`Forbidden`. Rules refusals stay the engine's (409 when applied)."""
    member = current(table.session_id)
    if rank(member.role) < rank("player"):
        raise Forbidden(_refusal(member, "player"))
    if command.type in HOST_COMMANDS.get(table.game, ()) and member.role != "host":
        raise Forbidden(HOST_EDITS)
    for_all = acts_for_all(member, table.session_id)
    own = member.province
    if command.actor is not None:
        named = seat_of(table, command.actor)
        if named != own and not for_all:
            raise Forbidden(YOU_PLAY(own=str(own), actor=command.actor))
        return command
    if own is None:
        return command  # the host without a province acts as the table
    as_own = Command(command.type, command.args, own)
    refusal = _refused(table, as_own)
    if refusal is not None and _refused(table, command) is None:
        if for_all:
            return command  # allowed to act for another province: as the table
        raise Forbidden(NOT_YOURS(why=refusal))
    return as_own


def _refused(table: Table, command: Command) -> str | None:
    try:
        table.engine.decide(table.state, command)
    except (IllegalCommand, InvalidCommand) as exc:
        return str(exc)
    return None


def authorize_step(table: Table, which: str, actor: Any) -> str | None:
    """The actor of an undo or redo this session may make: players take back (or redo)
    their own commands only, and the camera's read of their own roll; anyone else's needs
    the host."""
    member = current(table.session_id)
    if rank(member.role) < rank("player"):
        raise Forbidden(_refusal(member, "player"))
    if actor is not None and not isinstance(actor, str):
        raise InvalidCommand("'actor' must be a string")
    if member.role == "host":
        return actor if actor is not None else member.province
    if actor is not None and seat_of(table, actor) != member.province:
        raise Forbidden(YOU_PLAY(own=str(member.province), actor=actor))
    stack = table.applied if which == "undo" else table.redoable
    if stack:
        record = table.store.record(table.session_id, stack[-1])
        theirs = {seat_of(table, record.actor), roller(table, record, which)} - {None}
        if member.province not in theirs:  # a seat no one holds is no one's to take back
            said = UNDO_OTHERS if which == "undo" else REDO_OTHERS
            raise Forbidden(said(whose=_whose(table, record.actor),
                                 command=record.type.replace("_", " ")))
    return member.province


def roller(table: Table, record: Any, which: str) -> str | None:
    """The province whose roll a camera's command answered (the roll prompt's player, as
    the game stood before it), for the command an undo (``which`` "undo") would take back
    or a redo would bring back: its roller may undo or redo it, as a roll she answered from
    her phone or a button. None for any other command."""
    if record.actor != "camera":
        return None
    try:
        state = table.before_last() if which == "undo" else table.state
    except IllegalCommand:
        return None
    for prompt in table.engine.prompts(state):
        if isinstance(prompt, RollPrompt) and prompt.command == record.type:
            return seat_of(table, prompt.player) if prompt.player is not None else None
    return None
