"""The dice-read API (docs/api.md "Dice reads"): real d6 photos and synthetic SeaFall dice
read for the table's roll prompt; applied at once when certain and complete, otherwise
pending until confirmed; corrections (before and after applying) recorded with who made
them; stale pages get 409; bad uploads get 400 and store nothing."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.web import browser, join
from tests.vision.helpers import (
    EDITED_PHOTO,
    EDITED_SIX,
    PHOTOS,
    labelled_photos,
    png_claiming,
    with_orientation,
    with_transparent,
)
from tests.web.runtime.support import certain_photos
from vision.boxes import hold_each_other
from web.runtime.readnotes import COUNT


def new_table(client, die: str = "seafall", count: int = 2, rolls: int = 3) -> str:
    response = client.post("/api/tables", json={"game": "dicegame", "options": {
        "die": die, "count": count, "rolls": rolls}})
    assert response.status_code == 201, response.json
    return response.json["id"]


BOUNDARY = "tableside-test-form-7f3a9c1e"


def upload(client, tid: str, data: bytes, name: str = "dice.jpg"):
    """POST a photo as a phone's form does. The form is given as bytes: the test client
    spools a form of files over 500 KB (a PNG photo) to a temporary file it leaves open."""
    form = (f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="photo"; '
            f'filename="{name}"\r\nContent-Type: application/octet-stream\r\n\r\n'.encode()
            + data + f"\r\n--{BOUNDARY}--\r\n".encode())
    return client.post(f"/api/tables/{tid}/dice/photo", data=form,
                       content_type=f"multipart/form-data; boundary={BOUNDARY}")


def post_read(client, tid: str, read: dict, route: str, body: dict):
    """POST a players' answer (``confirm`` or ``correct``) to one read of a table."""
    return client.post(f"/api/tables/{tid}/dice/{read['read_id']}/{route}", json=body)


def settled(n: int) -> tuple[bytes, list[str]]:
    """The n-th photo of two SeaFall dice that the reader reads for sure, and its faces."""
    data, faces = certain_photos()[n]
    return data, list(faces)


def state(client, tid: str) -> dict:
    return client.get(f"/api/tables/{tid}").json


# -- reading ---------------------------------------------------------------------------------

def test_real_d6_photos_are_read_for_the_roll_prompt(client):
    """The seven checked-in phone photos (tests/vision/photos), each uploaded for a roll of
    as many d6 as it shows: dice found at their labelled places, certain dice read right,
    and each read applied or left pending exactly as the policy says."""
    dice = found = silent = 0
    for photo in labelled_photos():
        tid = new_table(client, die="d6", count=len(photo.faces))
        response = upload(client, tid, photo.path.read_bytes(), photo.path.name)
        assert response.status_code == 201, response.json
        read = response.json
        assert read["die"] == "d6" and read["prompt_id"] == "roll:0"
        assert read["source"] == "photo" and read["actor"] == "host"
        assert read["frame_size"] == [1024, cv2.imread(str(photo.path)).shape[0]]
        dice += len(photo.faces)
        for die in read["dice"]:
            match = [f for f, b in zip(photo.faces, photo.boxes, strict=True)
                     if hold_each_other(b, die["box"])]
            found += bool(match)
            silent += bool(match) and not die["uncertain"] and die["face"] != match[0]
        complete = len(read["dice"]) == len(photo.faces)
        certain = all(not d["uncertain"] for d in read["dice"])
        expected = "applied" if complete and certain and not read["warnings"] else "pending"
        assert read["status"] == expected, photo.path.name
        rolled = state(client, tid)["state"]["rolled"]
        assert rolled == ([[d["face"] for d in read["dice"]]] if expected == "applied" else [])
    assert found >= 0.85 * dice
    assert silent <= 1


def test_evidence_frame_and_crops_are_served(client):
    tid = new_table(client)
    data, _ = settled(0)
    read = upload(client, tid, data).json
    frame = client.get(read["frame_url"])
    assert frame.status_code == 200 and frame.mimetype == "image/jpeg"
    image = cv2.imdecode(np.frombuffer(frame.data, np.uint8), cv2.IMREAD_COLOR)
    assert [image.shape[1], image.shape[0]] == read["frame_size"]
    for die in read["dice"]:
        crop = client.get(die["crop_url"])
        assert crop.status_code == 200 and crop.mimetype == "image/png"
        assert crop.data[:8] == b"\x89PNG\r\n\x1a\n"
        assert cv2.imdecode(np.frombuffer(crop.data, np.uint8), cv2.IMREAD_COLOR).shape[0] > 0
    missing = client.get(f"/api/dice/{read['read_id']}/crops/9.png")
    assert missing.status_code == 404 and missing.json["error"] == "not_found"
    assert client.get("/api/dice/nosuchread/frame.jpg").status_code == 404


def test_certain_complete_seafall_read_is_applied_at_once_with_its_evidence(app, client):
    tid = new_table(client)
    data, faces = settled(0)
    before = state(client, tid)["version"]
    yellow = join(app, client, tid, "Yellow", "yellow")
    read = upload(yellow, tid, data).json
    assert read["actor"] == "Yellow"
    assert read["status"] == "applied"
    assert [d["face"] for d in read["dice"]] == faces
    assert all(not d["uncertain"] and d["confidence"] > 0 for d in read["dice"])
    assert read["table_version"] > before and read["applied_version"] == read["table_version"]
    assert state(client, tid)["state"]["rolled"] == [faces]
    history = client.get(f"/api/tables/{tid}/history").json["history"]
    roll = history[-1]
    assert roll["type"] == "roll" and roll["actor"] == "yellow"
    assert roll["args"]["read_id"] == read["read_id"] and roll["args"]["source"] == "photo"
    assert roll["args"]["image"] == read["frame_url"]
    latest = client.get(f"/api/tables/{tid}/dice/latest").json
    assert latest["read_id"] == read["read_id"] and latest["status"] == "applied"
    again = client.get(f"/api/tables/{tid}/dice/{read['read_id']}").json
    assert again["dice"] == read["dice"]


