"""Fixtures shared by the web tests: an in-memory store behind the application, a browser
session that hosts a demo SeaFall table. A module that needs another setup (the tally game,
a store on disk) defines its own fixture of the same name, which takes precedence."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.games.seafall.setup import demo_options
from companion.store.sqlite import MEMORY, SQLiteStore
from tests.support.web import browser
from web.app import create_app
from web.services import Services


@pytest.fixture
def services() -> Iterator[Services]:
    services = Services(SQLiteStore(MEMORY))
    yield services
    services.close()


@pytest.fixture
def app(services: Services) -> Flask:
    return create_app(services, {"TESTING": True})


@pytest.fixture
def host(app: Flask) -> FlaskClient:
    """A browser session: it hosts the tables it creates."""
    return browser(app)


@pytest.fixture
def table_id(host: FlaskClient) -> str:
    """A demo SeaFall table hosted by ``host``."""
    response = host.post("/api/tables", json={"game": "seafall", "options": demo_options()})
    assert response.status_code == 201, response.json
    return str(response.json["id"])
