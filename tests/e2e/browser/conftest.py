"""Fixtures of the real-browser tests: the system's headless Chromium through Playwright,
and a real server per test. Outside CI the tests skip, with the reason, when Chromium or
Playwright is missing (``apt-get install chromium chromium-driver``; ``pip install
playwright``, never ``playwright install``); in CI (``CI`` set) a missing browser fails."""

from __future__ import annotations

import importlib.util
import os

import pytest

from tests.e2e.browser.server import CHROMIUM, PHONE, WAIT, chromium, demo_server


def _missing() -> str | None:
    if importlib.util.find_spec("playwright") is None:
        return "the Python package 'playwright' is not installed (pip install -e .[dev])"
    if not CHROMIUM.exists():
        return (f"no Chromium at {CHROMIUM} (apt-get install chromium chromium-driver, or "
                "set TABLESIDE_CHROMIUM)")
    return None


@pytest.fixture(scope="module")
def browser():
    reason = _missing()
    if reason is not None:
        if os.environ.get("CI"):
            pytest.fail(f"browser tests must run in CI: {reason}")
        pytest.skip(f"real-browser tests skipped: {reason}")
    with chromium() as b:
        yield b


@pytest.fixture
def server(tmp_path):
    with demo_server(tmp_path) as s:
        yield s


@pytest.fixture
def devices(browser, server):
    """``devices(locale=..., viewport=...)`` opens a new page in its own browser context (its
    own cookies: another phone at the table). All are closed before the server stops, so no
    live stream is left open."""
    contexts = []
    errors: list = []  # uncaught script errors on any page: a failure

    def new(locale: str = "en-GB", viewport: dict | None = None):
        size = viewport or PHONE
        mobile = size["width"] <= 480  # a phone, whatever its size
        context = browser.new_context(viewport=size, locale=locale, is_mobile=mobile,
                                      has_touch=mobile, device_scale_factor=2 if mobile else 1)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(WAIT)
        page.on("pageerror", lambda error: errors.append((page.url, error)))
        return page

    yield new
    for context in contexts:
        context.close()
    assert not errors, f"script errors: {errors}"
