"""Reading a die the profile is unsure of by the sure dice beside it.

The dice of one frame lie under the same light, seen by the same camera from the same
height, and at a table they are often the same kind of die (SeaFall's 15 dice are all
alike). So once a profile has read a frame, each die it read *sure* also serves as a
template of the face it was read as, for the dice of the same frame it was unsure of: an
unsure die's score for a face becomes the better of its profile score and its best
likeness to a sure die read as that face, and the profile's own lead rule is applied
again (:meth:`vision.enrollment.Profile.classify_many`). A sure read is never changed,
and nothing is remembered from one frame to the next: the same frame reads the same.

The likeness is the profile's own (:data:`vision.enrollment.TEMPLATE_WEIGHT` of ink
similarity, the better of the die's crop and its wider crop, and the rest embedding
similarity), except that the embedding is compared at the sure die's own turn only,
not at twelve: the vectors are those the read has already made (at twelve turns, 0.3
point more of train, for about 10 ms a frame).

Measured in the fourteenth session over the 16 enrollments of 5 crops per face
(``calibrate_enrolled``; train outside the enrolled photos, and val; test not read), at
the profile's own margin: 83.0% of train and 83.2% of val read sure and right against
81.2% and 81.4%, with no die more read silently wrong (0.14% and 0.12%); every learning
stage's margin holds. It costs about 2 ms a frame (the sure dice's maps laid out at every
shift). The settings tried around it: ``docs/vision-history.md``.
"""

from __future__ import annotations

import numpy as np

from vision import templates


def likeness(dice: templates.Queries, vectors: np.ndarray, unsure: np.ndarray,
             sure: np.ndarray, weight: float, wides: templates.Queries | None = None,
             ) -> np.ndarray:
    """``(len(unsure), len(sure))``: the likeness of each unsure die to each sure die of
    the same frame, as a profile crop's likeness is made: ``weight`` of their ink
    similarity and the rest of their embedding similarity (:func:`likeness_parts`)."""
    ink, embedded = likeness_parts(dice, vectors, unsure, sure, wides)
    return (weight * ink + (1 - weight) * embedded).astype(np.float32)


def likeness_parts(dice: templates.Queries, vectors: np.ndarray, unsure: np.ndarray,
                   sure: np.ndarray, wides: templates.Queries | None = None,
                   ) -> tuple[np.ndarray, np.ndarray]:
    """Two ``(len(unsure), len(sure))`` arrays: the ink similarity of each unsure die to
    each sure die (the unsure die's map at every turn, shift and zoom against the sure
    die's map; the better of its crop and its wider crop when ``wides`` are given), and
    their embedding similarity. ``dice``: the frame's dice's :func:`templates.queries`;
    ``wides``: the unsure dice's wider crops' queries, in the order of ``unsure``;
    ``vectors``: the dice's embedding vectors (``(N, DIM)``, unit length); ``unsure``,
    ``sure``: indices of the dice."""
    if not len(unsure) or not len(sure):
        empty = np.zeros((len(unsure), len(sure)), np.float32)
        return empty, empty.copy()
    made = templates.spectra(dice.unzoomed()[sure])
    ink = templates.best_similarities(dice.take(unsure), made)
    if wides is not None:
        if len(wides) != len(unsure):
            raise ValueError(f"{len(wides)} wide crops' queries for {len(unsure)} unsure dice")
        ink = np.maximum(ink, templates.best_similarities(wides, made))
    return ink, vectors[unsure] @ vectors[sure].T
