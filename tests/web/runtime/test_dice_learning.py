"""Rolls and confirms: the dice the table confirms or corrects teach the die's profile
(web/runtime/dice.py, vision.enrollment.Profile.learn)."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np

from tests.support.web import browser, join
from tests.web.runtime.support import demo_profile
from tests.web.runtime.test_dice_api import new_table, pending_read, settled, state, upload
from vision.enrollment import Profile
from web.app import create_app


def _profile(services) -> Profile:
    return services.dice().readers.reader("seafall").profile


def test_confirming_a_pending_read_teaches_the_profile_its_unsure_dice(app, client,
                                                                       seafall_services):
    tid = new_table(client, count=2)
    data, faces = settled(1)
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    h = image.shape[0]
    cv2.rectangle(image, (0, h - 60), (150, h - 1), (120, 150, 205), -1)  # a hand: unsure
    read = upload(client, tid, cv2.imencode(".jpg", image)[1].tobytes()).json
    assert read["status"] == "pending" and all(d["uncertain"] for d in read["dice"])
    before = _profile(seafall_services)
    assert set(before.sources) == {""}
    red = join(app, client, tid, "Rosa", "red")
    out = red.post(f"/api/tables/{tid}/dice/{read['read_id']}/confirm",
                   json={"faces": faces, "expected_version": state(client, tid)["version"]})
    assert out.status_code == 200 and out.json["status"] == "applied"
    after = _profile(seafall_services)
    assert len(after.maps) == len(before.maps) + 2
    assert after.sources[-2:] == (f"{read['read_id']}:0", f"{read['read_id']}:1")
    assert [after.labels[o] for o in after.owners[-2:]] == faces
    # the next read uses what was learned
    assert seafall_services.dice().readers.reader("seafall").profile is after


def test_a_corrected_die_is_learned_as_last_said_and_sure_dice_are_not(app, client,
                                                                       seafall_services):
    tid = new_table(client)
    data, faces = settled(0)
    yellow = join(app, client, tid, "Yann", "yellow")
    read = upload(yellow, tid, data).json
    assert read["status"] == "applied"  # every die sure: nothing to learn
    size = len(_profile(seafall_services).maps)
    assert set(_profile(seafall_services).sources) == {""}
    url = f"/api/tables/{tid}/dice/{read['read_id']}/correct"
    wrong = "blank" if faces[1] != "blank" else "weak"
    out = yellow.post(url, json={"die": 1, "face": wrong,
                                 "expected_version": read["table_version"]}).json
    learned = _profile(seafall_services)
    assert len(learned.maps) == size + 1
    assert learned.sources[-1] == f"{read['read_id']}:1"
    assert learned.labels[learned.owners[-1]] == wrong
    # said again: the same die counts once, with the face said last
    yellow.post(url, json={"die": 1, "face": faces[1], "expected_version": out["table_version"]})
    again = _profile(seafall_services)
    assert len(again.maps) == size + 1
    assert again.labels[again.owners[-1]] == faces[1]
    assert state(client, tid)["state"]["rolled"] == [faces]


def test_faces_replaced_as_a_whole_teach_nothing(app, client, seafall_services):
    tid, read, faces = pending_read(client)
    size = len(_profile(seafall_services).maps)
    out = client.post(f"/api/tables/{tid}/dice/{read['read_id']}/confirm",
                      json={"faces": [*faces, "strong"],
                            "expected_version": state(client, tid)["version"]}).json
    assert out["status"] == "applied"
    # three faces for two crops: which crop shows which face is not known
    assert len(_profile(seafall_services).maps) == size


def test_a_profile_from_the_profile_folder_is_saved_with_what_it_learned(services):
    dataclasses.replace(demo_profile(), name="seafall").save()
    client = browser(create_app(services, {"TESTING": True}))
    tid = new_table(client, count=2)
    data, faces = settled(0)
    read = upload(client, tid, data).json
    assert read["status"] == "applied"
    fixed = "strong" if faces[0] != "strong" else "weak"
    out = client.post(f"/api/tables/{tid}/dice/{read['read_id']}/correct",
                      json={"die": 0, "face": fixed,
                            "expected_version": read["table_version"]})
    assert out.status_code == 200
    saved = Profile.load("seafall")
    assert saved.sources[-1] == f"{read['read_id']}:0"
    assert saved.labels[saved.owners[-1]] == fixed
    assert len(saved.maps) == len(demo_profile().maps) + 1
