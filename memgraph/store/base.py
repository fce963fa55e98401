"""The `GraphStore` protocol: the one seam between the engine and SQLite, Neo4j and FalkorDB.

Every method takes the owner first and is scoped by it; a store never returns, links to or counts a memory of
another user. Writes that belong together go through `write` (one transaction). Graph traversal (`expand`)
runs inside the store: Cypher on Neo4j and FalkorDB, a vectorised walk over in-memory adjacency arrays on
SQLite (store/sqlite/csr.py); the conformance suite checks that all three return the same expansions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import Enum
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar, runtime_checkable

import numpy as np
from pydantic import BaseModel, Field

from memgraph.errors import ValidationError
from memgraph.models import (
    Cluster,
    Gap,
    HasTag,
    InCluster,
    Layer,
    Link,
    Memory,
    MemoryKind,
    Provenance,
    Relation,
    Scope,
    StoreStats,
    Tag,
    TraceStep,
    utcnow,
)

if TYPE_CHECKING:
    from memgraph.store.traverse import ExpansionTable

#: Memory fields a `MemoryUpdate` may set. Anything else is refused (ids and owners never change).
UPDATABLE_FIELDS = frozenset(
    {
        "content",
        "kind",
        "layer",
        "scope",
        "updated_at",
        "last_accessed",
        "access_count",
        "strength",
        "importance",
        "confidence",
        "trust",
        "provenance",
        "active",
        "archived",
        "pinned",
        "compressed",
        "file_paths",
        "trigger_patterns",
        "metadata",
    }
)
#: Every stored Memory property besides id and user_id (what a store writes for a memory).
STORED_FIELDS = UPDATABLE_FIELDS | {"session_id", "created_at", "embedding_model"}
EnumT = TypeVar("EnumT", bound=Enum)
#: How a stored field becomes its `Memory` type when a store returns fields one by one (`memory_fields`).
FIELD_TYPES: dict[str, Any] = {
    "kind": MemoryKind,
    "layer": Layer,
    "scope": Scope,
    "provenance": Provenance,
    "created_at": datetime,
    "updated_at": datetime,
    "last_accessed": datetime,
    "access_count": int,
    "strength": int,
    "importance": float,
    "confidence": float,
    "trust": float,
    "active": bool,
    "archived": bool,
    "pinned": bool,
    "compressed": bool,
    "file_paths": list,
    "trigger_patterns": list,
    "metadata": dict,
}


def field_readers(
    fields: Sequence[str], overrides: dict[type, Callable[[Any], Any]]
) -> list[tuple[str, Callable[[Any], Any]]]:
    """(field, stored value -> Memory type) for `memory_fields`; `overrides` maps a `FIELD_TYPES` type to the
    store's own conversion (timestamps, JSON). Unknown or duplicate fields are refused."""
    wanted = list(fields)
    bad = sorted(set(wanted) - STORED_FIELDS)
    if bad or len(set(wanted)) != len(wanted):
        raise ValidationError(f"memory_fields takes distinct stored fields, not {', '.join(bad) or 'duplicates'}")
    out: list[tuple[str, Callable[[Any], Any]]] = []
    for f in wanted:
        typ = FIELD_TYPES.get(f)
        if typ is None:
            out.append((f, _same))
        elif typ in overrides:
            out.append((f, overrides[typ]))
        elif isinstance(typ, type) and issubclass(typ, Enum):
            out.append((f, enum_reader(typ)))
        else:
            out.append((f, typ))
    return out


def enum_reader(typ: type[EnumT]) -> Callable[[Any], EnumT]:
    """Stored value -> enum member by a dict lookup (the Enum constructor costs more, 100k rows a job read);
    an unknown value still goes through the constructor, which raises."""
    members = {m.value: m for m in typ}
    return lambda value: members.get(value) or typ(value)


def _same(value: Any) -> Any:
    return value


#: Numeric fields a `MemoryUpdate` may increment.
INCREMENTABLE_FIELDS = frozenset({"access_count", "strength", "confidence", "importance"})


