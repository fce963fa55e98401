"""Cypher store: one `GraphStore` over Neo4j 5 (official driver) and FalkorDB (falkordb client).

Every statement is a named .cypher file shipped in the package (memgraph/cypher/, see its README);
`memgraph.store.dialect` loads them and holds the few real differences. A client runs them: Neo4j
(`memgraph.store.neo4j_executor`) or FalkorDB (`memgraph.store.falkordb_executor`); values are converted in
`memgraph.store.cypher_values`; the searches and the walk's hops are `memgraph.store.cypher_search`'s. Statements
MERGE by id, so a retry after a lost reply writes nothing twice.

Embeddings live on a separate `:MemoryVector` node (memgraph/cypher/README.md, "Why vectors have their own
node").
"""

from __future__ import annotations

import fnmatch
import json
import threading
from collections.abc import Sequence
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
from memgraph.store.base import (
    Direction,
    Expansion,
    JobRun,
    MemoryFilter,
    MemoryUpdate,
    StoredCentroid,
    WriteBatch,
    chunks,
    field_readers,
)
from memgraph.store.cypher_executor import Executor, log
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
from memgraph.store.cypher_schema import statements_to_apply
from memgraph.store.cypher_search import CypherSearch
from memgraph.store.cypher_values import (
    checked_vector,
    iso_ts,
    pack_vector,
    parse_ts,
    to_memory,
)
from memgraph.store.dialect import FALKORDB, NEO4J, Dialect, render_ints, without_parts
from memgraph.store.falkordb_executor import FalkorExecutor
from memgraph.store.neo4j_executor import Neo4jExecutor
from memgraph.store.read_only import check_read_only
from memgraph.store.traverse import ExpansionTable

#: Why an owner guard aborts when no input was at fault: a node of a look-alike owner (stored before the
#: identifier rule, memgraph/ids.py) that the store's index cannot tell from this user's.
_LOOKALIKE = (
    "the store's index matched a node of another owner whose id differs only by surrounding whitespace "
    "(stored before the identifier rule); nothing was written. `memgraph stats` counts such ids"
)
T = TypeVar("T")
#: Writes sent without their parts over an empty list (`dialect.without_parts`): statements each of whose
#: `CALL { UNWIND $list AS row ... }` parts returns one aggregated row, so a part left out changes no row.
_SENT_BY_PARTS = frozenset({"write_batch"})
#: The :Meta keys an open reads (the migration's schema version, the store's embedding dimension, the engine's
#: model check), read in one statement (meta_get_many.cypher) where each was a round trip of its own.
_OPEN_KEYS = ("schema_version", "embedding_dim", "embedding_model")
#: The statements that may run between that read and a use of its values (`CypherStore._opening`).
_META_STATEMENTS = frozenset({"meta_get", "meta_get_many", "meta_set", "meta_compare_and_set"})


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
        self._search = CypherSearch(self._read, self._filter, dialect, settings)
        #: The open's :Meta values, each served once to `get_meta` while no other statement has run since
        #: (a value another statement of this process could have changed is read again).
        self._opening: dict[str, str | None] = {}
        self._apply_schema()
        self._opening = {r["key"]: r["value"] for r in self._read("meta_get_many", keys=list(_OPEN_KEYS))}
        migrate(
            self.get_meta,
            self.compare_and_set_meta,
            self._read,
            self._write,
            f"the {self.name} graph",
            lambda: not self._read("migrate_terms_page", after="", limit=1),
        )
        stored = self.get_meta("embedding_dim")
        if stored is None:
            self.set_meta("embedding_dim", str(self.embedding_dim))
        stored_dim = int(stored or self.embedding_dim)
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
        statements = [render_ints(stmt, values) for stmt in self.dialect.schema()]
        check = self.dialect.schema_indexes()
        if check is not None:
            try:
                present = self._x.run(check, {}, write=False)
            except StoreError as exc:  # e.g. a user without the SHOW INDEX privilege: apply the file whole
                log.info("%s: cannot list the indexes (%s); applying the whole schema", self.name, exc)
            else:
                statements = statements_to_apply(statements, present)
        if statements:
            self._x.apply_schema(statements)

    def _read(self, name: str, **params: Any) -> list[dict[str, Any]]:
        if self._opening and name not in _META_STATEMENTS:
            self._opening = {}
        return self._x.run(self.dialect.statement(name), params, write=False)

    def _read_matrix(self, name: str, **params: Any) -> tuple[list[str], np.ndarray]:
        """A read returning (id, embedding) rows, as ids and one float32 matrix."""
        self._opening = {}
        return self._x.run_matrix(self.dialect.statement(name), params, self.embedding_dim)

    def _write(self, name: str, **params: Any) -> list[dict[str, Any]]:
        if self._opening and name not in _META_STATEMENTS:
            self._opening = {}
        statement = self.dialect.statement(name)
        if name in _SENT_BY_PARTS:
            empty = frozenset(k for k, v in params.items() if isinstance(v, list) and not v)
            statement = without_parts(statement, empty)
        return self._x.run(statement, params, write=True)

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
        if key in self._opening:
            value = self._opening.pop(key)
            return None if value is None else str(value)
        rows = self._read("meta_get", key=key)
        return None if not rows or rows[0]["value"] is None else str(rows[0]["value"])

    def set_meta(self, key: str, value: str) -> None:
        self._opening.pop(key, None)
        self._write("meta_set", key=key, value=value)

    def compare_and_set_meta(self, key: str, expected: str | None, value: str | None) -> bool:
        self._opening.pop(key, None)
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
        """Run write_batch (without the parts whose list is empty: `without_parts`); when a guard aborts it
        (nothing was written), say which input was at fault."""
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

    def stored_centroid(self, user_id: str) -> StoredCentroid | None:
        rows = self._read("user_centroid", user_id=user_id)
        if not rows or rows[0]["total"] is None or len(rows[0]["total"]) != self.embedding_dim:
            return None
        r = rows[0]
        total = np.asarray(r["total"], dtype=np.float64)
        return StoredCentroid(total, int(r["vectors"] or 0), int(r["memories"] or 0), int(r["read_at"] or 0))

    def store_centroid(self, user_id: str, centroid: StoredCentroid) -> None:
        self._write(
            "set_user_centroid",
            user_id=user_id,
            total=np.asarray(centroid.total, dtype=np.float64),
            vectors=centroid.vectors,
            memories=centroid.memories,
            read_at=centroid.read_at,
        )

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
        return self._search.vector_search_many(user_id, vectors, k, min_similarity=min_similarity, flt=flt)

    def vector_search(
        self,
        user_id: str,
        vector: np.ndarray,
        k: int,
        *,
        min_similarity: float = -1.0,
        flt: MemoryFilter | None = None,
    ) -> list[tuple[str, float]]:
        return self._search.vector_search(user_id, vector, k, min_similarity=min_similarity, flt=flt)

    def text_search(
        self, user_id: str, query: str, k: int, *, flt: MemoryFilter | None = None
    ) -> list[tuple[str, float]]:
        return self._search.text_search(user_id, query, k, flt=flt)

    def sequence_pairs(self, user_id: str, ids: Sequence[str]) -> list[tuple[str, str]]:
        return self._search.sequence_pairs(user_id, ids)

    def similarities(self, user_id: str, ids: Sequence[str], vector: np.ndarray) -> dict[str, float]:
        return self._search.similarities(user_id, ids, vector)

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
        return self._search.expand_table(
            user_id, seeds, max_depth=max_depth, fanout_cap=fanout_cap, weights=weights, flt=flt
        )

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
