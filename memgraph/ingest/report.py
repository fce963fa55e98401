"""`IngestReport`: what one ingest (or remember) call did, and why. Public (exported from `memgraph`).

It never holds a secret: redactions are counted by type, and dropped chunks carry a short preview of their
already-filtered text (or none, for a chunk rejected because of a secret).
"""

from __future__ import annotations

from collections import Counter
from enum import StrEnum

from pydantic import BaseModel, Field

from memgraph._deprecated import deprecated_alias


class DropReason(StrEnum):
    LOW_IMPORTANCE = "low_importance"
    SECRET_REJECTED = "secret_rejected"
    ONLY_SECRETS = "only_secrets"
    DUPLICATE_IN_BATCH = "duplicate_in_batch"


class Dropped(BaseModel):
    """A chunk (or item) that was not stored."""

    item: int  # index of the input item (0 for a single `ingest` text)
    chunk: int | None = None  # index of the chunk inside the item, when chunking had run
    reason: DropReason
    detail: str = ""
    importance: float | None = None
    preview: str = ""


class IngestDecision(BaseModel):
    """What happened to one chunk: created, reinforced, superseded, contradicted or unchanged, against which
    memory, why, and with which scores (the reconciler's, and the chunk's importance signals)."""

    item: int
    chunk: int
    action: str  # created | reinforced | superseded | contradicted | unchanged | queued (outbox)
    memory_id: str
    target_id: str | None = None
    reason: str
    kind: str | None = None
    rule: str | None = None  # the classification rule that chose the kind
    importance: float | None = None
    novelty: float | None = None
    salience: float | None = None
    signals: list[str] = Field(default_factory=list)
    scores: dict[str, float] = Field(default_factory=dict)
    tags: list[str] = Field(default_factory=list)
    #: a change that starts later ("from next April ..."): the day it holds from (ISO date). The memory it
    #: supersedes stays active until then (`ingest/starts.py`), so a caller must not read it as retired now.
    valid_from: str | None = None


class IngestReport(BaseModel):
    """Which memories were created, reinforced, superseded, contradicted or dropped, and why."""

    user_id: str
    items: int = 0
    chunks: int = 0
    created: list[str] = Field(default_factory=list)
    reinforced: list[str] = Field(default_factory=list)
    superseded: list[str] = Field(
        default_factory=list,
        description="ids of memories that became inactive (or will, on the day a change that starts later holds "
        "from: its decision's `valid_from`)",
    )
    contradicted: list[str] = Field(default_factory=list, description="ids of memories flagged by a new one")
    archived: list[str] = Field(
        default_factory=list, description="ids of rules archived to keep the per-user rule cap (ingest/rules.py)"
    )
    unchanged: list[str] = Field(default_factory=list, description="already stored (idempotent re-ingest)")
    remainders: list[str] = Field(
        default_factory=list,
        description="ids of memories written with what a superseded memory still says beside the replaced fact "
        "(\"Lena lives in Porto and works as a nurse\" superseded by a move keeps \"Lena works as a nurse\")",
    )
    dropped: list[Dropped] = Field(default_factory=list)
    redactions: dict[str, int] = Field(default_factory=dict, description="secrets redacted, by type")
    decisions: list[IngestDecision] = Field(default_factory=list)
    embedded: int = Field(0, description="texts the model embedded in this call (cache misses)")
    cache_hits: int = Field(0, description="texts served from the embedding cache")
    queued: bool = Field(
        False,
        description="the graph server was unreachable: the texts wait in the local outbox and go through the "
        "rest of the write path (created/reinforced/... and drops for low importance) when it is replayed",
    )

    @property
    def stored(self) -> bool:
        """True when the call changed the store (created, reinforced, superseded or contradicted)."""
        return bool(self.created or self.reinforced or self.superseded or self.contradicted)

    def merge(self, other: IngestReport) -> IngestReport:
        """Combine two reports of the same user (the CLI ingests in batches); item indexes are offset."""
        offset = self.items
        red = Counter(self.redactions)
        red.update(other.redactions)
        return IngestReport(
            user_id=self.user_id,
            items=self.items + other.items,
            chunks=self.chunks + other.chunks,
            created=self.created + other.created,
            reinforced=self.reinforced + other.reinforced,
            superseded=self.superseded + other.superseded,
            contradicted=self.contradicted + other.contradicted,
            archived=self.archived + other.archived,
            unchanged=self.unchanged + other.unchanged,
            remainders=self.remainders + other.remainders,
            dropped=self.dropped + [d.model_copy(update={"item": d.item + offset}) for d in other.dropped],
            redactions=dict(red),
            decisions=self.decisions + [d.model_copy(update={"item": d.item + offset}) for d in other.decisions],
            embedded=self.embedded + other.embedded,
            cache_hits=self.cache_hits + other.cache_hits,
            queued=self.queued or other.queued,
        )

    def summary(self) -> str:
        """One line for people: counts of each outcome."""
        drops = Counter(d.reason.value for d in self.dropped)
        parts = [
            f"{self.items} item(s), {self.chunks} chunk(s)",
            f"created {len(self.created)}",
            f"reinforced {len(self.reinforced)}",
            f"superseded {len(self.superseded)}",
            f"contradicted {len(self.contradicted)}",
            f"unchanged {len(self.unchanged)}",
            f"dropped {len(self.dropped)}"
            + (f" ({', '.join(f'{k} {v}' for k, v in sorted(drops.items()))})" if drops else ""),
        ]
        if self.archived:
            parts.append(f"archived {len(self.archived)} rule(s) over the cap")
        if self.redactions:
            parts.append("redacted " + ", ".join(f"{k} {v}" for k, v in sorted(self.redactions.items())))
        parts.append(f"embedded {self.embedded} (cache hits {self.cache_hits})")
        if self.queued:
            parts.append("queued in the outbox: the graph server was unreachable")
        return "; ".join(parts)


def preview(text: str, n: int = 80) -> str:
    """The start of a (secret-filtered) text on one line, for a report's dropped entries."""
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"


def __getattr__(name: str) -> type:
    return deprecated_alias(__name__, name, {"Decision": IngestDecision})
