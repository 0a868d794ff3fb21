"""The button box on a roll prompt (web/buttons.py; docs/hardware.md, "What the buttons
do"). Confirm applies, as read, a dice read that waits only for the table's word (the dice
settled before the roll was asked for) or whose roll was undone, and teaches the profile
nothing; a read with a die the reader was unsure of, a warning, or another number of dice
is left to a phone: the confirm light stays off and a press does nothing. Re-read (and a
phone's POST .../dice/reread) reads the still tray again while the camera's read waits.
Buttons 0, 1 and 3 are confirm, re-read and undo in every built-in mapping
(firmware_bridge/mappings/)."""

from __future__ import annotations

import functools
from dataclasses import replace

import cv2
import numpy as np
import pytest

from tests.web.runtime.support import certain_photos, throw
from web.runtime.dice import roll_prompt

CONFIRM, UNDO = 0, 3


def photo(n: int) -> tuple[np.ndarray, list[str]]:
    data, faces = certain_photos()[n]
    return cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR), list(faces)


def new_table(client, count: int = 2) -> str:
    response = client.post("/api/tables", json={"game": "dicegame", "options": {
        "die": "seafall", "count": count, "rolls": 3}})
    assert response.status_code == 201, response.json
    return response.json["id"]


def expects(client, tid: str) -> list[str]:
    return client.get(f"/api/tables/{tid}/buttons").json["expects"]["actions"]


def click(client, tid: str, button: int) -> dict:
    response = client.post(f"/api/tables/{tid}/buttons", json={"button": button})
    assert response.status_code == 200, response.json
    return response.json


def latest(client, tid: str) -> dict:
    return client.get(f"/api/tables/{tid}/dice/latest").json


def a_dice_table(client, services):
    """(table id, the table, the dice service) of a new table of rolls of two dice."""
    tid = new_table(client)
    return tid, services.tables.get(tid), services.dice()


def test_confirm_applies_dice_that_settled_before_the_roll_was_asked_for(
        client, seafall_services):
    tid, table, dice = a_dice_table(client, seafall_services)
    image, faces = photo(0)
    read = dice.read_frame(table, image, "x", early=4.0)  # thrown a moment early
    assert read is not None and read.status == "pending" and read.is_certain
    assert "confirm" in expects(client, tid)
    profile = dice.readers.profiles["seafall"]
    out = click(client, tid, CONFIRM)
    assert out["answers"] == [{"action": "confirm"}]
    assert out["table"]["state"]["rolled"] == [faces]
    shown = latest(client, tid)
    assert shown["read_id"] == read.id and shown["status"] == "applied"
    assert shown["corrections"] == []
    assert dice.readers.profiles["seafall"] is profile  # nobody looked: nothing learned
    assert "confirm" not in expects(client, tid)  # the next roll has no read yet
    assert click(client, tid, CONFIRM)["answers"] == []


def test_confirm_leaves_an_unsure_or_warned_read_or_another_count_to_a_phone(
        client, seafall_services):
    tid, table, dice = a_dice_table(client, seafall_services)
    image, _ = photo(0)
    tray = dice.readers.read("seafall", image, "x")
    prompt = roll_prompt(table)
    unsure = replace(tray, dice=(replace(tray.dice[0], uncertain=True), *tray.dice[1:]))
    hand = replace(tray, warnings=("a hand is in the tray: dice under it may be missed",))
    for waiting in (unsure, hand):
        read = dice.record(table, prompt, waiting, image, source="camera", actor="camera")
        assert read.status == "pending"
        assert "confirm" not in expects(client, tid)
        version = table.version
        assert click(client, tid, CONFIRM)["answers"] == []
        assert table.version == version and latest(client, tid)["status"] == "pending"

    three = new_table(client, count=3)  # the photo's two dice for a roll of three
    read = dice.read_frame(seafall_services.tables.get(three), image, "x", early=2.0)
    assert read is not None and read.status == "pending"
    assert "confirm" not in expects(client, three)


def test_confirm_applies_again_a_read_whose_roll_the_button_undid(client, seafall_services):
    tid = new_table(client)
    image, faces = photo(1)
    read = seafall_services.dice().read_frame(seafall_services.tables.get(tid), image, "x")
    assert read is not None and read.status == "applied"
    assert "confirm" not in expects(client, tid)
    out = click(client, tid, UNDO)
    assert out["table"]["state"]["rolled"] == []
    assert latest(client, tid)["status"] == "undone"
    assert "confirm" in expects(client, tid)
    out = click(client, tid, CONFIRM)
    assert out["table"]["state"]["rolled"] == [faces]
    assert latest(client, tid)["status"] == "applied"


# -- re-read ----------------------------------------------------------------------------------

REREAD = 1


