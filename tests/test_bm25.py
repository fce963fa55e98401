"""The one full-text ranking (memgraph/store/bm25.py) is SQLite FTS5's BM25: given one user's memories as an
FTS5 table (FTS5's statistics are then exactly that user's), the scores are FTS5's own `bm25()`, value for
value; and its ordering and filtering are what every store returns."""

from __future__ import annotations

import sqlite3

import numpy as np
import pytest

from memgraph.store import bm25
from memgraph.store.bm25 import Okapi
from memgraph.text import fts_document, query_terms, terms

DOCS = {
    "a": "tabs over spaces tabs forever",
    "b": "coffee in the morning tea in the afternoon",
    "c": "tabs and coffee",
    "d": "a very long note about coffee beans roasting grinding brewing and drinking coffee slowly",
    "e": "tea tea tea",
    "f": "nothing here matches",
    "g": "spaces only",
    "h": "Don't drink coffee after five, café au lait included",
    "i": "She supported the runners; he supports running.",
}
QUERIES = ["tabs", "coffee tea", "tabs, coffee, tea and spaces", "tea", "coffee", "café tabs", "supporting runs"]
OKAPI = Okapi(k1=1.2, b=0.75)


def _fts5(query: list[str]) -> dict[str, float]:
    conn = sqlite3.connect(":memory:")
    # the documents are memgraph's terms joined by spaces; tokenchars keeps an apostrophe inside a term
    conn.execute(
        "CREATE VIRTUAL TABLE t USING fts5(id UNINDEXED, doc, "
        "tokenize = \"unicode61 remove_diacritics 0 tokenchars ''''\")"
    )
    conn.executemany("INSERT INTO t VALUES (?, ?)", [(k, fts_document(v)) for k, v in DOCS.items()])
    match = " OR ".join(f'"{q}"' for q in query)
    return {mid: -score for mid, score in conn.execute("SELECT id, bm25(t) FROM t WHERE t MATCH ?", (match,))}


def _ours(query: list[str]) -> list[tuple[str, float]]:
    docs = [(k, fts_document(v)) for k, v in DOCS.items()]
    hits = [(k, d) for k, d in docs if set(d.split()) & set(query)]
    ids, tf, lengths, dfs = bm25.term_counts(query, hits)
    total = sum(len(d.split()) for _, d in docs)
    values = bm25.scores([bm25.idf(len(docs), df) for df in dfs], tf, lengths, len(docs), total, OKAPI)
    return [(ids[i], float(values[i])) for i in bm25.best_first(ids, values, 100)]


@pytest.mark.parametrize("text", QUERIES)
def test_scores_are_fts5_bm25_on_the_users_own_documents(text: str) -> None:
    query = query_terms(text, 64)
    want = _fts5(query)
    got = _ours(query)
    assert [m for m, _ in got] == sorted(want, key=lambda m: (-want[m], m)), "the same hits in the same order"
    for mid, score in got:
        assert score == pytest.approx(want[mid], rel=1e-9)


def test_terms_are_snowball_stems_and_queries_drop_stop_words() -> None:
    assert terms("She supported the runners") == ["she", "support", "the", "runner"]
    assert query_terms("She SUPPORTS the running, supported!", 64) == ["support", "run"]
    assert query_terms("café 北京 don't", 64) == ["café", "北", "京"]  # "don't" is a stop word
    assert query_terms("apples, pears and plums", 2) == ["appl", "pear"]


def test_queries_keep_content_words_that_scikit_learns_stop_list_drops() -> None:
    """The query's stop list is Snowball's: function words only. scikit-learn's list (the write path's) would
    reduce "who is on call for heron?" to "heron", and these questions to nothing or one word."""
    assert query_terms("who is on call for heron?", 64) == ["call", "heron"]
    assert query_terms("is the fire alarm system down?", 64) == ["fire", "alarm", "system"]
    assert query_terms("what was the first bill I found?", 64) == ["first", "bill", "found"]
    assert query_terms("when do we move?", 64) == ["move"]
    assert query_terms("what is it?", 64) == []


def test_a_term_in_most_documents_weighs_almost_nothing_and_n_is_the_users() -> None:
    """FTS5 takes idf as 1e-6 where ln((N - df + 0.5) / (df + 0.5)) is not positive; a larger N (the user's
    other memories) makes the same hits rarer, so they score higher."""
    assert bm25.idf(3, 3) == 1e-6 and bm25.idf(3, 2) == 1e-6
    assert bm25.idf(100, 3) == pytest.approx(np.log(97.5 / 3.5))
    tf = np.array([[1], [1], [1]])
    lengths = np.array([2, 1, 2])
    few = bm25.scores([bm25.idf(3, 3)], tf, lengths, 3, 5, OKAPI)
    assert all(0 < s < 1e-5 for s in few)
    many = bm25.scores([bm25.idf(100, 3)], tf, lengths, 100, 250, OKAPI)
    assert all(s > 1.0 for s in many)


def test_ties_go_by_id_and_zero_scores_are_not_hits() -> None:
    ids = ["c", "a", "d", "b", "e"]
    values = np.array([1.0, 2.0, 1.0, 1.0, 0.0])
    assert [ids[i] for i in bm25.best_first(ids, values, 10)] == ["a", "b", "c", "d"]
    assert [ids[i] for i in bm25.best_first(ids, values, 2)] == ["a", "b"], "ties at the cut are ordered by id"


def test_top_passing_walks_the_ranking_until_k_hits_pass() -> None:
    ids = [f"m{i:04d}" for i in range(2000)]
    values = np.linspace(2.0, 1.0, len(ids))
    asked: list[int] = []

    def late_ones(positions: list[int]) -> set[int]:
        asked.append(len(positions))
        return {i for i in positions if i >= 1500}

    got = bm25.top_passing(ids, values, 5, late_ones)
    assert [m for m, _ in got] == ids[1500:1505]
    assert asked[0] == 32 and sum(asked) <= 2000
    assert bm25.top_passing(ids, values, 5, lambda some: set()) == []


def test_best_first_is_by_score_then_id() -> None:
    """The numpy ranking with ties resolved by id only inside runs of equal scores gives the definition's
    order: positive scores, best first, ties by id, the first `limit`."""
    import random

    rng = random.Random(4)
    for trial in range(200):
        n = rng.randrange(1, 60)
        ids = [f"m{rng.randrange(10_000):05d}{'é' if rng.random() < 0.2 else ''}" for _ in range(n)]
        values = np.array([rng.choice([0.0, 1.5, 2.25, 2.25, 3.0, rng.random()]) for _ in range(n)])
        for limit in (1, 3, 10, n + 5):
            want = sorted((i for i in range(n) if values[i] > 0), key=lambda i: (-values[i], ids[i]))[:limit]
            assert bm25.best_first(ids, values, limit) == want, (trial, limit)
