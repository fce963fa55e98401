"""Okapi BM25 over memgraph's own tokens: the one full-text ranking of both Cypher stores. Their full-text
indexes only find the hits (Lucene's own score uses another idf and index-wide statistics; RediSearch's ignores
term frequency), and this ranks them with SQLite FTS5's formula, so Neo4j and FalkorDB return the same hits in
the same order with the same scores (see memgraph/cypher/README.md, "Full text")."""

from __future__ import annotations

import math
from collections.abc import Sequence


def bm25_rank(
    tokens: Sequence[str], docs: Sequence[tuple[str, str]], n_docs: int, *, k1: float, b: float
) -> list[tuple[str, float]]:
    """Okapi BM25 of full-text hits, best first, with FTS5's formula: idf = ln((N - df + 0.5) / (df + 0.5)),
    taken as 1e-6 where that is not positive (a token in more than half of the documents), k1 and b as given.
    The statistics are the user's, never another tenant's: every document of the user holding any query token
    is among the hits (the query ORs them), so a token's document frequency is counted exactly from the hits;
    N is the user's memory count (`n_docs`); the average length is taken over the hits (an approximation: the
    exact one would read every memory of the user per query). Documents are memgraph token strings
    (fts_document). Hand-written because the hits are not a corpus a library indexes."""
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
            idf = math.log((n_docs - df[t] + 0.5) / (df[t] + 0.5))
            if idf <= 0.0:
                idf = 1e-6
            score += idf * f * (k1 + 1) / (f + norm)
        if score > 0:
            scored.append((mid, float(score)))
    scored.sort(key=lambda h: (-h[1], h[0]))
    return scored

