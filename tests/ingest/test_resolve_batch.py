"""A batch reconciles with itself: each new memory sees the earlier ones of its batch, found by block products."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from memgraph import MemoryEngine, Relation
from memgraph.ingest import resolve


def _brute(vectors: np.ndarray, threshold: float) -> list[list[tuple[int, float]]]:
    """For each row, the earlier rows at cosine >= threshold, most similar first, ties by row: one product each."""
    units = np.stack([v / max(float(np.linalg.norm(v)), 1e-12) for v in vectors]).astype(np.float32)
    out = []
    for i in range(len(units)):
        sims = units[:i] @ units[i]
        js = [j for j in range(i) if sims[j] >= threshold]
        out.append(sorted(((j, float(sims[j])) for j in js), key=lambda x: (-x[1], x[0])))
    return out


@pytest.mark.parametrize("scores", [1 << 23, 50, 7])  # one block; blocks of 1 to 512 rows
def test_close_earlier_matches_one_product_per_row(monkeypatch: pytest.MonkeyPatch, scores: int) -> None:
    monkeypatch.setattr(resolve, "_CLOSE_SCORES", scores)
    rng = np.random.default_rng(3)
    centers = rng.normal(size=(3, 16))
    vectors = (centers[rng.integers(0, 3, 40)] + rng.normal(scale=0.6, size=(40, 16))).astype(np.float32)
    vectors[25] = vectors[3]  # ties: the earlier row first
    vectors[31] = vectors[3] * 2.0
    cands: Any = [SimpleNamespace(vector=v) for v in vectors]
    got = [list(zip(js, sims, strict=True)) for js, sims in resolve._close_earlier(cands, 16, 0.4)]
    want = _brute(vectors, 0.4)
    assert [[j for j, _ in row] for row in got] == [[j for j, _ in row] for row in want]
    for g, w in zip(got, want, strict=True):
        assert np.allclose([s for _, s in g], [s for _, s in w], atol=1e-6)
    assert got[25][0][0] == 3 and got[25][0][1] == pytest.approx(1.0, abs=1e-6)
    assert [j for j, _ in got[31][:2]] == [3, 25]  # tied at cosine 1: in batch order


def test_in_batch_neighbours_across_blocks(engine: MemoryEngine, monkeypatch: pytest.MonkeyPatch) -> None:
    """The repeat of item 0 at item 30 and the move at item 35 meet it though they lie blocks apart."""
    monkeypatch.setattr(resolve, "_CLOSE_SCORES", 160)  # 40 candidates: blocks of 4
    rng = np.random.default_rng(0)
    vectors = rng.normal(size=(40, 384)).astype(np.float32)  # unrelated: cosine ~0 between any two
    vectors[30] = vectors[0]
    vectors[35] = vectors[0] + 0.5 * rng.normal(size=384).astype(np.float32)  # cosine ~0.9
    texts = [f"Filler note {i} about the {w} project." for i, w in enumerate(rng.choice(["red", "blue"], 40))]
    texts[0], texts[30], texts[35] = "I live in Berlin.", "I live in Berlin!", "I live in Paris now."
    out = engine.remember_many(
        [{"content": t, "embedding": v} for t, v in zip(texts, vectors, strict=True)], user_id="u"
    )
    berlin = next(m for m in out if m.content == "I live in Berlin.")
    assert not any(m.content == "I live in Berlin!" for m in out)  # dropped: a duplicate within the batch
    assert not engine.get(berlin.id, user_id="u").active  # superseded by the move
    paris = next(m for m in out if m.content == "I live in Paris now.")
    links = engine.store.get_links("u", [paris.id], relations=[Relation.SUPERSEDES])
    assert [(lk.src, lk.dst) for lk in links] == [(paris.id, berlin.id)]
