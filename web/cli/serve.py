"""Start Tableside for the table: the web server for the phones (waitress, a production WSGI
server) and the runtime beside it: the camera loop reading dice for the table's roll
prompts, the serial button box, GPIO buttons on a Raspberry Pi, each looked for by itself
and re-opened when it comes back (docs/runtime.md). With --demo everything runs on any
laptop: a demonstration SeaFall table brought to its first roll, a recording of dice being
thrown as the camera, and a simulated button box; on a Raspberry Pi a camera or box plugged
in is used instead. Ctrl-C or SIGTERM stops it cleanly."""

from __future__ import annotations

import argparse
import errno
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.store.backup import latest as latest_backup
from companion.store.backup import serving
from companion.store.backup import take as take_backup
from companion.store.errors import DatabaseUnreadable, StoreError
from companion.store.paths import default_db_path
from companion.store.sqlite import SQLiteStore
from companion.table import Table
from firmware_bridge.ports import BadPortSpec, PortSpec
from vision.onnxmodel import ENGINE_NOTE
from vision.sources import SourceError, check_spec
from web.cli import CAMERA_LOG_NOTE, CAMERAS

if TYPE_CHECKING:
    from web.services import Services

DEMO_ACTOR = "demo"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("serve", help="start the web server and the camera and button loops",
                       description=__doc__,
                       epilog=f"{ENGINE_NOTE} {CAMERA_LOG_NOTE}")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (0.0.0.0: every network interface; default "
                        "%(default)s)")
    p.add_argument("--port", type=_port, default=8000,
                   help="port (default %(default)s; 0: any free port); it is listened on "
                        "before the database is opened: a port in use stops serve at once")
    p.add_argument("--db", type=Path, default=None,
                   help=f"the database file (default {default_db_path()}); its folder "
                        "must exist (the default's is made); a new one (or an empty "
                        "file, made one) is said on the console; dice read pictures are "
                        "kept in reads/ beside it; one serve per database: a second is "
                        "refused")
    p.add_argument("--demo", action="store_true",
                   help="run the whole loop with a demonstration SeaFall table, recorded "
                        "dice frames and a simulated button box (on a Raspberry Pi, the "
                        "camera and box plugged in are used instead)")
    p.add_argument("--camera", metavar="SOURCE", default=None,
                   help=f"camera source: {CAMERAS}, images:DIR, video:FILE, or none "
                        "(default: the first USB camera plugged in, not a laptop's "
                        "built-in one, else the Pi's own camera on a Pi; the demo "
                        "recording with --demo)")
    p.add_argument("--box", metavar="PORT", default=None,
                   help="serial button box: auto, a port path, usb:VID:PID[:SERIAL], a "
                        "pyserial URL, or none (default: auto; the simulated box with "
                        "--demo)")
    p.add_argument("--gpio", choices=("auto", "none"), default="auto",
                   help="buttons on the Pi's GPIO: auto (only on a Raspberry Pi) or none")
    p.add_argument("--setup", metavar="NAME", default=None,
                   help="a calibrated tray (tableside calibrate): camera frames are read with "
                        "its die size and tray floor, and its empty-tray background shows "
                        "the settle detector a still hand (default: the setup last "
                        "calibrated or checked, if any; none: without one)")
    p.add_argument("--quiet", action="store_true",
                   help="do not write the camera, button box and GPIO buttons found (and "
                        "each one that comes, goes or comes back) on this terminal")
    p.add_argument("--pictures-mb", type=_megabytes, default=None, metavar="MB",
                   help="room for the dice reads' pictures (each read's whole frame), kept "
                        "newest first; the oldest beyond it are deleted, the dice's crops "
                        "always kept (default 512)")
    p.add_argument("--threads", type=int, default=24,
                   help="worker threads: each open live stream holds one (default %(default)s)")
    p.set_defaults(handler=run)


def _start_demo(services: Services) -> None:
    """The demo table, brought to its first roll; the recorded camera's SeaFall faces
    enrolled. A camera plugged into the Pi reads the players' own dice instead, with their
    own profile (or none yet: the table names the dice, docs/vision.md)."""
    from web.runtime.demo import install_profile, play_opening

    services.demo_table = demo_table(services.store)
    recorded = services.runtime is not None and services.runtime.recorded_camera
    no_camera = services.runtime is not None and services.runtime.options.camera == "none"
    if play_opening(services.tables.get(services.demo_table)):
        if recorded:
            then = "the recorded camera will throw the dice."
        elif no_camera:  # no tray to throw into: the phones read or type the dice
            then = ("no camera (--camera none): throw 2 SeaFall dice and send a photo of "
                    "them from a phone (Photo of the dice): the table names the dice of the "
                    "first photos by tapping them, and learns your dice from them (no demo "
                    "profile: it would read your own dice as the recording's); or enter the "
                    "faces by hand.")
        else:
            then = "throw 2 SeaFall dice into the tray under the camera."
        print("Demo: Blue explores Example isle B (2 dice against defense 5); " + then,
              flush=True)
    if not recorded:
        return
    print("Demo: enrolling the SeaFall dice faces ...", flush=True)
    try:
        install_profile(services)
    except Exception as exc:  # the demo goes on: faces can still be typed in
        print(f"Demo: cannot enroll the SeaFall faces ({exc}); camera reads will "
              "fail until a profile is enrolled", file=sys.stderr, flush=True)


def demo_table(store: SQLiteStore) -> str:
    """The id of the demonstration table, created on first use."""
    from companion.games.seafall.setup import demo_options

    for info in reversed(store.sessions()):
        if info.created_by == DEMO_ACTOR and info.game == "seafall":
            return info.id
    table = Table.create(store, "seafall", demo_options(), DEMO_ACTOR)
    return table.session_id