@pytest.mark.parametrize("asked_by", ["button", "phone"])
def test_reread_reads_the_still_tray_again_as_the_same_roll(app, client, seafall_services,
                                                           monkeypatch, asked_by):
    """A camera read waits because the reader was unsure of a die (the first look at the
    tray is made unsure, as glare on a die would make it); the re-read button lights (the
    read says `can_reread` to a phone), and a press (or the phone's POST .../dice/reread)
    reads the still tray again: the new read replaces the one that waited and, sure of
    every die now, is applied. Before, re-read did nothing and the still tray was never
    read again (nothing moved, so no new settle was a new roll)."""
    data, faces = certain_photos()[0]
    runtime, table, looks = _unsure_first_look(client, seafall_services, monkeypatch,
                                               run=False)
    tid = table.session_id
    assert "reread" not in expects(client, tid)  # no read waits yet
    runtime.camera.run(frames=len(_throw()))
    waiting = latest(client, tid)
    assert waiting["status"] == "pending" and waiting["dice"][0]["uncertain"]
    assert waiting["can_reread"] is True
    assert "reread" in expects(client, tid) and "confirm" not in expects(client, tid)
    if asked_by == "button":
        assert click(client, tid, REREAD)["answers"] == [{"action": "reread"}]
    else:
        assert client.post(f"/api/tables/{tid}/dice/reread", json={}).status_code == 202
    runtime.camera.run(frames=2)
    assert len(looks) == 2  # one more look at the dice, the tray still
    again = latest(client, tid)
    assert again["read_id"] != waiting["read_id"] and again["status"] == "applied"
    assert again["faces"] == list(faces)
    assert client.get(f"/api/tables/{tid}/dice/{waiting['read_id']}").json["status"] == \
        "superseded"
    assert table.view(None)["rolled"] == [list(faces)]
    assert "reread" not in expects(client, tid)  # the next roll has no read yet
    assert again["can_reread"] is False
    refused = client.post(f"/api/tables/{tid}/dice/reread", json={})
    assert refused.status_code == 409 and "nothing to read again" in refused.json["message"]
    runtime.camera.run(frames=4)
    assert len(looks) == 2  # a still tray is not read again unasked


def test_a_reread_asked_for_a_read_confirmed_meanwhile_reads_nothing(
        app, client, seafall_services, monkeypatch):
    """Re-read pressed, and a phone confirms the waiting read before the camera's next
    frame: that frame reads nothing. Without the check, the table's next roll (of two dice
    again) was answered by the dice of the last one, read again."""
    runtime, table, looks = _unsure_first_look(client, seafall_services, monkeypatch)
    tid = table.session_id
    waiting = latest(client, tid)
    assert waiting["status"] == "pending"
    assert click(client, tid, REREAD)["answers"] == [{"action": "reread"}]
    seafall_services.dice().confirm(table, waiting["read_id"], None, None, None)  # a phone
    rolled = table.view(None)["rolled"]
    assert len(rolled) == 1
    runtime.camera.run(frames=4)
    assert len(looks) == 1 and table.view(None)["rolled"] == rolled  # nothing read again
    assert latest(client, tid)["read_id"] == waiting["read_id"]


def test_a_phones_reread_without_a_camera_is_refused_clearly(client):
    tid = new_table(client)
    response = client.post(f"/api/tables/{tid}/dice/reread", json={})
    assert response.status_code == 409 and "no camera runs here" in response.json["message"]


@functools.cache
def _throw() -> list[np.ndarray]:
    """The camera frames of a throw of photo 0's two dice."""
    return throw(certain_photos()[0][0])


def _unsure_first_look(client, services, monkeypatch, run: bool = True):
    """A table of rolls of two SeaFall dice, read by a camera that throws photo 0's dice
    and then shows them still; its first look at the dice is made unsure of one (as glare
    on a die would make it), so that read waits. (runtime, table, the looks at dice);
    with ``run``, the throw already read."""
    from vision.sources import FakeSource
    from web.runtime import Runtime, RuntimeOptions
    from web.runtime.dicereaders import DiceReaders

    tid = new_table(client)
    runtime = Runtime(services, RuntimeOptions(box="none"), pi_model=None,
                      camera_factory=lambda: FakeSource(_throw() + [_throw()[-1]] * 8,
                                                        clock=_Ticking()))
    services.runtime = runtime
    looks: list[str] = []
    real_read = DiceReaders.read

    def first_look_unsure(self, die, frame, ref, *args, **kwargs):
        tray = real_read(self, die, frame, ref, *args, **kwargs)
        if tray.dice:  # the empty tray settles too, before the throw
            looks.append(ref)
            if len(looks) == 1:
                tray = replace(tray, dice=(replace(tray.dice[0], uncertain=True),
                                           *tray.dice[1:]))
        return tray

    monkeypatch.setattr(DiceReaders, "read", first_look_unsure)
    if run:
        runtime.camera.run(frames=len(_throw()))
    return runtime, services.tables.get(tid), looks


class _Ticking:
    """A manual clock that moves 0.2 s each time a frame is taken (a camera's pace)."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 0.2
        return self.now
