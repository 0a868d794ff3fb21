"""Random symbol dice: the training data of the enrolled-face embedding.

The symbol embedding (:mod:`vision.embedding`) must tell apart symbols it has never seen,
so it is trained on symbols nobody drew: :func:`random_glyph` makes one from random
strokes (dots, rings, bars, polygons, letters and arcs), :func:`random_dots` a scatter of
alike dots, :func:`glyph_family` near-twins one stroke apart; :func:`symbol_die_crop` draws
a symbol on a die of random colours, turned, with sides in view, shadows, glints, uneven
light, blur and noise, and :func:`glyph_on_body` on a real die's body. No die's layout is
drawn. Everything comes from an injected ``numpy.random.Generator``. (The drawn trays of
SeaFall dice for the tests are :mod:`vision.synthetic`.)
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.synthetic import rounded_mask

GLYPH_KINDS = ("dot", "ring", "bar", "polygon", "letter", "arc")


@dataclass(frozen=True)
class Glyph:
    """A random symbol: strokes in face units (the face spans -0.5..0.5 on both axes)."""

    strokes: tuple[tuple, ...]


def random_glyph(rng: np.random.Generator, max_strokes: int = 5) -> Glyph:
    """A random symbol of 0 to ``max_strokes`` strokes (dots, rings, bars, polygons,
    letters, arcs at random places and sizes): generic marks, not any die's faces."""
    strokes = []
    for _ in range(int(rng.integers(0, max_strokes + 1))):
        kind = GLYPH_KINDS[int(rng.integers(len(GLYPH_KINDS)))]
        x, y = (float(v) for v in rng.uniform(-0.28, 0.28, 2))
        if kind == "dot":
            strokes.append((kind, x, y, float(rng.uniform(0.05, 0.13))))
        elif kind == "ring":
            strokes.append((kind, x, y, float(rng.uniform(0.1, 0.3)),
                            float(rng.uniform(0.03, 0.08))))
        elif kind == "bar":
            a = float(rng.uniform(0, np.pi))
            half = float(rng.uniform(0.1, 0.35))
            strokes.append((kind, x, y, a, half, float(rng.uniform(0.03, 0.1))))
        elif kind == "polygon":
            n = int(rng.integers(3, 7))
            r = rng.uniform(0.06, 0.22, n)
            a = np.sort(rng.uniform(0, 2 * np.pi, n))
            pts = tuple((float(x + ri * np.cos(ai)), float(y + ri * np.sin(ai)))
                        for ri, ai in zip(r, a, strict=True))
            strokes.append((kind, pts))
        elif kind == "letter":
            ch = "ABCDEFGHJKLMNPQRSTUVWXYZ#&%@+?"[int(rng.integers(30))]
            strokes.append((kind, x, y, ch, float(rng.uniform(0.25, 0.5))))
        else:
            start = float(rng.uniform(0, 360))
            strokes.append((kind, x, y, float(rng.uniform(0.1, 0.3)), start,
                            start + float(rng.uniform(60, 270)), float(rng.uniform(0.03, 0.08))))
    return Glyph(tuple(strokes))


def random_dots(rng: np.random.Generator, most: int = 9) -> Glyph:
    """A random scatter of 1 to ``most`` dots of one size, kept apart (a generic
    arrangement at random places, not any die's layout): symbols that differ only in how
    many alike marks they have and where, which the embedding must tell apart."""
    r = float(rng.uniform(0.04, 0.09))
    dots: list[tuple[float, float]] = []
    for _ in range(int(rng.integers(1, most + 1))):
        for _try in range(30):
            x, y = (float(v) for v in rng.uniform(-0.33, 0.33, 2))
            if all((x - a) ** 2 + (y - b) ** 2 > (2.6 * r) ** 2 for a, b in dots):
                dots.append((x, y))
                break
    return Glyph(tuple(("dot", x, y, r) for x, y in dots))


