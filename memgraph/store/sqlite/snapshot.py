"""A user's read structures (columns and graph, mirror.py) saved beside the store as they stood at one change-log
position, so that a new process opens them from a file instead of building them from SQL.

Why: a cold `memgraph recall` on a 10k-memory user spent ~0.45 s of CPU building the columns and the graph
(SQL rows to arrays, ~110k edges grouped, ~9k tag names interned), the longest part of its start on the 2-core
development machine; reading the same arrays back from a file costs a few hundredths of a second.

How it stays exact: a snapshot is written only from a fresh load of both structures in one read transaction,
with that transaction's change-log position P and vectors epoch. A process opens it only inside its own read
transaction, and only when the epoch is the same (erasure of a user bumps it), no entry after P has been
trimmed away and P is not past what this transaction sees; it then applies the log's entries after P for the
user as any reader catches up (mirror.py `_apply`: the memories and edges re-read from the file), so the
result is what a process that loaded at P and caught up holds. Many entries since P (more than
`REFRESH_ENTRIES` or `REFRESH_FRACTION` of the rows) make it load from SQL instead and write a new snapshot.
Anything unreadable or unexpected (another format, user, dimension) is ignored and replaced.

Erased data: erasing memories or a user deletes the user's snapshot (`forget`, as ann.py's saved index), after
the erasing commit. A snapshot written from a read that began before that commit but renamed into place after
the deletion would outlive it, so the writer checks after renaming that nothing was logged for the user since P
and the epoch is unchanged, and deletes its file otherwise. Dead rows (a deleted memory keeps its row in a
process's columns) never reach a file: only fresh loads are written. No pickle: arrays and UTF-8 text only.
"""

from __future__ import annotations

import hashlib
import json
import logging
from array import array
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from memgraph.store.sqlite.adjacency import TAG, Adjacency, UserGraph
from memgraph.store.sqlite.columns import ROW_ARRAYS, UserColumns
from memgraph.store.sqlite.files import save_npz, wipe

if TYPE_CHECKING:
    from memgraph.store.sqlite.fulltext import UserText

log = logging.getLogger(__name__)

#: Bump when what the structures hold changes (columns.py, adjacency.py): older files are then ignored.
FORMAT = 2  # 2: the graph's previous turns (adjacency.py `earlier`)
#: A snapshot with more log entries for its user since it was written than this (or than REFRESH_FRACTION of
#: its rows) is not caught up: the user is loaded from SQL and saved anew. Catching up re-reads each touched
#: memory with its edges (~0.05 ms each at 10k memories); a recall's maintenance logs ~3-10, a remember ~10.
REFRESH_ENTRIES = 2000
REFRESH_FRACTION = 0.05

_COLUMNS = (*ROW_ARRAYS, "session")
_ADJACENCIES = ("to_groups", "members", "links", "earlier")


def path_for(directory: Path, user_id: str, kind: str = "read") -> Path:
    """The user's snapshot file: `read-…` (columns and graph) or `text-…` (the full-text index)."""
    return directory / f"{kind}-{hashlib.sha256(user_id.encode()).hexdigest()[:16]}.npz"


def forget(directory: Path | None, user_id: str | None = None, kinds: tuple[str, ...] = ("read", "text")) -> None:
    """Erasure: delete the user's snapshots (every user's with None): they hold their vectors, ids and words."""
    if directory is None:
        return
    for kind in kinds:
        paths = [path_for(directory, user_id, kind)] if user_id is not None else directory.glob(f"{kind}-*.npz")
        for path in paths:
            wipe(path)


