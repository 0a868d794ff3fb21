"""vision.said: the reader's sentences are plain English strings that keep the key and
values a page needs to say them in its player's language."""

from __future__ import annotations

import copy
import json
import pickle

import numpy as np
import pytest

from vision.framewarnings import BLACK, FLAT, UNLIKE, WHITE, blank_warning
from vision.said import (
    MESSAGES,
    Message,
    Said,
    message,
    said_from_json,
    said_json,
    said_of,
)


def test_a_message_makes_an_english_string_that_keeps_its_key_and_values():
    made = Message("test.count", "{count} dice show {faces}", one="{count} die shows {faces}")
    many = made(count=2, faces=("weak", "strong"))
    assert many == "2 dice show weak, strong" and isinstance(many, str)
    assert many.key == "test.count" and many.values == {"count": 2, "faces": ["weak", "strong"]}
    assert made(count=1, faces=["blank"]) == "1 die shows blank"  # the singular English
    assert json.dumps([many]) == '["2 dice show weak, strong"]'  # the API's English
    assert said_json(many) == {"key": "test.count",
                               "values": {"count": 2, "faces": ["weak", "strong"]}}
    assert said_json("a sentence of no message") is None


def test_a_said_sentence_survives_copies_and_pickles_with_its_key():
    said = Message("test.seen", "the reader saw {seen}")(seen=3)
    for again in (copy.deepcopy(said), pickle.loads(pickle.dumps(said))):
        assert again == said and isinstance(again, Said)
        assert (again.key, again.values) == ("test.seen", {"seen": 3})


def test_a_kept_sentence_is_made_again_from_its_json_and_bad_json_leaves_the_text():
    said = Message("test.seen", "the reader saw {seen}")(seen=3)
    again = said_from_json(str(said), said_json(said))
    assert isinstance(again, Said) and again.values == {"seen": 3}
    for bad in (None, "x", {"key": 3, "values": {}}, {"key": "k"}, {"key": "k", "values": []}):
        plain = said_from_json("plain", bad)
        assert plain == "plain" and not isinstance(plain, Said)


def test_a_sentence_in_a_sentence_keeps_its_own_key_and_an_error_its_sentence():
    inner = Message("test.inner", "the {thing} is off")(thing="light")
    outer = Message("test.outer", "no die was read ({why})")(why=inner)
    assert outer == "no die was read (the light is off)"
    assert said_json(outer) == {"key": "test.outer", "values": {"why": {
        "text": "the light is off", "key": "test.inner", "values": {"thing": "light"}}}}
    error = ValueError(outer)
    assert str(error) == outer and said_of(error) is outer
    assert said_of(ValueError("plain")) == "plain" and said_of(KeyError("k")) == "'k'"


def test_one_key_is_one_message():
    key = next(iter(MESSAGES))
    with pytest.raises(ValueError, match="already registered"):
        message(key, "another English")


def test_the_readers_warnings_are_said_with_their_keys():
    """vision/framewarnings.py: a blank picture's three cases, and dice unlike a profile in
    the singular and plural."""
    frames = {0: BLACK, 255: WHITE, 128: FLAT}
    for level, said in frames.items():
        warning = blank_warning(np.full((90, 120, 3), level, np.uint8))
        assert warning is said and warning.key.startswith("vision.")
    one, two = UNLIKE(count=1, profile="sf"), UNLIKE(count=2, profile="sf")
    assert one.startswith("1 die was found but looks like") and "profile 'sf'" in one
    assert two.startswith("2 dice were found but look like")
    assert one.key == two.key == "vision.unlike" and two.values == {"count": 2, "profile": "sf"}