def glyph_family(rng: np.random.Generator, members: int = 3) -> list[Glyph]:
    """Up to ``members`` distinct symbols that differ from a random base by one stroke
    each: the base, the base with one more stroke (a mark like one it has, or any mark),
    and the base less one of its strokes. Symbols one of which holds another (generic
    near-twins, not any die's faces) are what an embedding trained on independent random
    symbols tells apart worst; a bank with families makes it weigh a single mark."""
    while True:
        base = random_dots(rng, 6) if rng.random() < 0.5 else random_glyph(rng, 4)
        if base.strokes:
            break
    out = [base]
    for _ in range(4 * members):
        if len(out) >= members:
            break
        strokes = list(base.strokes)
        if rng.random() < 0.6 or len(strokes) < 2:
            like = strokes[int(rng.integers(len(strokes)))]
            if like[0] == "dot" and rng.random() < 0.7:  # one more alike dot, kept apart
                r = like[3]
                x, y = (float(v) for v in rng.uniform(-0.33, 0.33, 2))
                if all(s[0] != "dot" or (x - s[1]) ** 2 + (y - s[2]) ** 2 > (2.6 * r) ** 2
                       for s in strokes):
                    strokes.append(("dot", x, y, r))
            else:
                extra = random_glyph(rng, 1).strokes
                strokes.extend(extra[:1])
        else:
            strokes.pop(int(rng.integers(len(strokes))))
        g = Glyph(tuple(strokes))
        if g.strokes and g not in out:
            out.append(g)
    return out


