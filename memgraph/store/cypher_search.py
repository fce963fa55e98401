"""Searching a Cypher store: kNN through the shared vector index, full text ranked by BM25 on the user's own
statistics, and the capped hops of the cascade's walk.

`memgraph.store.cypher.CypherStore` holds one `CypherSearch` and hands its read methods to it; the store keeps the
writes and the reads of whole records. Every statement is a named .cypher file (memgraph/cypher/queries/).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from memgraph.config import Settings
from memgraph.store import bm25
from memgraph.store.base import MemoryFilter, chunks, cosines, query_matrix, similarity_vector
from memgraph.store.bm25 import Okapi
from memgraph.store.cypher_rows import CHUNK
from memgraph.store.cypher_values import checked_vector, vector_matrix
from memgraph.store.dialect import NEO4J, Dialect
from memgraph.store.traverse import Degrees, ExpansionTable, Neighbours, walk
from memgraph.text import query_terms

#: Runs a named read statement with its parameters and returns its records.
Reader = Callable[..., list[dict[str, Any]]]
#: Turns a user and an optional filter into the shared filter predicate's parameters.
FilterParams = Callable[[str, MemoryFilter | None], dict[str, Any]]
#: Query vectors sent in one vector_search_many statement (~150 KB of parameters at 384 dimensions).
VECTOR_ROWS_PER_STATEMENT = 256
log = logging.getLogger(__name__)


class CypherSearch:
    """The read path's searches over one Cypher store. Stateless between calls (thread-safe as the store is)."""

    def __init__(self, read: Reader, filter_params: FilterParams, dialect: Dialect, settings: Settings) -> None:
        self._read = read
        self._filter = filter_params
        self.dialect = dialect
        self.settings = settings
        self.embedding_dim = settings.embedding_dim
        self.okapi = Okapi.from_settings(settings)

    def sequence_pairs(self, user_id: str, ids: Sequence[str]) -> list[tuple[str, str]]:
        """GraphStore.sequence_pairs: sequence_pairs.cypher, one statement per chunk of the earlier ends."""
        wanted = list(dict.fromkeys(ids))
        pairs: set[tuple[str, str]] = set()
        for chunk in chunks(wanted, CHUNK):
            rows = self._read("sequence_pairs", user_id=user_id, ids=chunk, among=wanted)
            pairs.update((r["src"], r["dst"]) for r in rows)
        return sorted(pairs)

    def similarities(self, user_id: str, ids: Sequence[str], vector: np.ndarray) -> dict[str, float]:
        """GraphStore.similarities: the vectors by memory_vectors.cypher, the cosines here (`cosines`)."""
        similarity_vector(vector, self.embedding_dim)  # a bad vector is refused before any read
        out: dict[str, float] = {}
        for chunk in chunks(list(dict.fromkeys(ids)), CHUNK):
            rows = self._read("memory_vectors", user_id=user_id, ids=chunk)
            matrix = vector_matrix([r["embedding"] for r in rows], [r["packed"] for r in rows], self.embedding_dim)
            out.update(cosines([r["id"] for r in rows], matrix, vector, self.embedding_dim))
        return out

    def vector_search_many(
        self,
        user_id: str,
        vectors: np.ndarray,
        k: int,
        *,
        min_similarity: float = -1.0,
        flt: MemoryFilter | None = None,
        rerank: int | None = None,
    ) -> list[list[tuple[str, float]]]:
        """One index search per row (an HNSW search costs about log n: there is no full scan to share), sent
        `VECTOR_ROWS_PER_STATEMENT` rows to a statement (vector_search_many.cypher) rather than one round trip
        each; each row's answer then goes through `_vector_search` as its first request (a row short of k widens
        alone), so every row's hits are what `vector_search` returns for it. `rerank` is ignored: the server's
        HNSW index has no re-ranking stage."""
        queries = query_matrix(vectors, self.embedding_dim)
        if k <= 0 or not len(queries):
            return [[] for _ in range(len(queries))]
        base = {**self._filter(user_id, flt), "k": int(k)}
        if len(queries) == 1:
            return [self._vector_search({**base, "vector": queries[0]}, k, min_similarity)]
        counts = functools.cache(lambda: self._vector_counts(base))  # the same for every row: read once
        out: list[list[tuple[str, float]]] = []
        for start in range(0, len(queries), VECTOR_ROWS_PER_STATEMENT):
            block = queries[start : start + VECTOR_ROWS_PER_STATEMENT]
            answers: list[list[dict[str, Any]]] = [[] for _ in range(len(block))]
            for r in self._read("vector_search_many", **base, vectors=block, candidates=self._candidates(k)):
                answers[int(r["i"])].append(r)
            out += [
                self._vector_search({**base, "vector": row}, k, min_similarity, first=rows, counts=counts)
                for row, rows in zip(block, answers, strict=True)
            ]
        return out

    def vector_search(
        self,
        user_id: str,
        vector: np.ndarray,
        k: int,
        *,
        min_similarity: float = -1.0,
        flt: MemoryFilter | None = None,
    ) -> list[tuple[str, float]]:
        """kNN through the shared vector index, filtered in the query. The index holds every user's vectors,
        so it is asked for more candidates than k (vector_overfetch, at least vector_min_candidates); when the
        user/filter leave fewer than k, the request widens x4 until the index is exhausted or reaches
        vector_max_candidates, and then the user's filtered vectors are searched exactly. (The overfetch is
        for the filter; FalkorDB's recall is set by efRuntime alone.)"""
        vec = checked_vector(vector, self.embedding_dim)
        if k <= 0:
            return []
        params = {**self._filter(user_id, flt), "vector": vec, "k": int(k)}
        return self._vector_search(params, k, min_similarity)

    def _vector_counts(self, params: dict[str, Any]) -> tuple[int, int]:
        """Vectors in the shared index (every user's), and this user's that pass the filter (vector_counts)."""
        fparams = {key: value for key, value in params.items() if key not in ("vector", "vectors", "k")}
        row = self._read("vector_counts", **fparams)[0]
        return int(row["total"]), int(row["mine"])

    def _candidates(self, k: int) -> int:
        """Candidates the first request asks of the index for k hits (vector_overfetch, vector_min_candidates)."""
        return max(int(k) * self.settings.vector_overfetch, self.settings.vector_min_candidates)

    def _vector_search(
        self,
        params: dict[str, Any],
        k: int,
        min_similarity: float,
        first: list[dict[str, Any]] | None = None,
        counts: Callable[[], tuple[int, int]] | None = None,
    ) -> list[tuple[str, float]]:
        """The counts (`_vector_counts`) are read only when the first request comes back short of k (one round
        trip less per search in the common case); a short request that holds every vector of the user's that
        passes the filter is complete (widening would find the same rows). `first`: the first request's rows,
        already read (vector_search_many asks it for a whole batch, and reads the counts once for its rows);
        only a row short of k asks again, wider."""
        s = self.settings
        candidates = self._candidates(k)
        total: int | None = None
        while True:
            asked = candidates if total is None else min(candidates, max(total, 1))
            if first is not None:
                rows, first = first, None
            else:
                rows = self._read("vector_search", **params, candidates=asked)
            if len(rows) >= k:
                break
            if total is None:
                total, mine = counts() if counts is not None else self._vector_counts(params)
                if len(rows) >= mine:
                    break
            if asked >= total:
                break
            if candidates >= s.vector_max_candidates:
                rows = self._read("vector_search_exact", **params)
                break
            candidates = min(candidates * 4, s.vector_max_candidates)
        hits = [(r["id"], self.dialect.similarity(r["score"])) for r in rows]
        hits.sort(key=lambda h: (-h[1], h[0]))
        return [(mid, sim) for mid, sim in hits[:k] if sim >= min_similarity]

    def text_search(
        self, user_id: str, query: str, k: int, *, flt: MemoryFilter | None = None
    ) -> list[tuple[str, float]]:
        """The index finds the user's hits; they are ranked here by BM25 on the user's own statistics
        (store/bm25.py), exactly as the SQLite store ranks them."""
        words = query_terms(query, self.okapi.max_query_terms)
        if not words or k <= 0:
            return []
        limit = self.settings.fulltext_max_matches
        fparams = self._filter(user_id, flt)
        hits, stats, passes = self._text_hits(fparams, words, limit)
        if not hits:
            return []
        if len(hits) >= limit:
            log.warning(
                "full-text query of %d terms has more than %d hits for one user: ranked on the first %d "
                "(fulltext_max_matches)",
                len(words),
                limit,
                limit,
            )
        n_docs, total_len = max(stats[0], len(hits)), stats[1]
        ids, tf, lengths, dfs = bm25.term_counts(words, hits)
        values = bm25.scores([bm25.idf(n_docs, df) for df in dfs], tf, lengths, n_docs, total_len, self.okapi)

        def passing(positions: list[int]) -> set[int]:
            if passes is not None:
                return {i for i in positions if passes[i]}
            at = {ids[i]: i for i in positions}
            return {at[r["id"]] for r in self._read("passing_memories", **fparams, ids=list(at))}

        return bm25.top_passing(ids, values, k, passing)

    def _text_hits(
        self, fparams: dict[str, Any], words: list[str], limit: int
    ) -> tuple[list[tuple[str, str]], tuple[int, int], list[bool] | None]:
        """The user's hits as (id, fts), the user's BM25 statistics (memories, terms) and, where the statement
        says it (Neo4j: one reply holds all three), whether each hit passes the filter; else (FalkorDB) None,
        the statistics read by text_stats and the filter asked by passing_memories."""
        query = self.dialect.fulltext_query(words)
        if self.dialect.name == NEO4J.name:
            rows = self._read("text_search", **fparams, query=query, limit=limit)
            if not rows:
                return [], (0, 0), None
            r = rows[0]
            hits = list(zip(r["ids"], [f or "" for f in r["fts"]], strict=True))
            return hits, (int(r["n"] or 0), int(r["total"] or 0)), [bool(p) for p in r["passes"]]
        user_id = fparams["user_id"]
        rows = self._read("text_search", user_id=user_id, query=query, limit=limit)
        if not rows:
            return [], (0, 0), None
        stats = self._read("text_stats", user_id=user_id)[0]
        return [(r["id"], r["fts"] or "") for r in rows], (int(stats["n"] or 0), int(stats["total"] or 0)), None

    def expand_table(
        self,
        user_id: str,
        seeds: Sequence[str],
        *,
        max_depth: int,
        fanout_cap: int,
        weights: dict[str, float],
        flt: MemoryFilter | None = None,
    ) -> ExpansionTable:
        """`expand`'s answer as a table (the same walk; no `Expansion` objects made: the cascade scores arrays)."""
        discovered = float(weights.get("RelatesTo:discovered", 1.0))
        hop = _Hops(self._read, self._filter(user_id, flt), int(fanout_cap), discovered)
        return walk(seeds, max_depth=max_depth, weights=weights, neighbours=hop.neighbours)


