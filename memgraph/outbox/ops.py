"""What a queued call is: one typed operation per outbox entry, stored as JSON.

Only what already passed the write path's first stages is queued: a `QueuedItem` is a `Prepared` item (validated,
cleaned, secrets redacted or refused), never the caller's raw input, and link reasons and tags went through the
same secret filter. Replay turns an item back into an `IngestItem` and runs the whole write path again, with the
server: importance against the user's centroid, tags, reconciliation (dedup, supersede, contradict) and
whatever else the write path does at write time, so a queued memory ends up exactly as if it had been written
when the server answered.
"""

from __future__ import annotations

import base64
from datetime import datetime
from typing import Annotated, Any, Literal

import numpy as np
from pydantic import BaseModel, Field, TypeAdapter

from memgraph.ingest.classify import KIND_LAYER, classify
from memgraph.ingest.items import IngestItem, Prepared
from memgraph.models import (
    Layer,
    Link,
    LinkSource,
    Memory,
    MemoryKind,
    Provenance,
    Relation,
    Scope,
    memory_id_for,
)


class QueuedItem(BaseModel):
    """One prepared item of a queued write (the text is the redacted text)."""

    text: str
    session_id: str | None = None
    kind: MemoryKind | None = None
    layer: Layer | None = None
    scope: Scope = Scope.GLOBAL
    tags: list[str] = Field(default_factory=list)
    files: list[str] = Field(default_factory=list)
    metadata: dict[str, Any] = Field(default_factory=dict)
    pinned: bool = False
    trigger_patterns: list[str] | None = None
    created_at: datetime  # the time of the call, so replay keeps the order of writing
    importance: float | None = None
    provenance: Provenance | None = None
    embedding: str | None = None  # a caller's embedding: base64 of its float32 bytes (a third of JSON floats)

    @classmethod
    def of(cls, p: Prepared, now: datetime) -> QueuedItem:
        vec = None
        if p.embedding is not None:
            vec = base64.b64encode(np.asarray(p.embedding, dtype="<f4").tobytes()).decode("ascii")
        return cls(
            text=p.text,
            session_id=p.session_id,
            kind=p.kind_hint,
            layer=p.layer_hint,
            scope=p.scope,
            tags=list(p.tags),
            files=list(p.files),
            metadata=dict(p.metadata),
            pinned=p.pinned,
            trigger_patterns=p.trigger_patterns,
            created_at=p.created_at or now,
            importance=p.importance,
            provenance=p.provenance,
            embedding=vec,
        )

    def ingest_item(self) -> IngestItem:
        """The item as the write path takes it (it validates and filters it again: a no-op on this text)."""
        vec = None
        if self.embedding is not None:
            vec = np.frombuffer(base64.b64decode(self.embedding), dtype="<f4").astype(float).tolist()
        return IngestItem(
            text=self.text,
            session_id=self.session_id,
            kind=self.kind if self.kind is not None else self.layer,
            layer=self.layer,
            tags=self.tags,
            scope=self.scope,
            files=self.files,
            metadata=self.metadata,
            pinned=self.pinned,
            trigger_patterns=self.trigger_patterns,
            created_at=self.created_at,
            importance=self.importance,
            provenance=self.provenance,
            embedding=vec,
        )

    def memory_id(self, user_id: str) -> str:
        """The id the item gets when it is stored as a new memory (content hash)."""
        return memory_id_for(user_id, self.text)

    def view(self, user_id: str, *, min_importance: float, max_triggers: int) -> Memory:
        """What a caller gets back while the item waits: the memory as it will be created, marked `queued`.
        Kind, layer and trigger patterns come from the same classifier the write path uses; importance and
        inferred tags are settled at replay (they need the user's stored memories)."""
        hint: MemoryKind | Layer | None = self.kind if self.kind is not None else self.layer
        klass = classify(self.text, hint, max_triggers=max_triggers)
        layer = self.layer if (self.layer is not None and self.kind is not None) else klass.layer
        return Memory(
            id=self.memory_id(user_id),
            user_id=user_id,
            content=self.text,
            kind=klass.kind,
            layer=layer if layer is not None else KIND_LAYER[klass.kind],
            scope=self.scope,
            session_id=self.session_id,
            created_at=self.created_at,
            updated_at=self.created_at,
            last_accessed=self.created_at,
            importance=self.importance if self.importance is not None else min_importance,
            provenance=self.provenance or klass.provenance,
            pinned=self.pinned,
            file_paths=list(self.files),
            trigger_patterns=list(self.trigger_patterns if self.trigger_patterns is not None
                                  else klass.trigger_patterns),
            metadata=dict(self.metadata),
            tags=sorted(set(self.tags)),
            queued=True,
        )