def test_a_read_the_table_refuses_waits_saying_why_in_words_a_page_can_translate(
        client, seafall_services):
    """A certain read of a game recorded into a campaign (web.services' guard: it stays as
    recorded) is not applied; its note quotes the refusal with its own message key, so a
    French page says both in French."""
    tid = new_table(client)
    seafall_services.store.campaign_recorded = lambda session: "Ours" if session == tid else None
    read = upload(client, tid, settled(0)[0]).json
    assert read["status"] == "pending"
    why = ("this game is recorded into the campaign 'Ours'; to change it, take its recording "
           "back on the campaign page first")
    assert read["notes"] == [f"not applied: {why}"]
    assert read["said"]["notes"] == [{"key": "runtime.not_applied", "values": {"why": {
        "text": why, "key": "table.recorded", "values": {"name": "Ours"}}}}]
    kept = client.get(f"/api/tables/{tid}/dice/{read['read_id']}").json
    assert kept["said"] == read["said"]  # as kept in the reads' file
    assert state(client, tid)["state"]["rolled"] == []


# -- pending, confirm, correct ---------------------------------------------------------------

def pending_read(client, count: int = 3) -> tuple[str, dict, list[str]]:
    """A read of two dice for a roll of ``count``: it cannot be applied as it is."""
    tid = new_table(client, count=count)
    data, faces = settled(1)
    read = upload(client, tid, data).json
    assert read["status"] == "pending"
    assert read["expected"] == count
    assert read["note"] == (f"the roll asks for {count} {'die' if count == 1 else 'dice'}; "
                            f"the reader saw {len(read['dice'])}")
    assert read["said"]["notes"] == [{"key": "runtime.count",  # for the page's language
                                      "values": {"count": count, "seen": len(read["dice"])}}]
    assert state(client, tid)["state"]["rolled"] == []
    return tid, read, faces


def test_a_read_with_the_wrong_count_waits_then_is_confirmed_with_the_faces(app, client):
    tid, read, faces = pending_read(client)
    version = state(client, tid)["version"]
    given = [*faces, "strong"]
    red = join(app, client, tid, "Rosa", "red")
    response = post_read(red, tid, read, "confirm", {"faces": given, "expected_version": version})
    assert response.status_code == 200, response.json
    out = response.json
    assert out["status"] == "applied" and out["faces"] == given
    assert out["corrections"] == [{"die": None, "from": " ".join(faces),
                                   "to": " ".join(given), "actor": "Rosa",
                                   "at": out["corrections"][0]["at"], "after_apply": False}]
    assert state(client, tid)["state"]["rolled"] == [given]
    again = post_read(client, tid, read, "confirm", {"expected_version": out["table_version"]})
    assert again.status_code == 409 and "already applied" in again.json["message"]


def test_a_box_that_is_no_die_is_taken_out_and_the_read_confirmed(app, client):
    """docs/api.md, "Dice reads": a roll of one die read as two (a token beside it, a die's
    side boxed as one of its own) waits; the table says which box is no die, and the read
    is confirmed with the die really thrown. The box stays, as evidence, said by whom."""
    tid, read, faces = pending_read(client, count=1)
    assert len(read["dice"]) == 2 and not any(d["not_a_die"] for d in read["dice"])
    red = join(app, client, tid, "Rosa", "red")
    version = state(client, tid)["version"]
    out = post_read(red, tid, read, "not-a-die", {"die": 1, "expected_version": version})
    assert out.status_code == 200, out.json
    out = out.json
    assert out["status"] == "pending" and out["faces"] == faces[:1]
    assert out["dice"][1]["not_a_die"] and out["dice"][1]["not_a_die_by"] == "Rosa"
    assert not out["dice"][0]["not_a_die"] and out["dice"][1]["face"] == faces[1]
    assert [(c["die"], c["from"], c["to"], c["actor"]) for c in out["corrections"]] == [
        (1, faces[1], None, "Rosa")]
    again = post_read(client, tid, read, "not-a-die", {"die": 1})  # a second phone, late
    assert again.status_code == 200 and len(again.json["corrections"]) == 1
    refused = post_read(client, tid, read, "correct", {"die": 1, "face": "weak"})
    assert refused.status_code == 400 and "say it is a die first" in refused.json["message"]
    last = post_read(client, tid, read, "not-a-die", {"die": 0})
    assert last.status_code == 400 and "last die" in last.json["message"]
    assert last.json["said"] == {"key": "refused.last_die", "values": {}}  # page's language
    done = post_read(red, tid, read, "confirm", {"expected_version": version}).json
    assert done["status"] == "applied" and done["faces"] == faces[:1]
    assert state(client, tid)["state"]["rolled"] == [faces[:1]]
    late = post_read(client, tid, read, "not-a-die", {"die": 0})
    assert late.status_code == 409 and "waiting for a confirm" in late.json["message"]
    assert client.get(f"/api/dice/{read['read_id']}/crops/1.png").status_code == 200


