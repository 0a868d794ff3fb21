"""The dependency direction of DESIGN.md and the purity of engines, checked on the source.

* ``companion``, ``vision`` and ``firmware_bridge`` know nothing of each other or of ``web``.
* Engines and odds are pure: nothing under ``companion/games``, ``companion/dice`` or the
  engine protocol imports a clock, a random generator, the OS or I/O.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
LIBRARIES = ("companion", "vision", "firmware_bridge")
IMPURE = {"time", "random", "datetime", "os", "secrets", "socket", "threading", "subprocess",
          "sqlite3", "uuid"}


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def sources(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("package", LIBRARIES)
def test_libraries_do_not_import_each_other_or_web(package):
    others = {p for p in (*LIBRARIES, "web") if p != package}
    for path in sources(package):
        bad = {m for m in imports(path) if m.split(".")[0] in others}
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_engines_and_odds_are_pure():
    pure = [*sources("companion/games"), *sources("companion/dice"),
            ROOT / "companion" / "engine.py", ROOT / "companion" / "prompts.py"]
    assert len(pure) > 10
    for path in pure:
        bad = {m for m in imports(path) if m.split(".")[0] in IMPURE}
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"