def draw_glyph(img: np.ndarray, glyph: Glyph, ink: tuple[int, ...]) -> None:
    """Draw a glyph over a square face image (in place), the face filling the image."""
    s = img.shape[0]

    def p(x: float, y: float) -> tuple[int, int]:
        return int(round((x + 0.5) * s)), int(round((y + 0.5) * s))

    for st in glyph.strokes:
        kind = st[0]
        if kind == "dot":
            cv2.circle(img, p(st[1], st[2]), max(1, int(st[3] * s)), ink, -1, cv2.LINE_AA)
        elif kind == "ring":
            cv2.circle(img, p(st[1], st[2]), max(1, int(st[3] * s)), ink,
                       max(1, int(st[4] * s)), cv2.LINE_AA)
        elif kind == "bar":
            _, x, y, a, half, t = st
            dx, dy = half * np.cos(a), half * np.sin(a)
            cv2.line(img, p(x - dx, y - dy), p(x + dx, y + dy), ink, max(1, int(t * s)),
                     cv2.LINE_AA)
        elif kind == "polygon":
            cv2.fillPoly(img, [np.array([p(x, y) for x, y in st[1]], np.int32)], ink,
                         cv2.LINE_AA)
        elif kind == "letter":
            _, x, y, ch, h = st
            scale = h * s / 22.0
            (tw, th), _ = cv2.getTextSize(ch, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
            cx, cy = p(x, y)
            cv2.putText(img, ch, (cx - tw // 2, cy + th // 2), cv2.FONT_HERSHEY_SIMPLEX, scale,
                        ink, max(1, int(h * s / 10)), cv2.LINE_AA)
        else:
            _, x, y, r, a0, a1, t = st
            rr = max(1, int(r * s))
            cv2.ellipse(img, p(x, y), (rr, rr), 0, a0, a1, ink, max(1, int(t * s)), cv2.LINE_AA)


def _contrasting(rng: np.random.Generator, body: np.ndarray) -> tuple[int, int, int]:
    """An ink colour that stands out from the body (by brightness or by colour)."""
    for _ in range(50):
        ink = rng.integers(0, 256, 3)
        if np.abs(ink.astype(int) - body.astype(int)).sum() > 180:
            return tuple(int(v) for v in ink)
    return tuple(int(v) for v in 255 - body)


def symbol_die_crop(rng: np.random.Generator, glyph: Glyph, px: int = 64,
                    trays: np.ndarray | None = None, translucent: float = 0.0,
                    marked_sides: float = 0.0, streaks: float = 0.0) -> np.ndarray:
    """A reader-like ``px`` square BGR crop of one die showing ``glyph``: a random body and
    ink colour, a random turn, the die's sides showing on one side as under a slightly
    tilted camera, a shadow, a tray of random colour, uneven light, blur and noise.

    ``trays`` (``(n, 2*px, 2*px, 3)`` uint8 patches, e.g. of real empty tray) gives the
    tray a real texture half the time; with probability ``translucent`` the die is
    translucent: the tray shows through its body and the marks of its hidden faces (other
    random marks, blurred and faint) show through its face. With probability
    ``marked_sides`` the die is seen at a steeper slant with one side face in view,
    foreshortened and shaded, carrying another symbol (as a real die's sides carry its
    other faces); with probability ``streaks`` a glint is a thin bright streak across the
    face rather than a round highlight."""
    big = px * 2
    face_px = int(big * rng.uniform(0.5, 0.72))
    body = rng.integers(0, 256, 3)
    tile = np.empty((face_px, face_px, 3), np.uint8)
    tile[:] = body
    ink = _contrasting(rng, body)
    draw_glyph(tile, glyph, ink)
    tile = tile.astype(np.float32)
    see_through = translucent > 0 and rng.random() < translucent
    if see_through:
        hidden = np.empty((face_px, face_px, 3), np.uint8)
        hidden[:] = body
        draw_glyph(hidden, random_dots(rng) if rng.random() < 0.5 else random_glyph(rng),
                   _contrasting(rng, body))
        hidden = cv2.GaussianBlur(hidden[::-1].astype(np.float32), (0, 0),
                                  face_px * rng.uniform(0.01, 0.04))
        a = rng.uniform(0.15, 0.4)
        tile = (1 - a) * tile + a * hidden
    mask = rounded_mask(face_px).astype(np.float32) / 255
    rim = cv2.erode(mask, np.ones((3, 3), np.uint8), iterations=max(1, face_px // 16))
    tile *= (rng.uniform(0.55, 0.85) + rng.uniform(0.15, 0.45)
             * cv2.GaussianBlur(rim, (0, 0), 1.5))[..., None]
    tray = rng.integers(0, 256, 3).astype(np.float32)
    if rng.random() < 0.6:  # most trays are greyish
        tray = np.full(3, tray.mean(), np.float32) + rng.normal(0, 10, 3)
    canvas = np.empty((big, big, 3), np.float32)
    canvas[:] = tray
    if trays is not None and len(trays) and rng.random() < 0.5:
        canvas[:] = trays[int(rng.integers(len(trays)))][:big, :big]
    floor = canvas.copy()
    angle = float(rng.uniform(0, 360))
    cx, cy = big / 2 + rng.normal(0, big * 0.04, 2)
    m = cv2.getRotationMatrix2D((face_px / 2, face_px / 2), angle, 1.0)
    m[:, 2] += (cx - face_px / 2, cy - face_px / 2)
    alpha = cv2.warpAffine(mask, m, (big, big), flags=cv2.INTER_LINEAR)
    marked = marked_sides > 0 and rng.random() < marked_sides
    # shadow, then the sides (the body seen at a slant), then the face
    d = face_px * rng.uniform(0.03, 0.18)
    a = rng.uniform(0, 2 * np.pi)
    sx, sy = d * np.cos(a), d * np.sin(a)
    shade = cv2.warpAffine(alpha, np.float32([[1, 0, 1.6 * sx], [0, 1, 1.6 * sy]]), (big, big))
    shade = cv2.GaussianBlur(shade, (0, 0), face_px * 0.08)
    canvas *= (1 - rng.uniform(0.2, 0.6) * shade)[..., None]
    if marked:
        canvas = _marked_side(rng, canvas, body, ink, face_px, m, big)
    else:
        side_colour = body.astype(np.float32) * rng.uniform(0.45, 0.8)
        for k in np.linspace(1, 0, 5):
            side = cv2.warpAffine(alpha, np.float32([[1, 0, k * sx], [0, 1, k * sy]]), (big, big))
            canvas = canvas * (1 - side[..., None]) + side_colour * side[..., None]
    face = cv2.warpAffine(tile, m, (big, big), flags=cv2.INTER_LINEAR)
    canvas = canvas * (1 - alpha[..., None]) + face * alpha[..., None]
    if see_through:  # the floor shows through the body, lowering its contrast
        k = rng.uniform(0.15, 0.45) * alpha[..., None]
        canvas = (1 - k) * canvas + k * cv2.GaussianBlur(floor, (0, 0), 3.0)
    if rng.random() < 0.3:  # a glint
        g = np.zeros((big, big), np.float32)
        centre = tuple(int(v) for v in rng.uniform(big * 0.3, big * 0.7, 2))
        if streaks > 0 and rng.random() < streaks:  # a thin streak
            axes = (int(big * rng.uniform(0.12, 0.35)), int(big * rng.uniform(0.0, 0.2)))
            cv2.ellipse(g, centre, axes, float(rng.uniform(0, 180)), 0.0,
                        float(rng.uniform(60, 180)), 1.0, int(rng.integers(2, 5)))
        else:
            cv2.circle(g, centre, int(big * rng.uniform(0.03, 0.1)), 1.0, -1)
        canvas += rng.uniform(40, 120) * cv2.GaussianBlur(g, (0, 0), big * 0.03)[..., None]
    yy, xx = np.mgrid[0:big, 0:big].astype(np.float32) / big - 0.5
    gx, gy = rng.uniform(-0.4, 0.4, 2)
    canvas *= (1 + gx * xx + gy * yy)[..., None] * rng.uniform(0.6, 1.3)
    out = cv2.resize(canvas, (px, px), interpolation=cv2.INTER_AREA)
    out = cv2.GaussianBlur(out, (0, 0), float(rng.uniform(0.3, 1.3)))
    out += rng.normal(0, rng.uniform(1, 8), out.shape).astype(np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)


def _marked_side(rng: np.random.Generator, canvas: np.ndarray, body: np.ndarray,
                 ink: tuple[int, ...], face_px: int, m: np.ndarray, big: int) -> np.ndarray:
    """``canvas`` with one side face of the die drawn beside its top face (placed by
    ``m``): another symbol on the body's colour, squashed to the slant's depth and shaded,
    as a die tilted towards the camera shows it."""
    depth = max(2, int(face_px * rng.uniform(0.12, 0.4)))
    other = random_dots(rng) if rng.random() < 0.5 else random_glyph(rng)
    side = np.empty((face_px, face_px, 3), np.uint8)
    side[:] = body
    draw_glyph(side, other, ink)
    mask = rounded_mask(face_px)
    shade = rng.uniform(0.45, 0.8)
    net = np.zeros((face_px + depth, face_px, 3), np.float32)
    net_alpha = np.zeros((face_px + depth, face_px), np.float32)
    top = face_px - face_px // 8  # the side starts under the top face's rounded edge
    squashed = (face_px, face_px + depth - top)
    net[top:] = cv2.resize(side, squashed, interpolation=cv2.INTER_AREA).astype(np.float32) * shade
    net_alpha[top:] = cv2.resize(mask, squashed, interpolation=cv2.INTER_AREA) / 255
    size = (big, big)
    drawn = cv2.warpAffine(net, m, size, flags=cv2.INTER_LINEAR)
    alpha = cv2.warpAffine(net_alpha, m, size, flags=cv2.INTER_LINEAR)[..., None]
    return canvas * (1 - alpha) + drawn * alpha


def _paint(rng: np.random.Generator, body: np.ndarray) -> tuple[int, int, int]:
    """The colour of a die's marks: mostly white or black paint (whichever stands out from
    the body), sometimes gold, sometimes any colour that contrasts."""
    r = rng.random()
    if r < 0.7:
        light = float(body.mean()) < 140
        v = rng.uniform(200, 255) if light else rng.uniform(0, 45)
        if abs(v - float(body.mean())) > 90:
            return (int(v),) * 3
    elif r < 0.8:
        gold = (rng.uniform(20, 70), rng.uniform(150, 200), rng.uniform(190, 240))
        if np.abs(np.array(gold) - body).sum() > 180:
            return tuple(int(v) for v in gold)
    return _contrasting(rng, body.astype(np.uint8))


def glyph_on_body(rng: np.random.Generator, glyph: Glyph, body: np.ndarray,
                  face: float = 0.72) -> np.ndarray:
    """``glyph`` drawn on a photographed die whose marks were wiped off (``body``: a
    reader crop of it, :func:`blank_faces`), so that the embedding learns symbols on real
    dice bodies, sides, shadows, glints and camera blur rather than only drawn ones. The
    symbol is turned at random and placed about the crop's centre, on a face about
    ``face`` of the crop's side; its ink contrasts with the body's colour and follows the
    light across the face, and it is blurred as the photo is."""
    px = body.shape[0]
    big = 2 * px
    face_px = int(big * face * rng.uniform(0.9, 1.1))
    tile = np.zeros((face_px, face_px), np.uint8)
    draw_glyph(tile, glyph, (255,))
    m = cv2.getRotationMatrix2D((face_px / 2, face_px / 2), float(rng.uniform(0, 360)), 1.0)
    m[:, 2] += np.array([big / 2, big / 2]) - face_px / 2 + rng.normal(0, big * 0.02, 2)
    alpha = cv2.warpAffine(tile, m, (big, big), flags=cv2.INTER_LINEAR).astype(np.float32)
    alpha = cv2.resize(alpha, (px, px), interpolation=cv2.INTER_AREA) / 255
    alpha = cv2.GaussianBlur(alpha, (0, 0), float(rng.uniform(0.5, 1.4)))[..., None]
    out = body.astype(np.float32)
    s = px // 4
    middle = out[s:px - s, s:px - s].reshape(-1, 3)
    colour = np.median(middle, axis=0)
    ink = np.array(_paint(rng, colour), np.float32)
    # the light on the face: the body's brightness about each pixel against its median
    light = cv2.GaussianBlur(out.mean(axis=2), (0, 0), px * 0.08) / max(float(colour.mean()), 1.0)
    shaded = ink * np.clip(light, 0.4, 1.6)[..., None]
    out = out * (1 - alpha) + shaded * alpha
    out += rng.normal(0, rng.uniform(0.5, 4), out.shape).astype(np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)
