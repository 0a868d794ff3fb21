"""vision.decodernotes: the image libraries' notes heard at file descriptor 2 while one
picture decodes; everything else written there meanwhile goes on to standard error."""

from __future__ import annotations

import os
import threading

import pytest

from vision.decodernotes import damage, heard


def test_a_librarys_note_is_heard_and_kept_from_the_terminal(
        capfd: pytest.CaptureFixture[str]) -> None:
    with heard() as notes:
        os.write(2, b"Corrupt JPEG data: 61 extraneous bytes before marker 0xd9\n")
        os.write(2, b"libpng warning: iCCP: known incorrect sRGB profile\n")
        os.write(2, b"a log line of another thread\n")
    assert notes == ["Corrupt JPEG data: 61 extraneous bytes before marker 0xd9",
                     "libpng warning: iCCP: known incorrect sRGB profile"]
    assert damage(notes) == notes[0]
    err = capfd.readouterr().err
    assert err == "a log line of another thread\n"  # passed on, not lost


def test_a_harmless_note_is_no_damage_and_nothing_heard_is_none() -> None:
    with heard() as notes:
        os.write(2, b"libpng warning: iCCP: known incorrect sRGB profile\n")
    assert damage(notes) is None
    with heard() as notes:
        pass
    assert notes == [] and damage(notes) is None


def test_standard_error_is_given_back_after_an_error_and_one_decode_listens_at_a_time(
        capfd: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ValueError), heard():
        raise ValueError("the decode failed")
    os.write(2, b"after\n")
    assert capfd.readouterr().err == "after\n"
    inside = threading.Event()
    release = threading.Event()
    order: list[str] = []

    def first() -> None:
        with heard():
            inside.set()
            release.wait(5)
            order.append("first")

    thread = threading.Thread(target=first)
    thread.start()
    inside.wait(5)
    def second() -> None:
        with heard():
            order.append("second")

    waiter = threading.Thread(target=second)
    waiter.start()
    waiter.join(0.2)
    assert order == []  # the second waits for the first to finish listening
    release.set()
    thread.join(5)
    waiter.join(5)
    assert order == ["first", "second"]