def similarity_vector(vector: Any, dim: int) -> np.ndarray:
    """The vector of `similarities` in float64, or a typed error (wrong shape, NaN or inf): checked before a
    store reads anything, and by `cosines`."""
    q = np.asarray(vector, dtype=np.float64)
    if q.shape != (dim,) or not np.all(np.isfinite(q)):
        raise ValidationError(f"the vector must be {dim} finite floats")
    return q


def cosines(ids: Sequence[str], matrix: np.ndarray, vector: Any, dim: int) -> dict[str, float]:
    """{id: cosine(row, vector)} in float64 for `similarities` (every store the same arithmetic); a zero row or
    vector counts as similarity 0. A vector of the wrong shape, NaN or inf is a typed error."""
    q = similarity_vector(vector, dim)
    if not len(ids):
        return {}
    rows = np.asarray(matrix, dtype=np.float64)
    norms = np.linalg.norm(rows, axis=1)
    norms[norms == 0] = 1.0
    sims = (rows @ q) / (norms * (float(np.linalg.norm(q)) or 1.0))
    return dict(zip(ids, sims.tolist(), strict=True))


def query_matrix(vectors: Any, dim: int) -> np.ndarray:
    """Query vectors for `vector_search_many` as a float32 matrix, or a typed error (wrong shape, NaN/inf)."""
    queries = np.asarray(vectors, dtype=np.float32)
    if queries.ndim != 2 or queries.shape[1] != dim or not np.all(np.isfinite(queries)):
        raise ValidationError(f"query vectors must be rows of {dim} finite floats")
    return queries


class MemoryFilter(BaseModel):
    """Filters applied inside the store query. Defaults select what recall may serve."""

    kinds: list[MemoryKind] | None = None
    active: bool | None = True  # None: active and inactive
    include_archived: bool = False
    include_compressed: bool = False
    session_id: str | None = None
    pinned: bool | None = None  # True: only pinned memories (recall's baseline layer)
    tag: str | None = None
    min_importance: float | None = None
    files: list[str] | None = None  # project-scoped memories match when a file_paths glob matches one of these

    @classmethod
    def everything(cls) -> MemoryFilter:
        """No filter at all: jobs and exports see inactive, archived and compressed memories too."""
        return cls(active=None, include_archived=True, include_compressed=True)


class MemoryUpdate(BaseModel):
    """Set some fields of one memory and/or add to numeric ones; confidence/importance clamp to [0, 1]."""

    id: str
    set: dict[str, Any] = Field(default_factory=dict)
    inc: dict[str, float] = Field(default_factory=dict)


@dataclass
class WriteBatch:
    """Everything one ingest/remember call writes, applied in one transaction.

    `embeddings` rows align with `memories` (float32, n x dim). Memories are upserted by id (MERGE): a rerun
    of the same batch after a crash writes nothing twice.

    `batch_id` makes the whole batch idempotent: a store applies a batch with a given id at most once, and
    records the id (`applied_key`) in the same transaction. The outbox resends a queued batch under its id
    after a crash, so its increments and reinforcements never count twice. None: a fresh id per write.
    """

    memories: list[Memory] = field(default_factory=list)
    embeddings: np.ndarray | None = None
    tags: list[HasTag] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    updates: list[MemoryUpdate] = field(default_factory=list)
    #: HasTag edges to remove and memory edges (src, dst, relation) to delete, in the same transaction
    #: (consolidation moves edges and tags from merged memories to the kept one atomically).
    remove_tags: list[HasTag] = field(default_factory=list)
    delete_links: list[tuple[str, str, Relation]] = field(default_factory=list)
    batch_id: str | None = None

    def is_empty(self) -> bool:
        return not (
            self.memories or self.tags or self.links or self.updates or self.remove_tags or self.delete_links
        )

    def extend(self, other: WriteBatch) -> None:
        """Add `other`'s rows to this batch (one transaction for both); the embeddings stay aligned with the
        memories. `batch_id` stays this batch's."""
        if other.memories:
            if other.embeddings is None or (self.memories and self.embeddings is None):
                raise ValueError("a WriteBatch's memories need their embeddings")
            self.embeddings = (
                other.embeddings if self.embeddings is None else np.vstack([self.embeddings, other.embeddings])
            )
            self.memories += other.memories
        self.tags += other.tags
        self.links += other.links
        self.updates += other.updates
        self.remove_tags += other.remove_tags
        self.delete_links += other.delete_links


