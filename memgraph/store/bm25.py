"""Okapi BM25 over memgraph's own tokens, the one full-text ranking of every Cypher store (the databases'
full-text indexes only find the hits; see memgraph/cypher/README.md, "Full text")."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def bm25_rank(
    tokens: Sequence[str], docs: Sequence[tuple[str, str]], n_docs: int, *, k1: float, b: float
) -> list[tuple[str, float]]:
    """Okapi BM25 (FTS5's formula) of full-text hits, best first. Hand-written because the inputs are not a
    corpus a library indexes: every document holding any query token is among the hits (the query ORs
    them), so a token's document frequency is counted exactly from the hits; N is the user's memory count;
    the average length is taken over the hits (an approximation). Documents are memgraph token strings
    (fts_document)."""
    terms = set(tokens)
    bags = [(mid, doc.split()) for mid, doc in docs]
    df = {t: sum(1 for _, words in bags if t in words) for t in terms}
    avgdl = sum(len(words) for _, words in bags) / len(bags) or 1.0
    scored = []
    for mid, words in bags:
        tf: dict[str, int] = {}
        for w in words:
            if w in terms:
                tf[w] = tf.get(w, 0) + 1
        norm = k1 * (1 - b + b * len(words) / avgdl)
        score = 0.0
        for t, f in tf.items():
            idf = max(np.log((n_docs - df[t] + 0.5) / (df[t] + 0.5) + 1.0), 1e-6)
            score += idf * f * (k1 + 1) / (f + norm)
        if score > 0:
            scored.append((mid, float(score)))
    scored.sort(key=lambda h: (-h[1], h[0]))
    return scored

