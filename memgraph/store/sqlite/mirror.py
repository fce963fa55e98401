"""In-memory read structures, kept exactly in step with the file across processes: per user, the memories
as columns (the normalised embedding matrix and the filter fields, columns.py), the graph as adjacency
arrays (adjacency.py, walked by csr.py) and, above a size threshold, an ANN index over the vectors (ann.py).
Loaded on a user's first read; recall then runs without SQL for vector search, filters and the cascade.

How they stay in step: every write transaction records the memories it touched in the change log
(changelog.py), in the same transaction. Every read of the structures first catches up (inside one read
transaction, so it sees one snapshot): it reads the log after the last position it saw and re-reads those
memories and their edges; this process's own writes come through the same path (one reader for every
writer). So after a recall's maintenance writes the next recall re-reads three memories, not the user.
Two signals make it drop everything and reload on demand instead:
- `meta.vectors_epoch` changed: erasure bumps it (`mark_rewritten`) and deletes the erased user's log
  entries, so nothing of the erased user survives in any reader;
- the log was trimmed past the last position seen (a reader idle through many writes).
A user with more touched memories than `reload_fraction` of its rows (a bulk load by another process) is
reloaded rather than caught up row by row.

A user's columns and graph are saved beside the store after a fresh load (snapshot.py) and a new process
opens them from that file, catching up from its change-log position as above, instead of building them from
SQL (~0.45 s of CPU at 10k memories).
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from memgraph.store.base import chunks
from memgraph.store.sqlite import changelog, snapshot
from memgraph.store.sqlite.adjacency import CLUSTER, REL_CODE, TAG, UserGraph
from memgraph.store.sqlite.changelog import Changes
from memgraph.store.sqlite.columns import COLUMNS_SQL, UserColumns
from memgraph.store.sqlite.connection import Database
from memgraph.store.sqlite.memo import Entry, MemoryRows
from memgraph.store.sqlite.rows import MEMORY_EDGE_TYPES

__all__ = ["Changes", "Mirror", "UserState"]

log = logging.getLogger(__name__)

_DISCOVERED = "discovered"
_SEQUENCE = "sequence"
_RELATES_TO = "RelatesTo"


#: A memory's groups of one family, concatenated by SQLite in key order (src, dst), with their count.
_GROUPED = (
    "SELECT src, group_concat(dst, char(31)), count(*) FROM edges WHERE user_id = ? AND type = ? "
    "GROUP BY src ORDER BY src"
)


def _memberships(conn: sqlite3.Connection, user_id: str, typ: str) -> tuple[list[str], list[int], list[str]]:
    """The user's edges of this membership type in (src, dst) order: each source memory once with how many
    edges it has, and every edge's dst, read one row per memory (`_GROUPED`); rows one by one when a name holds
    the separator (the counts disagree). Each memory's names are sorted here: BINARY collation is code-point
    order, Python's string order, so the result does not rest on the order group_concat met them in."""
    grouped = conn.execute(_GROUPED, (user_id, typ)).fetchall()
    dsts = [sorted(joined.split("\x1f")) for _, joined, _ in grouped]
    if all(len(d) == n for d, (_, _, n) in zip(dsts, grouped, strict=True)):
        return [r[0] for r in grouped], [r[2] for r in grouped], [d for ds in dsts for d in ds]
    rows = conn.execute(
        "SELECT src, dst FROM edges WHERE user_id = ? AND type = ? ORDER BY src, dst", (user_id, typ)
    ).fetchall()
    counts: dict[str, int] = {}
    for src, _ in rows:
        counts[src] = counts.get(src, 0) + 1
    return list(counts), list(counts.values()), [r[1] for r in rows]


_LinkLists = tuple[list[int], list[int], list[float], list[bool]]


def _add_link(lists: _LinkLists, other: int, typ: str, weight: float, source: str | None) -> None:
    lists[0].append(other)
    lists[1].append(REL_CODE[typ])
    lists[2].append(float(weight))
    lists[3].append(source == _DISCOVERED)


