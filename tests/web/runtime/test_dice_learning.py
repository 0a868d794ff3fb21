"""Rolls and confirms: the dice the table confirms or corrects teach the die's profile
(web/runtime/dice.py, vision.enrollment.Profile.learn), and a die with no profile yet is
enrolled at the table from the dice the players name."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from tests.support.web import browser, join
from tests.web.runtime.support import demo_profile
from tests.web.runtime.test_dice_api import (
    missed_one,
    new_table,
    pending_read,
    post_read,
    settled,
    state,
    upload,
)
from vision.boxes import hold_each_other
from vision.enrollment import Profile
from vision.faces import SEAFALL_FACES
from vision.profilefile import profiles_dir
from vision.synthetic import tray_photo
from web.app import create_app
from web.runtime.dicereaders import STARTER_PER_FACE
from web.runtime.recording import DIE_PX, SIZE


def _profile(services) -> Profile:
    return services.dice().readers.reader("seafall").profile


def test_confirming_a_pending_read_teaches_the_profile_its_dice(app, client,
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
    out = post_read(red, tid, read, "confirm",
                    {"faces": faces, "expected_version": state(client, tid)["version"]})
    assert out.status_code == 200 and out.json["status"] == "applied"
    after = _profile(seafall_services)
    assert len(after.maps) == len(before.maps) + 2
    assert after.sources[-2:] == (f"{read['read_id']}:0", f"{read['read_id']}:1")
    assert [after.labels[o] for o in after.owners[-2:]] == faces
    # the next read uses what was learned
    assert seafall_services.dice().readers.reader("seafall").profile is after


def test_a_confirmed_read_teaches_its_sure_dice_too(app, client, seafall_services):
    # the players saw the whole roll when they confirmed it: the dice read sure are theirs
    # as much as the one they named
    tid = new_table(client, count=3)
    faces = ["standard", "strong", "weak"]
    data, dice = _photo_of(faces, seed=4)
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    x, y, w, h = dice[0][1]
    noise = np.random.default_rng(1).integers(0, 255, (h // 2, w // 2, 3), dtype=np.uint8)
    image[y + h // 4:y + h // 4 + h // 2, x + w // 4:x + w // 4 + w // 2] = noise
    read = upload(client, tid, cv2.imencode(".png", image)[1].tobytes()).json
    assert read["status"] == "pending" and len(read["dice"]) == 3
    unsure = [d["uncertain"] for d in read["dice"]]
    assert any(unsure) and not all(unsure)
    truth = [next(f for f, box in dice if hold_each_other(box, tuple(d["box"])))
             for d in read["dice"]]
    before = _profile(seafall_services)
    out = post_read(client, tid, read, "confirm",
                    {"faces": truth, "expected_version": state(client, tid)["version"]})
    assert out.status_code == 200 and out.json["status"] == "applied"
    after = _profile(seafall_services)
    assert len(after.maps) == len(before.maps) + 3
    assert after.sources[-3:] == tuple(f"{read['read_id']}:{i}" for i in range(3))
    assert [after.labels[o] for o in after.owners[-3:]] == truth


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
    out = post_read(client, tid, read, "confirm", {
        "faces": [*faces, "strong"], "expected_version": state(client, tid)["version"]}).json
    assert out["status"] == "applied"
    # three faces for two crops: which crop shows which face is not known
    assert len(_profile(seafall_services).maps) == size


def test_a_box_said_to_be_no_die_teaches_nothing(app, client, seafall_services):
    """A box the table took out (POST .../not-a-die) is no die: confirming the read teaches
    the profile the dice that answered the roll, not it."""
    tid, read, faces = pending_read(client, count=1)
    before = _profile(seafall_services)
    red = join(app, client, tid, "Rosa", "red")
    assert post_read(red, tid, read, "not-a-die", {"die": 0}).status_code == 200
    out = post_read(red, tid, read, "confirm", {"expected_version": state(client, tid)["version"]})
    assert out.status_code == 200 and out.json["faces"] == faces[1:]
    after = _profile(seafall_services)
    assert len(after.maps) == len(before.maps) + 1
    assert after.sources[-1] == f"{read['read_id']}:1"
    assert after.labels[after.owners[-1]] == faces[1]


def test_a_die_added_by_a_tap_teaches_nothing(app, client, seafall_services):
    """A die the reader missed, added where the table tapped (POST .../add): its box was
    placed by a tap, so confirming the read teaches the profile the reader's own dice
    only."""
    tid, read, faces, missed = missed_one(seafall_services, client)
    before = _profile(seafall_services)
    red = join(app, client, tid, "Rosa", "red")
    x, y, w, h = missed["box"]
    assert post_read(red, tid, read, "add", {"x": x + w // 2, "y": y + h // 2}).status_code == 200
    out = post_read(red, tid, read, "confirm", {"expected_version": state(client, tid)["version"]})
    assert out.status_code == 200 and out.json["faces"] == faces
    after = _profile(seafall_services)
    assert len(after.maps) == len(before.maps) + 1
    assert after.sources[-1] == f"{read['read_id']}:0"


@pytest.mark.parametrize("enrolled_as", ["seafall", "seafall-demo"])
def test_a_profile_from_the_profile_folder_is_saved_with_what_it_learned(services, enrolled_as):
    """Saved back into its own file, also when it was enrolled under another name and its
    file renamed to the die's: it went to a second file, which "forget" did not look at."""
    from vision.profilefile import profiles_dir, saved_profiles

    path = dataclasses.replace(demo_profile(), name=enrolled_as).save()
    if enrolled_as != "seafall":
        path.rename(profiles_dir() / "seafall.npz")
    client = browser(create_app(services, {"TESTING": True}))
    tid = new_table(client, count=2)
    data, faces = settled(0)
    read = upload(client, tid, data).json
    assert read["status"] == "applied"
    fixed = "strong" if faces[0] != "strong" else "weak"
    out = post_read(client, tid, read, "correct", {
        "die": 0, "face": fixed, "expected_version": read["table_version"]})
    assert out.status_code == 200
    saved = Profile.load("seafall")
    assert saved.sources[-1] == f"{read['read_id']}:0"
    assert saved.labels[saved.owners[-1]] == fixed
    assert len(saved.maps) == len(demo_profile().maps) + 1
    assert saved_profiles() == ["seafall"]  # no second file


