"""How the d6 face networks' probabilities become reads.

A frame's pip dice are read by one set of networks (:class:`PipNets`: a detector, the face
network and its quick first look; the packaged set for light floors or the one trained on
darker floors, chosen by :class:`vision.reader.DiceReader`). This module holds what each
set does with a frame's crops, in order (:meth:`PipNets.read`):

1. the quick first look reads every crop, and the face network the crops it is not sure of
   (:data:`QUICK_SURE`);
2. a candidate likely to be no die, or like no face, is dropped (:data:`NET_NOT_A_DIE`,
   :data:`NET_MIN_FACE`);
3. a die read under :data:`NET_UNCERTAIN_BELOW` is uncertain; one read confidently but not
   very (:data:`NET_CHECK_BELOW`) is read again turned and mirrored (:data:`NET_VIEWS`,
   :data:`NET_VIEWS_MEAN`);
4. a die still uncertain is read once more from a wider crop (:data:`NET_WIDE_MEAN`);
5. the dark-floor set marks uncertain any sure read under its own floor
   (:data:`DARK_SURE_FROM`).

The thresholds were placed on out-of-fold reads of the train photos (test not read); each
one's docstring keeps the table it was placed by.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from vision.crops import WIDE_MARGIN, crop
from vision.dicefinder import DiceFinder, dark_dice_finder, dark_wide_dice_finder
from vision.facenet import CLASSES, NOT_A_DIE, FaceNet, dark_face_net, dark_quick_net
from vision.reading import Box

Read = tuple[str, float, bool]
"""A die's face, confidence and whether it is uncertain."""

NET_NOT_A_DIE = 0.3
"""A candidate the face network takes for no die with at least this probability is dropped
(chosen on train/val candidates: 0.3 rather than 0.5 dropped some false detections and
no found die)."""

NET_MIN_FACE = 0.2
"""A candidate whose likeliest face has a lower probability is dropped: nothing in it looks
like a face (with NET_NOT_A_DIE, chosen on train/val candidates: it dropped false
detections, no found die)."""

NET_UNCERTAIN_BELOW = 0.5
"""A face-network read whose top probability is lower is marked uncertain: the face must be
likelier than all the others together. Alone it let confident mistakes through (0.49% of
the out-of-fold train dice); dice above it are checked further (NET_VIEWS)."""

NET_VIEWS = 8
"""A die the face network reads with a top probability from NET_UNCERTAIN_BELOW to
NET_CHECK_BELOW is read again in this many views (:meth:`vision.facenet.FaceNet.
view_probabilities`: 8 is the crop at every quarter turn and the same mirrored; all such
dice of a frame in one batched pass): it is uncertain unless its face's mean probability
over the views is at least NET_VIEWS_MEAN. A d6 face reads the same turned and mirrored,
so views that read it otherwise pull the mean down where the crop's own probability does
not (translucent dice, whose hidden pips show through, and crops holding part of a second
die were read wrong at 0.5-0.8)."""

NET_CHECK_BELOW = 0.85
"""Dice read with at least this probability are not looked at again (most dice: the
check costs a few percent of the face network's time, not eight times it)."""

NET_VIEWS_MEAN = 0.5
"""A die looked at again is uncertain when its face's mean probability over the views is
lower: the face must stay likelier than all the others together once the crop is turned
and mirrored. Chosen on out-of-fold reads of the train photos (``vision/training/
calibrate_faces.py``: fold networks each trained without a third of the train photos, by
the packaged recipe, ``train_pips --val-too --zoom 0.7 1.35``, seeds 6 and 7, 2,883 found
dice whose labels are right; test not read), with the wider second look at 0.8, as it
was then (NET_WIDE_MEAN, placed after this):

  rule (floor / check below / views / mean)        read sure   silent errors   uncertain
  0.5 / 0.85 / 8 views / 0.65 (before)              99.13%       3 (0.10%)        22
  0.5 / 0.85 / 8 views / 0.55                       99.45%       3                13
  0.5 / 0.85 / 8 views / 0.5 (kept)                 99.51%       3                11
  0.5 / 0.85 / 8 views / 0.4                        99.58%       3                 9
  top >= 0.5 alone, no views                        99.58%       5 (0.17%)         7

Seed 6 alone 99.58% (1 silent), seed 7 99.45% (2); with the second look at 0.65, 99.69%
pooled and the same 3. The 3 silent errors hold from a mean
of 0.4 to 0.7 and with the check up to 0.95: they are read firmly in every view (a 2
crossed by a glint read as 3, a 3 read as 2). Below 0.5 the mean would let a face that
is not the likelier half of the views through, for one or two dice in 2,883. The 9 other
"errors" the networks made confidently are label mistakes in the data set (checked by
eye: :data:`vision.training.label_errors.LABEL_ERRORS`). Before the eleventh session, with
the networks of the earlier recipe (zoom 0.85-1.2, val not learned from), 0.65 was kept
(98.06% read over two seeds, 3 silent errors); how each rule was reached is in
``docs/vision-history.md``."""

