"""One user's memories as columns in memory: the normalised embedding matrix and the fields a `MemoryFilter`
reads, so that vector search and the cascade filter with numpy masks instead of SQL round trips.

A memory keeps its row for the life of the structure: a deleted memory's row is only marked dead (the graph
arrays of csr.py index rows), and a memory that comes back takes its old row. Rows are in the order the
memories were loaded (rowid order) and then caught up.
"""

from __future__ import annotations

import fnmatch
import json
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, overload

import numpy as np

from memgraph.models import MemoryKind, Scope
from memgraph.store.base import MemoryFilter

#: kind / scope -> small integer code (the column stores the code).
KIND_CODE = {k.value: i for i, k in enumerate(MemoryKind)}
SCOPE_CODE = {s.value: i for i, s in enumerate(Scope)}

#: The memories columns the structures read, in the order `MemoryRow` takes them.
COLUMNS_SQL = (
    "id, embedding, active, archived, compressed, pinned, kind, scope, importance, last_accessed, session_id, "
    "file_paths"
)


#: Positions in a row of COLUMNS_SQL.
(_ID, _EMB, _ACTIVE, _ARCHIVED, _COMPRESSED, _PINNED, _KIND, _SCOPE, _IMPORTANCE, _LAST, _SESSION, _FILES) = range(12)
#: A row of COLUMNS_SQL (sqlite3.Row or tuple).
MemoryRow = Sequence[Any]


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def micros(texts: Sequence[str]) -> np.ndarray:
    """Stored timestamps (UTC ISO text, rows.ts) as int64 microseconds since the epoch, in the text's order.
    The fixed-width UTC form numpy parses in one call (100k rows: ~30 ms, ~10x datetime.fromisoformat)."""
    if all(len(t) == 32 and t.endswith("+00:00") for t in texts):
        return np.array([t[:26] for t in texts], dtype="datetime64[us]").astype(np.int64)
    return np.array(
        [(datetime.fromisoformat(t) - _EPOCH) // timedelta(microseconds=1) for t in texts], dtype=np.int64
    )


def prefix_keys(names: Sequence[str]) -> np.ndarray:
    """The first 8 bytes of each name's UTF-8, zero-padded, as big-endian uint64: numbers in the names' order
    (UTF-8 byte order is code-point order, Python's string order), equal only when those bytes are. The graph
    walk ranks by them with numpy and compares the names themselves only where keys tie (adjacency.ranked_top):
    conversation stores tie on weight and importance by the thousand, and ranking ties by name in Python cost
    ~12% of a cascade recall at 10k memories."""
    if not names:
        return np.zeros(0, dtype=np.uint64)
    raw = b"".join(n.encode("utf-8")[:8].ljust(8, b"\0") for n in names)
    return np.frombuffer(raw, dtype=">u8").astype(np.uint64)


#: The columns a filter's mask reads (`UserColumns.mask`; `patterns` and `sessions` aside).
_FILTER_FIELDS = (
    "alive", "active", "archived", "compressed", "pinned", "kind", "scope", "importance", "last_accessed", "session"
)


def _grow(arr: np.ndarray, size: int) -> np.ndarray:
    out = np.zeros((size, *arr.shape[1:]), dtype=arr.dtype)
    out[: len(arr)] = arr
    return out


#: The per-row arrays that grow with zeros (`session` grows with -1: no session); snapshot.py saves these too.
ROW_ARRAYS = (
    "id_key",
    "vectors",
    "has_vector",
    "alive",
    "active",
    "archived",
    "compressed",
    "pinned",
    "kind",
    "scope",
    "importance",
    "last_accessed",
)


class UserColumns:
    """One user's memories: ids, the normalised float32 embedding matrix and the filter fields, by row."""

    def __init__(self, dim: int) -> None:
        self.dim = dim
        self.ids: list[str] = []
        self.index: dict[str, int] = {}
        cap = 64
        self.id_key = np.zeros(cap, dtype=np.uint64)  # prefix_keys of the ids, by row
        self.vectors = np.zeros((cap, dim), dtype=np.float32)
        self.has_vector = np.zeros(cap, dtype=bool)
        self.alive = np.zeros(cap, dtype=bool)
        self.active = np.zeros(cap, dtype=bool)
        self.archived = np.zeros(cap, dtype=bool)
        self.compressed = np.zeros(cap, dtype=bool)
        self.pinned = np.zeros(cap, dtype=bool)
        self.kind = np.zeros(cap, dtype=np.int8)
        self.scope = np.zeros(cap, dtype=np.int8)
        self.importance = np.zeros(cap, dtype=np.float64)
        self.last_accessed = np.zeros(cap, dtype=np.int64)
        self.session = np.full(cap, -1, dtype=np.int32)
        self.sessions: dict[str, int] = {}
        self.patterns: dict[int, list[str]] = {}  # row -> file_paths globs of project-scoped memories
        #: Bumped by every change of a value held here (not by a `set` that changes nothing): a cached mask
        #: compares it to know it is current.
        self.version = 0
        self.vector_version = 0
        self.vector_changes = np.zeros(0, dtype=np.int64)

    @property
    def n(self) -> int:
        return len(self.ids)

    def _reserve(self, size: int) -> None:
        cap = len(self.alive)
        if size <= cap:
            return
        cap = max(size, 2 * cap)
        for name in ROW_ARRAYS:
            setattr(self, name, _grow(getattr(self, name), cap))
        session = np.full(cap, -1, dtype=np.int32)
        session[: len(self.session)] = self.session
        self.session = session

    def rows_for(self, ids: Sequence[str]) -> np.ndarray:
        """Rows of these memories (new ids get new rows, marked dead until `set`)."""
        out = np.empty(len(ids), dtype=np.int64)
        fresh: list[str] = []
        for i, mid in enumerate(ids):
            row = self.index.get(mid)
            if row is None:
                row = self.index[mid] = len(self.ids) + len(fresh)
                fresh.append(mid)
            out[i] = row
        if fresh:
            self._reserve(len(self.ids) + len(fresh))
            self.id_key[len(self.ids) : len(self.ids) + len(fresh)] = prefix_keys(fresh)
            self.ids += fresh
        return out

    def set(self, rows: Sequence[MemoryRow]) -> np.ndarray:
        """Upsert memories (rows of COLUMNS_SQL, as the file has them now); returns their rows."""
        n_before = self.n
        idx = self.rows_for([r[_ID] for r in rows])
        if not len(idx):
            return idx
        before = [getattr(self, name)[idx].copy() for name in _FILTER_FIELDS]
        patterns_before = [self.patterns.get(row) for row in idx.tolist()]
        self.alive[idx] = True
        self.active[idx] = [bool(r[_ACTIVE]) for r in rows]
        self.archived[idx] = [bool(r[_ARCHIVED]) for r in rows]
        self.compressed[idx] = [bool(r[_COMPRESSED]) for r in rows]
        self.pinned[idx] = [bool(r[_PINNED]) for r in rows]
        self.kind[idx] = [KIND_CODE.get(r[_KIND], -1) for r in rows]
        self.scope[idx] = [SCOPE_CODE.get(r[_SCOPE], -1) for r in rows]
        self.importance[idx] = [r[_IMPORTANCE] for r in rows]
        self.last_accessed[idx] = micros([r[_LAST] for r in rows])
        sessions = self.sessions
        self.session[idx] = [
            -1 if r[_SESSION] is None else sessions.setdefault(r[_SESSION], len(sessions)) for r in rows
        ]
        for row, r in zip(idx.tolist(), rows, strict=True):
            if r[_SCOPE] == Scope.PROJECT.value:
                self.patterns[row] = json.loads(r[_FILES])
            else:
                self.patterns.pop(row, None)
        has = np.array([r[_EMB] is not None for r in rows], dtype=bool)
        had = self.has_vector[idx]
        changed = idx[had & ~has]
        if has.any():
            blob = b"".join(r[_EMB] for r in rows if r[_EMB] is not None)
            matrix = np.frombuffer(blob, dtype=np.float32).reshape(-1, self.dim)
            norms = np.linalg.norm(matrix, axis=1, keepdims=True)
            norms[norms == 0] = 1.0
            matrix = matrix / norms
            target = idx[has]
            differs = ~had[has] | np.any(self.vectors[target] != matrix, axis=1)
            changed = np.concatenate([changed, target[differs]])
            self.vectors[target] = matrix
        self.has_vector[idx] = has
        # A recall's maintenance re-reads the memories it credited (access counts, which no column holds):
        # bumping the version for those would drop every cached mask before each recall (~1 ms a mask at 100k
        # memories, ~5 masks a recall). Only a real change does.
        if (
            self.n > n_before
            or len(changed)
            or any(not np.array_equal(b, getattr(self, f)[idx]) for b, f in zip(before, _FILTER_FIELDS, strict=True))
            or patterns_before != [self.patterns.get(row) for row in idx.tolist()]
        ):
            self.version += 1
        if len(changed):
            self.vector_version += 1
        #: Rows whose vector was set, replaced or dropped by the last set() (an ANN index re-adds them).
        self.vector_changes = changed
        return idx

    def remove(self, ids: Sequence[str]) -> np.ndarray:
        """Mark these memories dead (they keep their rows, zeroed); returns the rows that were alive."""
        idx = np.array([self.index[m] for m in ids if m in self.index], dtype=np.int64)
        idx = idx[self.alive[idx]] if len(idx) else idx
        if len(idx):
            self.alive[idx] = False
            self.has_vector[idx] = False
            self.vectors[idx] = 0.0  # an erased memory's vector leaves this process's RAM with it
            for row in idx.tolist():
                self.patterns.pop(row, None)
            self.version += 1
            self.vector_version += 1
        return idx

    def mask(self, flt: MemoryFilter | None, tagged: np.ndarray | None = None) -> np.ndarray:
        """Rows (alive) that pass the filter, as a boolean array of length n; `tagged` is the rows carrying
        `flt.tag` (the caller reads it from the graph). The same predicate as rows.where() in SQL."""
        n = self.n
        flt = flt or MemoryFilter()
        m = self.alive[:n].copy()
        if flt.active is not None:
            m &= self.active[:n] == flt.active
        if not flt.include_archived:
            m &= ~self.archived[:n]
        if not flt.include_compressed:
            m &= ~self.compressed[:n]
        if flt.kinds:
            m &= np.isin(self.kind[:n], [KIND_CODE[k.value] for k in flt.kinds])
        if flt.pinned is not None:
            m &= self.pinned[:n] == flt.pinned
        if flt.session_id is not None:
            code = self.sessions.get(flt.session_id)
            m &= False if code is None else self.session[:n] == code
        if flt.min_importance is not None:
            m &= (self.importance[:n] >= flt.min_importance) | self.pinned[:n]
        if flt.tag is not None:
            has = np.zeros(n, dtype=bool)
            if tagged is not None and len(tagged):
                has[tagged] = True
            m &= has
        if flt.files is not None:
            for row, globs in self.patterns.items():
                if m[row]:
                    m[row] = any(fnmatch.fnmatchcase(f, p) for p in globs for f in flt.files)
        return m


class IdsAt(Sequence[str]):
    """The ids at some positions of an id list, looked up when asked: the cascade's walk finds ~3k memory states
    at 10k memories and reads the ids of the ~120 it ranks (a list of all of them was ~10% of the walk), and a
    full-text search ranks a few dozen of many hits. `names` is the list itself (append-only where it is
    shared: safe to read after the lock that guards its owner is released)."""

    __slots__ = ("names", "positions")

    def __init__(self, names: list[str], positions: np.ndarray) -> None:
        self.names = names
        self.positions = positions

    def __len__(self) -> int:
        return len(self.positions)

    @overload
    def __getitem__(self, i: int) -> str: ...

    @overload
    def __getitem__(self, i: slice) -> list[str]: ...

    def __getitem__(self, i: int | slice) -> str | list[str]:
        if isinstance(i, slice):
            return self.take(i)
        return self.names[int(self.positions[i])]

    def __iter__(self) -> Iterator[str]:
        return iter(self.take(slice(None)))

    def take(self, at: np.ndarray | slice) -> list[str]:
        """The ids at these positions."""
        names = self.names
        return [names[r] for r in self.positions[at].tolist()]
