"""The ``tableside`` command line.

Subcommands are grouped per package; each group lives in its own module here and adds its
parsers through ``register(subparsers)``. A subcommand's handler takes the parsed arguments
and returns the process exit status.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Sequence
from importlib import import_module

# Each module registers one group of subcommands (see its docstring).
_GROUPS = (
    "web.cli.odds",  # companion: exact dice odds
    "web.cli.play",  # companion: scripted games
    "web.cli.sessions",  # companion: the event store (list, export, import)
    "web.cli.campaign",  # companion: campaigns and what carries over
    "web.cli.backup",  # companion: copies of the whole database, and restoring one
    "web.cli.serve",  # web: the server
    "web.cli.vision",  # vision: read-dice, enroll, watch
    "web.cli.profiles",  # vision: the dice profiles saved, their lessons taken back
    "web.cli.cameras",  # vision: the cameras here, and the one serve would open
    "web.cli.bridge",  # firmware_bridge: software keys, monitor, firmware install
    "web.cli.rules",  # web: rule lookup and importing your rulebook
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tableside",
        description=(
            "Tableside: a table assistant for physical board games. It reads dice from a "
            "camera, takes button presses, keeps the game state and serves a dashboard to "
            "the players' phones."
        ),
    )
    parser.add_argument("--version", action="version", version=_version())
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in _GROUPS:
        import_module(name).register(sub)
    _plain_help(parser)
    return parser


_LITERAL = re.compile(r"``(.+?)``", re.S)
_ROLE = re.compile(r":(?:func|mod|class|meth|data|attr):`~?([^`]+)`")
_EMPHASIS = re.compile(r"(?<![\w*`])\*([A-Za-z][^*`\n]*(?:\n[^*`\n]+)?)(?<=\S)\*(?![\w*])")


def plain(text: str) -> str:
    """Help text without the reST markup its docstring has (``serve`` printed with its
    backquotes, *Watching a stream* with its stars): literals as they are, a cited title in
    quotes, as the other helps cite docs/ sections."""
    text = _ROLE.sub(r"\1", _LITERAL.sub(r"\1", text))
    return _EMPHASIS.sub(lambda m: f'"{m.group(1)}"', text)


def _plain_help(parser: argparse.ArgumentParser) -> None:
    """Every description, epilog and option's help of ``parser`` and its subcommands,
    :func:`plain` (many are their module's docstring)."""
    for attr in ("description", "epilog"):
        if getattr(parser, attr):
            setattr(parser, attr, plain(getattr(parser, attr)))
    for action in parser._actions:
        if isinstance(action.help, str):
            action.help = plain(action.help)
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                if isinstance(choice.help, str):
                    choice.help = plain(choice.help)
            for sub in action.choices.values():
                _plain_help(sub)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"tableside {version('tableside')}"
    except PackageNotFoundError:
        return "tableside (not installed)"


OPENCV_LOG = "OPENCV_LOG_LEVEL"
"""OpenCV's own log (its warnings when a camera will not open, its errors on an image it
cannot decode) goes to stderr ahead of Tableside's message saying the same in the player's
words, and a server retrying an unplugged camera would print it at every retry. The command
line turns it off unless this variable is set (``OPENCV_LOG_LEVEL=WARNING tableside ...``
shows it again, to debug a camera)."""


CAMERA_LOG_NOTE = (f"OpenCV's own log is off; {OPENCV_LOG}=WARNING shows it (to see why a "
                   "camera will not open).")
"""What the commands that open a camera say of OpenCV's log in their ``--help``."""

CAMERAS = ("camera:N, /dev/videoN, picamera (picamera:N; against a lamp's flicker "
           "camera:N,50hz or ,60hz, picamera:50hz or :60hz)")
"""The camera sources, as the commands that open one list them in their ``--help``."""


FFMPEG_LOG = "OPENCV_FFMPEG_LOGLEVEL"
"""FFmpeg's log, under OpenCV's video reader: its errors on a video it cannot open ("moov
atom not found") go to stderr as OpenCV's do. OpenCV reads the variable when it first opens
a video; -8 is FFmpeg's ``AV_LOG_QUIET``."""


def quiet_opencv() -> None:
    """Turn OpenCV's own log off, and FFmpeg's under it, unless :data:`OPENCV_LOG` says
    otherwise. OpenCV reads the variable when it loads, so the command sets it before (and
    its child processes inherit it); where OpenCV is already loaded (the command line
    called in-process), its level is set directly."""
    if OPENCV_LOG in os.environ:
        return
    os.environ.setdefault(FFMPEG_LOG, "-8")
    cv2 = sys.modules.get("cv2")
    if cv2 is None:
        os.environ[OPENCV_LOG] = "SILENT"
    else:
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)


def main(argv: Sequence[str] | None = None) -> int:
    quiet_opencv()
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