NET_WIDE_MEAN = 0.65
"""A die the rule above leaves uncertain is looked at once more, cut with a wider margin
(:data:`vision.crops.WIDE_MARGIN`) and read in NET_VIEWS views: it is read as that crop's
likeliest face, sure, when the face's mean probability over the views is at least this.
The detector's box is sometimes too tight for a large die, or off its centre beside a
neighbour, so that the usual crop cuts pips off or holds part of the neighbour; the wider
crop shows the whole die (sixth session). Placed again in the eleventh session on the
out-of-fold reads of four sets of fold networks (the packaged recipe, seeds 6 and 7; the
tenth session's, and it learning from val too, seed 6: 5,766 reads; ``calibrate_faces``;
test not read), with the views' mean at 0.5. Of the 34 dice the four sets left uncertain,
the wider crop read wrongly at most at 0.53 and rightly from 0.51 up:

  second look at    read sure, the packaged recipe's seeds 6 / 7      silent errors
  0.8 (before)      99.58 / 99.45%                                      1 / 2
  0.65 (kept)       99.86 / 99.51%                                      1 / 2
  0.6               99.86 / 99.65%                                      1 / 2
  0.5               99.86 / 99.72%                                      1 / 2; the
                                                                        others' +1 each

0.65 keeps a margin above the highest wrong read (0.53), as the sixth session's networks
read a die wrongly at 0.76 (a 4 as a 6; 0.8 was kept then). The wide crop alone reads
fewer dice (96-97%): the network was trained on the usual framing, so it is only a second
look.

Checked again for the forty-ninth session's recipe, which also learns a worse camera's
blur, smears and compression (``train_pips --degrade 0.1 --epochs 60``; seed 6's fold
networks, 1,443 dice): the rule with the second look anywhere from 0.55 to 0.8 reads
99.38% sure, 1 silent error (0.07%, as the recipe before), 0.55% uncertain; 0.5 reads
one die more, so the rule stands as it was."""

QUICK_SURE = 0.93
"""A die the quick first look (:data:`vision.facenet.QUICK_MODEL_PATH`, half the face
network's cost) reads with at least this probability is read as it says, sure, and the
face network is run only for the other dice (about one in eight). It must be at least
NET_CHECK_BELOW, so that a die the quick look reads is never one the view check would
look at again. Placed by ``calibrate_faces --quick-models`` on the out-of-fold dice of
two seeds' fold networks of the packaged recipe (``--degrade 0.1 --epochs 60``), each
fold's quick look taught by that fold's face network (1,443 dice a seed; test not read):

  quick look at   read by it, seed 6 / 7   read otherwise than by the face network alone
  0.95            76.8 / 77.6%             0 / 0
  0.93 (kept)     85.4 / 87.5%             0 / 0
  0.9             91.3 / 92.9%             0 / 1
  0.85            95.8 / 96.3%             1 / 1

Each die read otherwise is a silent error more (the face network leaves it uncertain).
0.9 was kept from the twelfth to the fifty-first session, on seed 6 alone; seed 7's
quick look reads one die otherwise there, which puts the two seeds pooled at 0.10%
silent, on the target's line. From 0.93 neither seed reads any die otherwise, for about
six dice in a hundred more through the face network (fifty-second session). The
dark-floor set (seed 6, 1,443 dice as shot): 0.93 reads 87.5%, none otherwise; 0.9
92.3%, none; 0.85 95.6%, one otherwise. On the fiftieth session's dark frames
(``calibrate_dark --quick-models``, greys of 100, 72 and 40) the quick look first at 0.9
already left every die read as the face network alone reads it, and a higher threshold
hands the face network only more dice."""

NEVER = 1.1
"""A probability threshold no probability reaches."""

