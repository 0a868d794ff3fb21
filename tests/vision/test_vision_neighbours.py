"""The second look at a die a profile is unsure of, with the sure dice of its frame as
templates (vision/neighbours.py, Profile.classify_many, DiceReader.neighbours)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from tests.vision.helpers import labelled_photos
from tests.vision.test_vision_enrollment import seafall_crops
from vision import neighbours, templates
from vision.boxes import hold_each_other
from vision.crops import crop
from vision.detection import detection_like, to_work
from vision.embedding import default_embedder
from vision.enrollment import Profile
from vision.reader import DiceReader


def _crops_of(photos) -> dict[str, list[np.ndarray]]:
    out: dict[str, list[np.ndarray]] = {}
    for p in photos:
        work = to_work(p.image())
        for face, box in zip(p.faces, p.boxes, strict=True):
            out.setdefault(face, []).append(crop(work.image, detection_like(box, work.scale)))
    return out


@pytest.fixture(scope="module")
def d6_symbols() -> Profile:
    """The d6 faces enrolled as symbols from the checked-in photos other than the
    25-dice one (at most 5 crops a face), as the benchmark's stand-in for SeaFall dice."""
    photos = [p for p in labelled_photos() if len(p.faces) < 25]
    crops = {face: items[:5] for face, items in _crops_of(photos).items()}
    return Profile.from_crops("d6-symbols", "d6", crops)


def _truth(photo, box) -> str | None:
    faces = [f for f, b in zip(photo.faces, photo.boxes, strict=True)
             if hold_each_other(b, box)]
    return faces[0] if len(faces) == 1 else None


def test_an_unsure_die_is_read_sure_by_the_sure_dice_beside_it(d6_symbols: Profile) -> None:
    # a real photo of 25 dice (d6 val split), read by the d6 faces enrolled as symbols,
    # asking the lead the profile asked before the twentieth session's maps (0.14): at
    # today's 0.115 the one die the second look made sure there is sure alone
    (photo,) = [p for p in labelled_photos() if len(p.faces) == 25]
    image = photo.image()
    profile = dataclasses.replace(d6_symbols, min_margin=0.14)
    alone = DiceReader("d6", profile=profile, neighbours=False).read(image).dice
    together = DiceReader("d6", profile=profile).read(image).dice
    assert [d.box for d in alone] == [d.box for d in together]
    made_sure = []
    for a, t in zip(alone, together, strict=True):
        if not a.uncertain:  # a sure read is never changed
            assert (t.face, t.confidence, t.uncertain) == (a.face, a.confidence, False)
        elif not t.uncertain:
            made_sure.append(t)
    # the photo's other 4s, read sure, make an unsure 4 sure; nothing is read wrong
    assert made_sure
    for d in together:
        if not d.uncertain:
            assert d.face == _truth(photo, d.box)
    assert sum(not d.uncertain for d in together) == sum(not d.uncertain for d in alone) + len(
        made_sure)


def test_classify_many_looks_again_only_when_asked_and_only_at_unsure_dice(
        d6_symbols: Profile) -> None:
    (photo,) = [p for p in labelled_photos() if len(p.faces) == 25]
    crops = [c for items in _crops_of([photo]).values() for c in items]
    alone = d6_symbols.classify_many(crops)
    again = d6_symbols.classify_many(crops, neighbours=True)
    assert alone == d6_symbols.classify_many(crops, neighbours=False)
    for a, g in zip(alone, again, strict=True):
        assert g == a or (a.uncertain and not g.uncertain)
    # a frame of one die, or of unsure dice only, has no sure neighbour to look at (the
    # same reads, to the float error of a smaller batch)
    unsure = [c for c, a in zip(crops, alone, strict=True) if a.uncertain]
    for frame in (crops[:1], unsure):
        assert unsure
        reads = d6_symbols.classify_many(frame, neighbours=True)
        assert _reads(reads) == _reads(d6_symbols.classify_many(frame))
        assert _reads(reads) == _reads([alone[i] for i, c in enumerate(crops)
                                        if any(c is f for f in frame)])


def _reads(guesses) -> list[tuple[str, bool, float]]:
    return [(g.face, g.uncertain, round(g.similarity, 4)) for g in guesses]


def test_the_likeness_to_a_neighbour_is_the_profile_s_mix_and_knows_its_symbol() -> None:
    crops = seafall_crops(seed=31, per_face=2)
    faces = list(crops)
    dice = [crops[f][k] for k in range(2) for f in faces]  # one of each face, then again
    wides = [c.copy() for c in dice]
    both = templates.queries([*dice, *wides])
    n = len(dice)
    unsure, sure = np.arange(len(faces)), np.arange(len(faces), n)
    queries = both.take(range(n))
    wide_queries = both.take((n + unsure).tolist())  # the unsure dice's wide crops
    vectors = default_embedder().embed(dice)
    ink, embedded = neighbours.likeness_parts(queries, vectors, unsure, sure, wide_queries)
    assert ink.shape == embedded.shape == (len(faces), len(faces))
    mixed = neighbours.likeness(queries, vectors, unsure, sure, 0.7, wide_queries)
    assert np.allclose(mixed, 0.7 * ink + 0.3 * embedded)
    # the wide crops' queries are the unsure dice's, one each
    with pytest.raises(ValueError, match="unsure dice"):
        neighbours.likeness_parts(queries, vectors, unsure, sure, both.take(range(n, 2 * n)))
    # the ink part is the templates' own likeness of the two crops
    alone = templates.best_per_crop(dice[: len(faces)],
                                    templates.spectra(queries.unzoomed()[sure]))
    assert np.allclose(neighbours.likeness_parts(queries, vectors, unsure, sure)[0], alone)
    # a face's other crop is liker than the other faces' crops, on the whole
    same, other = np.diag(mixed), mixed[~np.eye(len(faces), dtype=bool)]
    assert same.mean() > other.mean() + 0.2
    # a die beside a copy of itself: a likeness of about 1, the best of its row
    itself = neighbours.likeness(queries, vectors, unsure, unsure, 0.7)
    assert np.allclose(np.diag(itself), 1.0, atol=0.02)
    assert (itself.argmax(axis=1) == np.arange(len(faces))).all()
    assert neighbours.likeness(queries, vectors, unsure[:0], sure, 0.7).shape == (0, len(sure))
    assert neighbours.likeness(queries, vectors, unsure, sure[:0], 0.7).shape == (len(faces), 0)
