"""Cypher store: one `GraphStore` over Neo4j 5 (official driver) and FalkorDB (falkordb client).

Every statement is a named .cypher file shipped in the package (memgraph/cypher/, see its README);
`memgraph.store.dialect` loads them and holds the few real differences. A client runs them: Neo4j
(`memgraph.store.neo4j_executor`) or FalkorDB (`memgraph.store.falkordb_executor`); values are converted in
`memgraph.store.cypher_values`. Statements MERGE by id, so a retry after a lost reply writes nothing twice.

Embeddings live on a separate `:MemoryVector` node (memgraph/cypher/README.md, "Why vectors have their own
node").
"""

from __future__ import annotations

import fnmatch
import functools
import json
import logging
import threading
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any, TypeVar

import numpy as np

from memgraph.config import Settings
from memgraph.errors import ModelMismatchError, StoreError, ValidationError
from memgraph.models import (
    MEMORY_RELATIONS,
    Cluster,
    Gap,
    HasTag,
    InCluster,
    Link,
    Memory,
    Relation,
    StoreStats,
    Tag,
)
from memgraph.store import bm25
from memgraph.store.base import (
    Direction,
    Expansion,
    JobRun,
    MemoryFilter,
    MemoryUpdate,
    WriteBatch,
    chunks,
    field_readers,
    query_matrix,
)
from memgraph.store.bm25 import Okapi
from memgraph.store.cypher_executor import Executor
from memgraph.store.cypher_migrations import migrate
from memgraph.store.cypher_rows import (
    CHUNK,
    batch_params,
    cluster_row,
    gap_row,
    job_row,
    member_row,
    pair_rows,
    to_cluster,
    to_gap,
    to_job,
    to_link,
    to_tag,
)
from memgraph.store.cypher_values import (
    checked_vector,
    iso_ts,
    pack_vector,
    parse_ts,
    to_memory,
)
from memgraph.store.dialect import FALKORDB, NEO4J, Dialect, render_ints
from memgraph.store.falkordb_executor import FalkorExecutor
from memgraph.store.neo4j_executor import Neo4jExecutor
from memgraph.store.read_only import check_read_only
from memgraph.store.traverse import Degrees, ExpansionTable, Neighbours, walk
from memgraph.text import query_terms

#: Why an owner guard aborts when no input was at fault: a node of a look-alike owner (stored before the
#: identifier rule, memgraph/ids.py) that the store's index cannot tell from this user's.
_LOOKALIKE = (
    "the store's index matched a node of another owner whose id differs only by surrounding whitespace "
    "(stored before the identifier rule); nothing was written. `memgraph stats` counts such ids"
)
T = TypeVar("T")
#: Query vectors sent in one vector_search_many statement (~150 KB of parameters at 384 dimensions).
VECTOR_ROWS_PER_STATEMENT = 256
log = logging.getLogger(__name__)


