"""What the reader and the runtime tell the table of a dice read is said in the page's
language (vision.said, web/i18n.py): every message in the code is in the catalogues, with
its English once (the code's) and its French in fr.json, placeholders alike."""

from __future__ import annotations

import re
import string
from pathlib import Path

from vision.said import MESSAGES
from web import i18n

ROOT = Path(__file__).resolve().parents[2]
DEFINED = re.compile(r"""\bmessage\(\s*["']([a-z_]+\.[a-z_]+)["']""")


def defined_keys() -> dict[str, Path]:
    """Every message key the code defines, with its file (found by reading the source, so
    a module left out of web.i18n.SAID_IN shows)."""
    keys: dict[str, Path] = {}
    for folder in ("vision", "web", "companion", "firmware_bridge"):
        for path in (ROOT / folder).rglob("*.py"):
            for key in DEFINED.findall(path.read_text("utf-8")):
                keys[key] = path
    return keys


def test_every_message_the_code_defines_reaches_the_catalogues():
    en = i18n.load("en").strings  # imports web.i18n.SAID_IN
    defined = defined_keys()
    assert len(defined) >= 15  # the search finds the messages
    assert not sorted(k for k in defined if k not in MESSAGES), "add its module to SAID_IN"
    for key, made in MESSAGES.items():
        assert en[f"said.{key}"] == made.text
        if made.one is not None:
            assert en[f"said.{key}_one"] == made.one


def test_french_says_every_message_with_the_same_values():
    en, fr = i18n.load("en").strings, i18n.load("fr").strings
    said = {k for k in en if k.startswith("said.")}
    assert said == {k for k in fr if k.startswith("said.")}
    fields = string.Formatter()
    for key in said:
        assert ({f for _, f, _, _ in fields.parse(en[key]) if f}
                >= {f for _, f, _, _ in fields.parse(fr[key]) if f}), key
        assert fr[key] != en[key], f"{key} is not French"


def test_the_button_boxs_fixed_reasons_are_the_bridges_own_words():
    """web.runtime.boxes says the serial link's fixed reasons in the page's language, known
    by their English: each must be what firmware_bridge.session writes."""
    from web.runtime.boxes import LINK_REASONS

    session = (ROOT / "firmware_bridge" / "session.py").read_text("utf-8")
    assert len(LINK_REASONS) == 4
    for english in LINK_REASONS:
        assert f'"{english}"' in session
