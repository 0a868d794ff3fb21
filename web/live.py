"""Live updates: every committed change of a table, to every connected phone, over
Server-Sent Events (``GET /api/stream/<table_id>``, docs/api.md "Live updates").

The :class:`Broker` listens to each open :class:`~companion.table.Table`
(``table.add_listener``), so a change from any entry point (an HTTP command, a button, the
camera) is published. Each table has a :class:`Channel`: the most recent changes in version
order, each with the state it left (engine states are never changed in place, so keeping a
reference is enough). A stream is a cursor over that sequence, not a queue: it sends every
change with a version above the last one it sent, so a slow or reconnecting phone can miss
nothing and get nothing twice. A phone that was away longer than the channel remembers gets
the missing versions rebuilt from the store's log (``companion.table.replay``), then
continues live.

A dice read that waits for the table (a camera read with a die it is unsure of, a phone's
photo) changes no version; :meth:`Broker.dice_read` sends ``event: dice`` with
``data: {"table", "reads"}`` (no ``id``: a reconnect resumes by version, and the page reads
the latest read when it connects anyway), and the phones fetch it. So too the fortune a
button counts on a spend prompt (:meth:`Broker.buttons_changed`, ``event: buttons``).

Each table message is ``id: <version>``, ``event: table`` and ``data: {"version", "events",
"table"}`` where ``table`` is that version's table view *for that viewer* (hidden
information only in its owner's view) and ``events`` carry a readable ``text`` (in the
language the phone chose when it connected) but no payload (a payload may hold what only
one player may see). Comments (``: keep-alive``) keep proxies and phones from closing an
idle stream; :meth:`Broker.close` ends every stream cleanly, before the server's worker
threads are joined (:class:`LiveServer`).
"""

from __future__ import annotations

import inspect
import json
import logging
import signal
import threading
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from companion.engine import Event
from companion.store.records import COMMAND_REDONE, COMMAND_UNDONE, StoredEvent
from companion.table import Position, Table, replay
from web import i18n

log = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 15.0
REMEMBERED = 256  # changes per table kept in memory for reconnecting phones
CACHED = 8  # the newest changes keep their encoded messages (older ones are re-made)
RETRY_MS = 2000  # how soon a browser's EventSource reconnects
OUTBUF_BYTES = 256 * 1024  # waitress's buffer per connection (see LiveServer)
RESERVED_THREADS = 4  # server threads never taken by streams, for ordinary requests


class StreamsFull(Exception):
    """Every stream slot is taken (each open stream holds a server thread)."""


def view_json(table: Table, state: Any, version: int, can_undo: bool, can_redo: bool,
              viewer: str | None, lang: str = "en") -> dict[str, Any]:
    """The table view of one version for one viewer (the shape of ``GET /api/tables/<id>``),
    with the engine's phrases in it said in ``lang`` (:func:`phrases`)."""
    view = table.engine.view(state, viewer)
    return {
        "id": table.session_id,
        "game": table.game,
        "version": version,
        "can_undo": can_undo,
        "can_redo": can_redo,
        "prompts": [p.to_json() for p in table.engine.prompts(state)],
        "state": view,
        "phrases": phrases(table, view, lang),
    }


PHRASED = ("reason", "summary")
"""The keys under which an engine writes phrases into a view or its commands' list."""


def phrases(table: Table, data: Any, lang: str) -> dict[str, str]:
    """The phrases the engine wrote into ``data`` (a view, the commands it lists): each
    ``reason`` (a dice-pool line, a glory reason) and ``summary`` (a command's cost, a
    move), English, to its text in ``lang`` where the engine says it otherwise (its
    optional ``phrase(text, lang)``; SeaFall: French). The data keeps its English; a page
    shows ``phrases[text]`` where there is one."""
    phrase = getattr(table.engine, "phrase", None)
    if phrase is None or lang == "en":
        return {}
    out: dict[str, str] = {}
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for key in PHRASED:
                text = item.get(key)
                if isinstance(text, str) and text not in out:
                    out[text] = str(phrase(text, lang=lang))
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return {k: v for k, v in out.items() if v != k}