class UserState:
    """Everything held in memory for one user."""

    def __init__(self, dim: int, memo_limit: int = 0) -> None:
        self.columns = UserColumns(dim)
        self.graph = UserGraph()
        #: Whether `graph` holds the user's edges: it is read on the first read that walks or filters by tag,
        #: not with the columns, so a cold write (a `remember`: one vector search to reconcile) does not
        #: read and build ~110k edges at 10k memories. Until then catching up leaves it alone.
        self.graph_loaded = False
        self.memo = MemoryRows(memo_limit)  # memories rows read by id (memo.py)
        self.ann: Any = None  # ann.AnnIndex once the user's vectors pass the threshold (search.py builds it)
        self.text_rows = SlotRows()  # full-text slot -> row of these columns (store.py text_search)
        self.masks = Masks()  # filters' masks over these columns (store.py _mask)
        self.tag_rows = Masks()  # the rows of tag filters (store.py _tagged_rows), apart: tags vary per recall
        self.tag_vectors = TagVectors()  # those rows' vectors, gathered (store.py _vector_search)


class Masks:
    """Masks of the filters recently asked for, valid for one version of the columns (every change bumps it:
    a tag's members change only with a `set` of the memory, which bumps it too). A few filters per recall;
    more than `keep` distinct ones (file scopes vary) start the set over."""

    keep = 16

    def __init__(self) -> None:
        self._version = -1
        self._masks: dict[Hashable, np.ndarray] = {}

    def get(self, key: Hashable, version: int, make: Callable[[], np.ndarray]) -> np.ndarray:
        if version != self._version:
            self._version, self._masks = version, {}
        mask = self._masks.get(key)
        if mask is None:
            if len(self._masks) >= self.keep:
                self._masks = {}
            mask = self._masks[key] = make()
        return mask


class TagVectors:
    """The vectors of the rows of the tag filters recent recalls searched inside (a cue tag: retrieve/cues.py),
    gathered once: a speaker's ~2.5k rows at 100k memories are a 3.8 MB gather (1.2 ms at load 7) before a
    0.1 ms product, and the same few speakers and dates come back recall after recall. Valid for one version
    of the columns, their vectors and the tags' members (any change drops them all: an erased memory's vector
    leaves with them, `Mirror._apply`); at most `limit_bytes`, the least recently used dropped first."""

    limit_bytes = 64 << 20  # ~17 speaker tags of 2.5k memories; at 1M memories ~2 of 25k

    def __init__(self) -> None:
        self._version: Hashable = None
        self._entries: OrderedDict[Hashable, np.ndarray] = OrderedDict()
        self._bytes = 0

    def get(self, key: Hashable, version: Hashable, make: Callable[[], np.ndarray]) -> np.ndarray:
        if version != self._version:
            self.clear()
            self._version = version
        found = self._entries.get(key)
        if found is not None:
            self._entries.move_to_end(key)
            return found
        found = make()
        found.flags.writeable = False
        if found.nbytes <= self.limit_bytes:
            while self._entries and self._bytes + found.nbytes > self.limit_bytes:
                self._bytes -= self._entries.popitem(last=False)[1].nbytes
            self._entries[key] = found
            self._bytes += found.nbytes
        return found

    def clear(self) -> None:
        self._entries = OrderedDict()
        self._bytes = 0


