"""A clock for tests: each reading is one second after the previous one."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta


class FakeClock:
    def __init__(self, start: datetime = datetime(2026, 1, 1, 20, 0, tzinfo=UTC),
                 step: timedelta = timedelta(seconds=1)) -> None:
        self.now = start
        self.step = step

    def __call__(self) -> datetime:
        current = self.now
        self.now += self.step
        return current
