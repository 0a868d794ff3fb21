"""``tableside profiles``: the custom-face dice profiles saved here, what each has learned
at the table, and taking a lesson or a change back.

    tableside profiles list [--json]
    tableside profiles show NAME [--json]   each face's enrolled and learned crops, the
                                            reads it learned from, the copies kept
    tableside profiles forget NAME (--read ID... | --learned)
                                            drop what it learned from those reads (a
                                            roll confirmed with a wrong face), or all it
                                            learned; the enrolled crops stay
    tableside profiles restore NAME         put the copy kept before the last change back
                                            (run again: the change again)
    tableside profiles remove NAME          start the die over: its profile goes (a copy
                                            is kept), and the table makes a new one only
                                            from dice named from now on

A profile learns the dice the table confirms or corrects (docs/vision.md, "Rolls and
confirms"). A die corrected again is learned again; a lesson that can no longer be
corrected (the game went on) is forgotten here. ``forget`` and ``tableside enroll`` over a
saved profile first keep a copy of it (``NAME.npz.<time>.bak`` beside it, the last 10), which
``restore`` puts back. A running ``tableside serve`` reads the changed file from its next
roll.

To start a die over (its dice named wrongly from the start, or new dice), use ``remove``,
not a plain delete of ``NAME.npz``: the table makes a die's profile from the dice named in
the reads it keeps, so a deleted file comes back, the same, at the next confirm. ``remove``
also notes the time (``NAME.start-over`` beside the file), and the table then uses only
dice named in reads taken after it. Run it on a file already deleted to note the time.
``restore`` puts the removed profile back. Bad input prints one line on stderr and exits
with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from vision.enrollment import Profile
from vision.profilefile import (
    EnrollmentError,
    backups,
    profile_path,
    profiles_dir,
    remove,
    restore_latest,
    saved_profiles,
)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "profiles", help="the dice profiles saved here: what they learned, taking it back",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="action", metavar="ACTION")
    sub.required = True
    listing = sub.add_parser("list", help="the profiles saved, with their crops per face")
    listing.add_argument("--json", action="store_true", help="print JSON")
    listing.set_defaults(handler=_list)
    show = sub.add_parser("show", help="one profile: its faces, lessons and kept copies")
    show.add_argument("name", help="the profile's name (its die's, for tableside serve)")
    show.add_argument("--json", action="store_true", help="print JSON")
    show.set_defaults(handler=_show)
    forget = sub.add_parser("forget", help="drop what a profile learned from some reads, "
                            "or everything it learned")
    forget.add_argument("name", help="the profile's name")
    what = forget.add_mutually_exclusive_group(required=True)
    what.add_argument("--read", action="append", metavar="ID", dest="reads",
                      help="a read whose dice it learned (repeat for more; see show)")
    what.add_argument("--learned", action="store_true",
                      help="everything it learned at the table (the enrolled crops stay)")
    forget.set_defaults(handler=_forget)
    restore = sub.add_parser("restore", help="put back the copy kept before the last "
                             "change (enroll over it, forget)")
    restore.add_argument("name", help="the profile's name")
    restore.set_defaults(handler=_restore)
    start_over = sub.add_parser("remove", help="start a die over: remove its profile (a copy "
                                "is kept) and name its dice at the table again")
    start_over.add_argument("name", help="the profile's name (its die's)")
    start_over.set_defaults(handler=_remove)


def _fail(action: str, message: object) -> int:
    print(f"tableside profiles {action}: {message}", file=sys.stderr)
    return 2


def _faces_line(info: dict[str, Any]) -> str:
    """Each face's crops, the face named as one ("1 8+0" was hard to read)."""
    return "; ".join(f"face {f['face']}: {f['enrolled']} enrolled + {f['learned']} learned"
                     for f in info["faces"])


def _list(args: argparse.Namespace) -> int:
    rows: list[dict[str, Any]] = []
    for name in saved_profiles():
        try:
            rows.append(Profile.load(name).summary())
        except (EnrollmentError, ValueError) as exc:
            rows.append({"name": name, "error": str(exc)})
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    if not rows:
        print(f"no profiles saved in {profiles_dir()}")
    for row in rows:
        if "error" in row:
            print(f"{row['name']}: cannot be used: {row['error']}")
        else:
            print(f"{row['name']} ({row['die']}), crops: {_faces_line(row)}")
    return 0


def _load(action: str, name: str) -> Profile | int:
    try:
        return Profile.load(name)
    except (EnrollmentError, ValueError) as exc:
        return _fail(action, exc)


def _show(args: argparse.Namespace) -> int:
    profile = _load("show", args.name)
    if isinstance(profile, int):
        return profile
    info = profile.summary()
    info["kept_copies"] = [p.name for p in backups(profile_path(args.name))]
    if args.json:
        print(json.dumps(info, indent=1))
        return 0
    print(f"{info['name']} ({info['die']}), crops: {_faces_line(info)}")
    lessons = info["learned_from"]
    print(f"learned from {len(lessons)} reads" + (":" if lessons else ""))
    for read, dice in lessons.items():
        print(f"  {read}: {dice} {'die' if dice == 1 else 'dice'}")
    copies = info["kept_copies"]
    print(f"copies kept: {len(copies)}" + (f" (latest {copies[-1]})" if copies else ""))
    return 0


def _forget(args: argparse.Namespace) -> int:
    try:
        before, after, copy = Profile.forget_saved(args.name, args.reads)
    except (EnrollmentError, OSError, ValueError) as exc:
        hint = (f" (tableside profiles show {args.name} lists its reads)"
                if "learned nothing from read" in str(exc) else "")
        return _fail("forget", f"{exc}{hint}")
    dropped = len(before.maps) - len(after.maps)
    print(f"forgot {dropped} learned {'die' if dropped == 1 else 'dice'} of profile "
          f"{before.name!r}; the profile before is kept as {copy.name if copy else '-'} "
          f"(tableside profiles restore {args.name} puts it back)")
    return 0


def _restore(args: argparse.Namespace) -> int:
    try:
        path = profile_path(args.name)
        put_back, now = restore_latest(path)
    except (EnrollmentError, ValueError, OSError) as exc:
        return _fail("restore", exc)
    print(f"profile {args.name!r} is {put_back.name} again"
          + (f"; the one it replaced is kept as {now.name} (restore again to put it back)"
             if now is not None else ""))
    return 0


def _remove(args: argparse.Namespace) -> int:
    try:
        path = profile_path(args.name)
        copy, since = remove(path)
    except (EnrollmentError, ValueError, OSError) as exc:
        return _fail("remove", exc)
    if copy is None:
        print(f"no profile {args.name!r} is saved (in {path.parent}): nothing removed")
    else:
        print(f"removed profile {args.name!r}; it is kept as {copy.name} (tableside profiles "
              f"restore {args.name} puts it back)")
    when = since.astimezone().strftime("%Y-%m-%d %H:%M:%S")
    print(f"the table makes a new {path.stem} profile only from dice named in reads taken "
          f"after {when}: roll its dice and name them at the table")
    return 0