class SlotRows:
    """The row (in the user's columns) of each slot of the user's full-text index, so that a search filters
    its hits with the masks in one numpy gather instead of an id lookup per hit. A memory keeps its row for
    the life of the columns (columns.py), and a text index only appends slots (a compaction makes a new id
    list), so the map is extended, not rebuilt; a slot whose memory the columns do not hold yet (the text
    index caught up to a later commit) stays -1 and is looked up again when asked for."""

    def __init__(self) -> None:
        self._names: list[str] | None = None
        self._rows = np.zeros(0, dtype=np.int64)

    def rows(self, names: list[str], slots: np.ndarray, index: dict[str, int]) -> np.ndarray:
        """Rows of these slots of the index whose slot -> id list is `names` (-1: not in the columns)."""
        if names is not self._names:
            self._names, self._rows = names, np.zeros(0, dtype=np.int64)
        have = len(self._rows)
        if len(names) > have:
            more = np.fromiter((index.get(n, -1) for n in names[have:]), dtype=np.int64, count=len(names) - have)
            self._rows = np.concatenate([self._rows, more])
        out: np.ndarray = self._rows[slots]
        missing = np.flatnonzero(out < 0)
        for i in missing.tolist():
            row = index.get(names[int(slots[i])], -1)
            out[i] = self._rows[slots[i]] = row
        return out