class End(BaseModel):
    """A link end of a queued write: one of its own items (by index) or a stored memory (by id)."""

    item: int | None = None
    id: str | None = None

    def resolve(self, item_ids: list[list[str]]) -> str | None:
        """The memory id at replay: what the item resolved to (created, or the memory it reinforced)."""
        if self.id is not None:
            return self.id
        assert self.item is not None
        ids = item_ids[self.item] if 0 <= self.item < len(item_ids) else []
        return ids[0] if ids else None


class QueuedLink(BaseModel):
    """A link written with a queued write (a conversation's turn order, a summary's evidence)."""

    src: End
    dst: End
    relation: Relation
    weight: float = 1.0
    source: LinkSource = LinkSource.EXPLICIT
    reason: str | None = None
    created_at: datetime

    @classmethod
    def of(cls, link: Link, predicted: list[str]) -> QueuedLink:
        def end(memory_id: str) -> End:
            return End(item=predicted.index(memory_id)) if memory_id in predicted else End(id=memory_id)

        return cls(
            src=end(link.src),
            dst=end(link.dst),
            relation=link.relation,
            weight=link.weight,
            source=link.source,
            reason=link.reason,
            created_at=link.created_at,
        )

    def link(self, item_ids: list[list[str]]) -> Link | None:
        src, dst = self.src.resolve(item_ids), self.dst.resolve(item_ids)
        if src is None or dst is None or src == dst:
            return None
        return Link(src=src, dst=dst, relation=self.relation, weight=self.weight, source=self.source,
                    reason=self.reason, created_at=self.created_at, updated_at=self.created_at)


class WriteOp(BaseModel):
    """remember / remember_many / remember_linked / remember_conversation (explicit) or ingest (not)."""

    op: Literal["write"] = "write"
    items: list[QueuedItem]
    explicit: bool = True
    reconcile: bool = True
    source: str = "remember"
    links: list[QueuedLink] = Field(default_factory=list)

    def memory_ids(self, user_id: str) -> list[str]:
        return [item.memory_id(user_id) for item in self.items]


class UpdateOp(BaseModel):
    """forget / restore (active) or feedback (increments), on one memory."""

    op: Literal["update"] = "update"
    what: Literal["forget", "restore", "feedback"]
    memory_id: str
    active: bool | None = None
    inc: dict[str, float] = Field(default_factory=dict)
    at: datetime


class LinkOp(BaseModel):
    """link(): one checked link (its reason already filtered); Supersedes also deactivates its target."""

    op: Literal["link"] = "link"
    link: Link


class TagOp(BaseModel):
    """tag(): normalised tag names (a tag holding a secret was refused or left out before)."""

    op: Literal["tag"] = "tag"
    memory_id: str
    tags: list[str]


class EraseOp(BaseModel):
    """An erasure the server could not take yet: these memories (None: all of the user's)."""

    op: Literal["erase"] = "erase"
    memory_ids: list[str] | None = None


Op = Annotated[WriteOp | UpdateOp | LinkOp | TagOp | EraseOp, Field(discriminator="op")]
OP_ADAPTER: TypeAdapter[WriteOp | UpdateOp | LinkOp | TagOp | EraseOp] = TypeAdapter(Op)


def touched(op: WriteOp | UpdateOp | LinkOp | TagOp | EraseOp, user_id: str) -> list[tuple[str, int]]:
    """(memory id, item index or -1) for every memory an operation writes: the outbox indexes them, so a read
    finds what is queued for a memory and an erasure finds what to remove."""
    if isinstance(op, WriteOp):
        return [(mid, i) for i, mid in enumerate(op.memory_ids(user_id))]
    if isinstance(op, UpdateOp | TagOp):
        return [(op.memory_id, -1)]
    if isinstance(op, LinkOp):
        return [(op.link.src, -1), (op.link.dst, -1)]
    return [(mid, -1) for mid in op.memory_ids or []]