class _Hops:
    """The capped hops of one `expand` (see memgraph.store.traverse). A node's neighbours depend only on the
    node, the filter and the cap, so each node is asked once per expand: a memory or tag the walk reaches
    again at a later hop (from another seed) is answered from what the earlier hop read. The statements
    return one row per node with its neighbours as aligned lists, in the store's ranking order."""

    def __init__(self, read: Reader, fparams: dict[str, Any], cap: int, discovered: float) -> None:
        self._read = read
        self._fparams = fparams
        self._cap = cap
        self._discovered = discovered
        self._facets: dict[str, list[tuple[str, tuple[str, str], float]]] = {}
        self._links: dict[str, list[tuple[str, tuple[str, str], float]]] = {}
        self._members: dict[tuple[str, str], list[tuple[str, tuple[str, str], float]]] = {}
        self._degrees: Degrees = {}

    def neighbours(self, nodes: set[tuple[str, str]], to_groups: bool) -> tuple[Neighbours, Degrees]:
        """One capped hop; at the last hop (`to_groups` False) the edges to tags and clusters are not fetched."""
        if self._cap <= 0:
            return {}, {}
        user_id, cap = self._fparams["user_id"], self._cap
        mem_ids = sorted(n[1] for n in nodes if n[0] == "m")
        if to_groups:
            for chunk in chunks([m for m in mem_ids if m not in self._facets], CHUNK):
                for mid in chunk:
                    self._facets[mid] = []
                for r in self._read("expand_facets", user_id=user_id, ids=chunk, cap=cap):
                    for node, rels, others, weights, degrees in zip(
                        r["nodes"], r["relations"], r["others"], r["weights"], r["degrees"], strict=True
                    ):
                        hops = self._facets[node]
                        for rel, other, weight, degree in zip(rels, others, weights, degrees, strict=True):
                            key = ("t" if rel == "HasTag" else "c", other)
                            hops.append((rel, key, float(weight)))
                            self._degrees[key] = int(degree)
        for chunk in chunks([m for m in mem_ids if m not in self._links], CHUNK):
            for mid in chunk:
                self._links[mid] = []
            for r in self._read("expand_links", **self._fparams, ids=chunk, cap=cap, discovered=self._discovered):
                for node, rels, others, weights in zip(
                    r["nodes"], r["relations"], r["others"], r["weights"], strict=True
                ):
                    self._links[node] = [
                        (rel, ("m", other), float(weight))
                        for rel, other, weight in zip(rels, others, weights, strict=True)
                    ]
        for chunk in chunks(sorted(n[1] for n in nodes if n[0] == "t" and n not in self._members), CHUNK):
            for name in chunk:
                self._members[("t", name)] = []
            for r in self._read("expand_tag_members", **self._fparams, names=chunk, cap=cap):
                for node, others in zip(r["nodes"], r["others"], strict=True):
                    self._members[("t", node)] = [("HasTag", ("m", o), 1.0) for o in others]
        for chunk in chunks(sorted(n[1] for n in nodes if n[0] == "c" and n not in self._members), CHUNK):
            for cid in chunk:
                self._members[("c", cid)] = []
            for r in self._read("expand_cluster_members", **self._fparams, ids=chunk, cap=cap):
                for node, others, weights in zip(r["nodes"], r["others"], r["weights"], strict=True):
                    self._members[("c", node)] = [
                        ("InCluster", ("m", o), float(w)) for o, w in zip(others, weights, strict=True)
                    ]
        out: Neighbours = {}
        for node in nodes:
            if node[0] == "m":
                found = [*(self._facets.get(node[1], []) if to_groups else []), *self._links[node[1]]]
            else:
                found = self._members[node]
            if found:
                out[node] = found
        return out, self._degrees