def _pack(names: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Strings as one UTF-8 buffer and their end offsets in characters (decoded once, sliced on reading)."""
    text = "".join(names).encode("utf-8")
    ends = np.cumsum(np.fromiter(map(len, names), dtype=np.int64, count=len(names)))
    return np.frombuffer(text, dtype=np.uint8), ends


def _unpack(raw: np.ndarray, ends: np.ndarray) -> list[str]:
    text = raw.tobytes().decode("utf-8")
    bounds = [0, *ends.tolist()]
    return [text[a:b] for a, b in zip(bounds, bounds[1:], strict=False)]


def save(path: Path, user_id: str, pos: int, epoch: str | None, cols: UserColumns, graph: UserGraph) -> None:
    """Write the structures of a fresh load (no dead rows, no replaced lists) atomically."""
    n, g = cols.n, len(graph.group_names)
    head = {"format": FORMAT, "user": user_id, "pos": pos, "epoch": epoch, "dim": cols.dim, "n": n, "groups": g}
    arrays: dict[str, Any] = {"head": np.frombuffer(json.dumps(head).encode(), dtype=np.uint8)}
    for name in _COLUMNS:
        arrays[f"c_{name}"] = getattr(cols, name)[:n]
    arrays["ids"], arrays["ids_end"] = _pack(cols.ids)
    arrays["sessions"], arrays["sessions_end"] = _pack(list(cols.sessions))
    arrays["patterns"] = np.frombuffer(json.dumps(sorted(cols.patterns.items())).encode(), dtype=np.uint8)
    arrays["groups"], arrays["groups_end"] = _pack(graph.group_names)
    arrays["group_kind"], arrays["group_key"] = graph.group_kind[:g], graph.group_key[:g]
    for name in _ADJACENCIES:
        adj: Adjacency = getattr(graph, name)
        if adj.over:
            raise ValueError("only a freshly built graph is saved")
        arrays[f"{name}_ptr"], arrays[f"{name}_sizes"] = adj.ptr, adj.sizes
        for i, col in enumerate(adj.cols):
            arrays[f"{name}_{i}"] = col
    save_npz(path, arrays)


def _read(path: Path, user_id: str, dim: int) -> tuple[dict[str, Any], dict[str, Any]] | None:
    try:
        with np.load(path, allow_pickle=False) as data:
            head = json.loads(data["head"].tobytes())
            if head.get("format") != FORMAT or head.get("user") != user_id or head.get("dim") != dim:
                return None
            return head, {key: data[key] for key in data.files}
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError) as exc:
        log.debug("ignoring the snapshot %s: %s", path.name, exc)
        return None


def load(path: Path, user_id: str, dim: int) -> tuple[dict[str, Any], UserColumns, UserGraph] | None:
    """(header, columns, graph) from the user's snapshot; None when there is none or it is not one this code
    wrote for this user and dimension (the caller checks the header's position and epoch)."""
    found = _read(path, user_id, dim)
    if found is None:
        return None
    head, arrays = found
    return head, _columns(arrays, dim, int(head["n"])), _graph(arrays, int(head["n"]), int(head["groups"]))


def save_text(path: Path, user_id: str, pos: int, idx: UserText) -> None:
    """Write a freshly built full-text index (fulltext.py `UserText`: every slot alive, nothing appended) with
    the text log position its rows were read after, atomically."""
    if idx.added or idx.n_docs != len(idx.ids):
        raise ValueError("only a freshly built index is saved")
    head = {"format": FORMAT, "user": user_id, "pos": pos, "dim": 0, "n": idx.n_docs}
    arrays: dict[str, Any] = {"head": np.frombuffer(json.dumps(head).encode(), dtype=np.uint8)}
    arrays["ids"], arrays["ids_end"] = _pack(idx.ids)
    arrays["terms"], arrays["terms_end"] = _pack(list(idx.base_terms))
    arrays["rids"] = np.frombuffer(bytes(idx.rids), dtype=np.int64)
    arrays["lengths"] = np.frombuffer(bytes(idx.lengths), dtype=np.int32)
    arrays["ptr"], arrays["slots"], arrays["freqs"] = idx.ptr, idx.slots, idx.freqs
    save_npz(path, arrays)


def load_text(path: Path, user_id: str) -> tuple[int, UserText] | None:
    """(text log position, index) from the user's full-text snapshot, or None (see `load`)."""
    from memgraph.store.sqlite.fulltext import UserText  # fulltext.py reads and writes these files

    found = _read(path, user_id, 0)
    if found is None:
        return None
    head, a = found
    n = int(head["n"])
    idx = UserText()
    idx.ids = _unpack(a["ids"], a["ids_end"])
    rids = a["rids"].astype(np.int64)
    lengths = a["lengths"].astype(np.int32)
    if len(idx.ids) != n or len(rids) != n or len(lengths) != n:
        raise ValueError("a text snapshot's slots disagree")
    idx.base_terms = {term: i for i, term in enumerate(_unpack(a["terms"], a["terms_end"]))}
    idx.ptr, idx.slots, idx.freqs = np.array(a["ptr"]), np.array(a["slots"]), np.array(a["freqs"])
    idx.slot = dict(zip(rids.tolist(), range(n), strict=True))
    idx.rids = array("q", rids.tobytes())
    idx.lengths = array("i", lengths.tobytes())
    idx.alive = bytearray(b"\x01" * n)
    idx.n_docs, idx.total_len = n, int(lengths.sum())
    return int(head["pos"]), idx


def _columns(arrays: dict[str, Any], dim: int, n: int) -> UserColumns:
    cols = UserColumns(dim)
    for name in _COLUMNS:
        arr = arrays[f"c_{name}"]
        if len(arr) != n:
            raise ValueError(f"column {name} has {len(arr)} rows, not {n}")
        setattr(cols, name, np.array(arr))  # own, writable copies: catching up writes into them
    cols.ids = _unpack(arrays["ids"], arrays["ids_end"])
    cols.index = {mid: row for row, mid in enumerate(cols.ids)}
    cols.sessions = {name: code for code, name in enumerate(_unpack(arrays["sessions"], arrays["sessions_end"]))}
    cols.patterns = {int(row): list(globs) for row, globs in json.loads(arrays["patterns"].tobytes())}
    cols.version = cols.vector_version = 1  # as after the one `set` of a load
    return cols


def _graph(arrays: dict[str, Any], n: int, g: int) -> UserGraph:
    graph = UserGraph()
    names = _unpack(arrays["groups"], arrays["groups_end"])
    kinds = np.array(arrays["group_kind"])
    graph.group_names = names
    graph.group_kind, graph.group_key = kinds, np.array(arrays["group_key"])
    graph.group_index = dict(zip(zip(kinds.tolist(), names, strict=True), range(g), strict=True))
    lookup = graph.tag_lookup
    for gid, (kind, name) in enumerate(zip(kinds.tolist(), names, strict=True)):
        if kind == TAG:
            lookup.setdefault(name, []).append(gid)
            if ":" in name:
                lookup.setdefault(name.split(":", 1)[1], []).append(gid)
    for name in _ADJACENCIES:
        adj: Adjacency = getattr(graph, name)
        adj.restore(
            np.array(arrays[f"{name}_ptr"]),
            np.array(arrays[f"{name}_sizes"]),
            tuple(np.array(arrays[f"{name}_{i}"]) for i in range(len(adj.dtypes))),
        )
    graph.n_rows = n
    return graph
