"""The generic symbol embedding behind enrolled faces: shipped model, invariances, profiles."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision.helpers import photo
from vision.embedding import DIM, MODEL_PATH, ModelError, SymbolEmbedder, default_embedder
from vision.enrollcrops import reframe, turns
from vision.enrollment import EnrollmentError, Profile
from vision.glyphs import random_glyph, symbol_die_crop


def test_embedding_model_ships_small_and_gives_unit_vectors_batch_or_not() -> None:
    assert MODEL_PATH.is_file()
    assert MODEL_PATH.stat().st_size < 2_000_000
    rng = np.random.default_rng(5)
    crops = [symbol_die_crop(rng, random_glyph(rng)) for _ in range(6)]
    together = default_embedder().embed(crops)
    assert together.shape == (6, DIM) and together.dtype == np.float32
    assert np.allclose(np.linalg.norm(together, axis=1), 1.0, atol=1e-5)
    alone = np.concatenate([default_embedder().embed([c]) for c in crops])
    assert np.allclose(together, alone, atol=1e-4)
    assert default_embedder().embed([]).shape == (0, DIM)
    assert "torch" not in sys.modules


def test_new_symbols_on_new_dice_lie_nearer_their_own_kind() -> None:
    # symbols and dice the network never saw (another seed than training's): each crop's
    # nearest other crop, among 6 symbols drawn 6 times each, is mostly the same symbol
    rng = np.random.default_rng(2024)
    glyphs = [random_glyph(rng) for _ in range(6)]
    crops = [symbol_die_crop(rng, g) for g in glyphs for _ in range(6)]
    labels = np.repeat(np.arange(6), 6)
    v = default_embedder().embed(crops)
    sims = v @ v.T
    np.fill_diagonal(sims, -2.0)
    nearest = labels[sims.argmax(axis=1)]
    assert (nearest == labels).mean() >= 0.8
    same = sims[labels[:, None] == labels[None, :]]
    other = sims[labels[:, None] != labels[None, :]]
    assert np.median(same[same > -2]) > np.median(other) + 0.2


def test_a_turned_crop_matches_its_enrolled_turns() -> None:
    rng = np.random.default_rng(8)
    c = symbol_die_crop(rng, random_glyph(rng))
    enrolled = default_embedder().embed(turns(c))
    assert enrolled.shape == (12, DIM)
    m = cv2.getRotationMatrix2D((32, 32), 75.0, 1.0)
    turned = cv2.warpAffine(c, m, (64, 64), borderMode=cv2.BORDER_REPLICATE)
    assert float((enrolled @ default_embedder().embed([turned])[0]).max()) > 0.85


def test_profile_made_another_way_must_be_enrolled_again(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    crops = {f: [symbol_die_crop(rng, random_glyph(rng))] for f in ("a", "b")}
    path = Profile.from_crops("p", "mine", crops).save(tmp_path)
    with np.load(path) as data:
        meta = json.loads(str(data["meta"]))
        vectors, owners = data["vectors"], data["owners"]
    # as the embedding-only profiles were saved: no method, no ink maps
    del meta["method"]
    meta["embedding"] = "symbol-embed-1"
    np.savez_compressed(path, meta=np.array(json.dumps(meta)), vectors=vectors,
                        vector_labels=np.repeat(owners, 12))
    with pytest.raises(EnrollmentError, match=r"another way \(symbol-embed-1\); enroll its"):
        Profile.load(str(path))


def test_missing_or_broken_embedding_model_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="not found"):
        SymbolEmbedder(tmp_path / "missing.onnx")
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"not a model")
    with pytest.raises(ModelError, match="cannot load"):
        SymbolEmbedder(bad)


def test_reframe_cuts_loose_and_tight_crops_of_one_die_alike() -> None:
    p = photo("IMG_20191209_100614.jpg")
    image = p.image()
    x, y, w, h = p.boxes[1]
    loose = image[max(y - h // 2, 0) : y + h + h // 2, max(x - w // 2, 0) : x + w + w // 2]
    tight = image[y : y + h, x : x + w]
    a = reframe(cv2.resize(loose, (64, 64), interpolation=cv2.INTER_AREA))
    b = reframe(cv2.resize(tight, (64, 64), interpolation=cv2.INTER_AREA))
    assert a.shape == b.shape == (64, 64, 3)
    va, vb = default_embedder().embed([a, b])
    assert float(va @ vb) > 0.8
    blank = np.full((64, 64, 3), 128, np.uint8)  # no die in it: kept as it is
    assert reframe(blank) is blank