def _photo_of(faces: list[str], seed: int) -> tuple[bytes, list[tuple[str, tuple]]]:
    photo = tray_photo(np.random.default_rng(seed), faces, size=SIZE, die_px=DIE_PX)
    data = cv2.imencode(".jpg", photo.image, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes()
    return data, [(d.face, d.box) for d in photo.dice]


def test_a_die_without_a_profile_is_enrolled_at_the_table(services):
    """No SeaFall profile anywhere: the dice are found but shown unread, the players name
    them, and once STARTER_PER_FACE of every face are named (and trusted: a die the other
    named dice surely read as another face waits for more) the table makes the profile and
    reads the next roll itself."""
    client = browser(create_app(services, {"TESTING": True}))
    tid = new_table(client, count=4, rolls=STARTER_PER_FACE + 4)
    path = profiles_dir() / "seafall.npz"
    rolls = 0
    for seed in range(100, 140):  # trays in which the detector finds all four dice
        faces = list(np.random.default_rng(seed).permutation(SEAFALL_FACES))
        data, truth = _photo_of(faces, seed)
        read = upload(client, tid, data).json
        if len(read["dice"]) != 4:
            continue
        assert read["status"] == "pending"
        assert {d["face"] for d in read["dice"]} == {"?"}
        assert all(d["uncertain"] and d["confidence"] == 0 for d in read["dice"])
        assert "give their faces" in read["note"]
        url = f"/api/tables/{tid}/dice/{read['read_id']}/confirm"
        version = state(client, tid)["version"]
        refused = client.post(url, json={"expected_version": version})
        assert refused.status_code == 400 and "give their faces" in refused.json["message"]
        named = [next(f for f, b in truth if hold_each_other(b, d["box"])) for d in read["dice"]]
        out = client.post(url, json={"faces": named, "expected_version": version}).json
        assert out["status"] == "applied"
        rolls += 1
        assert rolls >= STARTER_PER_FACE or not path.is_file()
        if path.is_file():
            break
    # these trays' dice: one named standard die looks like a blank to the others (a dark
    # wheel filling an ivory die) and waits, so the profile comes a roll later
    assert rolls == STARTER_PER_FACE + 1
    profile = Profile.load("seafall")
    assert profile.labels == SEAFALL_FACES and set(profile.sources) == {""}
    assert min(np.bincount(profile.owners)) >= STARTER_PER_FACE
    # the next roll is read with the new profile: faces, not "?"
    data, truth = _photo_of(["strong", "weak", "blank", "standard"], 7)
    read = upload(client, tid, data).json
    assert read["dice"] and all(d["face"] in SEAFALL_FACES for d in read["dice"])
    for d in read["dice"]:
        if not d["uncertain"]:
            assert d["face"] == next(f for f, b in truth if hold_each_other(b, d["box"]))


def test_dice_named_wrongly_at_the_table_are_left_out_of_the_first_profile(services):
    """A slip of the finger: in the first roll two dice are given each other's faces. The
    profile the table makes leaves both out (vision.profilecheck: the other named dice
    read each surely as the face it shows), waiting for more named dice of those faces."""
    client = browser(create_app(services, {"TESTING": True}))
    tid = new_table(client, count=4, rolls=STARTER_PER_FACE + 4)
    path = profiles_dir() / "seafall.npz"
    rolls, slipped = 0, []
    for seed in range(100, 160):
        faces = list(np.random.default_rng(seed).permutation(SEAFALL_FACES))
        data, truth = _photo_of(faces, seed)
        read = upload(client, tid, data).json
        if len(read["dice"]) != 4:
            continue
        named = [next(f for f, b in truth if hold_each_other(b, d["box"])) for d in read["dice"]]
        if not rolls:
            named[0], named[1] = named[1], named[0]
            slipped = [(read["read_id"], 0, named[0]), (read["read_id"], 1, named[1])]
        # once every face has its named dice, the players are told what holds it back
        # (here a second die named blank and one named standard are doubted too: these
        # trays' named dice, kept as the reader cut them, find them like the other face)
        waits = ["waiting: 2 dice named 'blank' look like 'standard' to the other named "
                 "dice: were they named right?",
                 "waiting: 2 dice named 'standard' look like 'blank' to the other named dice: "
                 "were they named right?"]
        assert (read["notes"][1:] == waits) == (rolls >= STARTER_PER_FACE)
        if rolls >= STARTER_PER_FACE:  # said in the page's language from these
            assert read["said"]["notes"][1:] == [
                {"key": "runtime.doubt_looks_like",
                 "values": {"count": 2, "face": [a], "read_as": [b]}}
                for a, b in (("blank", "standard"), ("standard", "blank"))]
        url = f"/api/tables/{tid}/dice/{read['read_id']}/confirm"
        out = client.post(url, json={"faces": named,
                                     "expected_version": state(client, tid)["version"]}).json
        assert out["status"] == "applied"
        rolls += 1
        if path.is_file():
            break
    # the two faces had only STARTER_PER_FACE - 1 dice to trust after STARTER_PER_FACE rolls
    assert rolls > STARTER_PER_FACE
    profile = Profile.load("seafall")
    assert np.bincount(profile.owners).min() >= STARTER_PER_FACE
    store = services.dice().store
    # the profile keeps the named dice as the reader cut them (the evidence crops), so a
    # slipped die would be there byte for byte
    kept = [cv2.imread(str(p), cv2.IMREAD_COLOR) for p in store.files.glob("*/crop-*.png")]
    assert sum(any(np.array_equal(k, c) for c in profile.crops) for k in kept) >= len(
        profile.crops)
    for read_id, i, face in slipped:
        wrong = cv2.imread(str(store.file(read_id, f"crop-{i}.png")), cv2.IMREAD_COLOR)
        filed = profile.crops[profile.owners == profile.labels.index(face)]
        assert not any(np.array_equal(wrong, c) for c in filed)


def test_a_profile_enrolled_while_the_server_runs_is_used_at_once(services):
    client = browser(create_app(services, {"TESTING": True}))
    tid = new_table(client, count=2)
    data, faces = settled(0)
    assert {d["face"] for d in upload(client, tid, data).json["dice"]} == {"?"}
    dataclasses.replace(demo_profile(), name="seafall").save()  # tableside enroll, meanwhile
    read = upload(client, tid, data).json
    assert read["status"] == "applied" and read["faces"] == faces


def test_a_profile_enrolled_again_while_the_server_runs_is_read_and_learned_not_saved_over(
        services):
    """The server had loaded the die's profile; the profile file is then enrolled again
    (tableside enroll, or its lessons forgotten with tableside profiles). The next read uses
    the new file, and the next lesson is added to it. Before, the server kept reading the
    profile it had loaded and its next lesson saved that one over the new file: the new
    enrollment was lost."""
    old = dataclasses.replace(demo_profile(), name="seafall")
    old.save()
    client = browser(create_app(services, {"TESTING": True}))
    tid = new_table(client, count=2)
    data, faces = settled(0)
    assert upload(client, tid, data).json["status"] == "applied"  # loaded and read
    assert len(_profile(services).maps) == len(old.maps)
    new = old.first(3)  # enrolled again, with fewer crops a face
    new.save()
    assert len(_profile(services).maps) == len(new.maps)  # read with the new file
    data, faces = settled(1)
    read = upload(client, tid, data).json
    fixed = "strong" if read["faces"][0] != "strong" else "weak"
    assert post_read(client, tid, read, "correct", {"die": 0, "face": fixed}).status_code == 200
    saved = Profile.load("seafall")
    assert len(saved.maps) == len(new.maps) + 1  # the lesson added to the new file
    assert saved.sources[-1] == f"{read['read_id']}:0"


def _taught(profile: Profile, lessons: dict[str, list[int]]) -> Profile:
    """``profile`` having learned, from each read named, its own crops at these rows
    (each with the face it was enrolled as)."""
    assert profile.crops is not None
    return profile.learn([(profile.labels[profile.owners[row]], profile.crops[row],
                           f"{read}:{k}") for read, rows in lessons.items()
                          for k, row in enumerate(rows)])


def test_the_host_forgets_a_reads_lessons_and_puts_them_back(services):
    """docs/api.md "Dice reads": GET /api/dice/profiles shows what each profile learned;
    the host forgets what a read taught (a roll confirmed with a wrong face, the game gone
    on), or everything learned, and puts the profile before back (again: the redo)."""
    taught = _taught(dataclasses.replace(demo_profile(), name="seafall"),
                     {"r1": [0, 6], "r2": [12]})
    taught.save()
    app = create_app(services, {"TESTING": True})
    host = browser(app)
    tid = new_table(host, count=2)
    (row,) = host.get("/api/dice/profiles").json["profiles"]
    assert row["die"] == "seafall" and row["saved"] and not row["kept"]
    assert row["learned_from"] == {"r1": 2, "r2": 1}
    assert sum(f["learned"] for f in row["faces"]) == 3
    base = f"/api/tables/{tid}/dice/profiles/seafall"
    ana = join(app, host, tid, "Ana", "red")
    assert ana.post(f"{base}/forget", json={}).status_code == 403
    out = host.post(f"{base}/forget", json={"reads": ["r9"]})
    assert out.status_code == 409 and "learned nothing from read r9" in out.json["message"]
    for bad in ("r1", [], None, [3]):  # only leaving it out forgets everything
        assert host.post(f"{base}/forget", json={"reads": bad}).status_code == 400
    # everything forgotten, then put back: the host's own mistake taken back
    assert host.post(f"{base}/forget", json={}).json["profile"]["learned_from"] == {}
    assert Profile.load("seafall").learned_from() == {}
    back = host.post(f"{base}/restore", json={})
    assert back.status_code == 200 and back.json["profile"]["learned_from"] == {
        "r1": 2, "r2": 1}
    out = host.post(f"{base}/forget", json={"reads": ["r1"]})
    assert out.status_code == 200 and out.json["profile"]["learned_from"] == {"r2": 1}
    assert Profile.load("seafall").learned_from() == {"r2": 1}
    assert _profile(services).learned_from() == {"r2": 1}  # read with from the next roll
    (row,) = host.get("/api/dice/profiles").json["profiles"]
    assert row["kept"] and row["learned_from"] == {"r2": 1}
    assert host.post(f"{base}/restore", json={}).json["profile"]["learned_from"] == {
        "r1": 2, "r2": 1}
    assert host.post(f"{base}/restore", json={}).json["profile"]["learned_from"] == {
        "r2": 1}  # the redo
    bad = host.post(f"/api/tables/{tid}/dice/profiles/no%20such/forget", json={})
    assert bad.status_code == 400 and "bad die name" in bad.json["message"]


def test_a_profile_named_otherwise_than_its_die_is_listed_as_the_command_lines(services):
    """tableside enroll --die de1 --profile pe1 is legitimate (read-dice --profile pe1):
    GET /api/dice/profiles listed it as an error ("profile 'pe1' is for the de1 die, not
    pe1") on the host's page. It is listed with its die, as not the table's (the table
    reads de1 dice with the profile named de1), beside the table's own."""
    dataclasses.replace(demo_profile(), name="seafall").save()
    dataclasses.replace(demo_profile(), name="pe1", die="de1").save()
    host = browser(create_app(services, {"TESTING": True}))
    new_table(host, count=2)
    rows = {r["name"]: r for r in host.get("/api/dice/profiles").json["profiles"]}
    assert set(rows) == {"pe1", "seafall"}
    assert "error" not in rows["pe1"]
    assert rows["pe1"]["die"] == "de1" and rows["pe1"]["table"] is False
    assert rows["pe1"]["faces"] == rows["seafall"]["faces"]
    assert rows["seafall"]["die"] == "seafall" and rows["seafall"]["table"] is True


def test_a_profile_given_in_memory_forgets_and_puts_back_in_memory(services):
    """The demo's profile lives in memory (never saved): forgetting keeps the profile
    before in memory for restore."""
    readers = services.dice().readers
    readers.profiles["seafall"] = _taught(demo_profile(), {"r1": [0]})
    host = browser(create_app(services, {"TESTING": True}))
    tid = new_table(host, count=2)
    base = f"/api/tables/{tid}/dice/profiles/seafall"
    assert host.post(f"{base}/restore", json={}).status_code == 409  # nothing kept yet
    assert host.post(f"{base}/forget", json={}).json["profile"]["learned_from"] == {}
    (row,) = host.get("/api/dice/profiles").json["profiles"]
    assert not row["saved"] and row["kept"]
    assert host.post(f"{base}/restore", json={}).json["profile"]["learned_from"] == {"r1": 1}
    assert readers.reader("seafall").profile.learned_from() == {"r1": 1}
    assert not profiles_dir().exists()  # nothing saved


def _named_rolls(client, tid: str, seeds):
    """Each tray of four SeaFall dice (all found) uploaded, its dice named right and the
    read confirmed: the applied reads, one at a time."""
    for seed in seeds:
        faces = list(np.random.default_rng(seed).permutation(SEAFALL_FACES))
        data, truth = _photo_of(faces, seed)
        read = upload(client, tid, data).json
        if len(read["dice"]) != 4:
            continue
        assert {d["face"] for d in read["dice"]} == {"?"}  # no profile: named at the table
        named = [next(f for f, b in truth if hold_each_other(b, d["box"])) for d in read["dice"]]
        out = post_read(client, tid, read, "confirm", {
            "faces": named, "expected_version": state(client, tid)["version"]}).json
        assert out["status"] == "applied"
        yield out


def _crops_of(services, reads: list[str]) -> list[np.ndarray]:
    store = services.dice().store
    return [cv2.imread(str(p), cv2.IMREAD_COLOR) for r in reads
            for p in sorted((store.files / r).glob("crop-*.png"))]


def _holds_any(profile: Profile, crops: list[np.ndarray]) -> bool:
    return any(np.array_equal(c, k) for c in crops for k in profile.crops)


def test_rolls_the_table_undid_do_not_enroll_the_die(services):
    """A QA tester named the dice of photo after photo and undid each roll at once (a roll
    taken back because its dice were named wrongly): the undone reads kept their stored
    status, and their crops made the profile. Now an undone roll names nothing: not at its
    own table (its undo stack), nor at another table of the same server (its game's undo
    stack, read from the game database)."""
    client = browser(create_app(services, {"TESTING": True}))
    path = profiles_dir() / "seafall.npz"
    first = new_table(client, count=4, rolls=12)
    undone = []
    for read in _named_rolls(client, first, range(100, 160)):
        assert client.post(f"/api/tables/{first}/undo", json={}).status_code == 200
        undone.append(read["read_id"])
        assert not path.is_file()  # before: made from the undone rolls at the fourth
        if len(undone) == STARTER_PER_FACE + 3:
            break
    assert len(undone) == STARTER_PER_FACE + 3
    statuses = {services.dice().get(None, r).status for r in undone}
    assert statuses == {"applied"}  # as stored: "undone" is the table's undo stack's word
    # another table, in another game: the first table's undone rolls do not count there
    other = new_table(client, count=4, rolls=12)
    kept = []
    for read in _named_rolls(client, other, range(160, 260)):
        kept.append(read["read_id"])
        if path.is_file():
            break
    assert path.is_file() and len(kept) >= STARTER_PER_FACE
    profile = Profile.load("seafall")
    assert not _holds_any(profile, _crops_of(services, undone))
    assert _holds_any(profile, _crops_of(services, kept))


def test_a_die_started_over_is_enrolled_again_only_from_dice_named_after(services, capsys):
    """docs/vision.md: to start a die over, `tableside profiles remove NAME`. Before, the
    documented way (delete the profile file) did nothing: the next confirm made the same
    profile again from every die named before. Now the table waits for dice named after
    the start over, and `restore` puts the removed profile back."""
    from web.cli import main

    client = browser(create_app(services, {"TESTING": True}))
    path = profiles_dir() / "seafall.npz"
    tid = new_table(client, count=4, rolls=20)
    before = []
    for read in _named_rolls(client, tid, range(100, 160)):
        before.append(read["read_id"])
        if path.is_file():
            break
    assert path.is_file()
    enrolled = Profile.load("seafall")
    assert main(["profiles", "remove", "seafall"]) == 0
    assert "removed profile 'seafall'" in capsys.readouterr().out
    assert not path.is_file()
    after = []
    for read in _named_rolls(client, tid, range(160, 300)):
        after.append(read["read_id"])
        if len(after) == 1:
            assert not path.is_file()  # before: made again at once, from the dice before
        if path.is_file():
            break
    assert path.is_file() and len(after) >= STARTER_PER_FACE
    again = Profile.load("seafall")
    assert not _holds_any(again, _crops_of(services, before))
    assert _holds_any(again, _crops_of(services, after))
    # the removed profile is kept: restore puts it back (and the new one is kept in turn)
    assert main(["profiles", "restore", "seafall"]) == 0
    assert np.array_equal(Profile.load("seafall").crops, enrolled.crops)
