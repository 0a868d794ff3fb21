"""Test clients that behave like a real browser at the table (web.auth): a session cookie
and its CSRF token sent in ``X-CSRF-Token`` on every request, as the pages do."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient


def browser(app: Flask) -> FlaskClient:
    """A test client with a browser session: it sends the session's CSRF token on every
    request. Creating a table makes it that table's host."""
    client = app.test_client()
    token = client.get("/api/session").json["csrf_token"]
    client.environ_base["HTTP_X_CSRF_TOKEN"] = token
    return client


def join(app: Flask, host: FlaskClient, table_id: str, name: str,
         province: str | None) -> FlaskClient:
    """Another browser that joins the table with the host's invite link."""
    token = host.get(f"/api/tables/{table_id}/invite").json["token"]
    client = browser(app)
    answer = client.post(f"/api/tables/{table_id}/join",
                         json={"token": token, "name": name, "province": province})
    assert answer.status_code == 200, answer.json
    return client


def post(client: FlaskClient, url: str, **body: Any) -> Any:
    return client.post(url, json=body)
