"""The engine's write side: where each write goes, and the links and tags it may carry.

Every write call of `MemoryEngine` runs through `WritePath.queueable`: online through the ingest pipeline
(memgraph/ingest), or, on a server store whose server cannot take it now (or while earlier writes of the same
user wait), into the local outbox (memgraph/outbox), so nothing is lost and nothing overtakes what was queued.
Links given by callers are cleaned here (memory relations only, once each, reasons through the secret filter)
and their ends checked. Split from engine.py, which keeps the public methods and their validation.
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from memgraph.errors import NotFoundError, QueuedWritesWarning, TransientStoreError, ValidationError
from memgraph.ingest.clean import clean_text
from memgraph.ingest.items import IngestItem
from memgraph.ingest.pipeline import IngestPipeline, IngestResult
from memgraph.models import MEMORY_RELATIONS, Link, Memory, Relation
from memgraph.outbox import WriteOutbox
from memgraph.store import GraphStore

log = logging.getLogger("memgraph")
T = TypeVar("T")


class WritePath:
    """Routes the engine's writes (online or queued) and prepares what they carry. One per engine."""

    def __init__(self, store: GraphStore, pipeline: IngestPipeline) -> None:
        self.store = store
        self.pipeline = pipeline
        #: the local outbox of a server store (None on SQLite or with `outbox=False`); set once it is open
        self.outbox: WriteOutbox | None = None

    def queueable(self, owner: str, online: Callable[[], T], queued: Callable[[WriteOutbox], T]) -> T:
        """Every write call goes through here: on a server store whose server cannot take it now (known down,
        or failing after the retry budget), or while earlier writes of this user wait, it is queued in the
        outbox instead (`queued`), so nothing is lost and nothing overtakes what was queued before."""
        box = self.outbox
        if box is not None and box.must_queue(owner):
            return queued(box)
        try:
            return online()
        except TransientStoreError as exc:
            if box is None:
                raise
            log.warning("graph server unreachable (%s); the write is queued in %s", type(exc).__name__, box.path)
            box.note_outage()
            return queued(box)

    def erasing(
        self, owner: str, memory_ids: Sequence[str] | None, online: Callable[[], T], queued: Callable[[], T]
    ) -> T:
        """The outbox's side of an erasure (`erase`/`erase_user` run their work through here): what is queued
        of those memories (None: of the user) leaves the outbox first and is overwritten in its file; then
        `online()` erases on the server, or, when the server cannot take it now or earlier calls of the user
        still wait, the erasure is queued behind them and replayed in order (`queued()` is the caller's result
        then). The replay erases through the outbox's `eraser` (WriteOutbox.open; default: delete the
        memories)."""
        box = self.outbox
        if box is None:
            return online()
        ids = None if memory_ids is None else list(memory_ids)
        box.erase(owner, ids)

        def queue(b: WriteOutbox) -> T:
            b.queue_erase(owner, ids)
            return queued()

        return self.queueable(owner, online, queue)

    def warn_queued(self, owner: str) -> None:
        """`search`, `list` and `stats` while writes of this user wait in the outbox."""
        note = self.outbox.note(owner) if self.outbox is not None else None
        if note is not None:
            warnings.warn(QueuedWritesWarning(note), stacklevel=3)


    def write(
        self,
        owner: str,
        items: list[IngestItem],
        *,
        reconcile: bool,
        source: str,
        links: Callable[[list[str]], Iterable[Link]] | None = None,
        link_sessions: bool = True,
    ) -> tuple[list[str], bool]:
        """The explicit write path: every item becomes exactly one memory id (never dropped as unimportant;
        a duplicate resolves to the memory it reinforced). Returns those ids in input order, and whether the
        write was queued in the outbox (the ids are then those the memories get when stored as new)."""
        res, queued = self.run(
            owner, items, reconcile=reconcile, source=source, links=links, link_sessions=link_sessions
        )
        return [ids[0] for ids in res.item_ids], queued

    def run(
        self,
        owner: str,
        items: list[IngestItem],
        *,
        reconcile: bool,
        source: str,
        links: Callable[[list[str]], Iterable[Link]] | None = None,
        link_sessions: bool = True,
    ) -> tuple[IngestResult, bool]:
        """Run explicit items through the write path, with `links` (see `remember_linked`) in the same write;
        or queue them in the outbox when the graph server cannot take them (True: queued, the report says so).
        `link_sessions=False` leaves new session memories unchained (a conversation stored without sequence)."""

        def given_links(ids: list[str]) -> list[Link]:
            assert links is not None
            given = list(links(ids))
            for link in given:  # the caller's code: a typed error for what is not a Link
                if not isinstance(link, Link):
                    raise ValidationError(f"links must be Link objects, got {type(link).__name__}")
            if any(link.relation is Relation.SUPERSEDES for link in given):
                raise ValidationError("a Supersedes link also deactivates a memory: write it with link()")
            return self.clean_links([x for x in given if x.src != x.dst])

        def extra_links(item_ids: list[list[str]]) -> list[Link]:
            written = {mid for ids in item_ids for mid in ids}
            return self.check_ends(owner, given_links([ids[0] for ids in item_ids]), written)

        def online() -> tuple[IngestResult, bool]:
            res = self.pipeline.run(
                owner,
                items,
                explicit=True,
                reconcile=reconcile,
                source=source,
                extra_links=None if links is None else extra_links,
                link_sessions=link_sessions,
            )
            return res, False

        def queued(box: WriteOutbox) -> tuple[IngestResult, bool]:
            item_ids, report = box.write(owner, items, explicit=True, reconcile=reconcile, source=source,
                                         links=None if links is None else given_links)
            return IngestResult(report=report, item_ids=item_ids), True

        return self.queueable(owner, online, queued)

    def read_back(self, owner: str, ids: list[str], queued: bool) -> list[Memory]:
        """The memories a write resolved to, each once: from the store, or as queued in the outbox."""
        unique = list(dict.fromkeys(ids))
        if queued:
            assert self.outbox is not None
            return self.outbox.views(owner, unique)
        return self.store.get_memories(owner, unique)

    def clean_links(self, links: Iterable[Link]) -> list[Link]:
        """Links as they may be stored: between memories only, once each, reasons through the secret filter."""
        out: dict[tuple[str, str, Relation], Link] = {}
        for link in links:
            if link.relation not in MEMORY_RELATIONS:
                raise ValidationError(
                    f"{link.relation.value} joins a memory to a tag/cluster; use tag() or the cluster job"
                )
            if link.reason is not None:
                link = link.model_copy(update={"reason": self._reason(link.reason)})
            out.setdefault((link.src, link.dst, link.relation), link)
        return list(out.values())

    def _reason(self, reason: str) -> str | None:
        """A link's reason under the rules of content (a string no store refuses, at most `max_content_chars`;
        a blank one is no reason), then through the secret filter."""
        if isinstance(reason, str) and not reason.strip():
            return None
        text = clean_text(reason, what="link reason", max_chars=self.pipeline.settings.max_content_chars,
                          advice="shorten it")
        return self.pipeline.secrets.text(text, what="link reason").text

    def checked_links(self, owner: str, links: Iterable[Link]) -> list[Link]:
        """`_clean_links`, and both ends memories of this user."""
        return self.check_ends(owner, self.clean_links(links))

    def check_ends(self, owner: str, out: list[Link], written: set[str] | None = None) -> list[Link]:
        """NotFoundError unless both ends of every link are memories of this user (`written`: ids the same
        write creates)."""
        ends = [end for x in out for end in (x.src, x.dst) if end not in (written or set())]
        found = {m.id for m in self.store.get_memories(owner, list(dict.fromkeys(ends)))} if ends else set()
        for end in ends:
            if end not in found:
                raise NotFoundError(f"no memory {end!r} for user {owner!r}")
        return out


    def secret_tag(self, tag: str) -> bool:
        """A tag holding a secret is refused (reject policy: SecretDetectedError) or left out (redact)."""
        return self.pipeline.secrets.text(tag, what="a tag").found