DARK_QUICK_NONE = 0.5
"""On a frame read by the dark-floor networks, a candidate their quick first look takes
for no die with at least this probability (likelier no die than any face) is dropped
without the face network, which would drop it too. A dark floor shows the detector more
candidates than a light one (the walls' printed dice among them; 29 a frame against 22 on
the speed benchmark's frames repainted a grey of 72), and its quick look is sure of fewer
dice, so the face network read 217 crops of those 20 frames against 58; the quick look
took 65 of them for no die at 0.9. Placed (thirty-first session) on the dark set's
out-of-fold reads, each fold's quick look taught by its face network (``calibrate_dark
--quick-models``; 4,338 dice at greys of 100, 72 and 40): at 0.9, 0.7 and 0.5 every die is
found and read exactly as with none dropped, and so are the sure boxes on no die. The same
20 frames' CPU time, interleaved in one process, 6 rounds: 24.4 ms a frame with none
dropped, 23.3 at 0.9, 22.4 at 0.7, 22.0 at 0.5. Checked again on the fiftieth session's
dark pair (``--degrade 0.1 --epochs 60``; 1,458 dice a grey, at ``DARK_SURE_FROM`` 0.8):
at 0.9, 0.7 and 0.5 every die found and read as with none dropped (found / sure and right
/ wrong and sure / sure boxes on no die 1446 / 1420 / 0 / 5 at 100, 1442 / 1404 / 1 / 5 at
72, 1445 / 1389 / 1 / 5 at 40). The light-floor set drops none this way: its quick look
takes 21 of 434 candidates of the frames as shot for no die, and its fold networks were
not kept to place it."""

DARK_SURE_FROM = 0.8
"""On a frame read by the dark-floor networks (:data:`vision.reader.DARK_NETS_BELOW`), a
die read sure with a lower confidence (its probability, its views' mean or its wider
crop's, whichever the rule above read it by) is marked uncertain. Those networks' silent
errors on dark floors are mostly such middling reads, where the light-floor set's, on
light floors, are firm ones no threshold catches. Placed as the least threshold leaving at
most 0.1% of dice wrong and sure at every floor level, on the out-of-fold reads of the
dark set's seed-6 fold networks with the dark detector (``calibrate_dark``): the train
photos each fold network did not learn, their floor repainted a flat grey (1,433 dice
whose labels are right; test not read). Read sure and right / wrong and sure / sure boxes
on no die, for the networks packaged since the fiftieth session (``--degrade 0.1 --epochs
60``):

  floor grey     100                85                 72                 55                 40
  none          99.93% 2 6      99.58% 3 7      99.44% 3 11     99.58% 3 24     99.02% 7 21
  0.75          99.37% 0 5      98.81% 0 5      98.60% 1 5      98.46% 1 6      97.63% 2 7
  0.8 (kept)    99.09% 0 5      98.53% 0 5      97.98% 1 5      97.84% 1 6      96.93% 1 5
  0.85          98.53% 0 4      98.12% 0 4      97.49% 1 4      97.42% 1 6      96.16% 1 4

It costs about one to two points of sure reads, left to the table to confirm, and takes away
most sure boxes on no die as well (dice printed on the tray's walls). The networks before
(no worse-camera draws) kept 0.75, at which they read 99.16 / 98.88 / 98.60 / 98.05 /
97.84% sure with 0 / 0 / 1 / 1 / 1 silent errors; the new ones at 0.8 are that within
0.1-0.9 points with the same silent errors, and under a worse camera give well under half
the sure wrong faces even read out of fold against the old ones in-sample (64 against 148
over five faults at three greys, ``calibrate_dark --degrade``; docs/vision.md, *What a
worse camera costs*). The light-floor set's frames are not touched.

A second seed's fold networks (7; fifty-first session) read it less well: 99.16 / 98.67 /
98.19 / 98.05 / 96.86% sure with 1 / 2 / 2 / 3 / 2 silent errors (two dice, each on
nearly every grey), so pooled with seed 6, 0.03-0.14% a grey and 0.09% over all five;
only 0.9 keeps every grey at 0.1% pooled, at 4-5 points fewer dice read sure, and 0.8
was kept (docs/vision-history.md, *The rules on a second seed*)."""


