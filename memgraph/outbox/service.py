"""`WriteOutbox`: what an engine on a server store does with calls the server cannot take.

The engine asks `must_queue(user)` before a write (true while the server is known to be down, or while
writes of that user wait, so a later call never overtakes an earlier one) and hands a write that failed with
`TransientStoreError` after the retry budget to one of the queueing methods. Those run the store-free part
of the call (validation, the secret filter), append one entry, start the background replayer and return
what the caller gets instead: the memories marked `queued`. Reads use `overlay`/`views` to show what waits.

`engine.outbox` is this object: `status()`, `pending()`, `replay()`, `wait()`, `drop()`, `erase()`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from datetime import datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from memgraph.config import Settings
from memgraph.ingest.items import IngestItem, prepare
from memgraph.ingest.pipeline import IngestPipeline
from memgraph.ingest.report import IngestDecision, IngestReport
from memgraph.models import Link, Memory, Relation, utcnow
from memgraph.outbox.deferred import DeferredStore
from memgraph.outbox.ops import EraseOp, LinkOp, QueuedItem, QueuedLink, TagOp, UpdateOp, WriteOp
from memgraph.outbox.paths import outbox_path
from memgraph.outbox.queue import LogRow, Outbox
from memgraph.outbox.replay import Eraser, Progress, Replayer, ReplayReport
from memgraph.store import GraphStore


class OutboxStatus(BaseModel):
    """`memgraph outbox status`: what waits, what was set aside, what happened lately."""

    path: str
    pending: dict[str, int] = Field(default_factory=dict, description="queued calls per user")
    refused: dict[str, int] = Field(default_factory=dict, description="set-aside calls per user")
    oldest: datetime | None = None
    offline: bool = False
    last_replay: ReplayReport | None = None
    recent: list[LogRow] = Field(default_factory=list, description="newest replay outcomes first")


class WriteOutbox:
    """An engine's outbox: the queue file, its replayer, and the queueing side of each write call."""

    def __init__(
        self,
        path: Path,
        store: GraphStore,
        pipeline: IngestPipeline,
        settings: Settings,
        *,
        eraser: Eraser | None = None,
        before_first: Callable[[], None] | None = None,
        prefetch: Callable[[list[str]], object] | None = None,
    ) -> None:
        self.settings = settings
        self.queue = Outbox(path, max_entries=settings.outbox_max_entries, log_keep=settings.outbox_log_keep)
        self.replayer = Replayer(self.queue, store, pipeline, settings, eraser=eraser, before_first=before_first,
                                 prefetch=prefetch)
        self._pipeline = pipeline

    @classmethod
    def open(
        cls,
        settings: Settings,
        store: GraphStore,
        pipeline: IngestPipeline,
        *,
        eraser: Eraser | None = None,
        before_first: Callable[[], None] | None = None,
        prefetch: Callable[[list[str]], object] | None = None,
    ) -> WriteOutbox | None:
        """The outbox of an engine's store (None: SQLite, embedded FalkorDB, `outbox=False`), its background
        replayer started when an earlier process left calls queued. `eraser(user_id, memory_ids | None)`
        applies a queued erasure (default: delete the memories); `before_first` runs once the server answers,
        before the first replay (the deferred model check); `prefetch` embeds queued texts ahead."""
        path = outbox_path(settings)
        if path is None or store.name not in ("neo4j", "falkordb"):
            return None
        box = cls(path, store, pipeline, settings, eraser=eraser, before_first=before_first, prefetch=prefetch)
        if isinstance(store, DeferredStore) and not store.connected:
            box.note_outage()  # it did not answer at open: writes queue at once, the replayer keeps asking
        box.resume()
        return box

    @property
    def path(self) -> Path:
        return self.queue.path

    # -- for callers (engine.outbox) --------------------------------------------------------------------------

    def pending(self, user_id: str | None = None) -> int:
        """Calls waiting in the outbox (of one user, or of all)."""
        return self.queue.pending(user_id)

    def status(self, *, recent: int = 20) -> OutboxStatus:
        counts = self.queue.counts()
        return OutboxStatus(
            path=str(self.queue.path),
            pending=counts.get("pending", {}),
            refused=counts.get("refused", {}),
            oldest=self.queue.oldest(),
            offline=self.replayer.offline,
            last_replay=self.replayer.last,
            recent=self.queue.log(recent),
        )

    def replay(self, progress: Progress | None = None) -> ReplayReport:
        """Apply what waits now, in the foreground (the background replayer does the same on its own; this
        waits for its current pass first). `progress(entry, outcome)` is called for each entry applied."""
        return self.replayer.replay(progress, wait=True)

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the background replayer emptied the outbox (True) or `timeout` seconds passed."""
        if self.queue.pending() == 0:
            return True
        if not self.settings.outbox_background:  # no thread to wait for: one pass here
            return self.replay().remaining == 0
        self.replayer.kick()
        return self.replayer.wait(timeout)

    def drop(self, *, user_id: str | None = None, refused_only: bool = False) -> int:
        """Discard queued calls without applying them (logged as dropped). Returns how many."""
        return self.queue.drop(user_id=user_id, refused_only=refused_only)

    def erase(self, user_id: str, memory_ids: list[str] | None = None) -> int:
        """Remove what is queued of these memories (None: of the user). The engine's erasure calls this first,
        then erases on the server (or queues that erasure: `queue_erase`)."""
        return self.queue.erase(user_id, None if memory_ids is None else list(memory_ids))

    def close(self) -> None:
        self.replayer.stop()
        self.queue.close()

    # -- for the engine ---------------------------------------------------------------------------------------

    def note(self, user_id: str) -> str | None:
        """The warning reads carry while calls of this user wait (None when none do)."""
        n = self.queue.pending(user_id)
        if not n:
            return None
        return (f"{n} write call(s) of this user are queued in the local outbox (the graph server was "
                "unreachable) and are not visible in this result yet; they are replayed once it answers")

    def must_queue(self, user_id: str) -> bool:
        """Queue without trying the server: it is known to be down, or earlier writes of this user wait."""
        return self.replayer.offline or self.queue.pending(user_id) > 0

    def note_outage(self) -> None:
        self.replayer.offline = True

    def resume(self) -> None:
        """Start replaying what an earlier process left queued (an engine opening on this outbox)."""
        if self.queue.pending():
            self.replayer.kick()

    def _append(self, user_id: str, op: WriteOp | UpdateOp | LinkOp | TagOp | EraseOp) -> None:
        self.queue.append(user_id, op)
        self.replayer.kick()

    def write(
        self,
        user_id: str,
        items: list[IngestItem],
        *,
        explicit: bool,
        reconcile: bool = True,
        source: str = "remember",
        links: Callable[[list[str]], Iterable[Link]] | None = None,
        on_secret_reject: Literal["raise", "drop"] = "raise",
    ) -> tuple[list[list[str]], IngestReport]:
        """Queue a remember/ingest call. Validation and the secret filter run now (a bad item raises and
        nothing is queued); the rest of the write path runs at replay. Returns, per item, the id its memory
        will have if stored as new (none for an item left out), and a report marked `queued` (explicit writes:
        one `queued` decision per item, with its `memory_id`; what replay decides lands in the outbox's log and
        history)."""
        report = IngestReport(user_id=user_id, items=len(items), queued=True)
        redactions: Counter[str] = Counter()
        now = utcnow()
        queued: list[QueuedItem] = []
        item_ids: list[list[str]] = [[] for _ in items]
        for i, item in enumerate(items):
            p = prepare(i, item, settings=self.settings, secrets=self._pipeline.secrets, explicit=explicit,
                        many=len(items) > 1, on_secret_reject=on_secret_reject, redactions=redactions,
                        report=report)
            if p is not None:
                q = QueuedItem.of(p, now)
                item_ids[i] = [q.memory_id(user_id)]
                queued.append(q)
                if explicit:  # (an ingested text is chunked at replay: its ids are known only then)
                    report.decisions.append(IngestDecision(
                        item=i, chunk=0, action="queued", memory_id=item_ids[i][0],
                        kind=None if q.kind is None else q.kind.value,
                        reason="the graph server was unreachable: the rest of the write path (reconciliation, "
                        "dedup) runs when the outbox is replayed",
                    ))
        report.redactions = dict(redactions)
        kept = [ids[0] for ids in item_ids if ids]
        qlinks = [QueuedLink.of(x, kept) for x in links(kept)] if links is not None and kept else []
        if queued:
            self._append(user_id, WriteOp(items=queued, explicit=explicit, reconcile=reconcile, source=source,
                                          links=qlinks))
        return item_ids, report

    def update(
        self, user_id: str, memory_id: str, what: Literal["forget", "restore", "feedback"], *,
        active: bool | None = None, inc: dict[str, float] | None = None,
    ) -> Memory:
        self._append(user_id, UpdateOp(what=what, memory_id=memory_id, active=active, inc=inc or {}, at=utcnow()))
        return self.memory(user_id, memory_id)

    def link(self, user_id: str, link: Link) -> Link:
        self._append(user_id, LinkOp(link=link))
        return link

    def tag(self, user_id: str, memory_id: str, tags: list[str]) -> Memory:
        self._append(user_id, TagOp(memory_id=memory_id, tags=tags))
        return self.memory(user_id, memory_id)

    def queue_erase(self, user_id: str, memory_ids: list[str] | None) -> None:
        """An erasure the server could not take now: it is replayed after what was queued before it."""
        self._append(user_id, EraseOp(memory_ids=None if memory_ids is None else list(memory_ids)))

    # -- what reads show --------------------------------------------------------------------------------------

    def overlay(self, user_id: str, memory_id: str, base: Memory | None) -> Memory | None:
        """`base` (the stored memory, or None) with the queued calls on it applied, marked `queued`; `base`
        itself when nothing waits for it. A memory known only from a forget/tag/feedback call is returned with
        empty content (the server holds it)."""
        entries = self.queue.touching(user_id, memory_id)
        if not entries:
            return base
        s = self.settings
        m = base
        for entry in entries:
            op = entry.op
            if isinstance(op, WriteOp):
                for item in op.items:
                    if m is None and item.memory_id(user_id) == memory_id:
                        m = item.view(user_id, min_importance=s.explicit_min_importance,
                                      max_triggers=s.constraint_max_triggers)
                continue
            if m is None:
                m = Memory(id=memory_id, user_id=user_id, content="")
            if isinstance(op, UpdateOp):
                update: dict[str, object] = {}
                if op.active is not None:
                    update["active"] = op.active
                if "strength" in op.inc:
                    update["strength"] = m.strength + int(op.inc["strength"])
                if "confidence" in op.inc:
                    update["confidence"] = min(1.0, max(0.0, m.confidence + op.inc["confidence"]))
                m = m.model_copy(update=update)
            elif isinstance(op, TagOp):
                m = m.model_copy(update={"tags": sorted(set(m.tags) | set(op.tags))})
            elif isinstance(op, LinkOp) and op.link.relation is Relation.SUPERSEDES and op.link.dst == memory_id:
                m = m.model_copy(update={"active": False})
        return None if m is None else m.model_copy(update={"queued": True})

    def memory(self, user_id: str, memory_id: str) -> Memory:
        """A memory as a queued call leaves it (see `overlay`)."""
        m = self.overlay(user_id, memory_id, None)
        return m if m is not None else Memory(id=memory_id, user_id=user_id, content="", queued=True)

    def views(self, user_id: str, memory_ids: list[str]) -> list[Memory]:
        """Queued memories by id, in order (ids with nothing queued are left out)."""
        return [m for mid in memory_ids if (m := self.overlay(user_id, mid, None)) is not None]

