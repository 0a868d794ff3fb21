from __future__ import annotations

import random

import pytest

from firmware_bridge.faulty_link import Faults, FaultyChannel, FaultyLink


def channel(**faults) -> FaultyChannel:
    return FaultyChannel(random.Random(7), Faults(**faults))


def test_clean_channel_delivers_in_order_after_the_delay() -> None:
    ch = channel(delay=(0.01, 0.01))
    ch.send(b"abc", 0.0)
    ch.send(b"def", 0.0)
    assert ch.receive(0.005) == b""
    assert ch.receive(0.02) == b"abcdef"


def test_drop_loses_whole_chunks() -> None:
    ch = channel(drop=1.0)
    ch.send(b"abc", 0.0)
    assert ch.receive(1.0) == b"" and ch.counters.dropped == 1


def test_duplicate_delivers_a_chunk_twice() -> None:
    ch = channel(duplicate=1.0)
    ch.send(b"abc", 0.0)
    assert ch.receive(1.0) == b"abcabc"


def test_corrupt_replaces_bytes() -> None:
    ch = channel(corrupt=1.0)
    ch.send(b"a" * 100, 0.0)
    out = ch.receive(1.0)
    assert len(out) == 100 and out != b"a" * 100
    assert ch.counters.corrupted_bytes == 100


def test_split_spreads_pieces_over_time_but_keeps_order() -> None:
    ch = channel(split=1.0)
    ch.send(b"0123456789", 0.0)
    first = ch.receive(0.0)
    assert 0 < len(first) < 10
    assert first + ch.receive(1.0) == b"0123456789"


def test_unplug_loses_what_is_in_flight_and_what_is_sent_until_replug() -> None:
    rng = random.Random(1)
    link = FaultyLink(rng, Faults(delay=(0.1, 0.1)), Faults())
    link.to_box.send(b"in flight", 0.0)
    link.unplug()
    link.to_box.send(b"while out", 0.05)
    link.replug(0.2)
    link.to_box.send(b"after", 0.2)
    assert link.to_box.receive(1.0) == b"after"


def test_faults_reject_impossible_probabilities() -> None:
    with pytest.raises(ValueError):
        Faults(drop=1.5)
    with pytest.raises(ValueError):
        Faults(delay=(0.2, 0.1))
