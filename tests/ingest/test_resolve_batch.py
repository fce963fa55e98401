"""A batch reconciles with itself: each new memory sees the earlier ones of its batch, found by block products."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from memgraph import MemoryEngine, Relation, Settings
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
@pytest.mark.parametrize("first", [16, 3, 1])  # rows sorted with the block; the rest read past them
def test_close_earlier_matches_one_product_per_row(monkeypatch: pytest.MonkeyPatch, scores: int, first: int) -> None:
    monkeypatch.setattr(resolve, "_CLOSE_SCORES", scores)
    monkeypatch.setattr(resolve, "_CLOSE_FIRST", first)
    rng = np.random.default_rng(3)
    centers = rng.normal(size=(3, 16))
    vectors = (centers[rng.integers(0, 3, 40)] + rng.normal(scale=0.6, size=(40, 16))).astype(np.float32)
    vectors[25] = vectors[3]  # ties: the earlier row first
    vectors[31] = vectors[3] * 2.0
    cands: Any = [SimpleNamespace(vector=v) for v in vectors]
    close = resolve._close_earlier(cands, 16, Settings(), lambda c: 0.4)
    got = [list(row) for row in close]
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


@pytest.mark.parametrize("first", [16, 4, 1])
def test_close_earlier_asks_each_row_its_floor(monkeypatch: pytest.MonkeyPatch, first: int) -> None:
    """A row's own floor (lower for a text that says a change) decides its hits under the slot cosine, also those
    read past the first sorted ones; a row with no hit under it is never asked."""
    monkeypatch.setattr(resolve, "_CLOSE_FIRST", first)
    rng = np.random.default_rng(5)
    centers = rng.normal(size=(3, 16))
    vectors = (centers[rng.integers(0, 3, 60)] + rng.normal(scale=1.2, size=(60, 16))).astype(np.float32)
    cands: Any = [SimpleNamespace(vector=v, row=i) for i, v in enumerate(vectors)]
    floors = {i: (0.3 if i % 3 == 0 else 0.4) for i in range(60)}
    asked: list[int] = []

    def floor(c: Any) -> float:
        asked.append(c.row)
        return floors[c.row]

    got = [[j for j, _ in row] for row in resolve._close_earlier(cands, 16, Settings(), floor)]
    low, high = _brute(vectors, 0.3), _brute(vectors, 0.4)
    want = [[j for j, _ in (low[i] if floors[i] == 0.3 else high[i])] for i in range(60)]
    assert got == want
    assert any(len(low[i]) > len(high[i]) for i in range(0, 60, 3))  # the lower floor found more somewhere
    assert set(asked) == {i for i in range(60) if any(s < 0.4 for _, s in low[i])}  # each row read to its end


#: (earlier, later) statements, each later one a change of its earlier one (superseded one by one); Noor (0.38) and
#: the podcast (0.39) lie under `reconcile_slot_cosine` 0.4, so only the cue floor makes them neighbours.
CUE_PAIRS = [
    ("My partner Noor is vegetarian, so restaurants need veggie options.",
     "Noor has started eating fish, so she's pescatarian now."),
    ("Our team's standup happens every morning at 9:15 in the Blue room.",
     "Standup has moved to 10:00 now."),
    ("I drive a 2012 Honda Civic to work every day.",
     "I sold the Civic and now cycle to the office."),
    ("The quarterly budget review is run by Priya from finance.",
     "Priya handed the budget review over to Marco, he runs it now."),
    ("Grandma takes her blood pressure pills every evening with dinner.",
     "Grandma's doctor has switched her pills to the mornings now."),
    ("We record the podcast on Zoom.", "Let me correct the setup: we record on Riverside now."),
    ("My flatmate Ruth is vegan, so the fridge needs oat milk.",
     "Ruth has started eating cheese, so she's vegetarian now."),
    ("Our band practises in Joe's garage.", "Let me correct the venue: we practise at a studio in Hackney now."),
]


def _decisions(engine: MemoryEngine, texts: list[str], *, batch: bool) -> list[tuple[str, str | None]]:
    """What the writes decided, read back from the store: for each text, the memory it became and whether that is
    still active, then each Supersedes or Contradicts edge as (source text, relation, target text)."""
    if batch:
        mems = engine.remember_many([{"content": t} for t in texts], user_id="u")
    else:
        mems = [engine.remember(t, user_id="u") for t in texts]
    ids = [m.id for m in mems]
    stored = {m.id: m for m in engine.store.get_memories("u", ids)}
    edges = engine.store.get_links("u", ids, relations=[Relation.SUPERSEDES, Relation.CONTRADICTS])
    text = {m.id: m.content for m in stored.values()}
    return [(stored[i].content, "active" if stored[i].active else "inactive") for i in ids] + sorted(
        (f"{text.get(lk.src)} {lk.relation.value}", text.get(lk.dst)) for lk in edges
    )


@pytest.mark.parametrize("pair", CUE_PAIRS, ids=lambda p: p[1][:24])
def test_batch_decides_as_one_by_one(embedder: Any, pair: tuple[str, str]) -> None:
    """`remember_many` of a pair decides what two `remember` calls decide: the update's cue floor reaches an
    earlier text of the same batch as it reaches a stored one."""
    from memgraph.store.sqlite import SQLiteStore

    got = []
    for batch in (False, True):
        eng = MemoryEngine(SQLiteStore(":memory:"), Settings(store=":memory:"), embedder)
        try:
            got.append(_decisions(eng, list(pair), batch=batch))
        finally:
            eng.close()
    assert got[1] == got[0]


def test_all_pairs_in_one_batch(embedder: Any) -> None:
    """Every pair's earlier texts, then every later one, in one batch: the decisions of one `remember` each."""
    from memgraph.store.sqlite import SQLiteStore

    texts = [a for a, _ in CUE_PAIRS] + [b for _, b in CUE_PAIRS]
    got = []
    for batch in (False, True):
        eng = MemoryEngine(SQLiteStore(":memory:"), Settings(store=":memory:"), embedder)
        try:
            got.append(_decisions(eng, texts, batch=batch))
        finally:
            eng.close()
    assert got[1] == got[0]
    assert [a for _, a in got[1][: len(CUE_PAIRS)]] == ["inactive"] * len(CUE_PAIRS)  # each one superseded


def test_noor_supersedes_within_a_batch(engine: MemoryEngine) -> None:
    """The brief's pair (cosine 0.38): the second text supersedes the first within one batch too."""
    first, second = CUE_PAIRS[0]
    out = engine.remember_many([{"content": first}, {"content": second}], user_id="u")
    old = next(m for m in out if m.content == first)
    assert not engine.get(old.id, user_id="u").active
