"""`SQLiteStore`, the embedded `GraphStore`: opens the file (connection.py) and brings its schema up to date
(migrations.py). Writes: one transaction each, whose SQL is in writes.py and which records the memories it
touched in the change log (changelog.py). Reads by SQL are in reads.py; vector search and the cascade run on
the in-memory read structures (mirror.py: columns.py, adjacency.py, ann.py; the walk in csr.py), full-text
search on per-user postings (fulltext.py).

Thread-safe: writes go through one connection behind a lock, reads through a connection per thread (WAL lets
them run beside a writer). Safe across processes (WAL + busy retries; the change log keeps every process's
structures in step).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Hashable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from memgraph.errors import ModelMismatchError, ValidationError
from memgraph.models import Cluster, Gap, HasTag, InCluster, Link, Memory, Relation, Tag
from memgraph.store.base import (
    Expansion,
    JobRun,
    MemoryFilter,
    MemoryUpdate,
    WriteBatch,
    applied_key,
    cosines,
    query_matrix,
    similarity_vector,
)
from memgraph.store.bm25 import Okapi
from memgraph.store.sqlite import changelog, csr, erase, memo, snapshot
from memgraph.store.sqlite.ann import AnnConfig, ann_search, finish_builds, forget
from memgraph.store.sqlite.connection import Database
from memgraph.store.sqlite.fulltext import FullText
from memgraph.store.sqlite.migrations import migrate
from memgraph.store.sqlite.mirror import Changes, Mirror, UserState
from memgraph.store.sqlite.reads import SQLReads
from memgraph.store.sqlite.rows import glob_any, where
from memgraph.store.sqlite.search import candidates, exact
from memgraph.store.sqlite.writes import Writes
from memgraph.store.traverse import ExpansionTable

DB_FILE = "memgraph.sqlite3"


class SQLiteStore(SQLReads):
    """The embedded `GraphStore`. Thread-safe: writes go through one connection behind a lock, reads through a
    connection per thread (WAL lets them run beside a writer). Safe across processes (WAL + busy retries)."""

    name = "sqlite"
    #: Its walk (csr.py) has a compiled form an engine may warm (compiled_walk.py, Settings.compiled_walk).
    walks_compiled = True

    def __init__(
        self,
        path: str | Path,
        *,
        embedding_dim: int = 384,
        busy_timeout_ms: int = 5000,
        retry_attempts: int = 5,
        retry_base_delay: float = 0.05,
        okapi: Okapi | None = None,
        change_log_keep: int = 200_000,
        ann: AnnConfig | None = None,
        memory_rows_cached: int = 20_000,
    ) -> None:
        self.embedding_dim = embedding_dim
        self.path: Path | None
        if str(path) == ":memory:":
            self.path = None
            target = ":memory:"
        else:
            directory = Path(path).expanduser()
            directory.mkdir(parents=True, exist_ok=True)
            self.path = directory / DB_FILE
            target = str(self.path)
        self._db = Database(
            target,
            busy_timeout_ms=busy_timeout_ms,
            retry_attempts=retry_attempts,
            retry_base_delay=retry_base_delay,
            functions=[("mg_glob_any", 2, glob_any)],
        )
        try:
            migrate(self._db)
            # the derived files (snapshots, the saved vector index) live beside the database; none in memory
            files = self.path.parent if self.path else None
            self._mirror = Mirror(self._db, embedding_dim, memo_limit=memory_rows_cached, directory=files)
            self._text = FullText(self._db, okapi or Okapi(), directory=files)
            self._changes = Changes()  # what the open write transaction touches (see _tx)
            self._change_log_keep = change_log_keep
            self._ann = replace(ann or AnnConfig(), directory=files)
            self._check_dim(embedding_dim)
        except BaseException:
            self._db.close()
            raise

    def _check_dim(self, embedding_dim: int) -> None:
        """A new store records its embedding dimension; an existing one must match it."""
        if self.get_meta("embedding_dim") is None:
            with self._tx():
                if self._get_meta("embedding_dim") is None:
                    self._set_meta("embedding_dim", str(embedding_dim))
        stored_dim = int(self.get_meta("embedding_dim") or embedding_dim)
        if stored_dim != embedding_dim:
            raise ModelMismatchError(
                f"store was built with {stored_dim}-dimensional embeddings, this engine uses {embedding_dim}"
            )

    # -- plumbing ---------------------------------------------------------------------------------------

    @property
    def _conn(self) -> sqlite3.Connection:
        """The writer connection (tests trace its statements)."""
        return self._db.conn

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        """One IMMEDIATE transaction: all or nothing. The memories it touched go into the change log inside
        it, so every reader's structures (this process's too) re-read them once it commits."""
        changes = Changes()
        with self._db.transaction() as conn:
            self._changes = changes
            yield conn
            if changes:
                changelog.record(conn, changes)
                changelog.trim(conn, self._change_log_keep)

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        return self._db.read(sql, params)

    def close(self) -> None:
        if self._ann.directory is not None:
            finish_builds(self._mirror)  # a vector index still building is saved for the next process
        self._db.close()

    def refresh(self, user_id: str) -> None:
        """Bring the in-memory read structures up to date with every commit now, rather than at the next read:
        recall's maintenance calls it after its writes (on its background thread), so the next recall does
        not re-read the memories the last one credited (~1.5-2 ms at 10k memories). `user_id` names the user
        written; every loaded user catches up (one change-log read serves them all)."""
        if self._mirror.loaded(user_id):
            self._mirror.refresh()

    def load_user(self, user_id: str, *, graph: bool = True, text: bool = True) -> None:
        """Load the user's read structures now (columns; with `graph` the graph arrays, with `text` the
        full-text index) rather than at the first read: the MCP server and the CLI do it on a background thread
        while the model loads, so the first read does not pay it (~0.5 s of CPU at 10k memories). A read
        meanwhile waits for this load (the structures' locks) instead of starting its own."""
        with self._mirror.user(user_id, graph=graph):
            pass
        if text:
            with self._text.index(user_id):
                pass

    def get_meta(self, key: str) -> str | None:
        rows = self._read("SELECT value FROM meta WHERE key = ?", (key,))
        return rows[0][0] if rows else None

    def _get_meta(self, key: str) -> str | None:
        row = self._conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def _set_meta(self, key: str, value: str) -> None:
        self._conn.execute(
            "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    def set_meta(self, key: str, value: str) -> None:
        with self._tx():
            self._set_meta(key, value)

    def compare_and_set_meta(self, key: str, expected: str | None, value: str | None) -> bool:
        with self._tx() as conn:
            if self._get_meta(key) != expected:
                return False
            if value is None:
                conn.execute("DELETE FROM meta WHERE key = ?", (key,))
            else:
                self._set_meta(key, value)
            return True

    # -- writes (the SQL is in writes.py) -----------------------------------------------------------------

    #: The writes of one transaction (a subclass may inject faults here: tests/ingest/test_pipeline.py).
    _writes: type[Writes] = Writes

    @contextmanager
    def _write(self) -> Iterator[Writes]:
        with self._tx() as conn:
            yield self._writes(conn, self._changes, self.embedding_dim)

    def write(self, user_id: str, batch: WriteBatch) -> None:
        if batch.embeddings is not None and len(batch.embeddings) != len(batch.memories):
            raise ValidationError("embeddings rows must align with memories")
        with self._write() as w:
            if batch.batch_id is not None:
                key = applied_key(batch.batch_id)
                if w.conn.execute("SELECT 1 FROM meta WHERE key = ?", (key,)).fetchone() is not None:
                    return  # applied before: a batch with an id is applied at most once
                w.conn.execute("INSERT INTO meta(key, value) VALUES (?, ?)", (key, batch.batch_id))
            w.batch(user_id, batch)

    def update_memories(self, user_id: str, updates: Sequence[MemoryUpdate]) -> int:
        with self._write() as w:
            return w.update(user_id, updates)

    def delete_memories(self, user_id: str, ids: Sequence[str]) -> int:
        with self._write() as w:
            return w.delete_memories(user_id, ids)

    def add_tags(self, user_id: str, pairs: Sequence[HasTag]) -> int:
        with self._write() as w:
            return w.add_tags(user_id, pairs)

    def remove_tags(self, user_id: str, pairs: Sequence[HasTag]) -> int:
        with self._write() as w:
            return w.remove_tags(user_id, pairs)

    def upsert_tags(self, user_id: str, tags: Sequence[Tag]) -> int:
        with self._write() as w:
            return w.upsert_tags(user_id, tags)

    def delete_tags(self, user_id: str, names: Sequence[str]) -> int:
        with self._write() as w:
            return w.delete_tags(user_id, names)

    def upsert_links(self, user_id: str, links: Sequence[Link]) -> None:
        with self._write() as w:
            w.upsert_links(user_id, links)

    def delete_links(self, user_id: str, keys: Sequence[tuple[str, str, Relation]]) -> int:
        with self._write() as w:
            return w.delete_links(user_id, keys)

    def erase_memories(self, user_id: str, ids: Sequence[str]) -> dict[str, int]:
        with self._tx() as conn:
            counts = erase.erase_memories(conn, self._changes, user_id, ids)
        forget(self._ann.directory, user_id)  # the saved vector index holds codes of the erased vectors
        snapshot.forget(self._mirror.directory, user_id)  # the saved read structures hold their vectors and ids
        return counts

    def erase_user(self, user_id: str) -> dict[str, int]:
        with self._tx() as conn:
            counts = erase.erase_user(conn, self._changes, user_id)
        forget(self._ann.directory, user_id)
        snapshot.forget(self._mirror.directory, user_id)
        return counts

    def purge(self) -> list[str]:
        return erase.purge(self._db)

    def set_embeddings(self, user_id: str, ids: Sequence[str], matrix: np.ndarray, model: str) -> int:
        matrix = np.asarray(matrix, dtype=np.float32)
        if matrix.shape != (len(ids), self.embedding_dim):
            raise ValidationError(f"embeddings must be {len(ids)} x {self.embedding_dim}, got {matrix.shape}")
        with self._write() as w:
            return w.set_embeddings(user_id, ids, matrix, model)

    def replace_clusters(self, user_id: str, clusters: Sequence[Cluster], members: Sequence[InCluster]) -> None:
        with self._write() as w:
            w.replace_clusters(user_id, clusters, members)

    def upsert_gap(self, gap: Gap) -> None:
        with self._write() as w:
            w.upsert_gap(gap)

    def record_job(self, run: JobRun) -> None:
        with self._write() as w:
            w.record_job(run)

    # -- reads -------------------------------------------------------------------------------------------

    def get_memories(self, user_id: str, ids: Sequence[str], *, with_embeddings: bool = False) -> list[Memory]:
        """From the user's cached rows (memo.py) once its read structures are loaded, else by SQL (reads.py)."""
        wanted = list(dict.fromkeys(ids))
        entries = None if with_embeddings or not wanted else self._mirror.memory_rows(user_id, wanted)
        if entries is None:
            return super().get_memories(user_id, ids, with_embeddings=with_embeddings)
        out = []
        for mid in wanted:
            entry = entries.get(mid)
            if entry is not None:
                out.append(memo.copy(entry))
        return out

    def read_memories(self, user_id: str, ids: Sequence[str]) -> list[Memory]:
        """`get_memories` without the copies: the row cache's own objects, for a caller that only reads them and
        copies what it hands out (`copy_memories`). Recall reads ~190 memories by id (its seeds' supersede check,
        the candidates it scores) and returns ~10: a copy each was ~20% of those reads' cost (10k memories)."""
        wanted = list(dict.fromkeys(ids))
        entries = self._mirror.memory_rows(user_id, wanted) if wanted else None
        if entries is None:
            return super().get_memories(user_id, wanted)
        return [entry[0] for mid in wanted if (entry := entries.get(mid)) is not None]

    def copy_memories(self, memories: Sequence[Memory]) -> list[Memory]:
        """Copies of memories `read_memories` gave, sharing nothing mutable with the cache: what a caller hands
        out."""
        return [memo.copy_memory(m) for m in memories]

    def list_memories(
        self, user_id: str, flt: MemoryFilter | None = None, *, limit: int = 100, offset: int = 0
    ) -> list[Memory]:
        """By SQL (reads.py); when the user's structures are loaded and no memory passes the filter there (a
        recall's constraint and pinned scans, on most stores), without it."""
        if limit > 0 and self._mirror.loaded(user_id):
            with self._mirror.user(user_id, graph=_by_tag(flt)) as state:
                if not self._mask(state, flt).any():
                    return []
        return super().list_memories(user_id, flt, limit=limit, offset=offset)

    def find_tags_in_use(self, user_id: str, names: Sequence[str]) -> list[Tag]:
        """`find_tags` less the tags no memory carries (count 0), without descriptions: what recall's cue
        detection reads (retrieve/cues.py), from the user's graph in memory. The SQL (reads.py) matched the
        query's terms against every tag name of the user and counted members per tag: ~6 ms per recall at
        10k memories (load 4.4), against tens of microseconds here."""
        with self._mirror.user(user_id) as state:
            found = state.graph.tags_named(names)
        return [Tag(name=name, user_id=user_id, count=count) for name, count in found]

    # -- searches and the cascade: on the in-memory structures ---------------------------------------------

    def _mask(self, state: UserState, flt: MemoryFilter | None) -> np.ndarray:
        """The filter as a mask over the user's rows (read-only): kept while the columns are unchanged, since
        one recall asks for the same few filters ~7 times (its searches, the walk, the constraint and pinned
        scans) and each is a pass over every row (~1 ms apiece at 100k memories)."""
        key = _filter_key(flt)
        if flt is not None and flt.tag is not None:  # a tag's members can change while the columns do not
            key = (*key, "members", state.graph.members_version)
        return state.masks.get(key, state.columns.version, lambda: self._new_mask(state, flt))

    def _tagged_rows(self, state: UserState, flt: MemoryFilter | None) -> np.ndarray | None:
        """For a filter with a tag: the rows that pass it, ascending, read at the tag's members only (the filter
        without its tag is the mask the recall's other searches use); None for a filter without a tag. A cascade
        recall searches inside up to three cue tags, and a mask of each, a pass over every row, was ~1 ms apiece
        at 100k memories (a tag's masks are rarely asked for twice)."""
        if flt is None or flt.tag is None:
            return None
        tag = flt.tag
        key = (*_filter_key(flt), state.graph.members_version)

        def rows() -> np.ndarray:
            base = self._mask(state, flt.model_copy(update={"tag": None}))
            tagged = np.unique(state.graph.tagged(tag))
            out: np.ndarray = tagged[base[tagged]]
            out.flags.writeable = False
            return out

        # kept beside the masks: a recall asks for each cue tag's rows twice (its vector and full-text searches)
        return state.tag_rows.get(key, state.columns.version, rows)

    @staticmethod
    def _new_mask(state: UserState, flt: MemoryFilter | None) -> np.ndarray:
        tagged = state.graph.tagged(flt.tag) if flt is not None and flt.tag is not None else None
        mask = state.columns.mask(flt, tagged)
        mask.flags.writeable = False
        return mask

    def vector_search(
        self,
        user_id: str,
        vector: np.ndarray,
        k: int,
        *,
        min_similarity: float = -1.0,
        flt: MemoryFilter | None = None,
    ) -> list[tuple[str, float]]:
        vector = np.asarray(vector, dtype=np.float32)
        if vector.shape != (self.embedding_dim,) or not np.all(np.isfinite(vector)):
            raise ValidationError(f"query vector must be {self.embedding_dim} finite floats")
        return self._vector_search(user_id, vector.reshape(1, -1), k, min_similarity, flt)[0]

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
        """One pass over the user's vectors per block of queries (exact), or one batched ANN search."""
        queries = query_matrix(vectors, self.embedding_dim)
        return self._vector_search(user_id, queries, k, min_similarity, flt, rerank)

    def _vector_search(
        self,
        user_id: str,
        queries: np.ndarray,
        k: int,
        min_similarity: float,
        flt: MemoryFilter | None,
        rerank: int | None = None,
    ) -> list[list[tuple[str, float]]]:
        if k <= 0 or not len(queries):
            return [[] for _ in range(len(queries))]
        with self._mirror.user(user_id, graph=_by_tag(flt)) as state:
            cols = state.columns
            tagged = self._tagged_rows(state, flt)
            rows = candidates(cols, self._mask(state, flt)) if tagged is None else tagged[cols.has_vector[tagged]]
            found = ann_search(state, self._ann, queries, k, min_similarity, rows, user_id, rerank)
            if found is None:
                gathered = None
                if tagged is not None:
                    key = _filter_key(flt)
                    version = (cols.version, cols.vector_version, state.graph.members_version)

                    def gathered() -> np.ndarray:
                        return state.tag_vectors.get(key, version, lambda: cols.vectors[rows])

                found = exact(cols, queries, k, min_similarity, rows, gathered)
            ids = cols.ids
            return [[(ids[r], s) for r, s in hits] for hits in found]

    def text_search(
        self, user_id: str, query: str, k: int, *, flt: MemoryFilter | None = None
    ) -> list[tuple[str, float]]:
        """Hits from the user's postings in memory, ranked by BM25 on the user's statistics (fulltext.py); the
        filter from the masks once the user's structures are loaded (else by SQL)."""
        clause, params = where(flt)
        passes = None
        if self._mirror.loaded(user_id):

            def passes(names: list[str], slots: np.ndarray) -> np.ndarray:
                with self._mirror.user(user_id, graph=_by_tag(flt)) as state:
                    tagged = self._tagged_rows(state, flt)
                    ok = self._mask(state, flt) if tagged is None else None
                    rows = state.text_rows.rows(names, slots, state.columns.index)
                    n = state.columns.n
                found = (rows >= 0) & (rows < n)
                if ok is not None:
                    found[found] = ok[rows[found]]
                elif tagged is not None:
                    # the tag's rows as a mask over the rows: a cue tag's scoped search tests the question's
                    # every hit (~30k at 100k memories), and np.isin sorted them (~0.2-0.4 ms a search)
                    member = np.zeros(n, dtype=bool)
                    member[tagged] = True
                    found[found] = member[rows[found]]
                return found

        return self._text.search(user_id, query, k, clause, params, passes)

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
        """Breadth-first over the user's graph arrays (csr.py), the definition every store runs."""
        return self.expand_table(
            user_id, seeds, max_depth=max_depth, fanout_cap=fanout_cap, weights=weights, flt=flt
        ).expansions()

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
        """The walk over the graph arrays as a table: no `Expansion` per memory (the cascade scores arrays)."""
        with self._mirror.user(user_id) as state:
            cols = state.columns
            return csr.expand_table(
                state.graph,
                cols.ids,
                cols.index,
                cols.importance,
                cols.last_accessed,
                self._mask(state, flt),
                seeds,
                max_depth=max_depth,
                fanout_cap=fanout_cap,
                weights=weights,
                id_key=cols.id_key,
                ranked_members=True,
                codes=cols.index,
            )

    # -- the reply rule's reads (retrieve/replies.py): the structures in memory, no SQL, no models ----------------

    def sequence_pairs(self, user_id: str, ids: Sequence[str]) -> list[tuple[str, str]]:
        """From the previous turns the user's graph holds (adjacency.py `earlier`). `get_links` of a cascade
        recall's ~35 question candidates, the reply rule's read before, was ~1.2 ms of SQL and `Link` models."""
        wanted = list(dict.fromkeys(ids))
        if not wanted:
            return []
        with self._mirror.user(user_id) as state:
            cols = state.columns
            rows = _rows_alive(cols.index, cols.alive, wanted)
            earlier, later = state.graph.turn_pairs(rows)
            ok = cols.alive[earlier]
            names = cols.ids
            pairs = [(names[e], names[x]) for e, x in zip(earlier[ok].tolist(), later[ok].tolist(), strict=True)]
        return sorted(pairs)

    def similarities(self, user_id: str, ids: Sequence[str], vector: np.ndarray) -> dict[str, float]:
        """From the user's normalised vectors in memory (columns.py). `get_memories(with_embeddings=True)` of
        ~16 questions, the reply rule's read before, was ~2.5 ms: SQL rows, tags and a model per memory."""
        wanted = list(dict.fromkeys(ids))
        if not wanted:
            similarity_vector(vector, self.embedding_dim)  # a bad vector is refused all the same
            return {}
        with self._mirror.user(user_id, graph=False) as state:
            cols = state.columns
            rows = _rows_alive(cols.index, cols.alive, wanted)
            rows = rows[cols.has_vector[rows]]
            matrix = cols.vectors[rows]  # a copy (fancy indexing): used after the structures' lock is let go
            names = [cols.ids[r] for r in rows.tolist()]
        return cosines(names, matrix, vector, self.embedding_dim)


def _rows_alive(index: dict[str, int], alive: np.ndarray, ids: Sequence[str]) -> np.ndarray:
    """Rows of the memories among `ids` that the user's columns hold alive, in the order of `ids`."""
    rows = np.fromiter((index.get(m, -1) for m in ids), dtype=np.int64, count=len(ids))
    rows = rows[rows >= 0]
    alive_rows: np.ndarray = rows[alive[rows]]
    return alive_rows


def _filter_key(flt: MemoryFilter | None) -> tuple[Hashable, ...]:
    """The filter's values as a hashable key (`_mask`'s cache): its fields in order, lists as tuples. pydantic's
    `repr`, the key before, cost ~20 us a call under load, and a cascade recall asks ~16 times."""
    if flt is None:
        return ()
    return tuple(tuple(v) if isinstance(v, list) else v for v in flt.__dict__.values())


def _by_tag(flt: MemoryFilter | None) -> bool:
    """Whether the filter reads the user's graph (a tag filter): other reads of the columns do not load it."""
    return flt is not None and flt.tag is not None