class Mirror:
    """The read structures of one store (see the module docstring). Thread-safe."""

    def __init__(
        self,
        db: Database,
        dim: int,
        *,
        reload_fraction: float = 0.25,
        memo_limit: int = 0,
        directory: Path | None = None,
    ) -> None:
        self._db = db
        self.dim = dim
        #: where users' snapshots are read and written (snapshot.py; the store's folder); None: never
        self.directory = directory
        #: (user, position, epoch) of a fresh load to save once its read transaction has ended
        self._to_save: tuple[str, int, str | None] | None = None
        self.memo_limit = memo_limit
        self.reload_fraction = reload_fraction
        self._users: dict[str, UserState] = {}
        self._lock = threading.RLock()  # guards the structures; taken after the writer lock, never before
        self._pos = 0  # change-log position the structures are caught up to
        self._epoch: str | None = None
        #: Loads and row-by-row catch-ups so far (tests and benchmarks read them).
        self.loads = 0
        self.graph_loads = 0
        self.caught_up = 0
        self.snapshot_loads = 0
        with db.reading() as conn:
            self._pos, _, self._epoch = self._position(conn)

    @staticmethod
    def mark_rewritten(conn: sqlite3.Connection) -> None:
        """Called inside a write that must make every reader (other processes', this one's) drop its
        structures and reload: erasure (with `changelog.forget_user`)."""
        conn.execute(
            "INSERT INTO meta(key, value) VALUES ('vectors_epoch', '1') "
            "ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1"
        )

    @contextmanager
    def user(self, user_id: str, *, graph: bool = True) -> Iterator[UserState]:
        """The user's structures, caught up with every commit and loaded on first use; valid inside the block
        (the caller holds the structures' lock until it ends). `graph=False`: the caller reads only the columns
        (a vector search without a tag filter), so the graph need not be loaded for it."""
        with self._db.reading() as conn, self._lock:
            state = self._db.retry(lambda: self._fresh(conn, user_id, graph))
            if self._to_save is not None:
                self._save(conn, state)
            yield state

    def memory_rows(self, user_id: str, ids: Sequence[str]) -> dict[str, Entry] | None:
        """Rows (and tag names) of these memories from the user's row cache (memo.py), caught up in the same
        read transaction as the rows it reads; None when the user's structures are not loaded (a read by id
        alone does not load them: plain SQL serves it)."""
        with self._db.reading() as conn, self._lock:
            return self._db.retry(lambda: self._memory_rows(conn, user_id, ids))

    def _memory_rows(self, conn: sqlite3.Connection, user_id: str, ids: Sequence[str]) -> dict[str, Entry] | None:
        own = not conn.in_transaction
        if own and self._unchanged(conn):
            state = self._users.get(user_id)
            if state is None:
                return None
            if all(mid in state.memo.entries for mid in ids):  # nothing to read: no transaction needed
                return state.memo.read(conn, user_id, ids)
        if own:
            conn.execute("BEGIN")
        try:
            self._catch_up(conn)
            state = self._users.get(user_id)
            return None if state is None else state.memo.read(conn, user_id, ids)
        finally:
            if own:
                conn.execute("COMMIT")

    def refresh(self) -> None:
        """Catch the loaded users' structures up with every commit now (see `SQLiteStore.refresh`)."""
        with self._db.reading() as conn, self._lock:
            self._db.retry(lambda: self._caught_up(conn))

    def _caught_up(self, conn: sqlite3.Connection) -> None:
        own = not conn.in_transaction
        if own:
            conn.execute("BEGIN")
        try:
            self._catch_up(conn)
        finally:
            if own:
                conn.execute("COMMIT")

    def loaded(self, user_id: str) -> bool:
        """Whether the user's structures are held (they may still need to catch up)."""
        with self._lock:
            return user_id in self._users

    def drop(self, user_id: str | None = None) -> None:
        """Forget one user's structures (or everyone's): they reload on the next read."""
        with self._lock:
            if user_id is None:
                self._users.clear()
            else:
                self._users.pop(user_id, None)

    # -- catching up -------------------------------------------------------------------------------------

    def _fresh(self, conn: sqlite3.Connection, user_id: str, graph: bool = True) -> UserState:
        own = not conn.in_transaction
        if own and self._unchanged(conn):
            self._to_save = None
            state = self._users.get(user_id)
            if state is not None and (state.graph_loaded or not graph):
                return state
        if own:
            conn.execute("BEGIN")  # one snapshot for the log and the rows it points at
        try:
            self._to_save = None  # a retried transaction saves nothing: its state may have caught up since
            self._catch_up(conn)
            state = self._users.get(user_id)
            fresh = False  # loaded from SQL in this transaction
            if state is None:
                state = self._from_snapshot(conn, user_id)
                fresh = state is None
                if state is None:
                    state = self._load(conn, user_id)
                self._users[user_id] = state
            if graph and not state.graph_loaded:  # the columns are caught up to this same snapshot
                self._load_graph(conn, user_id, state)
                if fresh and self.directory is not None:  # both built in this transaction: worth a file
                    self._to_save = (user_id, self._pos, self._epoch)
            return state
        finally:
            if own:
                conn.execute("COMMIT")

    def _from_snapshot(self, conn: sqlite3.Connection, user_id: str) -> UserState | None:
        """The user's structures from their snapshot (snapshot.py) caught up to this read transaction (the log
        read after the snapshot's position, as any reader catches up); None when there is no usable one."""
        if self.directory is None:
            return None
        path = snapshot.path_for(self.directory, user_id)
        if not path.exists():
            return None
        try:
            found = snapshot.load(path, user_id, self.dim)
        except (ValueError, KeyError, TypeError) as exc:  # a damaged or foreign file: load from SQL, save anew
            log.debug("ignoring the read-structure snapshot %s: %s", path.name, exc)
            found = None
        if found is None:
            return None
        head, cols, graph = found
        pos = int(head["pos"])
        _, floor, _ = self._position(conn)
        if head["epoch"] != self._epoch:  # an erasure since: what it holds must not stay on disk either
            snapshot.forget(self.directory, user_id, ("read",))
            return None
        if pos < floor or pos > self._pos:
            return None
        ids = list(dict.fromkeys(m for u, m in changelog.since(conn, pos, self._pos) if u == user_id))
        if len(ids) > snapshot.REFRESH_ENTRIES or len(ids) > snapshot.REFRESH_FRACTION * cols.n:
            return None  # loaded from SQL and saved anew
        state = UserState(self.dim, self.memo_limit)
        state.columns, state.graph, state.graph_loaded = cols, graph, True
        self.snapshot_loads += 1
        if ids:
            self._apply(conn, user_id, state, ids)
        return state

    def _save(self, conn: sqlite3.Connection, state: UserState) -> None:
        """Write the snapshot of a fresh load, after its read transaction ended (still under the structures'
        lock: nothing changed them since), then check that nothing was logged for the user since its position:
        an erasure that committed meanwhile may have deleted the user's snapshot before this one was renamed
        into place, so such a file is deleted here (snapshot.py)."""
        assert self.directory is not None and self._to_save is not None
        user_id, pos, epoch = self._to_save
        self._to_save = None
        if conn.in_transaction:  # the check below must see every commit, not an outer transaction's snapshot
            return
        path = snapshot.path_for(self.directory, user_id)
        try:
            snapshot.save(path, user_id, pos, epoch, state.columns, state.graph)
            last, floor, now = self._db.retry(lambda: self._position(conn))
            touched = self._db.retry(lambda: changelog.since(conn, pos, last))
            if now != epoch or floor > pos or any(u == user_id for u, _ in touched):
                snapshot.forget(self.directory, user_id)
        except (OSError, ValueError, sqlite3.Error) as exc:  # a read-only folder, a full disk: no snapshot
            log.debug("could not save the read-structure snapshot of %s: %s", user_id, exc)
            with contextlib.suppress(OSError):
                snapshot.forget(self.directory, user_id)

    @staticmethod
    def _position(conn: sqlite3.Connection) -> tuple[int, int, str | None]:
        row = conn.execute(
            "SELECT (SELECT seq FROM sqlite_sequence WHERE name = 'changelog'), "
            "(SELECT value FROM meta WHERE key = ?), (SELECT value FROM meta WHERE key = 'vectors_epoch')",
            (changelog.FLOOR_KEY,),
        ).fetchone()
        return int(row[0] or 0), int(row[1] or 0), row[2]

    def _unchanged(self, conn: sqlite3.Connection) -> bool:
        """Whether `_catch_up` would find nothing to do: the log's position read alone, as one statement. A
        recall asks ~11 times (its searches, the walk, the reply rule's reads) and nearly always nothing was
        committed since; the position read inside BEGIN ... COMMIT was three statements each time, and the
        transaction is needed only where rows are read after it (a catch-up, a load)."""
        last, floor, epoch = self._position(conn)
        return epoch == self._epoch and floor <= self._pos and last == self._pos

    def _catch_up(self, conn: sqlite3.Connection) -> None:
        last, floor, epoch = self._position(conn)
        if epoch != self._epoch or floor > self._pos:
            self._epoch, self._pos = epoch, last
            self._users.clear()
            return
        if last == self._pos:
            return
        entries = changelog.since(conn, self._pos, last) if self._users else []
        self._pos = last
        touched: dict[str, dict[str, None]] = {}
        for user_id, mid in entries:
            if user_id in self._users:
                touched.setdefault(user_id, {})[mid] = None
        for user_id, ids in touched.items():
            state = self._users[user_id]
            if len(ids) > 1000 and len(ids) > self.reload_fraction * state.columns.n:
                del self._users[user_id]
            else:
                self._apply(conn, user_id, state, list(ids))

    def _apply(self, conn: sqlite3.Connection, user_id: str, state: UserState, ids: list[str]) -> None:
        """Re-read these memories and their edges and replace what the structures hold for them."""
        self.caught_up += 1
        cols, graph = state.columns, state.graph
        state.memo.reread(conn, user_id, ids)
        present: dict[str, sqlite3.Row] = {}
        out_edges: list[sqlite3.Row] = []
        in_edges: list[sqlite3.Row] = []
        for chunk in chunks(ids, 500):
            marks = ",".join("?" * len(chunk))
            present.update(
                (r[0], r)
                for r in conn.execute(
                    f"SELECT {COLUMNS_SQL} FROM memories WHERE id IN ({marks}) AND +user_id = ?", [*chunk, user_id]
                )
            )
            if not state.graph_loaded:
                continue
            out_edges += conn.execute(
                f"SELECT src, type, dst, weight, source FROM edges INDEXED BY edges_src "
                f"WHERE user_id = ? AND src IN ({marks})",
                [user_id, *chunk],
            ).fetchall()
            in_edges += conn.execute(
                f"SELECT src, type, dst, weight, source FROM edges INDEXED BY edges_dst "
                f"WHERE user_id = ? AND type IN ({MEMORY_EDGE_TYPES}) AND dst IN ({marks})",
                [user_id, *chunk],
            ).fetchall()
        removed = cols.remove([m for m in ids if m not in present])
        known = np.array([cols.index[m] for m in present if m in cols.index], dtype=np.int64)
        before = (cols.importance[known].copy(), cols.last_accessed[known].copy())
        cols.set(list(present.values()))
        # rows whose walk ranking keys changed: their groups' ranked member lists place them anew
        # (adjacency.UserGraph.member_order)
        rekeyed = known[(cols.importance[known] != before[0]) | (cols.last_accessed[known] != before[1])]
        changed = cols.vector_changes
        if len(removed) or len(changed):
            state.tag_vectors.clear()  # no copy of a removed or replaced vector stays behind
        if state.ann is not None:
            state.ann.refresh(cols, np.concatenate([removed, changed]))
        if state.graph_loaded:
            self._apply_graph(graph, cols, ids, out_edges, in_edges, rekeyed)

    @staticmethod
    def _apply_graph(
        graph: UserGraph,
        cols: UserColumns,
        ids: list[str],
        out_edges: list[sqlite3.Row],
        in_edges: list[sqlite3.Row],
        rekeyed: np.ndarray,
    ) -> None:
        """Replace these memories' memberships and links in the graph with the edges re-read for them."""
        groups: dict[str, tuple[list[int], list[float]]] = {}
        links: dict[str, _LinkLists] = {}
        earlier: dict[str, list[int]] = {}  # memory -> rows of its previous turns (sequence links into it)
        index, alive = cols.index, cols.alive
        for src, typ, dst, weight, source in out_edges:
            if typ == "HasTag" or typ == "InCluster":
                g = groups.setdefault(src, ([], []))
                g[0].append(graph.group(TAG if typ == "HasTag" else CLUSTER, dst))
                g[1].append(1.0 if typ == "HasTag" else float(weight))
            else:
                other = index.get(dst)
                if other is not None and alive[other]:
                    _add_link(links.setdefault(src, ([], [], [], [])), other, typ, weight, source)
        for src, typ, dst, weight, source in in_edges:
            other = index.get(src)
            if other is not None and alive[other]:
                _add_link(links.setdefault(dst, ([], [], [], [])), other, typ, weight, source)
                if source == _SEQUENCE and typ == _RELATES_TO:
                    earlier.setdefault(dst, []).append(other)
        graph.grow(cols.n)
        rows: list[int] = []
        group_lists: list[tuple[np.ndarray, np.ndarray]] = []
        link_lists: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
        earlier_lists: list[np.ndarray] = []
        for mid in ids:
            row = index.get(mid)
            if row is None:
                continue
            g = groups.get(mid, ([], []))
            lk = links.get(mid, ([], [], [], []))
            rows.append(row)
            group_lists.append((np.array(g[0], dtype=np.int64), np.array(g[1], dtype=np.float64)))
            link_lists.append(
                (
                    np.array(lk[0], dtype=np.int64),
                    np.array(lk[1], dtype=np.int8),
                    np.array(lk[2], dtype=np.float64),
                    np.array(lk[3], dtype=bool),
                )
            )
            earlier_lists.append(np.array(sorted(earlier.get(mid, ())), dtype=np.int64))
        graph.set_memories(rows, group_lists, link_lists, earlier_lists)
        graph.rekeyed(rekeyed.tolist())
        graph.maybe_compact()

    def _load(self, conn: sqlite3.Connection, user_id: str) -> UserState:
        """A user's columns from the table (inside the catch-up's read transaction); the graph comes later
        (`_load_graph`), with the first read that needs it."""
        self.loads += 1
        state = UserState(self.dim, self.memo_limit)
        state.columns.set(
            conn.execute(f"SELECT {COLUMNS_SQL} FROM memories WHERE user_id = ? ORDER BY rid", (user_id,)).fetchall()
        )
        return state

    def _load_graph(self, conn: sqlite3.Connection, user_id: str, state: UserState) -> None:
        """The user's graph from the edges, in the read transaction the columns were caught up in (rows of
        memories the columns do not hold are left out, as a load of both at once leaves them out)."""
        self.graph_loads += 1
        cols, graph = state.columns, state.graph
        # One query per edge family, each in the table's key order (type, src, dst) as the single query read
        # them. Memberships come one row per memory with its groups concatenated by SQLite (`_GROUPED`): 100k
        # HasTag rows as 100k Python tuples were the largest part of a 10k-memory user's cold load; the split
        # strings are checked against the counts SQLite gives, and any mismatch (a separator inside a name)
        # reads the rows one by one instead. Groups are numbered in order of first use in (src, dst) order.
        index = cols.index
        t_src, t_count, t_dst = _memberships(conn, user_id, "HasTag")
        clustered = conn.execute(
            "SELECT src, dst, weight FROM edges WHERE user_id = ? AND type = 'InCluster' ORDER BY src, dst",
            (user_id,),
        ).fetchall()
        t_names = list(dict.fromkeys(t_dst))
        tag_gid = dict(zip(t_names, graph.groups(TAG, t_names).tolist(), strict=True))
        c_names = list(dict.fromkeys(dst for _, dst, _ in clustered))
        cluster_gid = dict(zip(c_names, graph.groups(CLUSTER, c_names).tolist(), strict=True))
        t_rows = np.repeat(np.array([index.get(src, -1) for src in t_src], dtype=np.int64), t_count)
        m_row = np.concatenate([t_rows, np.array([index.get(src, -1) for src, _, _ in clustered], dtype=np.int64)])
        m_gid = [*map(tag_gid.__getitem__, t_dst), *(cluster_gid[dst] for _, dst, _ in clustered)]
        m_w = [1.0] * len(t_dst) + [float(w) for _, _, w in clustered]
        links = conn.execute(
            "SELECT type, src, dst, weight, source IS ?, type = ? AND source IS ? FROM edges WHERE user_id = ? "
            "AND type NOT IN ('HasTag', 'InCluster') ORDER BY type, src, dst",
            (_DISCOVERED, _RELATES_TO, _SEQUENCE, user_id),
        ).fetchall()
        l_type, l_srcs, l_dsts, l_w, l_disc, l_seq = zip(*links, strict=True) if links else ((),) * 6
        alive = cols.alive
        m_ok = m_row >= 0
        m_ok[m_ok] = alive[m_row[m_ok]]  # a row the catch-up marked dead has no edges left to walk
        ls = np.array([index.get(src, -1) for src in l_srcs], dtype=np.int64)
        ld = np.array([index.get(dst, -1) for dst in l_dsts], dtype=np.int64)
        l_ok = (ls >= 0) & (ld >= 0)
        l_ok[l_ok] = alive[ls[l_ok]] & alive[ld[l_ok]]
        graph.load(
            cols.n,
            (m_row[m_ok], np.array(m_gid, dtype=np.int64)[m_ok], np.array(m_w, dtype=np.float64)[m_ok]),
            (
                ls[l_ok],
                ld[l_ok],
                np.fromiter(map(REL_CODE.__getitem__, l_type), dtype=np.int8, count=len(links))[l_ok],
                np.array(l_w, dtype=np.float64)[l_ok],
                np.array(l_disc, dtype=bool)[l_ok],
            ),
            np.array(l_seq, dtype=bool)[l_ok],
        )
        state.graph_loaded = True

    def cached_users(self) -> Sequence[str]:
        with self._lock:
            return list(self._users)