class CypherStore:
    """The `GraphStore` for Neo4j and FalkorDB. Thread-safe: drivers pool connections; no shared cursor."""

    def __init__(self, executor: Executor, dialect: Dialect, settings: Settings) -> None:
        self._x = executor
        self.dialect = dialect
        self.name = dialect.name
        self.settings = settings
        self.embedding_dim = settings.embedding_dim
        self._lock = threading.RLock()
        self._closed = False
        self._packs = dialect.name == "falkordb" and settings.falkordb_packed_vectors
        self.okapi = Okapi.from_settings(settings)
        self._apply_schema()
        migrate(
            self.get_meta,
            self.compare_and_set_meta,
            self._read,
            self._write,
            f"the {self.name} graph",
            lambda: not self._read("migrate_terms_page", after="", limit=1),
        )
        if self.get_meta("embedding_dim") is None:
            self.set_meta("embedding_dim", str(self.embedding_dim))
        stored_dim = int(self.get_meta("embedding_dim") or self.embedding_dim)
        if stored_dim != self.embedding_dim:
            raise ModelMismatchError(
                f"store was built with {stored_dim}-dimensional embeddings, this engine uses {self.embedding_dim}"
            )

    # -- plumbing -------------------------------------------------------------------------------------------

    def _apply_schema(self) -> None:
        s = self.settings
        values = {
            "embedding_dim": s.embedding_dim,
            "hnsw_m": s.falkordb_hnsw_m,
            "hnsw_ef_construction": s.falkordb_hnsw_ef_construction,
            "hnsw_ef_runtime": s.falkordb_hnsw_ef_runtime,
        }
        self._x.apply_schema([render_ints(stmt, values) for stmt in self.dialect.schema()])

    def _read(self, name: str, **params: Any) -> list[dict[str, Any]]:
        return self._x.run(self.dialect.statement(name), params, write=False)

    def _read_matrix(self, name: str, **params: Any) -> tuple[list[str], np.ndarray]:
        """A read returning (id, embedding) rows, as ids and one float32 matrix."""
        return self._x.run_matrix(self.dialect.statement(name), params, self.embedding_dim)

    def _write(self, name: str, **params: Any) -> list[dict[str, Any]]:
        return self._x.run(self.dialect.statement(name), params, write=True)

    def _guarded_write(self, name: str, **params: Any) -> list[dict[str, Any]]:
        """A write whose MERGE of a Tag is guarded by the owner re-check (include/owner.cypher): when the
        index matched another owner's look-alike node the statement aborts and nothing is written."""
        try:
            return self._write(name, **params)
        except Exception as exc:
            if not self._x.is_guard_error(exc):
                raise
            raise StoreError(_LOOKALIKE) from None

    def close(self) -> None:
        with self._lock:
            if not self._closed:
                self._closed = True
                self._x.close()

    def get_meta(self, key: str) -> str | None:
        rows = self._read("meta_get", key=key)
        return None if not rows or rows[0]["value"] is None else str(rows[0]["value"])

    def set_meta(self, key: str, value: str) -> None:
        self._write("meta_set", key=key, value=value)

    def compare_and_set_meta(self, key: str, expected: str | None, value: str | None) -> bool:
        rows = self._write("meta_compare_and_set", key=key, expected=expected, value=value)
        return bool(rows and rows[0]["ok"])

    # -- filters --------------------------------------------------------------------------------------------

    def _filter(self, user_id: str, flt: MemoryFilter | None) -> dict[str, Any]:
        """The parameters of the shared filter predicate (every statement holds the same WHERE text)."""
        flt = flt or MemoryFilter()
        patterns: list[str] | None = None
        if flt.files is not None:
            globs = [r["pattern"] for r in self._read("file_patterns", user_id=user_id)]
            patterns = [g for g in globs if any(fnmatch.fnmatchcase(f, g) for f in flt.files)]
        return {
            "user_id": user_id,
            "active": flt.active,
            "include_archived": flt.include_archived,
            "include_compressed": flt.include_compressed,
            "kinds": [k.value for k in flt.kinds] if flt.kinds else None,
            "session_id": flt.session_id,
            "pinned": flt.pinned,
            "min_importance": flt.min_importance,
            "tag": flt.tag,
            "file_patterns": patterns,
        }

    # -- writes ---------------------------------------------------------------------------------------------

    def _vector_row(self, memory_id: str, values: Any) -> dict[str, Any]:
        """A vector's write row: the float list for the index, and on FalkorDB its packed copy for the jobs'
        matrix read (embeddings.cypher); null removes a stale copy."""
        vec = checked_vector(values, self.embedding_dim)
        return {"id": memory_id, "embedding": vec, "packed": pack_vector(vec) if self._packs else None}

    def _apply(self, user_id: str, params: dict[str, Any]) -> dict[str, Any]:
        """Run write_batch; when a guard aborts it (nothing was written), say which input was at fault."""
        try:
            rows = self._write("write_batch", **params)
        except Exception as exc:
            if not self._x.is_guard_error(exc):
                raise
            raise self._diagnose(user_id, params) from None
        return rows[0] if rows else {}

    def _diagnose(self, user_id: str, params: dict[str, Any]) -> ValidationError:
        ids = [m["id"] for m in params["memories"]]
        if ids:
            rows = self._read("memory_owners", ids=ids)
            if any(r["user_id"] != user_id for r in rows):
                return ValidationError("memory id belongs to another user")
        mine = set(ids)
        wanted = sorted({x for link in params["links"] for x in (link["src"], link["dst"])} - mine)
        found = {m.id for m in self.get_memories(user_id, wanted)}
        for link in params["links"]:
            if not {link["src"], link["dst"]} <= found | mine:
                return ValidationError(f"link {link['src']} -> {link['dst']}: both memories must belong to the user")
        return ValidationError(f"the batch was refused by the store's consistency guard ({_LOOKALIKE})")

    def write(self, user_id: str, batch: WriteBatch) -> None:
        if batch.is_empty():
            return
        self._apply(user_id, batch_params(user_id, batch, self._vector_row))

    def update_memories(self, user_id: str, updates: Sequence[MemoryUpdate]) -> int:
        if not updates:
            return 0
        params = batch_params(user_id, WriteBatch(updates=list(updates)), self._vector_row)
        return int(self._apply(user_id, params).get("updated") or 0)

    def delete_memories(self, user_id: str, ids: Sequence[str]) -> int:
        if not ids:
            return 0
        return int(self._write("delete_memories", user_id=user_id, ids=list(dict.fromkeys(ids)))[0]["deleted"])

    def add_tags(self, user_id: str, pairs: Sequence[HasTag]) -> int:
        rows = pair_rows(pairs)
        if not rows:
            return 0
        out = self._guarded_write("add_tags", user_id=user_id, tags=rows, now=iso_ts(datetime.now(UTC)))
        return int(out[0]["added"] or 0) if out else 0

    def remove_tags(self, user_id: str, pairs: Sequence[HasTag]) -> int:
        rows = pair_rows(pairs)
        if not rows:
            return 0
        out = self._write("remove_tags", user_id=user_id, tags=rows)
        return int(out[0]["removed"]) if out else 0

    def upsert_links(self, user_id: str, links: Sequence[Link]) -> None:
        if links:
            self.write(user_id, WriteBatch(links=list(links)))

    def delete_links(self, user_id: str, keys: Sequence[tuple[str, str, Relation]]) -> int:
        rows = [{"src": s, "dst": d, "relation": Relation.parse(r).value} for s, d, r in keys]
        if not rows:
            return 0
        out = self._write("delete_links", user_id=user_id, keys=rows)
        return int(out[0]["removed"]) if out else 0

    def upsert_tags(self, user_id: str, tags: Sequence[Tag]) -> int:
        rows = [{"name": t.name, "description": t.description} for t in tags]
        if not rows:
            return 0
        out = self._guarded_write("upsert_tags", user_id=user_id, tags=rows)
        return int(out[0]["upserted"]) if out else 0

    def delete_tags(self, user_id: str, names: Sequence[str]) -> int:
        wanted = list(dict.fromkeys(names))
        if not wanted:
            return 0
        out = self._write("delete_tags", user_id=user_id, names=wanted)
        return int(out[0]["removed"]) if out else 0

    def erase_memories(self, user_id: str, ids: Sequence[str]) -> dict[str, int]:
        wanted = list(dict.fromkeys(ids))
        out = {"memories": 0, "tags": 0, "clusters": 0}
        if not wanted:
            return out
        tags = sorted({t for m in self.get_memories(user_id, wanted) for t in m.tags})
        for chunk in chunks(wanted, CHUNK):
            row = self._write("erase_memories", user_id=user_id, ids=chunk, tags=tags)[0]
            for key in out:
                out[key] += int(row[key] or 0)
        return out

    def erase_user(self, user_id: str) -> dict[str, int]:
        row = self._write("erase_user", user_id=user_id)[0]
        return {k: int(v or 0) for k, v in row.items()}

    def purge(self) -> list[str]:
        return self._x.purge()

    def set_embeddings(self, user_id: str, ids: Sequence[str], matrix: np.ndarray, model: str) -> int:
        matrix = np.asarray(matrix, dtype=np.float32)
        if matrix.shape != (len(ids), self.embedding_dim):
            raise ValidationError(f"embeddings must be {len(ids)} x {self.embedding_dim}, got {matrix.shape}")
        rows = [self._vector_row(mid, row) for mid, row in zip(ids, matrix, strict=True)]
        if not rows:
            return 0
        out = self._write("set_embeddings", user_id=user_id, rows=rows, model=model)  # one statement: atomic
        return int(out[0]["updated"]) if out else 0

    # -- reads ----------------------------------------------------------------------------------------------

    def get_memories(self, user_id: str, ids: Sequence[str], *, with_embeddings: bool = False) -> list[Memory]:
        wanted = list(dict.fromkeys(ids))
        if not wanted:
            return []
        found: dict[str, Memory] = {}
        for chunk in chunks(wanted, CHUNK):
            for r in self._read("get_memories", user_id=user_id, ids=chunk, with_embeddings=with_embeddings):
                for props, tags, vector in r["memories"]:
                    mem = to_memory(props, tags, vector)
                    found[mem.id] = mem
        return [found[i] for i in wanted if i in found]

    def list_memories(
        self, user_id: str, flt: MemoryFilter | None = None, *, limit: int = 100, offset: int = 0
    ) -> list[Memory]:
        page = {**self._filter(user_id, flt), "offset": max(0, int(offset)), "limit": max(0, int(limit))}
        if page["session_id"] is not None:  # seeks the session's index (the write path asks on every write)
            rows = self._read("session_memories", **page)
        else:
            rows = self._read("list_memories", **page)
        return [to_memory(r["memory"], r["tags"]) for r in rows]

    def memory_fields(
        self, user_id: str, fields: Sequence[str], flt: MemoryFilter | None = None
    ) -> list[dict[str, Any]]:
        readers = field_readers(
            fields, {datetime: parse_ts, list: lambda v: list(v or []), dict: lambda v: json.loads(v or "{}")}
        )
        rows = self._read("memory_fields", **self._filter(user_id, flt), fields=["id", *(f for f, _ in readers)])
        out: list[dict[str, Any]] = []
        for r in rows:
            values = r["values"]
            out.append({"id": values[0], **{f: read(values[i]) for i, (f, read) in enumerate(readers, 1)}})
        return out

    def count_memories(self, user_id: str, flt: MemoryFilter | None = None) -> int:
        return int(self._read("count_memories", **self._filter(user_id, flt))[0]["n"])

    def get_links(
        self,
        user_id: str,
        ids: Sequence[str] | None = None,
        *,
        relations: Sequence[Relation] | None = None,
        direction: Direction = "both",
    ) -> list[Link]:
        rels = [Relation.parse(r).value for r in (relations or MEMORY_RELATIONS)]
        rows: list[dict[str, Any]] = []
        if ids is None:
            rows = self._read("get_links_all", user_id=user_id, relations=rels)
        else:
            id_list = list(dict.fromkeys(ids))
            for chunk in chunks(id_list, CHUNK):
                if direction in ("out", "both"):
                    rows += self._read("get_links_out", user_id=user_id, ids=chunk, relations=rels)
                if direction in ("in", "both"):
                    rows += self._read("get_links_in", user_id=user_id, ids=chunk, relations=rels)
        seen: set[tuple[str, str, str]] = set()
        out: list[Link] = []
        for r in rows:
            key = (r["relation"], r["src"], r["dst"])
            if key not in seen:
                seen.add(key)
                out.append(to_link(r))
        return out

    def list_tags(self, user_id: str) -> list[Tag]:
        return [to_tag(user_id, r) for r in self._read("list_tags", user_id=user_id)]

    def find_tags(self, user_id: str, names: Sequence[str]) -> list[Tag]:
        wanted = list(dict.fromkeys(n for n in names if n))
        if not wanted:
            return []
        return [to_tag(user_id, r) for r in self._read("find_tags", user_id=user_id, names=wanted)]

    def embeddings(self, user_id: str, flt: MemoryFilter | None = None) -> tuple[list[str], np.ndarray]:
        return self._read_matrix("embeddings", **self._filter(user_id, flt))

    def vector_search_many(
        self,
        user_id: str,
        vectors: np.ndarray,
        k: int,
        *,
        min_similarity: float = -1.0,
        flt: MemoryFilter | None = None,
    ) -> list[list[tuple[str, float]]]:
        """One index search per row (an HNSW search costs about log n: there is no full scan to share), sent
        `VECTOR_ROWS_PER_STATEMENT` rows to a statement (vector_search_many.cypher) rather than one round trip
        each; each row's answer then goes through `_vector_search` as its first request (a row short of k widens
        alone), so every row's hits are what `vector_search` returns for it."""
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

    def expand(
        self,
        user_id: str,
        seeds: Sequence[str],
        *,
        max_depth: int,
        fanout_cap: int,
        weights: dict[str, float],
        flt: MemoryFilter | None = None,
    ) -> list[Expansion]:
        """Breadth-first, one round of Cypher statements per hop (memgraph/cypher/queries/expand_*.cypher); the path
        bookkeeping is shared with SQLite (memgraph.store.traverse), so both return the same expansions."""
        table = self.expand_table(user_id, seeds, max_depth=max_depth, fanout_cap=fanout_cap, weights=weights, flt=flt)
        return table.expansions()

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
        hop = _Hops(self, self._filter(user_id, flt), int(fanout_cap), float(weights.get("RelatesTo:discovered", 1.0)))
        return walk(seeds, max_depth=max_depth, weights=weights, neighbours=hop.neighbours)

    # -- clusters, gaps, jobs -------------------------------------------------------------------------------

    def list_clusters(self, user_id: str) -> list[Cluster]:
        return [to_cluster(r["cluster"]) for r in self._read("list_clusters", user_id=user_id)]

    def cluster_members(self, user_id: str) -> list[InCluster]:
        return [
            InCluster(memory_id=r["memory_id"], cluster_id=r["cluster_id"], probability=float(r["probability"]))
            for r in self._read("cluster_members", user_id=user_id)
        ]

    def replace_clusters(self, user_id: str, clusters: Sequence[Cluster], members: Sequence[InCluster]) -> None:
        self._write(
            "replace_clusters",
            user_id=user_id,
            clusters=[cluster_row(c) for c in clusters],
            members=[member_row(m) for m in members],
            now=iso_ts(datetime.now(UTC)),
        )

    def upsert_gap(self, gap: Gap) -> None:
        self._write("upsert_gap", gap=gap_row(gap))

    def list_gaps(self, user_id: str) -> list[Gap]:
        return [to_gap(r["gap"]) for r in self._read("list_gaps", user_id=user_id)]

    def record_job(self, run: JobRun) -> None:
        self._write("record_job", job=job_row(run))

    def list_jobs(self, limit: int = 50) -> list[JobRun]:
        return [to_job(r["job"]) for r in self._read("list_jobs", limit=max(0, int(limit)))]

    # -- whole store ----------------------------------------------------------------------------------------

    def users(self) -> list[str]:
        return [r["user_id"] for r in self._read("users")]

    def stats(self, user_id: str | None = None) -> StoreStats:
        st = StoreStats(user_id=user_id)
        for r in self._read("stats_memories", user_id=user_id):
            n = int(r["n"])
            st.by_kind[r["kind"]] = n
            st.memories += n
            st.active += int(r["active"] or 0)
            st.archived += int(r["archived"] or 0)
        counts = self._read("stats_nodes", user_id=user_id)[0]
        st.tags, st.clusters, st.gaps, st.users = (
            int(counts["tags"]),
            int(counts["clusters"]),
            int(counts["gaps"]),
            int(counts["users"]),
        )
        st.edges = {r["relation"]: int(r["n"]) for r in self._read("stats_edges", user_id=user_id)}
        return st

    def query(self, statement: str, params: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        """Run a read-only Cypher statement: refused up front when it writes, and run so the server refuses
        writes too (Neo4j READ transaction, FalkorDB GRAPH.RO_QUERY)."""
        check_read_only(statement)
        if params is not None and not isinstance(params, dict):
            raise ValidationError("query parameters must be a mapping")
        return self._x.run_user(statement, dict(params or {}))


class _Hops:
    """The capped hops of one `expand` (see memgraph.store.traverse). A node's neighbours depend only on the
    node, the filter and the cap, so each node is asked once per expand: a memory or tag the walk reaches
    again at a later hop (from another seed) is answered from what the earlier hop read. The statements
    return one row per node with its neighbours as aligned lists, in the store's ranking order."""

    def __init__(self, store: CypherStore, fparams: dict[str, Any], cap: int, discovered: float) -> None:
        self._read = store._read
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


def open_cypher_store(target: str, settings: Settings) -> CypherStore:
    """bolt://, neo4j:// (and +s/+ssc) open Neo4j; falkordb://host:port[/graph] a FalkorDB server;
    falkordb+dir:///abs/path[?graph=name] an embedded FalkorDB whose files live in that directory."""
    if target.startswith(("bolt", "neo4j")):
        return CypherStore(Neo4jExecutor(target, settings), NEO4J, settings)
    if target.startswith(("falkordb://", "falkordb+dir://")):
        executor = FalkorExecutor(target, settings)
        try:
            return CypherStore(executor, FALKORDB, settings)
        except BaseException:
            executor.close()
            raise
    raise ValidationError(
        f"unknown Cypher store target {target!r}: use bolt://host:7687, neo4j://host:7687, "
        "falkordb://host:port[/graph] or falkordb+dir:///abs/path"
    )
