"""`Replayer`: applies queued calls to the graph server, in queue order, each exactly once.

Exactly once, through any crash: every entry's write goes out as one `WriteBatch` whose `batch_id` is the
entry id, and the store applies a batch with an id at most once (it records the id in the same transaction,
memgraph/cypher/queries/write_batch.cypher). So, for the one entry a kill -9 can interrupt:

- killed before the server committed: nothing of it is there; the next replay runs it again, from scratch;
- killed after the commit, before the outbox dropped the entry: the next replay finds the id recorded and
  only drops the entry (logged "already applied"); resending it would change nothing either.

Only one replayer runs per outbox file (`Outbox.replay_lock`: a thread lock and an OS file lock, which a
killed process releases). A queued write runs the whole write path at replay, with the server: its
reconciliation decisions (reinforced, superseded, contradicted, merged) land in the store's history
(`memgraph history`, job `outbox`) and in the outbox log (`memgraph outbox status`).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel

from memgraph.config import Settings
from memgraph.errors import MemgraphError, NotFoundError, TransientStoreError
from memgraph.ingest.pipeline import IngestPipeline
from memgraph.models import HasTag, Link, Relation
from memgraph.outbox.ops import EraseOp, LinkOp, TagOp, UpdateOp, WriteOp
from memgraph.outbox.queue import Entry, Outbox
from memgraph.store import GraphStore, JobRun, MemoryFilter, MemoryUpdate, WriteBatch
from memgraph.store.base import applied_key

log = logging.getLogger("memgraph.outbox")

#: Queued entries (and at most texts) whose texts are embedded together ahead of applying them.
PREFETCH_ENTRIES, PREFETCH_TEXTS = 64, 256

#: Called with each entry after the server took it and before the outbox drops it (the CLI prints progress).
Progress = Callable[[Entry, str], None]
#: Erases memories of a user on the server (None: all of them); the engine passes its erasure.
Eraser = Callable[[str, list[str] | None], object]


class ReplayReport(BaseModel):
    """What one replay pass did."""

    applied: int = 0
    already_applied: int = 0  # applied before a crash; found by their batch id, not sent again
    refused: int = 0  # set aside (e.g. a forget of a memory that no longer exists)
    remaining: int = 0  # still queued
    waiting: str | None = None  # why the pass stopped early: the server is unreachable, another replayer runs


def delete_eraser(store: GraphStore) -> Eraser:
    """The default erasure of a queued `erase`: the memories (with their vectors and edges) are deleted."""

    def erase(user_id: str, memory_ids: list[str] | None) -> object:
        if memory_ids is None:
            memory_ids = [r["id"] for r in store.memory_fields(user_id, [], MemoryFilter.everything())]
        return store.delete_memories(user_id, memory_ids)

    return erase


class Replayer:
    """Applies an outbox to its store: in the foreground (`replay`) or from a background thread (`kick`)."""

    def __init__(
        self,
        outbox: Outbox,
        store: GraphStore,
        pipeline: IngestPipeline,
        settings: Settings,
        *,
        eraser: Eraser | None = None,
        before_first: Callable[[], None] | None = None,
        prefetch: Callable[[list[str]], object] | None = None,
    ) -> None:
        self.outbox = outbox
        self.store = store
        self.pipeline = pipeline
        self.settings = settings
        self.eraser = eraser or delete_eraser(store)
        self._before_first = before_first
        self._prefetch = prefetch
        #: True while the server is known to be unreachable: writes then queue without trying it first.
        self.offline = False
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._idle = threading.Event()
        self._idle.set()
        self._thread: threading.Thread | None = None
        self.last: ReplayReport | None = None
        self._warmed_to = 0  # queue seq up to which texts were embedded ahead

    # -- one pass ---------------------------------------------------------------------------------------------

    def replay(
        self, progress: Progress | None = None, *, limit: int | None = None, wait: bool = False
    ) -> ReplayReport:
        """Apply queued entries in order until the queue is empty, the server fails, `limit` entries were
        applied, or the replayer is stopping. Returns at once when another process replays, or another thread
        of this one (`wait`: after that thread's pass instead)."""
        report = ReplayReport()
        with self.outbox.replay_lock(wait=wait) as held:
            if not held:
                report.waiting = "another process or thread is replaying this outbox"
            else:
                try:
                    self._probe()
                    done = 0
                    while not self._stopping.is_set() and (limit is None or done < limit):
                        ahead = self.outbox.head()
                        if ahead is None:
                            break
                        self._warm(ahead)
                        with self.outbox.applying():  # an erasure waits for this entry, or this for it
                            entry = self.outbox.head()
                            if entry is None:
                                break
                            self._one(entry, report, progress)
                        done += 1
                except TransientStoreError as exc:
                    self.offline = True
                    report.waiting = f"the graph server is unreachable: {exc}"
                except MemgraphError as exc:  # e.g. the store was built with another embedding model
                    report.waiting = str(exc)
        report.remaining = self.outbox.pending()
        self.last = report
        return report

    def _warm(self, head: Entry) -> None:
        """Embed the texts of the next queued writes in one batch (into the engine's embedding cache) before
        they are applied one by one. Measured replaying 50 queued remembers into FalkorDB on 2 cores at load
        average ~15: with the sentence-transformers backend 54 s one text at a time, 9.3 s batched ahead; with
        ONNX Runtime (the default) ~33 ms a text either way."""
        if self._prefetch is None or self._warmed_to >= head.seq:
            return
        batch = self.outbox.entries(state="pending", limit=PREFETCH_ENTRIES)
        texts = [item.text for e in batch if isinstance(e.op, WriteOp) for item in e.op.items
                 if item.embedding is None]
        if texts:
            self._prefetch(texts[:PREFETCH_TEXTS])
        self._warmed_to = batch[-1].seq if batch else head.seq

    def _probe(self) -> None:
        """One cheap read: raises TransientStoreError while the server is down (after the retry budget)."""
        self.store.get_meta("schema_version")
        if self._before_first is not None:
            self._before_first()
            self._before_first = None
        self.offline = False

    def _one(self, entry: Entry, report: ReplayReport, progress: Progress | None) -> None:
        started = datetime.now(UTC)
        try:
            outcome, detail = self._apply(entry)
        except TransientStoreError:
            raise
        except (MemgraphError, ValueError) as exc:  # refused for good: set aside, the rest goes on
            error = f"{type(exc).__name__}: {exc}"
            log.warning("outbox entry %s (%s) refused: %s", entry.id, entry.op.op, error)
            self._history(entry, started, "refused", {"error": error}, suffix="")
            self.outbox.refuse(entry, error, {})
            report.refused += 1
            return
        if progress is not None:
            progress(entry, outcome)
        self._history(entry, started, outcome, detail, suffix="" if outcome == "applied" else "-confirmed")
        self.outbox.done(entry, outcome, detail)
        if outcome == "applied":
            report.applied += 1
        else:
            report.already_applied += 1
        try:  # the marker is no longer needed once the outbox forgot the entry
            self.store.compare_and_set_meta(applied_key(entry.id), entry.id, None)
        except MemgraphError:
            log.debug("could not remove the applied marker of %s; it is harmless", entry.id)

    def _history(self, entry: Entry, started: datetime, outcome: str, detail: dict[str, Any], *, suffix: str) -> None:
        """One JobRun per entry (`memgraph history`): what the replay decided. Recorded before the outbox
        drops the entry; the same id overwrites itself if a crash makes the replay record it again."""
        counts = {"op": entry.op.op, "outcome": outcome, "queued_at": entry.queued_at.isoformat(), **detail}
        self.store.record_job(JobRun(id=f"outbox-{entry.id}{suffix}", job="outbox", user_id=entry.user_id,
                                     started_at=started, finished_at=datetime.now(UTC), applied=True,
                                     counts=counts))

    # -- applying one entry -----------------------------------------------------------------------------------

    def _apply(self, entry: Entry) -> tuple[str, dict[str, Any]]:
        op, owner = entry.op, entry.user_id
        if isinstance(op, EraseOp):  # idempotent by nature: erasing twice erases nothing more
            self.eraser(owner, op.memory_ids)
            return "applied", {"erased": "all" if op.memory_ids is None else len(op.memory_ids)}
        if self.store.get_meta(applied_key(entry.id)) is not None:
            return "already applied", {}
        if isinstance(op, WriteOp):
            return self._write(entry, op)
        if isinstance(op, UpdateOp):
            self._require(owner, [op.memory_id])
            sets: dict[str, Any] = {"updated_at": op.at} if op.active is not None else {"last_accessed": op.at}
            if op.active is not None:
                sets["active"] = op.active
            batch = WriteBatch(updates=[MemoryUpdate(id=op.memory_id, set=sets, inc=op.inc)])
            detail: dict[str, Any] = {"what": op.what, "memory_id": op.memory_id}
        elif isinstance(op, LinkOp):
            link = op.link
            self._require(owner, [link.src, link.dst])
            updates = []
            if link.relation is Relation.SUPERSEDES:
                updates.append(MemoryUpdate(id=link.dst, set={"active": False, "updated_at": link.created_at}))
            batch = WriteBatch(links=[link], updates=updates)
            detail = {"link": f"{link.src} -{link.relation.value}-> {link.dst}"}
        else:
            assert isinstance(op, TagOp)
            self._require(owner, [op.memory_id])
            batch = WriteBatch(tags=[HasTag(memory_id=op.memory_id, tag=t) for t in op.tags])
            detail = {"memory_id": op.memory_id, "tags": op.tags}
        batch.batch_id = entry.id
        self.store.write(owner, batch)
        return "applied", detail

    def _write(self, entry: Entry, op: WriteOp) -> tuple[str, dict[str, Any]]:
        owner = entry.user_id
        dropped_links: list[str] = []

        def links(item_ids: list[list[str]]) -> list[Link]:
            out = [x for x in (q.link(item_ids) for q in op.links) if x is not None]
            written = {mid for ids in item_ids for mid in ids}
            others = sorted({end for x in out for end in (x.src, x.dst)} - written)
            found = {m.id for m in self.store.get_memories(owner, others)} if others else set()
            kept = []
            for x in out:  # a link to a memory that is gone is left out; the memories are still written
                if {x.src, x.dst} <= written | found:
                    kept.append(x)
                else:
                    dropped_links.append(f"{x.src} -{x.relation.value}-> {x.dst}")
            return kept

        res = self.pipeline.run(
            owner,
            [item.ingest_item() for item in op.items],
            explicit=op.explicit,
            reconcile=op.reconcile,
            on_secret_reject="drop",
            source=op.source,
            extra_links=links if op.links else None,
            batch_id=entry.id,
        )
        r = res.report
        detail: dict[str, Any] = {
            "items": len(op.items),
            "created": len(r.created),
            "reinforced": r.reinforced,
            "superseded": r.superseded,
            "contradicted": r.contradicted,
            "unchanged": len(r.unchanged),
            "dropped": len(r.dropped),
            "decisions": [f"{d.action} {d.target_id or d.memory_id}: {d.reason}"
                          for d in r.decisions if d.action != "created"],
        }
        if dropped_links:
            detail["links_left_out"] = dropped_links
        return "applied", {k: v for k, v in detail.items() if v not in ([], 0)}

    def _require(self, owner: str, ids: list[str]) -> None:
        found = {m.id for m in self.store.get_memories(owner, ids)}
        for mid in ids:
            if mid not in found:
                raise NotFoundError(f"no memory {mid!r} for user {owner!r}")

    # -- in the background ------------------------------------------------------------------------------------

    def kick(self) -> None:
        """Make sure the background replayer runs (after an entry was queued, or when an engine opens on an
        outbox with entries). It stops by itself once the queue is empty."""
        with self._lock:
            if self._stopping.is_set() or not self.settings.outbox_background:
                return
            self._idle.clear()
            self._wake.set()
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="memgraph-outbox", daemon=True)
                self._thread.start()

    def _run(self) -> None:
        delay = self.settings.outbox_retry_s
        while not self._stopping.is_set():
            self._wake.clear()
            try:
                report = self.replay()
            except Exception:  # noqa: BLE001 - the thread must survive anything; the entry stays queued
                log.exception("outbox replay failed; retrying in %.1f s", delay)
                report = ReplayReport(waiting="error", remaining=1)
            if report.waiting is None and report.remaining == 0:
                with self._lock:
                    if not self._wake.is_set():
                        self._thread = None
                        self._idle.set()
                        return
                continue
            if report.waiting is None:  # progress was made; go on at once
                delay = self.settings.outbox_retry_s
                continue
            self._wake.wait(delay)
            delay = min(delay * 2, self.settings.outbox_retry_max_s)
        with self._lock:
            self._thread = None
            self._idle.set()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until the background replayer has emptied the queue (True) or `timeout` passed (False)."""
        return self._idle.wait(timeout) and self.outbox.pending() == 0

    def stop(self, timeout: float | None = 10.0) -> None:
        """Stop the background replayer after the entry it is applying (it stays queued if unfinished)."""
        self._stopping.set()
        self._wake.set()
        with self._lock:
            thread = self._thread
        if thread is not None:
            thread.join(timeout)
