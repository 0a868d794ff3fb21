"""Enrolled faces: a profile of a few crops per face, read by two likenesses at once.

The player shows each face a few times (crops of single dice, or photos with YOLO labels,
read by :mod:`vision.enroll`); each crop is cut again as the reader cuts dice
(:func:`vision.enrollcrops.reframe`) and kept two ways:

* its *ink map* (:mod:`vision.templates`: where the die's marks stand out from its body,
  whatever its colours), compared at every turn and small shift with a die's own map;
* its vectors from the generic symbol embedding (:mod:`vision.embedding`, a network trained
  on synthetic random symbols only), at :data:`vision.enrollcrops.ENROLL_TURNS` turns.

A die's likeness to each profile crop mixes the two cosine similarities
(:data:`TEMPLATE_WEIGHT`), the ink one the better of the die's crop and its wider crop
when the reader hands both (:meth:`Profile.likeness_parts`); each face scores its best
likeness (:func:`face_scores`). A die
is read as the best-scoring face; the confidence grows with that score and with its lead
over the best other face, and a die below either threshold is marked uncertain; the lead
needed follows what the profile has learned from the table (:meth:`Profile.learn`;
the lead rule is :mod:`vision.leadrule`). Nothing here counts pips or knows any die's faces: the
faces are arbitrary symbols. Profiles are saved and read back by :mod:`vision.profilefile`.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from vision import neighbours as vision_neighbours
from vision import profilefile, templates
from vision.blas import one_thread
from vision.crops import CROP_PX
from vision.embedding import default_embedder
from vision.enrollcrops import ENROLL_TURNS, crop_px, maps_and_vectors, reframe
from vision.leadrule import (
    LEARNED_PER_FACE,
    MIN_MARGIN,
    MIN_SIMILARITY,
    lead_needed,
    learned_range,
    margin_for,
)
from vision.profilefile import EnrollmentError, profile_path
from vision.smear import own_direction
from vision.storage import check_name

TEMPLATE_WEIGHT = 0.7
"""A die's likeness to a profile crop: this share of their ink-template similarity, the
rest their embedding similarity. Chosen on the d6 photos, faces enrolled as symbols from 5
train crops each and read by the reader (train less its known label mistakes, and val;
test not read): the nearest face was right for 87-89% of dice against 84-85% (templates
alone) and 73% (embedding alone); mixes of 0.5 and 0.85 read fewer dice confidently for the
same silent errors, and so did asking the templates and the embedding to agree. (Mixed
per face until the fourth session, per crop since: the same or a little better.)"""

WIDE_LOOK_LEAD = 3.0
"""A die read sure by its crop with at least this many times the lead it needs
(:func:`lead_needed`) keeps that read; every other die is read again with the ink
similarity of its crop or its wider crop, the better (:meth:`Profile.classify_many`).
Until the twenty-first session every die was read so, which cost the ink maps of a second
crop of every die (about 4 ms of a 15-dice frame). Placed with ``calibrate_enrolled``
(16 enrollments, train and val; test not read): at 3, every stage's margin and reads are
the old rule's (none: 0.115, 84.6% of train sure and right; 20 learned: 0.05, 92.0%)
and 38-43% of dice skip the wide look; at 2.5 (half skip) a new profile needed 0.125 and
read 83.6%; at 1 (only dice sure by the crop skip; three quarters) 0.16 and 80.0%: the
wide crop is also what makes many a die read wrongly sure by its crop unsure."""

OTHER_BODY_LOOK = True
"""Whether the dice still unsure after the look at their wider crop (:data:`WIDE_LOOK_LEAD`)
are read again with their crop's ink map made about the body's other colour
(:func:`vision.crops.other_bodies`), the best of the three ink similarities counting. A
die's body colour is the median of its crop's centre, and a large symbol filling about
half of it (a SeaFall star) makes that its own colour in some crops and the die's in
others: a profile that enrolled its stars one way then reads the others as nearer a bar.
Thirty-seventh session: ivory SeaFall dice on the light grey floor
(``bench_tray_floors.py``) read 97.1% sure and right against 91.7% (17 of their 40 stars
unsure before, 4 after), the six floors' 5,760 dice 5,554 against 5,538, none wrong and
sure either way; the d6 faces enrolled as symbols (``calibrate_enrolled``, test not
read) keep their least margin (0.115) and read 91.3% of train and 92.0% of val sure
against 90.8% and 90.5%, and every learning stage reads more at its own least margin
(:data:`vision.leadrule.MIN_MARGIN`'s table; 5 learned crops a face asks 0.165 against
0.155 without the look, the others the same). Nothing a profile keeps changes. Looking so
at every die not clearly sure (every die the wider crop is cut for) read the same but cost
5-6 ms of a 15-dice frame on this session's busy machine; the unsure dice alone (1-4 of
15-16) cost 1.6-1.9 ms (the enrolled reader's 15-16 dice frames read with and without it in
turn)."""


SURE_FROM_CROPS = 2
"""A face the profile holds fewer crops of (enrolled and learned) is never read sure: its
dice are left to the table. The lead rule's margins were placed on profiles of 5 crops a
face and more (:mod:`vision.leadrule`); one crop is one view of a face, with nothing to
tell what in it is the face and what the light or the cut. A helper's profile of one
train crop a face read the val photos' dice 90 right and sure, 109 unsure and one sure
and wrong, a red 4 read "2" at a confidence of 0.43 (eighty-fourth session). From 2, as
before: the checked-in photos' d6 faces enrolled as symbols hold 2 crops of 1 and of 4,
and their 4s are read right and sure."""

EMBED_VETO: float | None = 0.15
"""A die read sure whose embedding part alone (:mod:`vision.embedding`) puts another face
ahead of the read one by at least this lead (that face's best embedding similarity less the
read face's) is left to the table; None: no veto. The ink templates and the embedding are
two views of a die, and the ink weighs more (:data:`TEMPLATE_WEIGHT`): where the ink is
fooled and the embedding is not, the mixed score can still make a sure read, and two views
pointing clearly apart are no ground for one. The veto comes before the second look with
the sure dice beside a die (a die it leaves unsure may be read sure by that look, and is
held to the veto again), so that a vetoed die serves no other as a template.

What fooled the ink (sixty-first session, ``bench_side_view.py --floor 72``): black
SeaFall dice's blanks on a floor of grey 72. A blank's ink map is the die's lit sides and
the floor, a lighter ring about a dark middle; the map of SeaFall's wheel is made about its
white fill, taken for the die's body, so the black die about it is its ink: a lighter ring
about a dark middle too. The black set's first profile, made by a reader told the lens,
read blanks as the wheel, sure (ink likeness to the wheels 0.6-0.8, to the blanks 0.3-0.4;
embedding 0.84-0.97 to the blanks, 0.35-0.69 to the wheels). Wrong and sure, without the
veto → at 0.15 / 0.2 / 0.25 / 0.3 / 0.4:

* seed 43 through 55 degrees, 48 trays (246 black dice): 14 → 0 / 2 / 3 / 6 / 13;
* six more enrollments (seeds 441-941) through 64 degrees, 24 trays each (738 black dice):
  12, all from one of them → 1 / 2 at 0.15 / 0.2;
* seed 41 through 64 degrees (246 dice): 2 → 2 / 2, strong dice boxed about their star
  alone, read as the standard by both views.

No die read sure and right there was left to the table at 0.15 or 0.2, in the black sets
or the red, ivory and blue ones (seed 43's 678 and seed 41's 647 dice read sure and
right).

What it costs, placed with ``calibrate_enrolled --veto`` (16 enrollments of 5 crops a face
of the d6 faces as symbols; test not read): the least margin stays 0.115, with the same
silent errors (train 0.14%, val 0.03%: dice both views get wrong), reading 91.0% of train
and 91.1% of val sure and right against 91.3% and 92.0% without the veto (at 0.2, 91.2%
and 91.5%). 0.15 is kept: a point of the stand-in's sure reads for a set of SeaFall dice
not read wrong on a dark floor. Once the profile has learned 20 crops a face its margin
stays 0.02, reading 96.4% of train and 98.9% of val against 96.6% and 99.0%."""


def face_scores(likeness: np.ndarray, owners: np.ndarray, faces: int) -> np.ndarray:
    """``(N, faces)``: from each die's likeness to each profile crop (``(N, M)``, crop j
    showing face ``owners[j]``), each face's score, its best likeness (-1 for a face
    without crops)."""
    out = np.full((len(likeness), faces), -1.0, np.float32)
    for f in range(faces):
        mine = likeness[:, owners == f]
        if mine.shape[1]:
            out[:, f] = mine.max(axis=1)
    return out


@dataclass(frozen=True)
class FaceGuess:
    face: str
    confidence: float
    uncertain: bool
    similarity: float
    margin: float


@dataclass(frozen=True)
class _Likeness:
    """What a profile makes of some crops: the likeness parts, and the dice's ink-map
    queries and embedding vectors (kept for :mod:`vision.neighbours`)."""

    parts: tuple[np.ndarray, np.ndarray]
    dice: templates.Queries
    vectors: np.ndarray


def _check_wides(crops: Sequence[np.ndarray], wides: Sequence[np.ndarray] | None) -> None:
    """``ValueError`` unless ``wides`` (if given) holds one wider crop per crop."""
    if wides is not None and len(wides) != len(crops):
        raise ValueError(f"{len(wides)} wide crops for {len(crops)} crops")


def _mixed(ink: np.ndarray, embedded: np.ndarray) -> np.ndarray:
    """Likenesses from their two parts (:data:`TEMPLATE_WEIGHT`)."""
    return TEMPLATE_WEIGHT * ink + (1 - TEMPLATE_WEIGHT) * embedded


@dataclass(frozen=True)
class Profile:
    """Enrolled faces of one die: per enrolled crop its ink map and embedding vectors."""

    name: str
    die: str
    labels: tuple[str, ...]
    maps: np.ndarray
    """``(N, MAP_PX, MAP_PX)`` ink maps of the N enrolled crops (:func:`templates.ink_map`)."""
    vectors: np.ndarray
    """``(N * ENROLL_TURNS, DIM)`` embedding vectors of the crops at every turn."""
    owners: np.ndarray
    """Face index (into ``labels``) of each crop."""
    min_similarity: float = MIN_SIMILARITY
    min_margin: float = MIN_MARGIN
    """The lead a read needs at a best score of LEAD_PIVOT (:func:`lead_needed`)."""
    sources: tuple[str, ...] = ()
    """Where each crop came from: ``""`` for an enrolled one, else the confirmed die it was
    learned from (:meth:`learn`); empty when all were enrolled."""
    crops: np.ndarray | None = None
    """``(N, CROP_PX, CROP_PX, 3)`` uint8: the crops the maps and vectors were made from,
    saved with them, so that a profile is made again from its crops when the reader's ink
    maps or embedding change (:meth:`load`) instead of being enrolled again."""
    _templates: np.ndarray = field(init=False, repr=False, compare=False)
    _directions: np.ndarray | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if len(self.vectors) != len(self.maps) * ENROLL_TURNS or len(self.owners) != len(self.maps):
            raise EnrollmentError(f"profile {self.name!r}: its parts do not match in length")
        if not self.sources:
            object.__setattr__(self, "sources", ("",) * len(self.maps))
        elif len(self.sources) != len(self.maps):
            raise EnrollmentError(f"profile {self.name!r}: its parts do not match in length")
        if self.crops is not None and (self.crops.shape != (len(self.maps), CROP_PX, CROP_PX, 3)
                                       or self.crops.dtype != np.uint8):
            raise EnrollmentError(f"profile {self.name!r}: its crops do not match its maps")
        # every map at every shift, as the polar spectra the reader compares at every turn
        object.__setattr__(self, "_templates", templates.spectra(self.maps))
        object.__setattr__(self, "_directions", self._own_directions())

    def _own_directions(self) -> np.ndarray | None:
        """Each face's :func:`vision.smear.own_direction`, from its crops; a face without
        crops as the most of the others'. None for a profile that kept no crops."""
        if self.crops is None:
            return None
        own = np.array([own_direction(self.crops[self.owners == i]) if np.any(self.owners == i)
                        else np.nan for i in range(len(self.labels))])
        if np.isnan(own).all():
            return None
        return np.where(np.isnan(own), np.nanmax(own), own)

    @property
    def directions(self) -> np.ndarray | None:
        """``(faces,)``: how one-directional each face's own marks are
        (:func:`vision.smear.own_direction` of its crops), for the reader's smear check
        (:func:`vision.smear.smear_from`); None when the profile kept no crops (saved before
        profiles did), whose dice are then not checked for a smear."""
        return self._directions

    def directions_of(self, faces: Sequence[str]) -> list[float] | None:
        """:attr:`directions` of dice read as ``faces``; a die read as none of them
        (unread) as the most directed face, for it may be any. None as :attr:`directions`."""
        if self._directions is None:
            return None
        index = {label: i for i, label in enumerate(self.labels)}
        most = float(self._directions.max())
        return [float(self._directions[index[f]]) if f in index else most for f in faces]

    @classmethod
    def from_crops(
        cls, name: str, die: str, crops: Mapping[str, Sequence[np.ndarray]],
        *, as_read: bool = False,
    ) -> Profile:
        """Build a profile from BGR crops of single dice, grouped by face label. Each crop
        is cut again about the die found in it (:func:`reframe`), unless ``as_read``: the
        crops are the reader's own (dice named at the table), already cut as the dice it
        will read are, and kept as they are (on a dark floor the body detector boxes a black
        die more tightly than the pip-dice detector that :func:`reframe` uses; cut again,
        its crops were framed more loosely than the dice read, and a large star read as a
        ship's wheel: ``docs/vision.md``, *Which tray floor*)."""
        check_name(name, "profile")
        labels = tuple(label for label, items in crops.items() if len(items))
        if len(labels) < 2:
            raise EnrollmentError(
                f"a profile needs crops of at least two faces (got {', '.join(labels) or 'none'})"
            )
        cut = np.stack([crop_px(c if as_read else reframe(c))
                        for label in labels for c in crops[label]])
        owners = np.array([i for i, label in enumerate(labels) for _ in crops[label]], np.int32)
        maps, vectors = maps_and_vectors(cut)
        return cls(name, die, labels, maps, vectors, owners, MIN_SIMILARITY, MIN_MARGIN,
                   crops=cut)


    def only(self, rows: Sequence[int]) -> Profile:
        """This profile with only these of its crops (in this order; every face it names
        is kept, with or without crops), its lead following what they have learned."""
        keep = np.asarray(rows, np.int64)
        owners = self.owners[keep]
        sources = tuple(self.sources[i] for i in keep)
        vectors = self.vectors.reshape(len(self.maps), ENROLL_TURNS, -1)[keep]
        return Profile(self.name, self.die, self.labels, self.maps[keep],
                       vectors.reshape(-1, self.vectors.shape[1]), owners, self.min_similarity,
                       margin_for(*learned_range(owners, sources, len(self.labels))), sources,
                       None if self.crops is None else self.crops[keep])

    def first(self, per_face: int) -> Profile:
        """This profile with only the first ``per_face`` crops of each face."""
        return self.only([i for i, o in enumerate(self.owners)
                          if np.count_nonzero(self.owners[:i] == o) < per_face])

    def summary(self) -> dict[str, Any]:
        """What ``tableside profiles`` and the host's page show of it: per face, its
        enrolled and learned crops; the reads it learned from (:meth:`learned_from`)."""
        learned = self.owners[np.array([bool(s) for s in self.sources], bool)]
        enrolled = self.owners[np.array([not s for s in self.sources], bool)]
        return {"name": self.name, "die": self.die,
                "faces": [{"face": label, "enrolled": int(np.count_nonzero(enrolled == i)),
                           "learned": int(np.count_nonzero(learned == i))}
                          for i, label in enumerate(self.labels)],
                "learned_from": self.learned_from()}

    def learned_from(self) -> dict[str, int]:
        """The reads this profile learned dice from, with how many dice each (a learned
        crop's source is ``<read id>:<die>``), oldest first."""
        counts: dict[str, int] = {}
        for source in self.sources:
            if source:
                read = source.rsplit(":", 1)[0]
                counts[read] = counts.get(read, 0) + 1
        return counts

    def forget(self, reads: Collection[str] | None = None) -> Profile:
        """This profile without the dice it learned from ``reads`` (read ids), or without
        every die it learned (None); its enrolled crops stay, and its lead follows what it
        keeps (:func:`margin_for`). :class:`EnrollmentError` when it learned nothing from
        one of ``reads``, or nothing at all."""
        lessons = self.learned_from()
        unknown = [r for r in reads or () if r not in lessons]
        if unknown:
            raise EnrollmentError(f"profile {self.name!r} learned nothing from read "
                                  f"{', '.join(unknown)}")
        if not lessons:
            raise EnrollmentError(f"profile {self.name!r} has learned nothing at the table")
        return self.only([i for i, source in enumerate(self.sources)
                          if not source or (reads is not None
                                            and source.rsplit(":", 1)[0] not in reads)])

    def learn(self, dice: Sequence[tuple[str, np.ndarray, str]]) -> Profile:
        """This profile with dice the table has confirmed added: ``(face, crop, source)``,
        the crop as the reader cut it and ``source`` naming the die (a read and its
        number). A die learned before from the same source is replaced (a face corrected
        twice counts once, as last said). Enrolled crops are always kept; beyond
        :data:`LEARNED_PER_FACE` learned crops of a face, the oldest make room. The lead
        a read needs follows the learned crops per face (:func:`margin_for`)."""
        for face, c, source in dice:
            if face not in self.labels:
                raise EnrollmentError(
                    f"{face!r} is not a face of profile {self.name!r} ({', '.join(self.labels)})")
            if not source:
                raise EnrollmentError("a learned die needs its source (read and die)")
            if c.ndim != 3 or c.shape[2] != 3 or min(c.shape[:2]) < 8:
                raise EnrollmentError(f"{source}: not a colour crop of a die")
        new_sources = {source for _, _, source in dice}
        keep = [i for i, src in enumerate(self.sources) if src not in new_sources]
        owners = [int(self.owners[i]) for i in keep]
        sources = [self.sources[i] for i in keep]
        maps = [self.maps[i] for i in keep]
        vectors = [self.vectors[i * ENROLL_TURNS:(i + 1) * ENROLL_TURNS] for i in keep]
        pictures = None if self.crops is None else [self.crops[i] for i in keep]
        cut = [crop_px(c) for _, c, _ in dice]
        new_maps, new_vectors = maps_and_vectors(cut)
        for k, (face, _, source) in enumerate(dice):
            owners.append(self.labels.index(face))
            sources.append(source)
            maps.append(new_maps[k])
            vectors.append(new_vectors[k * ENROLL_TURNS:(k + 1) * ENROLL_TURNS])
            if pictures is not None:
                pictures.append(cut[k])
        # per face, drop the oldest learned crops beyond the cap (enrolled ones stay)
        drop: set[int] = set()
        for f in range(len(self.labels)):
            learned = [i for i, o in enumerate(owners) if o == f and sources[i]]
            drop.update(learned[: max(0, len(learned) - LEARNED_PER_FACE)])
        kept = [i for i in range(len(owners)) if i not in drop]
        owners_kept = np.array([owners[i] for i in kept], np.int32)
        sources_kept = tuple(sources[i] for i in kept)
        return Profile(
            self.name, self.die, self.labels, np.stack([maps[i] for i in kept]),
            np.concatenate([vectors[i] for i in kept]), owners_kept, self.min_similarity,
            margin_for(*learned_range(owners_kept, sources_kept, len(self.labels))),
            sources_kept, None if pictures is None else np.stack([pictures[i] for i in kept]))

    def likeness_parts(self, crops: Sequence[np.ndarray],
                       wides: Sequence[np.ndarray] | None = None,
                       ) -> tuple[np.ndarray, np.ndarray]:
        """Two ``(N, M)`` arrays: each crop's ink-template similarity to each of the M
        profile crops (at its best turn, shift and zoom) and its embedding similarity (at
        the profile crop's best turn). With ``wides`` (the same dice cut with the reader's
        wider margin, :data:`vision.crops.WIDE_MARGIN`), the ink similarity is the better
        of the crop's and its wide crop's: a box that cuts marks off, or frames the die
        loosely, loses less (ninth session: *Custom faces* in ``docs/vision.md``)."""
        return self._read(crops, wides).parts

    def _read(self, crops: Sequence[np.ndarray],
              wides: Sequence[np.ndarray] | None = None) -> _Likeness:
        _check_wides(crops, wides)
        n = len(crops)
        both = templates.queries([*crops, *(() if wides is None else wides)])
        ink = templates.best_similarities(both, self._templates)
        if len(both) > n:
            ink = np.maximum(ink[:n], ink[n:])
        vectors = default_embedder().embed(crops)
        sims = (vectors @ self.vectors.T).reshape(n, len(self.maps), ENROLL_TURNS).max(axis=2)
        return _Likeness((ink, sims), both.take(range(n)), vectors)

    def other_body_likeness(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        """``(N, M)``: each crop's ink-template similarity to each profile crop with its
        ink map made about the body's other colour (:data:`OTHER_BODY_LOOK`)."""
        if not len(crops):
            return np.zeros((0, len(self.maps)), np.float32)
        return templates.best_similarities(templates.queries(crops, other_body=True),
                                           self._templates)

    def crop_scores(self, crops: Sequence[np.ndarray],
                    wides: Sequence[np.ndarray] | None = None) -> np.ndarray:
        """``(N, M)``: each crop's likeness to each of the M profile crops, its two
        :meth:`likeness_parts` mixed by :data:`TEMPLATE_WEIGHT`."""
        return _mixed(*self.likeness_parts(crops, wides))

    def scores(self, crops: Sequence[np.ndarray],
               wides: Sequence[np.ndarray] | None = None) -> np.ndarray:
        """``(N, len(labels))``: each crop's score for each face, its best likeness to
        that face's crops (:meth:`crop_scores`)."""
        if not len(crops):
            return np.zeros((0, len(self.labels)), np.float32)
        return face_scores(self.crop_scores(crops, wides), self.owners, len(self.labels))

    def classify(self, crop_bgr: np.ndarray) -> FaceGuess:
        """The enrolled face most like this crop, with a confidence and an uncertain flag
        (the reader reads with :meth:`classify_many` and each die's wider crop too)."""
        return self.classify_many([crop_bgr])[0]

    @one_thread  # a frame's matrix products are small: threads cost more than they give
    def classify_many(self, crops: Sequence[np.ndarray],
                      wides: Sequence[np.ndarray] | None = None,
                      neighbours: bool = False) -> list[FaceGuess]:
        """:meth:`classify` of several crops (one forward pass, one matrix product). A die
        the profile is not clearly sure of (a lead under :data:`WIDE_LOOK_LEAD` times the
        lead needed) is read again, with ``wides`` (each die cut wider), with the ink
        similarity the better of its crop's and its wide crop's (only those dice's wide
        crops are looked at: a sequence that cuts them on demand saves the others); a die
        still unsure, with its crop's about the body's other colour as well
        (:data:`OTHER_BODY_LOOK`).
        With ``neighbours`` the crops are the dice of one frame, and a die still unsure is
        read again with the frame's sure dice as templates too (:mod:`vision.neighbours`);
        the reader reads so."""
        if not len(crops):
            return []
        _check_wides(crops, wides)
        read = self._read(crops)
        ink, embedded = read.parts
        rows = face_scores(_mixed(ink, embedded), self.owners, len(self.labels))
        guesses = self.guesses(rows)
        looked = np.array([i for i, g in enumerate(guesses) if g.uncertain or g.margin
                           < WIDE_LOOK_LEAD * lead_needed(self.min_margin, g.similarity)],
                          np.int64)
        wide = None  # the wide crops' queries, of the dice in ``looked`` (in that order)
        wider = ink[looked]
        if wides is not None and len(looked):
            wide = templates.queries([wides[i] for i in looked])
            wider = np.maximum(wider, templates.best_similarities(wide, self._templates))
            rows[looked] = face_scores(_mixed(wider, embedded[looked]), self.owners,
                                       len(self.labels))
            for i, guess in zip(looked, self.guesses(rows[looked]), strict=True):
                guesses[i] = guess
        unsure = np.array([i for i, g in enumerate(guesses) if g.uncertain], np.int64)
        if OTHER_BODY_LOOK and len(unsure):  # every unsure die was looked at
            other = np.maximum(wider[np.searchsorted(looked, unsure)],
                               self.other_body_likeness([crops[i] for i in unsure]))
            rows[unsure] = face_scores(_mixed(other, embedded[unsure]), self.owners,
                                       len(self.labels))
            for i, guess in zip(unsure, self.guesses(rows[unsure]), strict=True):
                guesses[i] = guess
        embedded_rows = face_scores(embedded, self.owners, len(self.labels))
        self._vetoed(guesses, embedded_rows)
        unsure = np.array([i for i, g in enumerate(guesses) if g.uncertain], np.int64)
        sure = np.array([i for i, g in enumerate(guesses) if not g.uncertain], np.int64)
        if neighbours and len(unsure) and len(sure):
            unsure_wides = None
            if wide is not None and np.isin(unsure, looked).all():  # all looked at wide
                unsure_wides = wide.take(np.searchsorted(looked, unsure).tolist())
            elif wides is not None:  # a die vetoed (EMBED_VETO) was clearly sure by its crop
                unsure_wides = templates.queries([wides[i] for i in unsure])
            beside = vision_neighbours.likeness(read.dice, read.vectors, unsure, sure,
                                                TEMPLATE_WEIGHT, unsure_wides)
            better = face_scores(beside, rows[sure].argmax(axis=1), len(self.labels))
            again = self.guesses(np.maximum(rows[unsure], better))
            self._vetoed(again, embedded_rows[unsure])
            for i, guess in zip(unsure, again, strict=True):
                if not guess.uncertain:  # only a die the frame makes sure is read again
                    guesses[i] = guess
        return self._few_crops_unsure(guesses)

    def _few_crops_unsure(self, guesses: list[FaceGuess]) -> list[FaceGuess]:
        """``guesses`` with each die read sure as a face of fewer than
        :data:`SURE_FROM_CROPS` crops marked uncertain."""
        held = np.bincount(self.owners, minlength=len(self.labels))
        few = {label for label, n in zip(self.labels, held, strict=True)
               if n < SURE_FROM_CROPS}
        if not few:
            return guesses
        return [replace(g, uncertain=True, confidence=min(g.confidence, 0.5))
                if not g.uncertain and g.face in few else g for g in guesses]

    def _vetoed(self, guesses: list[FaceGuess], embedded_rows: np.ndarray) -> None:
        """Mark uncertain, in place, each sure guess whose embedding scores
        (``embedded_rows``, a row a guess) put another face ahead of it by
        :data:`EMBED_VETO` or more."""
        if EMBED_VETO is None:
            return
        for i, guess in enumerate(guesses):
            if guess.uncertain:
                continue
            row = embedded_rows[i]
            if row.max() - row[self.labels.index(guess.face)] >= EMBED_VETO:
                guesses[i] = replace(guess, uncertain=True,
                                     confidence=min(guess.confidence, 0.5))

    def guesses(self, rows: np.ndarray) -> list[FaceGuess]:
        """Each die's read from its score for each face (a row each, as :meth:`scores`
        gives them), by the lead rule (all the rows at once: a frame's dice in a few array
        operations)."""
        order = np.argsort(-rows, axis=1)
        rows = rows.astype(np.float64)
        every = np.arange(len(rows))
        top = rows[every, order[:, 0]]
        second = rows[every, order[:, 1]] if rows.shape[1] > 1 else np.full(len(rows), -1.0)
        margin = top - second
        needed = lead_needed(self.min_margin, top)
        confidence = np.clip(top, 0, 1) * np.minimum(1.0, margin / (2 * needed))
        uncertain = (top < self.min_similarity) | (margin < needed)
        return [FaceGuess(self.labels[order[i, 0]], round(float(confidence[i]), 3),
                          bool(uncertain[i]), float(top[i]), float(margin[i]))
                for i in every]

    def save(self, directory: Path | None = None) -> Path:
        """Write the profile as ``<name>.npz`` in ``directory`` (default: the data dir)."""
        meta = {"name": self.name, "die": self.die, "labels": list(self.labels),
                "min_similarity": self.min_similarity, "min_margin": self.min_margin}
        arrays = {"maps": self.maps.astype(np.float16),
                  "vectors": self.vectors.astype(np.float16), "owners": self.owners,
                  "sources": np.array(self.sources, dtype=str)}
        if self.crops is not None:
            arrays["crops"] = self.crops
        return profilefile.write(profile_path(self.name, directory), meta, arrays)

    @classmethod
    def forget_saved(cls, name_or_path: str, reads: Collection[str] | None = None,
                     directory: Path | None = None) -> tuple[Profile, Profile, Path | None]:
        """A saved profile (as :meth:`load` finds it) without the lessons :meth:`forget`
        drops, saved over its file after a copy of it is kept
        (:func:`vision.profilefile.keep_previous`): (the profile before, after, the copy)."""
        path = profile_path(name_or_path, directory)
        before = cls.load(name_or_path, directory)
        after = replace(before.forget(reads), name=path.stem)  # saved as the file it was
        copy = profilefile.keep_previous(path)
        after.save(path.parent)
        return before, after, copy

    @classmethod
    def load(cls, name_or_path: str, directory: Path | None = None) -> Profile:
        """Load a profile by name (from the data dir) or from an ``.npz`` path
        (:func:`vision.profilefile.read`)."""
        parts = profilefile.read(profile_path(name_or_path, directory), name_or_path)
        # the lead follows the profile's learned crops, as the reader now compares them
        # (a profile saved under an earlier rule keeps its crops, not its old lead)
        margin = margin_for(*learned_range(parts["owners"], parts["sources"],
                                           len(parts["labels"])))
        return cls(**parts, min_margin=margin)
