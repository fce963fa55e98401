"""Okapi BM25: the one full-text ranking of every store.

Every store's index only *finds* the hits (SQLite: the in-memory postings of `store/sqlite/fulltext.py`;
Neo4j: a Lucene index; FalkorDB: RediSearch); the store then hands this module, for each hit, the term
frequencies of the query terms and the hit's length, with the user's statistics, and this module scores and
orders them. So SQLite, FalkorDB and Neo4j return the same ids in the same order with the same scores
(tests/conformance/test_fts_parity.py), and hybrid fusion reads the same raw BM25 on every store.

The definition (SQLite FTS5's `bm25()` formula, tests/test_bm25.py checks it value for value):

    score(d) = sum over distinct query terms t in d of  idf(t) * tf * (k1 + 1) / (tf + k1 * (1 - b + b * |d| / avgdl))
    idf(t)   = ln((N - df(t) + 0.5) / (df(t) + 0.5)), or 1e-6 where that is not positive

where terms are `memgraph.text.terms` (Snowball stems of memgraph's tokens), |d| is the memory's term count,
and N, df and avgdl are the **user's own** statistics: N the user's memories (every state: the filter does not
change them), df(t) how many of them hold t, avgdl their mean term count. No other tenant's text moves a
user's scores (FTS5's own statistics are index-wide; Lucene's too). k1 and b are in config.py.

Hand-written rather than taken from a library (bm25s, rank_bm25) because the statistics come from the store,
not from a corpus a library indexes, and because one function must give bit-identical floats on every store:
each store calls `scores` with the same arrays, so the same operations run in the same order.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from memgraph.config import Settings


@dataclass(frozen=True)
class Okapi:
    """The ranking's parameters (config.py: bm25_k1, bm25_b, fulltext_max_query_terms)."""

    k1: float = 1.2
    b: float = 0.75
    max_query_terms: int = 64

    @classmethod
    def from_settings(cls, settings: Settings) -> Okapi:
        return cls(settings.bm25_k1, settings.bm25_b, settings.fulltext_max_query_terms)


def idf(n_docs: int, df: int) -> float:
    """FTS5's idf: ln((N - df + 0.5) / (df + 0.5)), taken as 1e-6 where not positive (a term in more than half
    of the user's memories still counts, barely)."""
    value = math.log((n_docs - df + 0.5) / (df + 0.5))
    return value if value > 0.0 else 1e-6


def scores(
    idfs: Sequence[float], tf: np.ndarray, lengths: np.ndarray, n_docs: int, total_len: int, okapi: Okapi
) -> np.ndarray:
    """BM25 of each hit: `tf` is hits x query terms (how often each term is in each hit), `lengths` each hit's
    term count, `n_docs` and `total_len` the user's memory count and total term count."""
    k1, b = okapi.k1, okapi.b
    avgdl = total_len / n_docs if n_docs and total_len else 1.0
    norm = k1 * (1.0 - b + b * lengths.astype(np.float64) / avgdl)
    out = np.zeros(len(lengths), dtype=np.float64)
    for j, weight in enumerate(idfs):
        f = tf[:, j].astype(np.float64)
        out += np.where(f > 0, weight * (f * (k1 + 1.0)) / (f + norm), 0.0)
    return out


def term_counts(
    query: Sequence[str], docs: Sequence[tuple[str, str]]
) -> tuple[list[str], np.ndarray, np.ndarray, list[int]]:
    """(ids, term frequencies hits x query terms, lengths, document frequency of each query term) of hits
    given as (id, term field): how a Cypher store turns the index's hits into `scores`' arrays. The document
    frequencies are exact when `docs` holds every memory of the user with any query term (the index's hits)."""
    col = {t: j for j, t in enumerate(query)}
    tf = np.zeros((len(docs), len(query)), dtype=np.int32)
    lengths = np.zeros(len(docs), dtype=np.int32)
    for i, (_, doc) in enumerate(docs):
        words = doc.split()
        lengths[i] = len(words)
        for w in words:
            j = col.get(w)
            if j is not None:
                tf[i, j] += 1
    dfs = [int(n) for n in np.count_nonzero(tf, axis=0)]
    return [mid for mid, _ in docs], tf, lengths, dfs


def best_first(ids: Sequence[str], values: np.ndarray, limit: int) -> list[int]:
    """Positions of the `limit` best positive scores, best first, ties by id (every store orders alike)."""
    pos = np.flatnonzero(values > 0)
    if len(pos) > limit:
        kth = np.partition(values[pos], len(pos) - limit)[len(pos) - limit]
        pos = pos[values[pos] >= kth]  # ties with the limit-th score stay: the id decides among them
    # by score with numpy; ids read only inside runs of equal scores (a Python sort keyed on (score, id) of
    # every hit cost ~5% of a cascade recall at 10k memories)
    scores = values[pos]
    by_score = np.argsort(-scores, kind="stable")
    order: list[int] = pos[by_score].tolist()
    ranked = scores[by_score]
    tied = ranked[1:] == ranked[:-1]
    if tied.any():
        edges = np.diff(np.r_[0, tied.astype(np.int8), 0])
        for start, end in zip(np.flatnonzero(edges == 1).tolist(), np.flatnonzero(edges == -1).tolist(), strict=True):
            if start >= limit:
                break
            order[start : end + 1] = sorted(order[start : end + 1], key=ids.__getitem__)
    return order[:limit]


def top_passing(
    ids: Sequence[str], values: np.ndarray, k: int, passing: Callable[[list[int]], set[int]]
) -> list[tuple[str, float]]:
    """The k best hits that pass the filter, best first. `passing` is given positions into `ids` and says
    which pass. The ranking is walked in growing windows (2k, at least 32, then 4x), so a filter that passes
    nearly everything (the default: active, not archived) is asked about a few dozen hits, not every hit."""
    if k <= 0:
        return []
    out: list[tuple[str, float]] = []
    seen = 0
    window = max(2 * k, 32)
    while True:
        order = best_first(ids, values, seen + window)
        fresh = order[seen:]
        if not fresh:
            return out
        ok = passing(fresh)
        for i in fresh:
            if i in ok:
                out.append((ids[i], float(values[i])))
                if len(out) >= k:
                    return out
        if len(order) < seen + window:
            return out
        seen += window
        window *= 4