def test_a_box_said_to_be_no_die_is_a_die_again_when_the_table_says_so(client):
    tid, read, faces = pending_read(client, count=1)
    version = state(client, tid)["version"]
    stale = post_read(client, tid, read, "not-a-die", {"die": 0, "expected_version": version - 1})
    assert stale.status_code == 409 and stale.json["error"] == "conflict"
    assert not any(d["not_a_die"] for d in post_read(
        client, tid, read, "not-a-die", {"die": 0, "not_a_die": False}).json["dice"])
    out = post_read(client, tid, read, "not-a-die", {"die": 0}).json
    assert out["faces"] == faces[1:]
    back = post_read(client, tid, read, "not-a-die", {"die": 0, "not_a_die": False}).json
    assert back["faces"] == faces and not back["dice"][0]["not_a_die"]
    assert [(c["die"], c["from"], c["to"]) for c in back["corrections"]] == [
        (0, faces[0], None), (0, None, faces[0])]
    for body, words in (({"die": 2}, "0 to 1"), ({"die": "1"}, "number of the box"),
                        ({"die": 0, "not_a_die": "yes"}, "true")):
        bad = post_read(client, tid, read, "not-a-die", body)
        assert bad.status_code == 400 and words in bad.json["message"], bad.json


def missed_one(services, client, count: int = 2) -> tuple[str, dict, list[str], dict]:
    """A read for a roll of ``count`` whose reader missed one of the photo's two dice (the
    read kept as the reader saw it, less its second die): the table id, the read, the
    photo's faces and the missed die as the full read had it."""
    tid = new_table(client, count=count)
    data, faces = settled(1)
    full = upload(client, tid, data).json
    store = services.dice().store
    record = store.get(full["read_id"])
    store.update(record, status="pending", applied_version=None, applied_command=None,
                 applied_faces=None, dice=record.dice[:1])
    if full["status"] == "applied":  # the reader was sure of both: the roll taken back
        client.post(f"/api/tables/{tid}/undo", json={})
    read = client.get(f"/api/tables/{tid}/dice/{full['read_id']}").json
    assert len(read["dice"]) == 1 and read["status"] == "pending"
    return tid, read, faces, full["dice"][1]


