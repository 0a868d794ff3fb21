"""A lamp's colour cast taken out of a frame before pip dice are read.

A camera whose white balance leaves a warm lamp's cast shows the light grey tray orange;
under a harsh one (red clipping: blue, green and red scaled 0.55, 0.9 and 1.35) the pip
reader, which learned from photos in daylight, reads some dice wrong and sure (3 more of
the 1,458 train dice than without the cast, 12 against 9). Scaling each channel so that the
frame's median colour is grey again reads them as without it (9, the train labels' own
mistakes; val: 202 of 204 right and sure, as without the cast, against 199).

Only a cast stronger than the milder lamps' is taken out (:data:`CAST_FROM`), on a floor
light enough (:data:`LIGHT_FROM`) and not saturated (:data:`CHANNEL_SPREAD`): a dark
walnut tray is as orange as a lamp makes grey, and taking its colour out read fewer dice
(the val photos on it: 180 right and sure against 192), and a felt of one strong colour is
no grey under a lamp.
"""

from __future__ import annotations

import cv2
import numpy as np

CAST_FROM = 0.25
"""The least tint of the frame's median colour (the length of its Cr and Cb less grey's,
over Y) taken for a lamp's cast: the d6 photos as shot 0.005-0.021, under the warm lamp
0.18-0.19, the strong warm lamp 0.26-0.27, the harsh one 0.35-0.38 (``vision.surroundings``,
a fifth of train and all of val), a cold one as strong 0.33-0.35 (0.327 at blue, green and
red scaled 1.3, 0.95 and 0.6: a helper's, whose dark blue 1 read a sure 3 with it left in),
a green one (0.8, 1.35, 0.8) 0.26 (a helper's: a 2 touching another die read a sure 4);
pine floors 0.23, cork 0.295-0.301, oak 0.32, walnut 0.35. Taken out from 0.25, val reads
as in daylight under every lamp (202 of 204 right and sure, none wrong), on cork 198 (197
with its colour left in) and on oak 194 and none wrong (197 and 1 wrong); from 0.33 (the
first bound) the helper's cold and green lamps each left a die wrong and sure."""

LIGHT_FROM = 120.0
"""The least brightness (Y) of the frame's median colour for its tint to be taken for a
lamp's: a light grey tray under it stays light (the d6 photos 170-190; a strong cold lamp
takes one to 149), a walnut tray is dark (about 80)."""

CHANNEL_SPREAD = 0.35
"""The least ratio of the median colour's weakest channel to its strongest for it to be a
lamp's cast: a lamp scales a grey tray's channels (the harsh one's blue 0.55 and red 1.35,
clipped: about 0.4), where a saturated floor has hardly any of one (orange felt: blue 0;
yellow 0.12). Taken out, such a floor's blue was scaled 100 times and the dice were lost
(a helper's orange felt: 2 of 204 val dice found)."""


def median_colour(frame: np.ndarray) -> np.ndarray:
    """A picture's median colour (BGR, YCrCb: any three channels), per channel, float32,
    over a grid of about 3,600 of its pixels."""
    step = max(1, int(np.sqrt(frame.shape[0] * frame.shape[1] / 3600)))
    return np.median(frame[::step, ::step].reshape(-1, 3), axis=0).astype(np.float32)


def tint(colour: np.ndarray) -> tuple[float, float]:
    """(tint, brightness) of a BGR colour: the length of its Cr and Cb less grey's over its
    Y (the same for a colour in light and in shade), and its Y."""
    y, cr, cb = cv2.cvtColor(np.uint8(np.clip(colour, 0, 255).round()).reshape(1, 1, 3),
                             cv2.COLOR_BGR2YCrCb)[0, 0].astype(float)
    return float(np.hypot(cr - 128, cb - 128) / max(y, 1.0)), y


def without_cast(frame: np.ndarray) -> np.ndarray:
    """``frame`` (BGR) with a lamp's cast taken out (each channel scaled so that the
    median colour is the grey of its mean), or ``frame`` itself when it shows none
    (:data:`CAST_FROM`, :data:`LIGHT_FROM`, :data:`CHANNEL_SPREAD`)."""
    median = median_colour(frame)
    strength, light = tint(median)
    if (strength < CAST_FROM or light < LIGHT_FROM
            or median.min() < CHANNEL_SPREAD * max(float(median.max()), 1.0)):
        return frame
    gains = float(median.mean()) / np.maximum(median, 1.0)
    return cv2.transform(frame, np.diag(gains).astype(np.float32))
