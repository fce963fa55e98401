"""The recall path's shortcuts return what the plain computations return: the candidate pool picked by partition
(`top_relevance`), token counts from the counter's cache, the question embedded beside the full-text searches
(and recall without a model, where the cue tags' lists must go with the vectors)."""

from __future__ import annotations

import numpy as np
import pytest

from memgraph import MemoryEngine, Settings
from memgraph.embed import TokenCounter, default_model_path
from memgraph.embed import tokens as tokens_mod
from memgraph.retrieve.pipeline import top_relevance
from memgraph.store.sqlite import SQLiteStore


def _plain_pool(ids: list[str], values: np.ndarray, k: int) -> dict[str, float]:
    """The pool as recall picked it before: every candidate sorted by (-relevance, id)."""
    rel = dict(zip(ids, values.tolist(), strict=True))
    return {mid: rel[mid] for mid in sorted(rel, key=lambda mid: (-rel[mid], mid))[:k]}


@pytest.mark.parametrize("seed", range(40))
def test_top_relevance_is_the_sorted_pool(seed: int) -> None:
    rng = np.random.default_rng(seed)
    size = int(rng.integers(0, 400))
    # few distinct values: ties everywhere, across the k-th value too (ids decide those)
    values = rng.choice(np.array([0.0, 0.1, 0.25, 0.25000000000000006, 0.5, 0.9]), size=size)
    ids = [f"m{int(i):05d}" for i in rng.permutation(100_000)[:size]]
    for k in (0, 1, 7, 120, size, size + 5):
        got = top_relevance(ids, values, k)
        want = _plain_pool(ids, values, k)
        assert list(got.items()) == list(want.items())


def test_token_counts_come_from_the_cache_unchanged(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tokens_mod, "COUNTS_KEPT", 3)
    counter = TokenCounter(default_model_path())
    plain = TokenCounter(default_model_path())
    texts = ["The boiler service is due in October.", "Ada paints on Sundays", "x", "Kayak rental costs 40 euros"]
    for text in texts + texts[::-1] + texts:
        assert counter.count(text) == len(plain._tok.encode(text, add_special_tokens=False).ids)
    assert len(counter._counts) == 3  # bounded: the least recently counted went first
    assert list(counter._counts) == texts[1:]


def test_recall_without_a_model_drops_the_cue_lists(tmp_path) -> None:
    """The full-text lists run while the question is embedded, the cue tags' ones included; when the model turns
    out to be missing, recall is lexical and must equal a lexical recall (no `text@<tag>` list left over)."""
    settings = Settings(store=":memory:", embedding_model_path=str(tmp_path / "no-such-model"))
    eng = MemoryEngine(SQLiteStore(":memory:"), settings)
    try:
        vec = np.zeros(384, dtype=np.float32)
        vec[0] = 1.0
        turns = [
            ("Ada", "I painted the lighthouse on Sunday"),
            ("Ben", "I painted my kitchen blue"),
            ("Ada", "The lighthouse painting is for my mother"),
        ]
        for speaker, text in turns:
            eng.remember(f"{speaker}: {text}", user_id="u", tags=[f"speaker:{speaker.lower()}"], embedding=vec.tolist())
        question = "What did Ada paint?"
        lexical = eng.recall(question, user_id="u", mode="lexical")
        cascade = eng.recall(question, user_id="u", mode="cascade")
        assert cascade.mode == "lexical" and any("embedder unavailable" in w for w in cascade.warnings)
        assert cascade.cue_tags == []
        assert [m.id for m in cascade.memories] == [m.id for m in lexical.memories]
        assert [t.notes for t in cascade.trace] == [t.notes for t in lexical.trace]
        eng.flush()
    finally:
        eng.close()
