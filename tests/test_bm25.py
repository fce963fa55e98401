"""The Cypher stores' full-text ranking is SQLite FTS5's BM25: given the same documents (FTS5 sees exactly the
hits, so N, document frequencies and the average length are the same for both), the scores are FTS5's own
`bm25()`, value for value."""

from __future__ import annotations

import sqlite3

import pytest

from memgraph.store.bm25 import bm25_rank
from memgraph.text import fts_document

DOCS = {
    "a": "tabs over spaces tabs forever",
    "b": "coffee in the morning tea in the afternoon",
    "c": "tabs and coffee",
    "d": "a very long note about coffee beans roasting grinding brewing and drinking coffee slowly",
    "e": "tea tea tea",
    "f": "nothing here matches",
    "g": "spaces only",
    "h": "Don't drink coffee after five, café au lait included",
}
QUERIES = [["tabs"], ["coffee", "tea"], ["tabs", "coffee", "tea", "spaces"], ["tea"], ["coffee"], ["café", "tabs"]]


def _fts5(query: list[str], docs: list[tuple[str, str]]) -> dict[str, float]:
    conn = sqlite3.connect(":memory:")
    # tokenchars: an apostrophe stays inside a word, as in memgraph's tokens ("don't" is one token)
    conn.execute(
        "CREATE VIRTUAL TABLE t USING fts5(id UNINDEXED, doc, "
        "tokenize = \"unicode61 remove_diacritics 0 tokenchars ''''\")"
    )
    conn.executemany("INSERT INTO t VALUES (?, ?)", docs)
    match = " OR ".join(f'"{q}"' for q in query)
    return {mid: -score for mid, score in conn.execute("SELECT id, bm25(t) FROM t WHERE t MATCH ?", (match,))}


@pytest.mark.parametrize("query", QUERIES, ids="+".join)
def test_scores_are_fts5_bm25(query: list[str]) -> None:
    hits = [(k, fts_document(v)) for k, v in DOCS.items() if set(fts_document(v).split()) & set(query)]
    want = _fts5(query, hits)
    got = bm25_rank(query, hits, len(hits), k1=1.2, b=0.75)
    assert [m for m, _ in got] == sorted(want, key=lambda m: (-want[m], m)), "the same order"
    for mid, score in got:
        assert score == pytest.approx(want[mid], rel=1e-9)


def test_a_token_in_most_documents_weighs_almost_nothing_and_n_is_the_users() -> None:
    """FTS5 takes idf as 1e-6 where ln((N - df + 0.5) / (df + 0.5)) is not positive; a larger N (the user's
    other memories) makes the same hits rarer, so they score higher."""
    hits = [("x", "coffee tea"), ("y", "coffee"), ("z", "coffee cake")]
    few = dict(bm25_rank(["coffee"], hits, 3, k1=1.2, b=0.75))
    assert all(0 < s < 1e-5 for s in few.values())
    many = dict(bm25_rank(["coffee"], hits, 100, k1=1.2, b=0.75))
    assert all(many[m] > 1.0 for m in many)
    assert bm25_rank(["absent"], hits, 3, k1=1.2, b=0.75) == []
