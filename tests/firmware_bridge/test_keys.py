from __future__ import annotations

import pytest

from firmware_bridge.clock import FakeClock
from firmware_bridge.events import ButtonEvent, ButtonKind
from firmware_bridge.keys import SoftwareButtonBox


def test_keys_digit_clicks_and_shifted_digit_long_presses() -> None:
    seen: list[ButtonEvent] = []
    with SoftwareButtonBox(clock=FakeClock(5.0)) as box:
        box.add_listener(seen.append)
        assert box.key("3") and box.key("@") and box.key("x") == []
    assert [(e.button, e.kind, e.seq) for e in seen] == [
        (2, ButtonKind.PRESS, 0),
        (2, ButtonKind.RELEASE, 1),
        (1, ButtonKind.PRESS, 2),
        (1, ButtonKind.HOLD, 3),
        (1, ButtonKind.RELEASE, 4),
    ]
    assert {e.source for e in seen} == {"keys"} and {e.time for e in seen} == {5.0}


def test_keys_refuse_impossible_sequences() -> None:
    with SoftwareButtonBox(buttons=4) as box:
        with pytest.raises(ValueError):
            box.release(0)
        box.press(0)
        with pytest.raises(ValueError):
            box.press(0)
        with pytest.raises(ValueError):
            box.press(4)
        assert box.key("5") == []
