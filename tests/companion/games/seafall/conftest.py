"""Fixtures for the SeaFall engine tests (the driver lives in seafall_driver.py)."""

from __future__ import annotations

import pytest
from seafall_driver import Game


@pytest.fixture
def game() -> type[Game]:
    return Game
