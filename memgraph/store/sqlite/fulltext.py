"""Full-text search on the SQLite store: per-user inverted indexes in memory, kept exactly in step with the
file across processes, ranked by `store/bm25.py` on the user's own statistics.

Why not FTS5 (which schema 1-3 used; schema 4 drops it, migrations.py): every store must rank with the same
BM25 on the *user's* statistics (N, df, mean length), and FTS5's `bm25()` only knows index-wide ones (all
users). Ranking FTS5's hits ourselves means reading every hit's text per query: at 100k memories of one user a
common word is in tens of thousands of them, and that costs tens to hundreds of ms (bench/fulltext.py,
bench/RESULTS.md "Full text"). Postings held as arrays score the same hits with numpy in a few ms. Other
replacements were ruled out by the issue's constraints: bm25s cannot update an index, tantivy keeps deleted
documents until a merge and allows one writer across processes. Here the file stays the only copy (real
erasure: deleting a memory deletes its text; no index segment keeps it), any number of processes write it,
and each process's index is derived from `memories.content`.

How each process stays in step: triggers on `memories` (migration 4) append `(user_id, rid)` to
`text_changes` in the same transaction as every insert, content change and delete, whoever writes (this
process, another one, a job, erasure). Before each search the process reads the log past the last position it
applied (an index seek; nothing when nothing changed) and re-reads the current row of each logged rid for the
users it holds: re-reading makes replay idempotent, so the order of "load" and "log position" never loses a
change. The log is trimmed by its own trigger; a process that finds a hole before its position (it was idle
while more than `TEXT_LOG_KEEP` changes were trimmed) drops its indexes and reloads them on demand.

Cost (bench/RESULTS.md "Full text", CPU time on the 2-core development machine): loading one user's index
reads and analyses all their memories once per process (0.13 s at 10k memories, 1.3 s at 100k); a search is a
dictionary lookup per query term plus numpy over the postings: LoCoMo questions at 100k memories take 1.4 ms
p50 / 2.3 ms p95, against 30 / 70 ms for FTS5 finding the same hits and this module ranking them.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import threading
from array import array
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from memgraph.store import bm25
from memgraph.store.bm25 import Okapi
from memgraph.store.sqlite import snapshot
from memgraph.store.sqlite.columns import IdsAt
from memgraph.store.sqlite.connection import Database
from memgraph.text import query_terms, stem, terms, tokenize_many

log = logging.getLogger(__name__)

#: How many change-log rows the trim trigger keeps (migration 4 writes it into the trigger). A process idle
#: for more changes than this reloads its indexes instead of replaying them.
TEXT_LOG_KEEP = 100_000


#: (memory ids, term frequencies hits x query terms, lengths, document frequency per term, rids): `UserText.hits`
_Hits = tuple[IdsAt, np.ndarray, np.ndarray, list[int], np.ndarray]


class UserText:
    """One user's inverted index. Terms map to postings (document slots and term frequencies) in two parts:
    the bulk-built base, one CSR layout (`ptr` into `slots`/`freqs`) made with numpy when the user is loaded
    or compacted, and the arrays appended to by later writes. Each slot has a length and an alive flag: slots
    of deleted or rewritten memories are dead until the next compaction."""

    def __init__(self, rows: Sequence[tuple[int, str, str]] = ()) -> None:
        self.slot: dict[int, int] = {}  # rid -> slot
        self.ids: list[str] = []  # slot -> memory id
        self.rids = array("q")  # slot -> rid
        self.lengths = array("i")  # slot -> term count
        self.alive = bytearray()  # slot -> 1 while current
        self.base_terms: dict[str, int] = {}
        self.ptr = np.zeros(1, dtype=np.int64)
        self.slots = np.zeros(0, dtype=np.int32)
        self.freqs = np.zeros(0, dtype=np.int32)
        self.added: dict[str, tuple[array[int], array[int]]] = {}
        self.n_docs = 0
        self.total_len = 0
        #: bumped by every change: `hits` keeps the last query's hits while it is unchanged
        self.changes = 0
        self._last: tuple[int, dict[str, int], _Hits] | None = None
        if rows:
            self._bulk(rows)

    def _bulk(self, rows: Sequence[tuple[int, str, str]]) -> None:
        """Build the base from (rid, id, text) rows: each distinct token is stemmed once, and the postings
        are one sort of (term, slot) keys, not a Python append per term (10x faster at 100k memories)."""
        docs = tokenize_many([content for _, _, content in rows])
        distinct = list({t for toks in docs for t in toks})
        vocab: dict[str, int] = {}
        term_of = {tok: vocab.setdefault(term, len(vocab)) for tok, term in zip(distinct, stem(distinct), strict=True)}
        lens = np.fromiter((len(toks) for toks in docs), dtype=np.int64, count=len(docs))
        flat = np.fromiter((term_of[t] for toks in docs for t in toks), dtype=np.int64, count=int(lens.sum()))
        n = len(rows)
        keys, counts = np.unique(flat * n + np.repeat(np.arange(n, dtype=np.int64), lens), return_counts=True)
        terms_of_keys = keys // n
        self.base_terms = vocab
        self.ptr = np.searchsorted(terms_of_keys, np.arange(len(vocab) + 1, dtype=np.int64)).astype(np.int64)
        self.slots = (keys % n).astype(np.int32)
        self.freqs = counts.astype(np.int32)
        self.slot = {rid: i for i, (rid, _, _) in enumerate(rows)}
        self.ids = [mid for _, mid, _ in rows]
        self.rids = array("q", [rid for rid, _, _ in rows])
        self.lengths = array("i", lens.astype(np.int32).tobytes())
        self.alive = bytearray(b"\x01" * n)
        self.n_docs = n
        self.total_len = int(lens.sum())
        self.changes += 1

    def add(self, rid: int, memory_id: str, content: str) -> None:
        self.remove(rid)
        self.changes += 1
        words = terms(content)
        pos = len(self.ids)
        self.slot[rid] = pos
        self.ids.append(memory_id)
        self.rids.append(rid)
        self.lengths.append(len(words))
        self.alive.append(1)
        self.n_docs += 1
        self.total_len += len(words)
        added = self.added
        for term, count in Counter(words).items():
            found = added.get(term)
            if found is None:
                found = added[term] = (array("i"), array("i"))
            found[0].append(pos)
            found[1].append(count)

    def remove(self, rid: int) -> None:
        pos = self.slot.pop(rid, None)
        if pos is None:
            return
        self.changes += 1
        self.alive[pos] = 0
        self.n_docs -= 1
        self.total_len -= self.lengths[pos]
        if len(self.ids) - self.n_docs > max(1024, self.n_docs):
            self.compact()

    def postings(self, term: str) -> tuple[np.ndarray, np.ndarray]:
        """(slots, term frequencies) of a term, dead slots included."""
        parts = []
        row = self.base_terms.get(term)
        if row is not None:
            lo, hi = int(self.ptr[row]), int(self.ptr[row + 1])
            parts.append((self.slots[lo:hi], self.freqs[lo:hi]))
        extra = self.added.get(term)
        if extra is not None:
            parts.append((np.array(extra[0], dtype=np.int32), np.array(extra[1], dtype=np.int32)))
        if not parts:
            return np.zeros(0, np.int32), np.zeros(0, np.int32)
        if len(parts) == 1:
            return parts[0]
        return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])

    def compact(self) -> None:
        """Drop dead slots and fold the appended postings into the base (more than half the slots are dead):
        one re-sort of (term, slot) keys, nothing re-analysed."""
        alive = np.frombuffer(bytes(self.alive), dtype=np.uint8).astype(bool)
        remap = (np.cumsum(alive) - 1).astype(np.int64)
        vocab = dict(self.base_terms)
        term_ids = [np.repeat(np.arange(len(self.ptr) - 1, dtype=np.int64), np.diff(self.ptr))]
        slot_parts, freq_parts = [self.slots.astype(np.int64)], [self.freqs]
        for term, (slots, freqs) in self.added.items():
            tid = vocab.setdefault(term, len(vocab))
            term_ids.append(np.full(len(slots), tid, dtype=np.int64))
            slot_parts.append(np.array(slots, dtype=np.int64))
            freq_parts.append(np.array(freqs, dtype=np.int32))
        tids, slots_all, freqs_all = np.concatenate(term_ids), np.concatenate(slot_parts), np.concatenate(freq_parts)
        keep = alive[slots_all]
        tids, new_slots, freqs_all = tids[keep], remap[slots_all[keep]], freqs_all[keep]
        n = max(1, int(alive.sum()))
        order = np.argsort(tids * n + new_slots, kind="stable")
        tids, new_slots, freqs_all = tids[order], new_slots[order], freqs_all[order]
        self.base_terms = vocab
        self.ptr = np.searchsorted(tids, np.arange(len(vocab) + 1, dtype=np.int64)).astype(np.int64)
        self.slots = new_slots.astype(np.int32)
        self.freqs = freqs_all.astype(np.int32)
        self.added = {}
        keep_slots = np.flatnonzero(alive)
        self.ids = [self.ids[i] for i in keep_slots]
        self.rids = array("q", np.frombuffer(bytes(self.rids), dtype=np.int64)[keep_slots].tobytes())
        self.lengths = array("i", np.frombuffer(bytes(self.lengths), dtype=np.int32)[keep_slots].tobytes())
        self.alive = bytearray(b"\x01" * len(self.ids))
        self.slot = {rid: int(remap[pos]) for rid, pos in self.slot.items()}
        self.changes += 1

    def hits(self, query: Sequence[str]) -> _Hits:
        """(memory ids, term frequencies hits x query terms, lengths, document frequency per query term, rids)
        of the current memories holding any query term. Linear in the user's slots and the query's postings:
        no sort (a mask marks the hits), and ids are looked up only for the hits that get ranked.

        A query whose terms are all among the last query's (the index unchanged since) is answered from that
        query's hits: a cascade recall searches the question, then inside each tag it names the question less
        the naming words (retrieve/cues.py), whose terms are the question's. The same arrays as searching anew:
        the hits holding any of the terms, in slot order, the terms' columns in the query's order."""
        last = self._last
        if last is not None and last[0] == self.changes and all(t in last[1] for t in query):
            return _sub_hits(last[2], [last[1][t] for t in query])
        found = self._hits(query)
        self._last = (self.changes, {t: j for j, t in reversed(list(enumerate(query)))}, found)
        return found

    def _hits(self, query: Sequence[str]) -> _Hits:
        # views of the slot arrays, not copies (each copy was a pass over every slot of the user, per search: a
        # cascade recall searches four times); read only here, under the index's lock, and dropped on return
        alive = np.frombuffer(self.alive, dtype=np.bool_)
        found: list[tuple[np.ndarray, np.ndarray]] = []
        mark = np.zeros(len(alive), dtype=bool)
        for term in query:
            slots, freqs = self.postings(term)
            live = alive[slots]
            slots = slots[live]
            found.append((slots, freqs[live]))
            mark[slots] = True
        union = np.flatnonzero(mark)
        row = np.empty(len(alive), dtype=np.int64)
        row[union] = np.arange(len(union))
        tf = np.zeros((len(union), len(query)), dtype=np.int32)
        for j, (slots, freqs) in enumerate(found):
            tf[row[slots], j] = freqs
        lengths = np.frombuffer(self.lengths, dtype=np.int32)[union]
        rids = np.frombuffer(self.rids, dtype=np.int64)[union]
        del alive
        return IdsAt(self.ids, union), tf, lengths, [len(s) for s, _ in found], rids


def _sub_hits(found: _Hits, cols: list[int]) -> _Hits:
    """`UserText.hits` for the query made of these columns of `found`'s query: its rows holding any of them."""
    ids, tf, lengths, dfs, rids = found
    sub = tf[:, cols]
    rows = np.flatnonzero(sub.any(axis=1))
    return IdsAt(ids.names, ids.positions[rows]), sub[rows], lengths[rows], [dfs[j] for j in cols], rids[rows]