def event_text(table: Table, event: Event, lang: str = "en", state: Any = None) -> str:
    """The engine's sentence for an event, in ``lang`` when the engine's ``describe`` takes a
    language (SeaFall: English and French), else in the engine's own language; with the
    table's ``state`` (the version's, else the table's now) when it takes one, for names."""
    step = step_text(table, event, lang, table.state if state is None else state)
    if step is not None:
        return step
    describe = getattr(table.engine, "describe", None)
    if describe is None:
        return event.type
    try:
        takes = inspect.signature(describe).parameters
        options: dict[str, Any] = {}
        if lang != "en" and "lang" in takes:
            options["lang"] = lang
        if "state" in takes:
            options["state"] = table.state if state is None else state
        return str(describe(event, **options))
    except Exception:  # a describer that does not know an event must not stop the stream
        return event.type


STEPS = {COMMAND_UNDONE: "history.step_undone", COMMAND_REDONE: "history.step_redone"}
"""The catalogue's line for an undo's and a redo's marker event."""


def step_text(table: Table, event: Event, lang: str, state: Any) -> str | None:
    """An undo's or a redo's line as the history card says it: the command it took back or
    brought back and whose it was ("Taken back: Dice (Zoé)."), never its number (the
    engine's line, "Command 6 undone.", is for ``tableside play``); None for any other
    event, or a marker whose command the log does not hold."""
    which = STEPS.get(event.type)
    number = event.payload.get("command_no") if which else None
    if not isinstance(number, int):
        return None
    try:
        target = table.store.record(table.session_id, number)
    except KeyError:
        return None
    words = i18n.shared(lang)
    command = words.strings.get(f"command.{target.type}", target.type.replace("_", " "))
    if not target.actor:  # a command no one sent in particular (a button's "next")
        return words.get(which + "_table", command=command)
    return words.get(which, command=command, player=actor_name(state, target.actor, words))


def actor_name(state: Any, actor: str, words: i18n.Catalogue) -> str:
    """Who sent a command, as the pages name them (views.js ``actorName``): a province by its
    player (a name the setup gave by default, "Blue", as its colour in ``words``), the camera
    and the demonstration in ``words``, anyone else as recorded."""
    provinces = getattr(state, "provinces", None)
    province = provinces.get(actor) if isinstance(provinces, dict) else None
    if province is not None:
        player = getattr(province, "player", None)
        if player and player != actor[:1].upper() + actor[1:]:
            return str(player)
        return words.strings.get(f"colour.{actor}", str(player or actor))
    return words.strings.get(f"actor.{actor}", actor)