def test_a_die_the_reader_missed_is_added_where_the_table_taps(app, client, seafall_services):
    """docs/api.md, "Dice reads": a tap on the read's picture where the reader missed a die
    adds it, read by the die's reader, uncertain (the table confirms it), sized as the
    read's dice, said by whom; the read then answers the roll with it."""
    tid, read, faces, missed = missed_one(seafall_services, client)
    x, y, w, h = missed["box"]
    red = join(app, client, tid, "Rosa", "red")
    version = state(client, tid)["version"]
    store = seafall_services.dice().store  # as the read of a reader that saw one die says
    store.update(store.get(read["read_id"]), notes=(COUNT(count=2, seen=1),))
    out = post_read(red, tid, read, "add", {"x": x + w // 2, "y": y + h // 2,
                                          "expected_version": version})
    assert out.status_code == 200, out.json
    out = out.json
    assert len(out["dice"]) == 2 and out["status"] == "pending"
    # the two dice the roll asks for: "the reader saw 1" is gone (it stayed, a helper saw)
    assert "runtime.count" not in [n["key"] for n in out["said"]["notes"]]
    added = out["dice"][1]
    assert added["added_by"] == "Rosa" and added["uncertain"] and added["confidence"] <= 0.5
    assert added["face"] == missed["face"] == faces[1]
    assert hold_each_other(added["box"], missed["box"])
    assert added["box"][2] == added["box"][3] == read["dice"][0]["box"][2] or max(
        read["dice"][0]["box"][2:]) == added["box"][2]
    assert out["faces"] == faces
    assert [(c["die"], c["from"], c["to"], c["actor"]) for c in out["corrections"]] == [
        (1, None, faces[1], "Rosa")]
    assert client.get(f"/api/dice/{read['read_id']}/crops/1.png").status_code == 200
    again = post_read(client, tid, read, "add", {"x": x + w // 2, "y": y + h // 2})
    assert again.status_code == 400 and "die 1 is boxed there already" in again.json["message"]
    assert again.json["said"] == {"key": "refused.boxed_already", "values": {"die": 1}}
    done = post_read(red, tid, read, "confirm", {"expected_version": version})
    assert done.status_code == 200 and done.json["status"] == "applied"
    assert state(client, tid)["state"]["rolled"] == [faces]
    late = post_read(client, tid, read, "add", {"x": 2, "y": 2})
    assert late.status_code == 409 and "waiting for a confirm" in late.json["message"]


def test_a_tap_that_adds_no_die_is_refused_and_changes_nothing(client, seafall_services):
    tid, read, _, missed = missed_one(seafall_services, client)
    width, height = read["frame_size"]
    version = state(client, tid)["version"]
    x, y, w, h = read["dice"][0]["box"]
    for body, status, words in (
            ({"x": x + w // 2, "y": y + h // 2}, 400, "die 0 is boxed there already"),
            ({"x": width, "y": 3}, 400, f"0 to {width - 1}"),
            ({"x": -1, "y": 3}, 400, "0 to"),
            ({"x": "3", "y": 3}, 400, "whole numbers"),
            ({"x": 3.5, "y": 3}, 400, "whole numbers"),
            ({"y": 3}, 400, "whole numbers"),
            ({"x": 3, "y": 3, "expected_version": version - 1}, 409, "")):
        bad = post_read(client, tid, read, "add", body)
        assert bad.status_code == status and words in bad.json["message"], (body, bad.json)
    assert len(client.get(f"/api/tables/{tid}/dice/{read['read_id']}").json["dice"]) == 1
    # a tap on the bare floor adds a die to name: the reader sees no face there
    corner = post_read(client, tid, read, "add", {"x": 4, "y": 4}).json
    assert corner["dice"][1]["face"] == "?" and corner["dice"][1]["uncertain"]
    assert not hold_each_other(corner["dice"][1]["box"], missed["box"])


def test_the_phones_are_told_of_a_read_that_waits_but_not_of_one_applied(
        app, client, seafall_services, monkeypatch):
    """A read left pending, or a die of it corrected, changes no table version: the live
    streams are told (web.live.Broker.dice_read), so that every phone shows it; an applied
    read reaches them as a new version."""
    dice = seafall_services.dice()
    assert dice.on_read == seafall_services.live.dice_read  # the streams, as served
    told: list[str] = []
    monkeypatch.setattr(dice, "on_read", told.append)
    tid = new_table(client)
    data, _ = settled(0)
    assert upload(client, tid, data).json["status"] == "applied"
    assert told == []
    tid, read, _ = pending_read(client)
    assert told == [tid]
    assert post_read(client, tid, read, "correct", {"die": 0, "face": "strong"}).status_code == 200
    assert told == [tid, tid]


def test_confirm_from_a_stale_page_is_a_conflict_and_changes_nothing(client):
    tid, read, faces = pending_read(client)
    version = state(client, tid)["version"]
    response = post_read(client, tid, read, "confirm",
                         {"faces": [*faces, "blank"], "expected_version": version - 1})
    assert response.status_code == 409 and response.json["error"] == "conflict"
    assert response.json["version"] == version
    assert client.get(f"/api/tables/{tid}/dice/{read['read_id']}").json["status"] == "pending"
    assert state(client, tid)["state"]["rolled"] == []


def test_correcting_a_pending_die_then_confirming_applies_the_corrected_faces(app, client):
    tid = new_table(client, count=2)
    data, faces = settled(1)
    # a hand in the picture: every die is marked uncertain and the read waits
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    h, w = image.shape[:2]
    cv2.rectangle(image, (0, h - 60), (150, h - 1), (120, 150, 205), -1)  # 1.9% skin
    read = upload(client, tid, cv2.imencode(".jpg", image)[1].tobytes()).json
    assert read["status"] == "pending" and read["warnings"]
    assert all(d["uncertain"] for d in read["dice"])
    wrong = "strong" if read["dice"][0]["face"] != "strong" else "blank"
    red = join(app, client, tid, "Rosa", "red")
    out = post_read(red, tid, read, "correct", {"die": 0, "face": wrong}).json
    assert out["status"] == "pending"
    assert out["dice"][0]["face"] == wrong and out["dice"][0]["corrected_by"] == "Rosa"
    assert out["dice"][0]["read_face"] == read["dice"][0]["face"]
    version = state(client, tid)["version"]
    done = post_read(red, tid, read, "confirm", {"expected_version": version}).json
    assert done["status"] == "applied"
    assert state(client, tid)["state"]["rolled"] == [[wrong, read["dice"][1]["face"]]]


def test_correcting_an_applied_read_undoes_the_roll_and_applies_it_again(app, client):
    tid = new_table(client)
    data, faces = settled(0)
    yellow = join(app, client, tid, "Yann", "yellow")
    read = upload(yellow, tid, data).json
    assert read["status"] == "applied"
    other = "blank" if faces[1] != "blank" else "weak"
    response = post_read(yellow, tid, read, "correct", {
        "die": 1, "face": other, "expected_version": read["table_version"]})
    assert response.status_code == 200, response.json
    out = response.json
    assert out["status"] == "applied" and out["faces"] == [faces[0], other]
    assert out["dice"][1]["corrected_by"] == "Yann"
    (correction,) = out["corrections"]
    assert (correction["die"], correction["from"], correction["to"], correction["actor"],
            correction["after_apply"]) == (1, faces[1], other, "Yann", True)
    assert state(client, tid)["state"]["rolled"] == [[faces[0], other]]
    kinds = [(h["kind"], h["actor"]) for h in
             client.get(f"/api/tables/{tid}/history").json["history"][-3:]]
    assert kinds == [("command", "yellow"), ("undo", "yellow"), ("command", "yellow")]
    # the table can still undo the corrected roll like any command
    assert yellow.post(f"/api/tables/{tid}/undo", json={}).status_code == 200
    assert state(client, tid)["state"]["rolled"] == []


def test_a_correction_the_game_refuses_leaves_the_roll_and_its_history_alone(app, client):
    """Another player's correction of a roll that is not theirs: refused, and nothing
    recorded. It used to undo the roll and redo it, both in the history under the other
    player's name, and the table's version moved on (a helper, on SeaFall)."""
    response = client.post("/api/tables", json={"game": "dicegame", "options": {
        "die": "seafall", "count": 2, "rolls": 3, "roller": "yellow"}})
    tid = response.json["id"]
    data, faces = settled(0)
    yellow = join(app, client, tid, "Yann", "yellow")
    red = join(app, client, tid, "Rita", "red")
    read = upload(yellow, tid, data).json
    assert read["status"] == "applied"
    history = client.get(f"/api/tables/{tid}/history").json["history"]
    other = "blank" if faces[1] != "blank" else "weak"
    response = post_read(red, tid, read, "correct", {
        "die": 1, "face": other, "expected_version": read["table_version"]})
    assert response.status_code == 409 and "yellow's to answer" in response.json["message"]
    assert client.get(f"/api/tables/{tid}/history").json["history"] == history
    assert state(client, tid)["version"] == read["table_version"]
    assert state(client, tid)["state"]["rolled"] == [faces]
    response = post_read(yellow, tid, read, "correct", {  # the roller's own: taken
        "die": 1, "face": other, "expected_version": read["table_version"]})
    assert response.status_code == 200 and response.json["faces"] == [faces[0], other]


def test_a_read_whose_roll_the_table_undid_says_so_and_is_applied_again(app, client):
    """docs/api.md "Dice reads": undo takes an applied read's roll back; the read then shows
    `undone` (not `applied`), and confirming it or correcting a die of it applies the roll
    again. A redo makes it applied as it was. Before, it still said `applied`, and a
    correction was refused as if more had happened after the roll."""
    tid = new_table(client)
    data, faces = settled(0)
    yellow = join(app, client, tid, "Yann", "yellow")
    read = upload(yellow, tid, data).json
    assert read["status"] == "applied"
    latest = f"/api/tables/{tid}/dice/latest"
    assert yellow.post(f"/api/tables/{tid}/undo", json={}).status_code == 200
    shown = client.get(latest).json
    assert shown["status"] == "undone" and shown["faces"] == faces
    assert state(client, tid)["state"]["rolled"] == []
    assert yellow.post(f"/api/tables/{tid}/redo", json={}).status_code == 200
    assert client.get(latest).json["status"] == "applied"  # the same roll, back
    assert yellow.post(f"/api/tables/{tid}/undo", json={}).status_code == 200

    other = "blank" if faces[1] != "blank" else "weak"
    response = post_read(yellow, tid, read, "correct", {
        "die": 1, "face": other, "expected_version": state(client, tid)["version"]})
    assert response.status_code == 200, response.json
    assert response.json["status"] == "applied"
    assert response.json["faces"] == [faces[0], other]
    assert response.json["dice"][1]["corrected_by"] == "Yann"
    assert state(client, tid)["state"]["rolled"] == [[faces[0], other]]

    assert yellow.post(f"/api/tables/{tid}/undo", json={}).status_code == 200
    stale = post_read(yellow, tid, read, "confirm", {"expected_version": 1})
    assert stale.status_code == 409  # a stale page changes nothing
    assert state(client, tid)["state"]["rolled"] == []
    response = post_read(yellow, tid, read, "confirm", {
        "expected_version": state(client, tid)["version"]})
    assert response.status_code == 200, response.json
    assert response.json["status"] == "applied"
    assert state(client, tid)["state"]["rolled"] == [[faces[0], other]]  # as last applied
    again = post_read(yellow, tid, read, "confirm", {})
    assert again.status_code == 409 and "already applied" in again.json["message"]


def test_reads_kept_past_a_game_database_put_back_from_a_backup(tmp_path: Path):
    """docs/store.md, "Backups": the game database is put back as it was before a roll,
    while the dice reads beside it stay. The read of that roll is `undone`, even once the
    table's next roll has taken its command number: before, it then said `applied`, and
    correcting one of its dice undid the other roll to apply its own faces."""
    from companion.store import SQLiteStore
    from companion.store.backup import restore, take
    from tests.web.runtime.support import demo_profile
    from web.app import create_app
    from web.services import Services

    db = tmp_path / "data" / "tableside.sqlite3"

    def serve() -> tuple[Services, object]:
        services = Services(SQLiteStore(db), data_dir=db.parent)
        services.dice().readers.profiles["seafall"] = demo_profile()
        return services, browser(create_app(services, {"TESTING": True}))

    services, client = serve()
    made = client.post("/api/tables", json={"game": "dicegame", "options": {
        "die": "seafall", "count": 2, "rolls": 3}}).json
    tid = made["id"]
    backup = take(db)
    first, first_faces = settled(0)
    old = upload(client, tid, first).json
    assert old["status"] == "applied"
    services.close()
    restore(backup, db)

    services, client = serve()
    try:
        assert client.post(f"/api/tables/{tid}/host",
                           json={"pin": made["host_pin"]}).status_code == 200
        read = f"/api/tables/{tid}/dice/{old['read_id']}"
        assert client.get(read).json["status"] == "undone"
        assert state(client, tid)["state"]["rolled"] == []
        second, second_faces = settled(1)
        new = upload(client, tid, second).json
        assert new["status"] == "applied" and state(client, tid)["version"] == 2
        assert client.get(read).json["status"] == "undone"  # command 1 is the new roll's
        other = "blank" if first_faces[0] != "blank" else "weak"
        response = post_read(client, tid, old, "correct", {"die": 0, "face": other})
        assert response.status_code == 409, response.json
        assert "no longer open" in response.json["message"]
        assert state(client, tid)["state"]["rolled"] == [second_faces]
        assert client.get(f"/api/tables/{tid}/dice/latest").json["status"] == "applied"
    finally:
        services.close()


@pytest.mark.parametrize(("body", "status", "words"), [
    pytest.param({"die": 0, "face": "kraken"}, 400, "kraken", id="not a face of the die"),
    pytest.param({"die": 5, "face": "weak"}, 400, "die number", id="no such die"),
    pytest.param({"die": "0", "face": "weak"}, 400, "number of the die", id="die not a number"),
    pytest.param({"die": 0}, 400, "face", id="no face"),
    pytest.param({"die": 0, "face": "strong", "expected_version": 1}, 409, "version",
                 id="stale page"),
])
def test_bad_corrections_are_refused_and_change_nothing(client, body, status, words):
    tid = new_table(client)
    data, faces = settled(0)
    read = upload(client, tid, data).json
    response = post_read(client, tid, read, "correct", body)
    assert response.status_code == status and words in response.json["message"]
    assert state(client, tid)["state"]["rolled"] == [faces]


def test_a_correction_after_later_commands_is_refused(client):
    tid = new_table(client)
    data, faces = settled(0)
    read = upload(client, tid, data).json
    client.post(f"/api/tables/{tid}/commands", json={"type": "note", "text": "next"})
    other = "blank" if read["dice"][0]["face"] != "blank" else "weak"  # a change, not a no-op
    response = post_read(client, tid, read, "correct", {"die": 0, "face": other})
    assert response.status_code == 409 and "undo the later commands" in response.json["message"]
    assert state(client, tid)["state"]["rolled"] == [faces]


def test_a_read_says_whether_a_die_of_it_may_still_be_corrected(client):
    """``can_correct`` follows the corrections the server takes (docs/api.md): an applied
    read while nothing was done after its roll (an undo and redo of it changes nothing),
    an undone one while its roll is asked again, a pending one while its roll is asked;
    never once a later command happened, nor a closed or superseded read. The pages drew
    an old read's tiles as "tap to correct" buttons turns later."""
    tid = new_table(client)
    data, faces = settled(0)
    read = upload(client, tid, data).json
    latest = f"/api/tables/{tid}/dice/latest"
    assert read["status"] == "applied" and read["can_correct"] is True
    assert client.post(f"/api/tables/{tid}/undo", json={}).status_code == 200
    assert client.get(latest).json["can_correct"] is True  # undone: applied again if corrected
    assert client.post(f"/api/tables/{tid}/redo", json={}).status_code == 200
    shown = client.get(latest).json
    assert shown["status"] == "applied" and shown["can_correct"] is True
    assert shown["table_version"] != shown["applied_version"]  # the version alone misleads
    client.post(f"/api/tables/{tid}/commands", json={"type": "note", "text": "next"})
    assert client.get(latest).json["can_correct"] is False
    other = "blank" if faces[0] != "blank" else "weak"
    assert post_read(client, tid, read, "correct", {"die": 0, "face": other}).status_code == 409
    assert client.post(f"/api/tables/{tid}/undo", json={}).status_code == 200  # the note
    assert client.get(latest).json["can_correct"] is True

    tid, first, faces = pending_read(client)
    assert first["status"] == "pending" and first["can_correct"] is True
    typed = client.post(f"/api/tables/{tid}/commands",
                        json={"type": "roll", "args": {"faces": ["blank"] * 3}})
    assert typed.status_code == 200, typed.json
    closed = client.get(f"/api/tables/{tid}/dice/latest").json
    assert closed["status"] == "closed" and closed["can_correct"] is False
    tid, first, faces = pending_read(client)
    upload(client, tid, settled(2)[0])
    old = client.get(f"/api/tables/{tid}/dice/{first['read_id']}").json
    assert old["status"] == "superseded" and old["can_correct"] is False


def test_a_read_left_waiting_when_its_roll_is_answered_otherwise_is_closed(client):
    """The faces typed while a read waited: the read's roll is no longer asked, so it says
    so (``closed``) rather than waiting for a confirm the server refuses (phones kept
    offering it across turns); the typed roll undone, the same roll is asked again and the
    read waits again."""
    tid, read, faces = pending_read(client)
    typed = client.post(f"/api/tables/{tid}/commands",
                        json={"type": "roll", "args": {"faces": ["blank"] * 3}})
    assert typed.status_code == 200, typed.json
    shown = client.get(f"/api/tables/{tid}/dice/{read['read_id']}").json
    assert shown["status"] == "closed"
    assert client.get(f"/api/tables/{tid}/dice/latest").json["status"] == "closed"
    refused = post_read(client, tid, read, "confirm", {"faces": [*faces, "weak"]})
    assert refused.status_code == 409 and "no longer open" in refused.json["message"]
    assert client.post(f"/api/tables/{tid}/undo", json={}).status_code == 200
    again = client.get(f"/api/tables/{tid}/dice/{read['read_id']}").json
    assert again["status"] == "pending"


def test_a_newer_read_supersedes_a_pending_one(client):
    tid, first, faces = pending_read(client)
    data, _ = settled(2)
    second = upload(client, tid, data).json
    old = client.get(f"/api/tables/{tid}/dice/{first['read_id']}").json
    assert old["status"] == "superseded"
    assert client.get(old["frame_url"]).status_code == 404
    latest = client.get(f"/api/tables/{tid}/dice/latest").json
    assert latest["read_id"] == second["read_id"]
    response = client.post(f"/api/tables/{tid}/dice/{first['read_id']}/confirm",
                           json={"faces": [*faces, "weak"]})
    assert response.status_code == 409 and "newer read" in response.json["message"]


# -- bad uploads -----------------------------------------------------------------------------

def _truncated() -> bytes:
    data = (PHOTOS / labelled_photos()[0].path.name).read_bytes()
    return data[:200]


@pytest.mark.parametrize(("data", "words", "key", "why"), [
    pytest.param(b"", "empty", "photo.empty", None, id="empty"),
    pytest.param(b"this is not a picture", "not a readable image", "photo.unreadable", None,
                 id="text"),
    pytest.param(_truncated(), "the photo is cut off: the file ends before its picture does",
                 "photo.is", "image.cut_off", id="truncated jpeg"),
    pytest.param(png_claiming(30000, 20000), "30000x20000 pixels, more than Tableside decodes",
                 "photo.is", "image.too_large_png", id="decompression bomb"),
    pytest.param(png_claiming(30000, 16), "30000x16 pixels: too small to show dice",
                 "photo.is", "image.too_small", id="a strip a few pixels high"),
    pytest.param(png_claiming(4000, 300), "too long and narrow to show a dice tray",
                 "photo.is", "image.too_long", id="a panorama"),
    pytest.param(b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + b"\x00" * 64,
                 "HEIC", "photo.heif", None, id="heic from an iphone"),
])
def test_corrupt_uploads_are_400_with_a_reason_and_store_nothing(client, data, words, key,
                                                                  why):
    tid = new_table(client)
    response = upload(client, tid, data)
    assert response.status_code == 400 and response.json["error"] == "invalid"
    assert words in response.json["message"]
    assert response.json["said"]["key"] == key  # for the page to say it in its language
    if why is not None:  # the reason too: a sentence of its own, with its key
        assert response.json["said"]["values"]["why"]["key"] == why
    assert client.get(f"/api/tables/{tid}/dice/latest").status_code == 404
    assert state(client, tid)["state"]["rolled"] == []


def test_a_photo_over_the_upload_limit_is_413_said_in_the_pages_language(client):
    """A phone at its top quality (48 to 108 megapixels) sends 20 to 30 MB, over the 16 MB
    the server takes: the answer said Werkzeug's "The data value transmitted exceeds the
    capacity limit." in English, with no ``said`` for the page to say it in its language."""
    from web import i18n

    tid = new_table(client)
    # the form as bytes (the test client spools a form of files to a file left open)
    form = (b'--b\r\nContent-Disposition: form-data; name="photo"; filename="dice.jpg"\r\n'
            b"Content-Type: image/jpeg\r\n\r\n\xff\xd8" + bytes(17 * 1024 * 1024)
            + b"\r\n--b--\r\n")
    response = client.post(f"/api/tables/{tid}/dice/photo", data=form,
                           content_type="multipart/form-data; boundary=b")
    assert response.status_code == 413
    body = response.json
    assert body["error"] == "too_large" and body["limit_mb"] == 16
    assert body["message"] == ("the photo is over 16 MB, more than Tableside takes: send a "
                               "smaller one (set the phone's camera to a lower resolution)")
    assert body["said"] == {"key": "photo.over_limit", "values": {"mb": 16}}
    assert "La photo dépasse {mb} Mo" in i18n.load("fr").strings["said.photo.over_limit"]
    assert client.get(f"/api/tables/{tid}/dice/latest").status_code == 404
    # any other request over the limit says so too, not as a photo
    other = client.post("/api/tables", data=b"{" + bytes(17 * 1024 * 1024),
                        content_type="application/json")
    assert other.status_code == 413 and other.json["said"]["key"] == "request.over_limit"
    assert other.json["message"] == "the request is over 16 MB, more than Tableside takes"


def test_a_phone_photo_taken_close_is_read_at_its_dices_size(client):
    """A checked-in photo cut to 40% about its dice (a phone held close: dice 2.5 times
    the framing default) is read at their size: its three whole dice right and sure, no
    pip boxed as a die and read "1" (vision/dicescale.py)."""
    from tests.vision.test_vision_dicescale import close_up

    close, truth = close_up("IMG_20191208_112541.jpg", 0.4)
    tid = new_table(client, die="d6", count=len(truth))
    response = upload(client, tid, cv2.imencode(".jpg", close, [cv2.IMWRITE_JPEG_QUALITY,
                                                               95])[1].tobytes())
    assert response.status_code == 201, response.json
    sure = [d for d in response.json["dice"] if not d["uncertain"]]
    assert sorted(d["face"] for d in sure) == sorted(f for f, _ in truth)
    for die in sure:
        assert any(f == die["face"] and hold_each_other(tuple(b), die["box"])
                   for f, b in truth)


def test_a_phone_photo_edited_transparent_over_a_die_waits_for_the_table(client):
    """A PNG whose left half of a 6 was made transparent read that 6 as a sure 3 and was
    applied: the die is now uncertain and the read waits, saying why in words a page can
    translate (vision/transparency.py)."""
    tid = new_table(client, die="d6", count=7)
    response = upload(client, tid, with_transparent(PHOTOS / EDITED_PHOTO, EDITED_SIX),
                      "edited.png")
    assert response.status_code == 201, response.json
    read = response.json
    assert read["status"] == "pending" and state(client, tid)["state"]["rolled"] == []
    under = [d for d in read["dice"] if hold_each_other(EDITED_SIX, d["box"])]
    assert len(under) == 1 and under[0]["uncertain"]
    assert read["said"]["warnings"] == [
        {"key": "vision.transparent_dice", "values": {"count": 1}}]
    assert read["warnings"][0].startswith("1 die lies partly under a transparent part")


def test_upload_without_the_photo_field_is_400(client):
    tid = new_table(client)
    response = client.post(f"/api/tables/{tid}/dice/photo", data={"picture": "x"},
                           content_type="multipart/form-data")
    assert response.status_code == 400 and "'photo'" in response.json["message"]


def test_a_photo_when_no_roll_is_asked_for_is_409(client):
    tid = new_table(client, rolls=0)
    data, _ = settled(0)
    response = upload(client, tid, data)
    assert response.status_code == 409 and "no roll is asked for" in response.json["message"]


def test_seafall_dice_with_an_unusable_profile_say_how_to_enroll_again(services):
    from vision.profilefile import profiles_dir
    from web.app import create_app

    folder = profiles_dir()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "seafall.npz").write_bytes(b"not a profile at all")
    client = browser(create_app(services, {"TESTING": True}))
    tid = new_table(client)
    data, _ = settled(0)
    response = upload(client, tid, data)
    assert response.status_code == 409
    assert "cannot read profile" in response.json["message"]
    assert "tableside enroll" in response.json["message"]
    assert (folder / "seafall.npz").read_bytes() == b"not a profile at all"  # left as it was


def test_reads_of_unknown_tables_and_ids_are_404(client):
    tid = new_table(client)
    assert client.get("/api/tables/nope/dice/latest").status_code == 404
    assert client.get(f"/api/tables/{tid}/dice/latest").status_code == 404
    # as the pages ask: none yet is 204 (a 404 is logged as an error by the browser at
    # every poll); an unknown table is still 404
    none = client.get(f"/api/tables/{tid}/dice/latest?if_any=1")
    assert none.status_code == 204 and none.data == b""
    assert client.get("/api/tables/nope/dice/latest?if_any=1").status_code == 404
    assert client.get(f"/api/tables/{tid}/dice/abc").json["error"] == "not_found"
    other = new_table(client)
    data, _ = settled(0)
    read = upload(client, other, data).json
    assert client.get(f"/api/tables/{tid}/dice/{read['read_id']}").status_code == 404


def test_reads_and_pictures_are_kept_beside_the_database(seafall_services, tmp_path: Path):
    from web.app import create_app

    client = browser(create_app(seafall_services, {"TESTING": True}))
    tid = new_table(client)
    data, _ = settled(0)
    read = upload(client, tid, data).json
    folder = tmp_path / "data" / "reads"
    assert (folder / "reads.sqlite3").is_file()
    assert sorted(p.name for p in (folder / "files" / read["read_id"]).iterdir()) == [
        "crop-0.png", "crop-1.png", "frame.jpg"]


def test_spectators_cannot_send_photos_or_confirm(app, client):
    tid = new_table(client)
    data, _ = settled(0)
    watcher = app.test_client()  # no session: a spectator
    response = upload(watcher, tid, data)
    assert response.status_code == 403 and response.json["error"] == "forbidden"
    assert client.get(f"/api/tables/{tid}/dice/latest").status_code == 404
    read = upload(client, tid, data).json
    response = post_read(watcher, tid, read, "correct", {"die": 0, "face": "blank"})
    assert response.status_code == 403
    # reading the evidence is open to everyone at the table
    assert watcher.get(read["frame_url"]).status_code == 200


def test_a_large_phone_photo_is_scaled_down_and_its_boxes_fit_the_kept_frame(client):
    tid = new_table(client)
    data, _ = settled(0)
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    big = cv2.resize(image, (2400, 1800), interpolation=cv2.INTER_CUBIC)
    encoded = cv2.imencode(".jpg", big, [cv2.IMWRITE_JPEG_QUALITY, 60])[1].tobytes()
    assert len(encoded) < 500_000  # the test client spools bigger uploads to a file
    read = upload(client, tid, encoded).json
    assert read["frame_size"] == [1600, 1200]
    for die in read["dice"]:
        x, y, w, h = die["box"]
        assert 0 <= x and 0 <= y and x + w <= 1600 and y + h <= 1200


def test_a_portrait_phone_photo_is_kept_upright(client):
    """A phone held upright stores its photo on its side and says so in EXIF (orientation
    6). One of 12 megapixels is decoded at half its size (OpenCV turns it upright then
    too): the frame shown to the players, and its boxes, are upright."""
    tid = new_table(client)
    data, faces = settled(0)
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    stored = cv2.resize(image, (4000, 3000), interpolation=cv2.INTER_CUBIC)
    encoded = with_orientation(  # shown turned a quarter clockwise: 3000 wide, 4000 high
        cv2.imencode(".jpg", stored, [cv2.IMWRITE_JPEG_QUALITY, 60])[1].tobytes(), 6)
    read = upload(client, tid, encoded).json
    assert read["frame_size"] == [1200, 1600]  # width, height: upright
    assert len(read["dice"]) == len(faces)
    assert all(d["face"] in faces for d in read["dice"] if not d["uncertain"])
    for die in read["dice"]:
        x, y, w, h = die["box"]
        assert 0 <= x and 0 <= y and x + w <= 1200 and y + h <= 1600


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 10**12) | st.floats(allow_nan=False)
    | st.text(max_size=8) | st.sampled_from(["weak", "blank", "strong", "standard"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                 max_size=3),
    max_leaves=8)
BODIES = JSON | st.fixed_dictionaries({}, optional={
    "faces": JSON, "die": JSON, "face": JSON, "not_a_die": JSON, "x": JSON, "y": JSON,
    "expected_version": JSON})


@pytest.fixture
def a_pending_read(client) -> tuple[str, dict]:
    tid, read, _ = pending_read(client)
    return tid, read


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=BODIES, route=st.sampled_from(["confirm", "correct", "not-a-die", "add"]))
def test_any_confirm_or_correct_body_gets_a_clear_answer(client, a_pending_read, body, route):
    """Fuzzed bodies (one read, confirmed or corrected many times over): never a server
    error, always the one error shape."""
    tid, read = a_pending_read
    response = client.post(f"/api/tables/{tid}/dice/{read['read_id']}/{route}", json=body)
    assert response.status_code in (200, 400, 409), response.json
    if response.status_code != 200:
        assert set(response.json) >= {"error", "message"} and response.json["message"]