class FullText:
    """The per-user indexes of one store (see the module docstring). Thread-safe."""

    def __init__(self, db: Database, okapi: Okapi, directory: Path | None = None) -> None:
        self._db = db
        self.okapi = okapi
        #: where users' index snapshots are read and written (snapshot.py; the store's folder); None: never
        self.directory = directory
        self.snapshot_loads = 0
        self._users: dict[str, UserText] = {}
        self._lock = threading.Lock()  # guards the indexes; taken after a reading connection, never before
        self._position = self._log_end(db.conn)

    @staticmethod
    def _log_end(conn: sqlite3.Connection) -> int:
        row = conn.execute("SELECT seq FROM sqlite_sequence WHERE name = 'text_changes'").fetchone()
        return int(row[0]) if row else 0

    @contextmanager
    def index(self, user_id: str) -> Iterator[UserText]:
        """The user's index, caught up with every commit, loaded on first use; valid inside the block."""
        with self._db.reading() as conn, self._lock:
            self._catch_up(conn)
            idx = self._users.get(user_id)
            if idx is None:
                idx = self._from_snapshot(conn, user_id)
                if idx is None:
                    start = self._position
                    idx = self._load(conn, user_id)
                    self._save(conn, user_id, start, idx)
                self._users[user_id] = idx
            yield idx

    def search(
        self,
        user_id: str,
        query: str,
        k: int,
        clause: str,
        params: Sequence[Any],
        passes: Callable[[list[str], np.ndarray], np.ndarray] | None = None,
    ) -> list[tuple[str, float]]:
        """The k best memories of the user for `query` that pass the filter (`clause` over `m`, rows.where),
        with their BM25 scores. `passes` (the index's slot -> memory id list and the hits' slots -> whether
        each hit passes the same filter), when given, answers instead of the SQL: the store's in-memory masks
        (store.py), for every hit at once. Ranking only the passing hits gives the same list as walking the
        ranking until k pass (`bm25.top_passing`): both are the first k passing hits by (score desc, id).
        Asking about hits a window at a time by id cost ~3 ms per search at 10k memories for a selective
        filter (a query-named tag's scoped search grew the window 4x several times)."""
        words = query_terms(query, self.okapi.max_query_terms)
        if not words or k <= 0:
            return []
        with self.index(user_id) as idx:
            ids, tf, lengths, dfs, rids = idx.hits(words)
            n_docs, total_len = idx.n_docs, idx.total_len
        if not ids:
            return []
        idfs = [bm25.idf(n_docs, df) for df in dfs]
        if passes is not None:
            ok = passes(ids.names, ids.positions)
            at = np.flatnonzero(ok)
            if 2 * len(at) < len(ok):
                # a selective filter (a tag the question names): only the passing hits are scored; a hit's
                # score is its own row's arithmetic, and the ranking is by (score, id), so the same list
                ids, tf, lengths = IdsAt(ids.names, ids.positions[at]), tf[at], lengths[at]
                values = bm25.scores(idfs, tf, lengths, n_docs, total_len, self.okapi)
            else:
                values = bm25.scores(idfs, tf, lengths, n_docs, total_len, self.okapi)
                values = np.where(ok, values, 0.0)  # BM25 of a hit is > 0
            return [(ids[i], float(values[i])) for i in bm25.best_first(ids, values, k)]
        values = bm25.scores(idfs, tf, lengths, n_docs, total_len, self.okapi)

        def passing(positions: list[int]) -> set[int]:
            # by rowid (the table's own key: one seek per hit, no id index), the user re-checked
            at = {int(rids[i]): i for i in positions}
            keys = list(at)
            ok: set[int] = set()
            for start in range(0, len(keys), 500):
                chunk = keys[start : start + 500]
                ok |= {
                    at[r[0]]
                    for r in self._db.read(
                        f"SELECT m.rid FROM memories m WHERE m.rid IN ({','.join('?' * len(chunk))}) "
                        f"AND +m.user_id = ? AND {clause}",  # +: seek the rowids, not the user index
                        [*chunk, user_id, *params],
                    )
                }
            return ok

        return bm25.top_passing(ids, values, k, passing)

    def _from_snapshot(self, conn: sqlite3.Connection, user_id: str) -> UserText | None:
        """The user's index from its snapshot (snapshot.py) with the logged changes since its position applied
        (re-reading rows is idempotent, so a snapshot from before or after this process's position serves);
        None when there is none, the log was trimmed past it, or much changed since (then built and saved anew)."""
        if self.directory is None:
            return None
        path = snapshot.path_for(self.directory, user_id, "text")
        if not path.exists():
            return None
        try:
            found = snapshot.load_text(path, user_id)
        except (ValueError, KeyError, TypeError) as exc:
            log.debug("ignoring the full-text snapshot %s: %s", path.name, exc)
            found = None
        if found is None:
            return None
        pos, idx = found
        first, last = conn.execute("SELECT min(seq), max(seq) FROM text_changes").fetchone()
        if first is not None and first > pos + 1 and pos < last:  # entries after it were trimmed away
            return None
        rids = {
            r[0]
            for r in conn.execute("SELECT rid FROM text_changes WHERE seq > ? AND user_id = ?", (pos, user_id))
        }
        if len(rids) > snapshot.REFRESH_ENTRIES or len(rids) > snapshot.REFRESH_FRACTION * idx.n_docs:
            return None
        self._reread(conn, user_id, idx, rids)
        self.snapshot_loads += 1
        return idx

    def _save(self, conn: sqlite3.Connection, user_id: str, pos: int, idx: UserText) -> None:
        """Write a freshly built index's snapshot; delete it again when anything was logged for the user since
        `pos` (an erasure may have deleted the user's snapshot before this one was renamed into place)."""
        if self.directory is None or conn.in_transaction:  # the check must see every commit
            return
        try:
            snapshot.save_text(snapshot.path_for(self.directory, user_id, "text"), user_id, pos, idx)
            later = "SELECT 1 FROM text_changes WHERE seq > ? AND user_id = ? LIMIT 1"
            if conn.execute(later, (pos, user_id)).fetchone():
                snapshot.forget(self.directory, user_id, ("text",))
        except (OSError, ValueError, sqlite3.Error) as exc:  # a read-only folder, a full disk: no snapshot
            log.debug("could not save the full-text snapshot of %s: %s", user_id, exc)
            with contextlib.suppress(OSError):
                snapshot.forget(self.directory, user_id, ("text",))

    def _load(self, conn: sqlite3.Connection, user_id: str) -> UserText:
        rows = conn.execute("SELECT rid, id, content FROM memories WHERE user_id = ? ORDER BY rid", (user_id,))
        return UserText(rows.fetchall())

    def _catch_up(self, conn: sqlite3.Connection) -> None:
        """Apply the logged changes past our position to the indexes held (caller holds _lock)."""
        rows = conn.execute(
            "SELECT seq, user_id, rid FROM text_changes WHERE seq > ? ORDER BY seq", (self._position,)
        ).fetchall()
        if not rows:
            return
        if rows[0][0] != self._position + 1:  # trimmed past our position: what we missed is unknown
            self._users.clear()
            self._position = rows[-1][0]
            return
        self._position = rows[-1][0]
        wanted: dict[str, set[int]] = {}
        for _, user_id, rid in rows:
            if user_id in self._users:
                wanted.setdefault(user_id, set()).add(rid)
        for user_id, rids in wanted.items():
            idx = self._users[user_id]
            if len(rids) > max(1000, idx.n_docs // 4):  # a bulk write: building anew in bulk is faster
                del self._users[user_id]
                continue
            self._reread(conn, user_id, idx, rids)

    @staticmethod
    def _reread(conn: sqlite3.Connection, user_id: str, idx: UserText, rids: set[int]) -> None:
        """Apply these logged rids to the user's index: each row's current text, or its removal."""
        if rids:
            current: dict[int, tuple[str, str, str]] = {}
            ordered = sorted(rids)
            for start in range(0, len(ordered), 500):
                chunk = ordered[start : start + 500]
                for rid, mid, owner, content in conn.execute(
                    f"SELECT rid, id, user_id, content FROM memories WHERE rid IN ({','.join('?' * len(chunk))})",
                    chunk,
                ):
                    current[rid] = (mid, owner, content)
            for rid in ordered:
                row = current.get(rid)
                if row is not None and row[1] == user_id:
                    idx.add(rid, row[0], row[2])
                else:
                    idx.remove(rid)