@dataclass
class Change:
    """One committed version of a table: the record that made it and the state it left."""

    version: int
    command_no: int
    state: Any
    can_undo: bool
    can_redo: bool
    events: tuple[StoredEvent, ...] | None = None
    _messages: dict[tuple[str | None, str], bytes] = field(default_factory=dict, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def forget_messages(self) -> None:
        with self._lock:
            self._messages.clear()

    def message(self, table: Table, viewer: str | None, lang: str = "en") -> bytes:
        """The SSE message of this version for one viewer in one language (made once per
        viewer and language)."""
        with self._lock:
            cached = self._messages.get((viewer, lang))
            if cached is not None:
                return cached
            if self.events is None:
                self.events = table.store.record(table.session_id, self.command_no).events
            data = {
                "version": self.version,
                "events": [{"seq": e.seq, "command_no": e.command_no, "actor": e.actor,
                            "type": e.type,
                            "text": event_text(table, e.event, lang, self.state)}
                           for e in self.events],
                "table": view_json(table, self.state, self.version, self.can_undo,
                                   self.can_redo, viewer, lang),
            }
            body = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
            message = f"id: {self.version}\nevent: table\ndata: {body}\n\n".encode()
            self._messages[(viewer, lang)] = message
            return message


class Channel:
    """The recent changes of one table, and a condition streams wait on."""

    def __init__(self, table: Table, remembered: int = REMEMBERED) -> None:
        self.table = table
        self._recent: deque[Change] = deque(maxlen=remembered)
        self._cond = threading.Condition()
        self.closed = False
        self.reads = 0  # dice reads recorded or changed without a new version
        self.campaign = 0  # its campaign moved on (the game recorded, or a step taken back)
        self.seats = 0  # who plays what, or what players may do, changed (joins, settings)
        self.buttons = 0  # a button counted fortune to spend
        table.add_listener(self._changed, call_now=True)

    def dice_read(self) -> None:
        with self._cond:
            self.reads += 1
            self._cond.notify_all()

    def campaign_changed(self) -> None:
        with self._cond:
            self.campaign += 1
            self._cond.notify_all()

    def seats_changed(self) -> None:
        with self._cond:
            self.seats += 1
            self._cond.notify_all()

    def buttons_changed(self) -> None:
        with self._cond:
            self.buttons += 1
            self._cond.notify_all()

    @property
    def news(self) -> tuple[int, int, int, int]:
        """What changes without a new version: the dice reads, the campaign's steps, the
        seats and the fortune counted on the buttons."""
        return self.reads, self.campaign, self.seats, self.buttons

    def _changed(self, table: Table) -> None:
        # called under the table's lock, in version order: keep it quick
        change = Change(table.version, table.last_command, table.state, table.can_undo,
                        table.can_redo)
        with self._cond:
            if self._recent and change.version <= self._recent[-1].version:
                return  # a record without events: no new version to send
            self._recent.append(change)
            if len(self._recent) > CACHED:
                self._recent[-CACHED - 1].forget_messages()
            self._cond.notify_all()

    def latest(self) -> Change:
        with self._cond:
            return self._recent[-1]

    def close(self) -> None:
        with self._cond:
            self.closed = True
            self._cond.notify_all()
        self.table.remove_listener(self._changed)

    def after(self, version: int, timeout: float,
              news: tuple[int, int, int, int] | None = None) -> list[Change] | None:
        """The changes with a version above ``version``, waiting up to ``timeout`` seconds
        for one (or, given ``news``, for :attr:`news` to pass it); ``[]`` on a time-out
        or news alone, ``None`` once closed."""
        with self._cond:
            self._cond.wait_for(lambda: self.closed or self._recent[-1].version > version
                                or (news is not None and self.news != news), timeout)
            if self.closed:
                return None
            recent = list(self._recent)
        if recent[-1].version <= version:
            return []
        if version >= recent[0].version:
            return [c for c in recent if c.version > version]
        # away longer than remembered: rebuild the versions before the oldest one kept
        return rebuild(self.table, version, before=recent[0].command_no) + recent


def rebuild(table: Table, after: int, before: int | None = None) -> list[Change]:
    """The changes with a version above ``after`` (and a record number below ``before``),
    rebuilt from the store's log."""
    out: list[Change] = []
    pos = Position(None, 0, -1)
    for record in table.store.records(table.session_id):
        if before is not None and record.command_no >= before:
            break
        pos = replay(table.engine, [record], pos)
        if pos.version > after and record.events:
            out.append(Change(pos.version, record.command_no, pos.state, bool(pos.applied),
                              bool(pos.redoable), record.events))
    return out


class Broker:
    """The channels of every table that has a stream or an open session, and the count of
    open streams (each holds one of the server's worker threads)."""

    def __init__(self, *, max_streams: int | None = None,
                 heartbeat: float = HEARTBEAT_SECONDS, remembered: int = REMEMBERED) -> None:
        # None: the server's threads less RESERVED_THREADS (LiveServer sets it), else 20
        self.max_streams = max_streams
        self.heartbeat = heartbeat
        self.remembered = remembered
        self._channels: dict[str, Channel] = {}
        self._lock = threading.Lock()
        self._open = 0
        self._idle = threading.Condition(self._lock)
        self.closed = threading.Event()

    def attach(self, table: Table) -> Channel:
        """The table's channel, listening from now on (idempotent)."""
        with self._lock:
            channel = self._channels.get(table.session_id)
            if channel is None or channel.table is not table:
                if channel is not None:
                    channel.close()
                channel = self._channels[table.session_id] = Channel(table, self.remembered)
            return channel

    def dice_read(self, table_id: str) -> None:
        """A dice read of this table was recorded or changed and waits for the table: the
        streams tell their phones (``event: dice``)."""
        with self._lock:
            channel = self._channels.get(table_id)
        if channel is not None:
            channel.dice_read()

    def campaign_changed(self, table_id: str) -> None:
        """The campaign this table is a game of moved on without a new version of the table
        (the game recorded into it, or a step taken back): the streams tell their phones
        (``event: campaign``), which ask the campaign again."""
        with self._lock:
            channel = self._channels.get(table_id)
        if channel is not None:
            channel.campaign_changed()

    def seats_changed(self, table_id: str) -> None:
        """Who plays which province at this table, or what its players may do (the host's
        settings), changed without a new version: the streams tell their phones (``event:
        seats``), which ask who they are again."""
        with self._lock:
            channel = self._channels.get(table_id)
        if channel is not None:
            channel.seats_changed()

    def buttons_changed(self, table_id: str) -> None:
        """A button of this table counted fortune to spend on its spend prompt (the button
        box's fortune +/-), which changes no version: the streams tell their phones
        (``event: buttons``), which ask ``GET /api/tables/<id>/buttons`` for the count."""
        with self._lock:
            channel = self._channels.get(table_id)
        if channel is not None:
            channel.buttons_changed()

    @property
    def open_streams(self) -> int:
        with self._lock:
            return self._open

    def stream(self, table: Table, viewer: str | None, since: int | None,
               lang: str = "en") -> Iterator[bytes]:
        """The SSE byte stream of one phone, its event texts in ``lang`` (chosen when the
        phone connects). Raises :class:`StreamsFull` at once when every slot is taken; the
        stream itself starts when it is first iterated."""
        with self._lock:
            limit = self.max_streams if self.max_streams is not None else 20
            if self._open >= limit:
                raise StreamsFull(f"{self._open} live streams are open, the most this server "
                                  "holds; close a page or try again shortly")
            self._open += 1  # counted now so that a burst cannot overshoot
        channel = self.attach(table)
        return self._messages(channel, viewer, since, lang)

    @contextmanager
    def _slot(self) -> Iterator[None]:
        try:
            yield
        finally:
            with self._lock:
                self._open -= 1
                self._idle.notify_all()

    def _messages(self, channel: Channel, viewer: str | None, since: int | None,
                  lang: str = "en") -> Iterator[bytes]:
        with self._slot():
            table = channel.table
            # counted before the first message: a read after the view it shows is sent
            reads, campaign, seats, buttons = channel.news
            yield f"retry: {RETRY_MS}\n\n".encode()
            latest = channel.latest()
            if since is None or since > latest.version:
                # a first connection (or a version this table never had): the current view
                yield latest.message(table, viewer, lang)
                last = latest.version
            else:
                last = since
            while not self.closed.is_set():
                changes = channel.after(last, self.heartbeat, (reads, campaign, seats, buttons))
                if changes is None:
                    break
                for change in changes:
                    yield change.message(table, viewer, lang)
                    last = change.version
                news = False
                if channel.reads != reads:
                    reads, news = channel.reads, True
                    data = json.dumps({"table": table.session_id, "reads": reads})
                    yield f"event: dice\ndata: {data}\n\n".encode()
                if channel.campaign != campaign:
                    campaign, news = channel.campaign, True
                    data = json.dumps({"table": table.session_id, "campaign": campaign})
                    yield f"event: campaign\ndata: {data}\n\n".encode()
                if channel.seats != seats:
                    seats, news = channel.seats, True
                    data = json.dumps({"table": table.session_id, "seats": seats})
                    yield f"event: seats\ndata: {data}\n\n".encode()
                if channel.buttons != buttons:
                    buttons, news = channel.buttons, True
                    data = json.dumps({"table": table.session_id, "buttons": buttons})
                    yield f"event: buttons\ndata: {data}\n\n".encode()
                if not changes and not news:
                    yield b": keep-alive\n\n"

    def close(self, timeout: float = 2.0) -> None:
        """End every stream (each sends what it has and returns), waiting up to ``timeout``
        seconds for their threads to finish."""
        self.closed.set()
        with self._lock:
            channels = list(self._channels.values())
        for channel in channels:
            channel.close()
        with self._lock:
            self._idle.wait_for(lambda: self._open == 0, timeout)


class LiveServer:
    """waitress, with the live streams ended before its worker threads are joined.

    ``waitress.serve`` joins its threads on Ctrl-C, but each open stream holds one until it
    ends, so a plain shutdown would hang for its time-out and cut streams mid-message. Here
    SIGINT/SIGTERM (or :meth:`stop` from another thread) first close the broker, then stop
    the server. ``port=0`` picks a free port (tests, benchmarks): see :attr:`port`.
    """

    def __init__(self, app: Any, broker: Broker, host: str = "127.0.0.1", port: int = 0,
                 threads: int = 24, **options: Any) -> None:
        import waitress

        limit_malloc_arenas()
        self.broker = broker
        if broker.max_streams is None:  # requests always keep some threads
            broker.max_streams = max(1, threads - RESERVED_THREADS)
        # waitress keeps what a response has sent in its buffer until the buffer reaches
        # this size: a live stream never ends, so a small one keeps each stream's memory
        # small (and makes a phone that reads too slowly hold its own thread, not the Pi's
        # memory)
        options.setdefault("outbuf_high_watermark", OUTBUF_BYTES)
        from waitress import wasyncore
        from waitress.task import ThreadedTaskDispatcher

        # waitress's own sockets and threads, so that a port it cannot listen on leaves
        # neither its wake-up pipe nor its worker threads behind
        sockets: dict[int, Any] = {}
        dispatcher = ThreadedTaskDispatcher()
        dispatcher.set_thread_count(threads)
        try:
            self.server: Any = waitress.create_server(
                app, map=sockets, _dispatcher=dispatcher, host=host, port=port,
                threads=threads, ident="tableside", **options)
        except BaseException:
            wasyncore.close_all(sockets, ignore_all=True)
            dispatcher.shutdown()
            raise
        self._unwoken: dict[int, Any] = {}  # sockets stop() took from a loop it could not wake

    @property
    def port(self) -> int:
        return int(self.server.effective_port)

    def run(self) -> None:
        """Serve until :meth:`stop`, SIGINT or SIGTERM."""
        from waitress import wasyncore

        restore = self._handle_signals()
        try:
            self.server.run()
        except OSError:
            if not self._unwoken:  # a loop ending with a broken wake-up pipe: see stop()
                raise
        finally:
            self.broker.close()
            wasyncore.close_all(self._unwoken, ignore_all=True)
            self.server.task_dispatcher.shutdown()
            restore()

    def close(self) -> None:
        """Let go of the port and the worker threads of a server that will not :meth:`run`
        (``tableside serve`` listens first, then opens its database: one it cannot open
        stops it there)."""
        from waitress import wasyncore

        self.broker.close()
        wasyncore.close_all(self.server._map, ignore_all=True)
        self.server.task_dispatcher.shutdown()

    def stop(self) -> None:
        """End the streams, then the server (from any thread); :meth:`run` returns."""
        from waitress import wasyncore

        self.broker.close()
        sockets = self.server._map
        try:
            self.server.trigger.pull_trigger(lambda: wasyncore.close_all(sockets))
        except OSError as exc:
            # The pipe that wakes the server's loop is gone (seen once in CI, under a full
            # test run; not reproduced). The server must stop all the same: emptied of its
            # sockets, the loop ends at its next time-out (a second), and run() closes them.
            log.warning("cannot wake the server (%s): it stops within a second", exc)
            self._unwoken.update(sockets)
            sockets.clear()

    def _handle_signals(self) -> Callable[[], None]:
        if threading.current_thread() is not threading.main_thread():
            return lambda: None

        def stop(signum: int, frame: Any) -> None:
            self.broker.close()
            raise KeyboardInterrupt

        previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
        return lambda: [signal.signal(s, h) for s, h in previous.items()] and None


def limit_malloc_arenas(arenas: int = 2) -> bool:
    """Ask glibc for at most ``arenas`` malloc arenas (``MALLOC_ARENA_MAX``), before the
    server starts its threads: by default each busy thread may get its own arena, which
    holds on to freed memory, and 24 worker threads then cost a Pi tens of MB for nothing.
    Does nothing (and says so) where the C library is not glibc."""
    import ctypes
    import ctypes.util

    name = ctypes.util.find_library("c")
    if name is None:
        return False
    try:
        libc = ctypes.CDLL(name)
        return bool(libc.mallopt(-8, arenas))  # M_ARENA_MAX
    except (OSError, AttributeError):
        return False