ItemT = TypeVar("ItemT")


def chunks(items: list[ItemT], size: int) -> Iterator[list[ItemT]]:
    """`items` in consecutive slices of at most `size`: bounded statement parameters on every store."""
    for i in range(0, len(items), size):
        yield items[i : i + size]


def applied_key(batch_id: str) -> str:
    """The store meta key that records a `WriteBatch.batch_id` as applied (`get_meta` tells whether it was)."""
    return f"applied_batch:{batch_id}"


class Expansion(BaseModel):
    """One memory reached by the cascade: from which seed, how deep, along which edges."""

    memory_id: str
    seed_id: str
    depth: int
    path: list[TraceStep]


class JobRun(BaseModel):
    """A record of one applied maintenance job (`memgraph history`)."""

    id: str
    job: str
    user_id: str | None = None
    started_at: datetime = Field(default_factory=utcnow)
    finished_at: datetime | None = None
    applied: bool = True
    counts: dict[str, Any] = Field(default_factory=dict)


Direction = Literal["out", "in", "both"]


@dataclass(frozen=True)
class StoredCentroid:
    """A user's novelty centroid as the write path last stored it (ingest/importance.py, `CentroidCache`): the
    sum of the unit embeddings of `vectors` memories, consistent with a store of `memories` memories, whose
    vectors were last read whole when it held `read_at`. A Cypher store keeps it on the user's :User node, so a
    new process (each CLI command) need not read every vector over the network to score one memory."""

    total: np.ndarray  # float64, the sum of unit embeddings
    vectors: int
    memories: int
    read_at: int


