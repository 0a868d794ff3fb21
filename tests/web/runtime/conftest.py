from __future__ import annotations

from pathlib import Path

import pytest

from companion.store.sqlite import MEMORY, SQLiteStore
from tests.support.web import browser
from tests.web.runtime import dicegame
from tests.web.runtime.support import demo_profile
from web.app import create_app
from web.services import Services


@pytest.fixture(autouse=True)
def _private_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Profiles go to a per-test XDG data dir, never the user's; the dice game is known."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    dicegame.register()


@pytest.fixture
def services(tmp_path: Path):
    services = Services(SQLiteStore(MEMORY), data_dir=tmp_path / "data")
    yield services
    services.close()


@pytest.fixture
def seafall_services(services):
    services.dice().readers.profiles["seafall"] = demo_profile()
    return services


@pytest.fixture
def app(seafall_services):
    return create_app(seafall_services, {"TESTING": True})


@pytest.fixture
def client(app):
    """The host's browser (it creates the tables)."""
    return browser(app)
