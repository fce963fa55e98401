"""The ONNX embedder gives sentence-transformers' vectors (cosine >= 0.9999) on varied text, one text at a time
and in padded batches, and truncates at the model's 256-token window (not tokenizer.json's 128)."""

from __future__ import annotations

import numpy as np
import pytest

from memgraph.embed import OnnxEmbedder, SentenceTransformerEmbedder
from memgraph.embed.onnx_backend import _batches

MIN_COSINE = 0.9999

TEXTS = [
    "ok",
    "I prefer tabs over spaces in Python.",
    "Caroline went to the LGBTQ support group on 7 May 2023 and said it was powerful.",
    "Never push to main on Fridays; the deploy freeze starts at 15:00 UTC.",
    "東京の会議は来週の火曜日に延期されました。田中さんが議事録を書きます。",
    "我喜欢在周末去公园跑步，然后喝一杯咖啡。",
    "Привет! Как дела? Встреча перенесена на четверг.",
    "naïve café résumé façade — Ünïcödé, ﬁ ligature, e\u0301 combining accent",
    "party time 🎉🚀 👩‍👩‍👧 ✅ 🇵🇹",
    "def area(r: float) -> float:\n    \"\"\"Circle area.\"\"\"\n    return math.pi * r ** 2  # TODO: units",
    "SELECT id, content FROM memory WHERE user_id = ? AND active = 1 ORDER BY created_at DESC LIMIT 10;",
    "   leading and trailing whitespace, \t tabs \n and newlines   ",
    # past tokenizer.json's 128 tokens, under the model's 256
    " ".join(f"The meeting number {i} covered budget items." for i in range(20)),
    # past 256 tokens: truncated at the window
    "Long memory about a long conversation with many details. " * 60,
    " ".join(f"w{i}" for i in range(700)),
]


def cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.asarray((a * b).sum(axis=1))


def test_batch_equals_sentence_transformers(onnx_embedder: OnnxEmbedder, st_embedder: SentenceTransformerEmbedder):
    ref = st_embedder.encode(TEXTS)
    got = onnx_embedder.encode(TEXTS)
    assert got.shape == ref.shape == (len(TEXTS), 384)
    assert got.dtype == np.float32
    cos = cosines(got, ref)
    assert cos.min() >= MIN_COSINE, dict(zip(TEXTS, cos.round(6), strict=True))
    assert np.allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)


@pytest.mark.parametrize("text", TEXTS, ids=range(len(TEXTS)))
def test_one_text_equals_sentence_transformers(
    text: str, onnx_embedder: OnnxEmbedder, st_embedder: SentenceTransformerEmbedder
) -> None:
    assert cosines(onnx_embedder.encode([text]), st_embedder.encode([text]))[0] >= MIN_COSINE


def test_padding_does_not_change_a_vector(onnx_embedder: OnnxEmbedder) -> None:
    """A short text run in one batch with a 256-token one (so padded with ~250 pad tokens) keeps its own vector.
    (`encode` itself no longer batches such different lengths together: `_batches`.)"""
    alone = onnx_embedder.encode(TEXTS[:3])
    assert onnx_embedder._inputs is not None
    rows = onnx_embedder._inputs.ids([*TEXTS[:3], TEXTS[-1]])
    padded = onnx_embedder._run(rows)[:3]
    padded = padded / np.linalg.norm(padded, axis=1, keepdims=True)
    assert cosines(alone, padded).min() >= 0.99999
    # and across batch boundaries: 70 texts in batches of 32, in a shuffled order
    rng = np.random.default_rng(7)
    many = [TEXTS[i] for i in rng.integers(0, len(TEXTS), 70)]
    vecs = onnx_embedder.encode(many)
    single = np.vstack([onnx_embedder.encode([t]) for t in many])
    assert cosines(vecs, single).min() >= 0.99999


def test_truncates_at_the_models_256_tokens(onnx_embedder: OnnxEmbedder, st_embedder: SentenceTransformerEmbedder):
    words = [f"topic{i}" for i in range(400)]  # each word is several word pieces
    assert onnx_embedder.count_tokens(" ".join(words)) > 400
    base = " ".join(words)
    # a change after the window does not move the vector; one between token 128 and 256 does
    tail_changed = base + " completely different ending about volcanoes"
    ids = onnx_embedder._inputs.ids([base])[0]  # type: ignore[union-attr]
    assert len(ids) == 256
    mid = " ".join(words[:80]) + " volcano eruption lava " + " ".join(words[83:])  # tokens ~170-180
    v = onnx_embedder.encode([base, tail_changed, mid])
    assert cosines(v[:1], v[1:2])[0] > 0.999999
    assert cosines(v[:1], v[2:3])[0] < 0.9999
    ref = st_embedder.encode([base, tail_changed, mid])
    assert cosines(v, ref).min() >= MIN_COSINE


def test_empty_batch(onnx_embedder: OnnxEmbedder) -> None:
    assert onnx_embedder.encode([]).shape == (0, 384)


def test_batches_close_where_padding_would_double_the_work() -> None:
    """Lengths sorted longest first: a batch of texts over 16 tokens closes where a text is at most half as long
    as its first (one long memory among single words padded every word to its length); short texts stay
    together and the batch size still caps."""
    assert [list(r) for r in _batches([40, 30, 20, 5, 4, 3], 32)] == [[0, 1], [2], [3, 4, 5]]
    assert [len(r) for r in _batches([10] * 70, 32)] == [32, 32, 6]
    assert [list(r) for r in _batches([16, 8, 3], 32)] == [[0, 1, 2]]
    assert _batches([], 32) == []