@runtime_checkable
class GraphStore(Protocol):
    """What every backend implements. See tests/conformance for the behaviour each method must have."""

    name: str
    embedding_dim: int

    # -- lifecycle and store metadata ---------------------------------------------------------------------
    def close(self) -> None: ...
    def get_meta(self, key: str) -> str | None: ...
    def set_meta(self, key: str, value: str) -> None: ...
    def compare_and_set_meta(self, key: str, expected: str | None, value: str | None) -> bool:
        """Atomically: if meta[key] == expected (None: absent), set it to value (None: delete) and return
        True; otherwise change nothing and return False. The job lock is built on this."""
        ...

    # -- writes -----------------------------------------------------------------------------------------------
    def write(self, user_id: str, batch: WriteBatch) -> None:
        """Apply a whole batch atomically: memories (upsert by id) + embeddings, tags, links, updates."""
        ...

    def update_memories(self, user_id: str, updates: Sequence[MemoryUpdate]) -> int:
        """Set-based update of many memories in one transaction; returns how many matched. Updates of the
        same shape go out as one statement per chunk (SQL `UPDATE ... FROM (VALUES ...)`, Cypher `UNWIND`),
        never one round trip per memory: batch jobs send thousands at once."""
        ...

    def delete_memories(self, user_id: str, ids: Sequence[str]) -> int:
        """Hard delete (prune with --apply only): the memories, their embeddings and all their edges."""
        ...

    def add_tags(self, user_id: str, pairs: Sequence[HasTag]) -> int: ...
    def remove_tags(self, user_id: str, pairs: Sequence[HasTag]) -> int: ...
    def upsert_links(self, user_id: str, links: Sequence[Link]) -> None:
        """MERGE on (src, dst, relation): an existing edge gets the new weight/source/reason/updated_at."""
        ...

    def delete_links(self, user_id: str, keys: Sequence[tuple[str, str, Relation]]) -> int: ...

    # -- erasure (memgraph/jobs/erase.py decides what to erase; these remove it) ---------------------------------
    def erase_memories(self, user_id: str, ids: Sequence[str]) -> dict[str, int]:
        """Hard-delete memories of the user in one transaction: the memories, their embeddings and full-text
        entries, every edge touching them, the user's Tag nodes they leave without a memory, and the clusters
        that held one of them (labels and centroids derive from the members; the cluster job rebuilds them).
        Every process's in-memory read structures drop them. Returns counts by kind ("memories", "tags",
        "clusters"). The bytes may survive in free pages or logs until `purge`."""
        ...

    def erase_user(self, user_id: str) -> dict[str, int]:
        """Hard-delete everything stored under `user_id` (memories, embeddings, tags, clusters, gaps, job runs),
        as `erase_memories` does for a few; returns counts by kind."""
        ...

    def purge(self) -> list[str]:
        """Make what was deleted unrecoverable from the store's files where the database allows it: SQLite
        rewrites its full-text index and truncates its write-ahead log (secure_delete zeroes freed pages),
        FalkorDB rewrites its append-only file and snapshot; Neo4j keeps transaction logs by design (README,
        "Identifiers, secrets and erasure"). Returns warnings (what could not be done), empty when everything was."""
        ...
    def upsert_tags(self, user_id: str, tags: Sequence[Tag]) -> int:
        """Create Tag nodes (no HasTag edges) or update their description when one is given; for import."""
        ...

    def delete_tags(self, user_id: str, names: Sequence[str]) -> int:
        """Remove Tag nodes and their HasTag edges (tag cleanup after a merge); returns tags removed."""
        ...

    def set_embeddings(self, user_id: str, ids: Sequence[str], matrix: np.ndarray, model: str) -> int:
        """Replace the embeddings (float32 rows aligned with ids) and embedding_model of existing memories of
        the user, in one transaction (reindex); returns how many matched."""
        ...

    # -- reads ------------------------------------------------------------------------------------------------
    def get_memories(self, user_id: str, ids: Sequence[str], *, with_embeddings: bool = False) -> list[Memory]:
        """Memories in the order of `ids`; unknown ids (or another user's) are left out."""
        ...

    def list_memories(
        self, user_id: str, flt: MemoryFilter | None = None, *, limit: int = 100, offset: int = 0
    ) -> list[Memory]:
        """Newest first."""
        ...

    def memory_fields(
        self, user_id: str, fields: Sequence[str], flt: MemoryFilter | None = None
    ) -> list[dict[str, Any]]:
        """`id` and the named stored fields (`STORED_FIELDS`) of every memory matching `flt`, in
        `list_memories` order, as the `Memory` model's Python types (enums, datetimes, dicts, lists). For batch
        jobs that need a few fields of every memory: no content, tags or embeddings are read or sent."""
        ...

    def count_memories(self, user_id: str, flt: MemoryFilter | None = None) -> int: ...
    def get_links(
        self,
        user_id: str,
        ids: Sequence[str] | None = None,
        *,
        relations: Sequence[Relation] | None = None,
        direction: Direction = "both",
    ) -> list[Link]:
        """Memory-to-memory edges touching `ids` (all of the user's when None)."""
        ...

    def sequence_pairs(self, user_id: str, ids: Sequence[str]) -> list[tuple[str, str]]:
        """(earlier, later) for every sequence link (`RelatesTo` with source `sequence`: ingest writes one from
        each turn of a session to the next) whose two ends are both among `ids`, sorted. Recall's reply rule
        reads a memory's previous turn with it (retrieve/replies.py): SQLite from its graph in memory, the
        Cypher stores in one statement, neither building a `Link` per edge as `get_links` does."""
        ...

    def similarities(self, user_id: str, ids: Sequence[str], vector: np.ndarray) -> dict[str, float]:
        """{id: cosine similarity between `vector` and the memory's embedding} for those of `ids` that are the
        user's and have one (`cosines`: float64 arithmetic; SQLite reads its normalised float32 rows, so the
        stores agree to ~1e-7). Recall's reply rule reads a few question candidates' cosines with it instead of
        their models (`get_memories(with_embeddings=True)`)."""
        ...

    def list_tags(self, user_id: str) -> list[Tag]: ...
    def find_tags(self, user_id: str, names: Sequence[str]) -> list[Tag]:
        """Tags (with member counts) whose name is one of `names`, or whose value after a `facet:` prefix is:
        `find_tags(u, ["ada"])` finds `ada` and `speaker:ada`. Recall uses it to match query terms to tags."""
        ...

    def embeddings(self, user_id: str, flt: MemoryFilter | None = None) -> tuple[list[str], np.ndarray]:
        """All (filtered) embeddings of a user as one float32 matrix, for jobs and novelty."""
        ...

    def stored_centroid(self, user_id: str) -> StoredCentroid | None:
        """The user's novelty centroid as `store_centroid` last kept it; None when there is none or the store
        keeps none (SQLite: its vectors are local, a read of them is cheap)."""
        ...

    def store_centroid(self, user_id: str, centroid: StoredCentroid) -> None:
        """Keep the user's novelty centroid for the next process (best effort; a no-op on SQLite)."""
        ...

    def vector_search(
        self,
        user_id: str,
        vector: np.ndarray,
        k: int,
        *,
        min_similarity: float = -1.0,
        flt: MemoryFilter | None = None,
    ) -> list[tuple[str, float]]:
        """Cosine-similarity kNN (higher is closer), best first."""
        ...

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
        """`vector_search` for each row of `vectors` (the write path's reconciliation asks for a whole batch):
        the same hits, one list per row. An exact store scans the user's vectors once per block of rows
        instead of once per row. `rerank`: an approximate index's fewest candidates checked exactly per row, in
        place of its own (which is tuned for recall's top 10); None keeps its own, and a store without such a
        stage ignores it."""
        ...

    def text_search(
        self, user_id: str, query: str, k: int, *, flt: MemoryFilter | None = None
    ) -> list[tuple[str, float]]:
        """Full-text (BM25-style) hits, best first; scores are positive, higher is better."""
        ...

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
        """Breadth-first from the seeds over every edge type, up to `max_depth` hops (Memory-Tag-Memory is
        two hops); memory-to-memory edges are followed both ways. Each memory reachable from a seed (other
        than that seed itself; another seed counts) appears once per seed with its shortest path, and only if
        it passes `flt`. Each step carries the relation's weight from `weights` (key "other" for relations not
        named there), RelatesTo its own weight; a step through a tag or cluster also carries `degree`, the
        number of memories with that tag / in that cluster. At most `fanout_cap` neighbours are followed from
        any one node per hop, so hub tags cannot flood the result: from a memory, its tags/clusters rarest
        first (fewest members, then weight, then name) and its linked memories by edge weight, then importance,
        then id; from a tag/cluster, its members by importance, then last_accessed (newest first), then id.
        The last hop fetches memories only. The walk itself is `memgraph.store.traverse.breadth_first`,
        shared by every store, so all stores return identical expansions."""
        ...

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
        """`expand`'s answer as arrays (`memgraph.store.traverse.ExpansionTable`), for the cascade's scoring:
        `expand_table(...).expansions() == expand(...)`. SQLite builds it from its walk, the Cypher stores from
        theirs (`traverse.walk`), neither with an `Expansion` per memory; a store that has only `expand` can
        return `ExpansionTable.of(expand(...))`."""
        ...

    # -- clusters, gaps, job runs ------------------------------------------------------------------------
    def list_clusters(self, user_id: str) -> list[Cluster]: ...
    def cluster_members(self, user_id: str) -> list[InCluster]: ...
    def replace_clusters(self, user_id: str, clusters: Sequence[Cluster], members: Sequence[InCluster]) -> None:
        """Atomically replace a user's clusters and InCluster edges."""
        ...

    def upsert_gap(self, gap: Gap) -> None: ...
    def list_gaps(self, user_id: str) -> list[Gap]: ...
    def record_job(self, run: JobRun) -> None: ...
    def list_jobs(self, limit: int = 50) -> list[JobRun]: ...

    # -- whole store -----------------------------------------------------------------------------------------
    def users(self) -> list[str]: ...
    def stats(self, user_id: str | None = None) -> StoreStats: ...
    def query(self, statement: str, params: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        """Run a read-only Cypher statement (Cypher stores); SQLite raises UnsupportedOperationError."""
        ...