def _megabytes(text: str) -> int:
    """A size in MB (a whole number, 0 or more), as bytes."""
    try:
        mb = int(text)
    except ValueError:
        mb = -1
    if mb < 0:
        raise argparse.ArgumentTypeError(f"{text!r}: a number of megabytes, 0 or more")
    return mb * 1024 * 1024


def _port(text: str) -> int:
    """A TCP port: 99999 was served on 34463 (the socket keeps its low 16 bits)."""
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(
            f"{text!r}: a port is a number from 1 to 65535 (0: any free one)")
    return port


def run(args: argparse.Namespace) -> int:
    from web.app import create_app
    from web.auth import console_text, lan_base_url
    from web.live import Broker, LiveServer
    from web.runtime import Runtime, RuntimeOptions
    from web.runtime.console import HardwareConsole
    from web.services import Services

    if args.camera not in (None, "none"):
        try:  # a typo is said at once, not looked for as a camera for ever
            check_spec(args.camera)
        except SourceError as exc:
            print(f"tableside serve: --camera: {exc}", file=sys.stderr)
            return 2
    if args.box is not None:
        try:  # and so is a button box named in no form a port has
            PortSpec(args.box)
        except BadPortSpec as exc:
            print(f"tableside serve: --box: {exc}", file=sys.stderr)
            return 2
    path = args.db or default_db_path()
    if args.db is not None and not path.parent.is_dir():  # a typo is not made a new database
        print(f"tableside serve: --db: there is no folder {path.parent}; nothing was created "
              "(make the folder first, or leave --db out for the default "
              f"{default_db_path()})", file=sys.stderr)
        return 2
    held = ExitStack()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)  # the default's folder, on first use
        held.enter_context(serving(path))  # until serve stops: no restore, no other serve
    except (OSError, StoreError) as exc:
        held.close()
        print(f"tableside serve: {exc}", file=sys.stderr)
        return 2
    # the port first: a serve that cannot listen makes no database and takes no backup
    broker, app = Broker(), _AppLater()
    try:
        server = LiveServer(app, broker, host=args.host, port=args.port, threads=args.threads)
    except OSError as exc:
        held.close()
        print(f"tableside serve: cannot listen on {args.host}:{args.port}: {exc}"
              + ("; another server is running there (another tableside serve?): stop it, or "
                 "pass another --port (0: any free port)" if exc.errno == errno.EADDRINUSE
                 else ""), file=sys.stderr)
        return 2
    ran: list[bool] = []
    held.callback(lambda: None if ran else server.close())  # run() let go of it all itself
    try:
        # an empty file (0 bytes) is no database yet: it is made one, and said so
        empty = path.is_file() and path.stat().st_size == 0
        new = not path.exists() or empty
        store = SQLiteStore(path)
    except (OSError, StoreError) as exc:
        held.close()
        print(f"tableside serve: {exc}", file=sys.stderr)
        if isinstance(exc, DatabaseUnreadable) and (newest := latest_backup(path)) is not None:
            print(f"tableside serve: the latest backup is {newest.path.name}, taken "
                  f"{newest.taken:%Y-%m-%d %H:%M} UTC; to play on from it: "
                  f"tableside backup restore latest --db {path}", file=sys.stderr)
        return 2
    if new:
        print(f"Tableside: new database created at {path}"
              + (" (the file there was empty)" if empty else ""), flush=True)
    _back_up(path, "serve-start")
    services = Services(store, data_dir=path.parent, pictures_budget=args.pictures_mb,
                        live=broker)
    console: HardwareConsole | None = None
    try:
        options = RuntimeOptions(demo=args.demo, camera=args.camera, box=args.box,
                                 gpio=args.gpio != "none", setup=args.setup)
        try:
            services.runtime = Runtime(services, options)
        except ValueError as exc:  # a setup that was never calibrated
            print(f"tableside serve: {exc}", file=sys.stderr)
            return 2
        if args.demo:
            _start_demo(services)
        # waitress, with the live streams closed first on Ctrl-C / SIGTERM (web.live)
        app.app = create_app(services)
        services.runtime.start()
        if args.demo and services.demo_table is not None:
            print(console_text(services.auth, services.demo_table,
                               lan_base_url(args.host, server.port)), flush=True)
        shown = "localhost" if args.host in ("0.0.0.0", "::") else args.host
        print(f"Tableside is serving on http://{shown}:{server.port}/ (database {path})",
              flush=True)
        if not args.quiet:
            console = HardwareConsole(services.runtime.status, sys.stdout).start()
        ran.append(True)  # run() lets go of the port and the threads as it returns
        server.run()
        print("Tableside: stopping", flush=True)
    except KeyboardInterrupt:
        print("Tableside: stopping", flush=True)
    finally:
        if console is not None:
            console.stop()
        services.close()
        _back_up(path, "serve-stop")
        held.close()
    return 0


class _AppLater:
    """The web application, given to the server before it exists: serve listens first, then
    opens the database the application is made on (no request is served before
    ``LiveServer.run``)."""

    app: Any = None

    def __call__(self, environ: Any, start_response: Any) -> Any:
        return self.app(environ, start_response)


def _back_up(path: Path, why: str) -> None:
    """A backup of the database when serve starts and stops, if anything was written since
    the last one (docs/store.md, "Backups"); a failure is said and serving goes on."""
    try:
        written = take_backup(path, label=why, only_if_changed=True)
    except (OSError, StoreError) as exc:
        print(f"tableside serve: no backup taken ({exc})", file=sys.stderr, flush=True)
        return
    if written is not None:
        print(f"Tableside: database backed up to {written}", flush=True)