@dataclass(frozen=True)
class PipNets:
    """The networks that read one frame's pip dice, and the set's own thresholds."""

    finder: DiceFinder
    face: FaceNet
    quick: FaceNet | None
    none_from: float
    """A candidate the quick look takes for no die with at least this probability is
    dropped without the face network (NEVER: none is)."""
    sure_from: float = 0.0
    """A die these networks read sure with a lower confidence is marked uncertain
    (:data:`DARK_SURE_FROM` for the dark-floor set; the light-floor set's rule needs none)."""
    second_look: bool = True
    """False reads no uncertain die again from its wider crop (for comparison)."""

    def read(self, crops: list[np.ndarray], image: np.ndarray, boxes: Sequence[Box]
             ) -> list[Read | None]:
        """The read of each crop (None: no die), ``boxes`` being the boxes in ``image`` the
        crops were cut about (a die left uncertain is cut wider from it)."""
        probs = self.probabilities(crops)
        checks = self.check_views(probs, crops)
        reads = [net_read(p, checks.get(i)) for i, p in enumerate(probs)]
        if self.second_look:
            for i, wide in self.wide_views(reads, image, boxes).items():
                reads[i] = second_look(reads[i], wide)
        return [(r[0], r[1], True) if r is not None and not r[2] and r[1] < self.sure_from
                else r for r in reads]

    def probabilities(self, crops: list[np.ndarray]) -> np.ndarray:
        """``(N, classes)`` probabilities of the crops: the quick first look's for the dice
        it reads at QUICK_SURE or more, the face network's for the others (each network
        one pass over its dice)."""
        if self.quick is None or not crops:
            return self.face.probabilities(crops)
        probs = self.quick.probabilities(crops)
        rest = np.flatnonzero((probs[:, : len(CLASSES) - 1].max(axis=1) < QUICK_SURE)
                              & (probs[:, CLASSES.index(NOT_A_DIE)] < self.none_from))
        if len(rest):
            probs[rest] = self.face.probabilities([crops[i] for i in rest])
        return probs

    def check_views(self, probs: np.ndarray, crops: list[np.ndarray]) -> dict[int, np.ndarray]:
        """The view probabilities (``(NET_VIEWS, classes)``) of the dice that would be read
        confidently but not very, by index; all of them in one forward pass."""
        faces = probs[:, : len(CLASSES) - 1]
        top = faces.max(axis=1) if len(probs) else np.zeros(0)
        idx = [int(i) for i in np.flatnonzero(
            (top >= NET_UNCERTAIN_BELOW) & (top < NET_CHECK_BELOW)
            & (probs[:, CLASSES.index(NOT_A_DIE)] < NET_NOT_A_DIE))]
        if not idx:
            return {}
        turned = self.face.view_probabilities([crops[i] for i in idx], NET_VIEWS, first=1)
        views = np.concatenate([probs[idx][:, None], turned], axis=1)
        return dict(zip(idx, views, strict=True))

    def wide_views(self, reads: Sequence[Read | None], image: np.ndarray,
                   boxes: Sequence[Box]) -> dict[int, np.ndarray]:
        """The view probabilities (``(NET_VIEWS, classes)``) of a wider crop
        (:data:`vision.crops.WIDE_MARGIN`) of each die read uncertain, by index; all of
        them in one forward pass."""
        idx = [i for i, r in enumerate(reads) if r is not None and r[2]]
        if not idx:
            return {}
        wide = [crop(image, boxes[i], margin=WIDE_MARGIN) for i in idx]
        views = self.face.view_probabilities(wide, NET_VIEWS)
        return dict(zip(idx, views, strict=True))


def dark_floor_nets(wide_lens: bool, quick: bool, quick_none: float | None = None) -> PipNets:
    """The packaged set trained on darker floors: its detector (the one that learned dice
    seen from the side too with ``wide_lens``), face network, quick look (none without
    ``quick``), :data:`DARK_QUICK_NONE` (or ``quick_none``) and :data:`DARK_SURE_FROM`."""
    return PipNets(dark_wide_dice_finder() if wide_lens else dark_dice_finder(),
                   dark_face_net(), dark_quick_net() if quick else None,
                   DARK_QUICK_NONE if quick_none is None else quick_none, DARK_SURE_FROM)


def net_read(p: np.ndarray, views: np.ndarray | None = None) -> Read | None:
    """A die's read from its class probabilities ``p`` (None: no die), and from its views'
    (``(NET_VIEWS, classes)``) when it was read again turned and mirrored."""
    if p[CLASSES.index(NOT_A_DIE)] >= NET_NOT_A_DIE:
        return None
    face = int(np.argmax(p[: len(CLASSES) - 1]))
    confidence = float(p[face])
    if confidence < NET_MIN_FACE:
        return None
    uncertain = confidence < NET_UNCERTAIN_BELOW
    if views is not None:
        # read again turned and mirrored: the face must stay likely in every view
        confidence = float(views[:, face].mean())
        uncertain = confidence < NET_VIEWS_MEAN
    return CLASSES[face], confidence, uncertain


def second_look(read: Read | None, wide: np.ndarray) -> Read | None:
    """An uncertain read made sure by its wider crop's views (``(NET_VIEWS, classes)``)
    when they read one face firmly enough (NET_WIDE_MEAN); any other read as it is. A crop
    too tight or off centre may cut pips off."""
    if read is None or not read[2]:
        return read
    mean = wide[:, : len(CLASSES) - 1].mean(axis=0)
    if mean.max() >= NET_WIDE_MEAN:
        return CLASSES[int(np.argmax(mean))], float(mean.max()), False
    return read
