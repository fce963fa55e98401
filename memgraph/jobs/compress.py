"""compress: old episodic sessions -> one `summary` memory each, with DerivedFrom edges to every source.

The compression schedule: a session (the `event` memories sharing a
session_id) whose newest event is older than `compress_after_days` is summarised; the summary is a memory of
kind `summary`, layer `episodic`, provenance `extracted`, with `metadata.source_session_id` and
`compression_source`; the originals are marked `compressed=True` and are no longer recalled unless asked for
(`MemoryFilter.include_compressed`), but they are never deleted (the audit trail).

Provenance rule: no summary without evidence. The summary, its `DerivedFrom` edge to EVERY source
and the `compressed` flags are one atomic write; `write_summary` refuses a summary with no sources.

The default summariser is extractive and needs no LLM: the session's sentences are ranked by TextRank
(PageRank over their cosine-similarity graph, networkx), ties broken by cosine to the session centroid, and
the top `compress_sentences` are kept in their original order. Anything with a `summarize(texts) -> str`
method can replace it (an LLM, for instance): see `Summarizer`.

Re-running is idempotent: the summary id is derived from the user and session, so a session that gained
events after it was compressed gets its summary rewritten over all of them, not a second one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Protocol, runtime_checkable

import numpy as np
from pydantic import BaseModel, Field

from memgraph.errors import EmbedderUnavailableError, ProvenanceError
from memgraph.jobs.base import JobContext, JobReport, check_user, load_all
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
    utcnow,
)
from memgraph.store.base import GraphStore, MemoryFilter, MemoryUpdate, WriteBatch

_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[]?[A-Z0-9])|\n+")


@runtime_checkable
class Summarizer(Protocol):
    """Turns a session's texts (in chronological order) into one summary text. Return "" to skip it."""

    name: str

    def summarize(self, texts: Sequence[str]) -> str: ...


def split_sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.split(text) if s and s.strip()]


class ExtractiveSummarizer:
    """Top sentences by centrality (TextRank over cosine similarity; networkx PageRank). No LLM."""

    name = "extractive-textrank"

    def __init__(self, embed: Callable[[Sequence[str]], np.ndarray], sentences: int = 3) -> None:
        self.embed = embed
        self.sentences = max(1, int(sentences))

    def summarize(self, texts: Sequence[str]) -> str:
        sents = list(dict.fromkeys(s for t in texts for s in split_sentences(t)))
        if len(sents) <= self.sentences:
            return " ".join(sents)
        vecs = np.asarray(self.embed(sents), dtype=np.float32)
        vecs /= np.maximum(np.linalg.norm(vecs, axis=1, keepdims=True), 1e-12)
        scores = self.rank(vecs)
        best = sorted(range(len(sents)), key=lambda i: (-scores[i], i))[: self.sentences]
        return " ".join(sents[i] for i in sorted(best))

    @staticmethod
    def rank(vecs: np.ndarray) -> list[float]:
        """TextRank score per sentence plus a small centroid-cosine tie-breaker."""
        import networkx as nx

        sim = np.clip(vecs @ vecs.T, 0.0, None)
        np.fill_diagonal(sim, 0.0)
        g = nx.from_numpy_array(sim)
        try:
            pr = nx.pagerank(g, weight="weight", max_iter=200)
        except nx.PowerIterationFailedConvergence:
            pr = {i: 0.0 for i in range(len(vecs))}
        centroid = vecs.mean(axis=0)
        centroid /= max(float(np.linalg.norm(centroid)), 1e-12)
        central = vecs @ centroid
        return [float(pr.get(i, 0.0)) + 1e-6 * float(central[i]) for i in range(len(vecs))]


class SessionPlan(BaseModel):
    session_id: str
    events: int
    new_events: int
    first_at: datetime
    last_at: datetime
    summary_id: str
    summary: str = ""
    rewrite: bool = False  # a summary existed and is rewritten over the grown session
    skipped: str | None = None


class CompressReport(JobReport):
    job: str = "compress"
    summarizer: str = ""
    cutoff: datetime | None = None
    sessions: list[SessionPlan] = Field(default_factory=list)
    summaries_written: int = 0
    events_compressed: int = 0
    events_without_session: int = 0
    recent_sessions: int = 0


def summary_id(user_id: str, session_id: str) -> str:
    """One summary per (user, session): the id is a hash of both, so re-runs upsert instead of adding."""
    return memory_id_for(user_id, f"\x00summary-of-session\x00{session_id}")


def compress_user(
    ctx: JobContext,
    user_id: str,
    *,
    apply: bool = False,
    summarizer: Summarizer | None = None,
    now: datetime | None = None,
) -> CompressReport:
    store, s = ctx.store, ctx.settings
    owner = check_user(store, user_id)
    now = now or utcnow()
    cutoff = now - timedelta(days=s.compress_after_days)
    report = CompressReport(user_id=owner, applied=apply, cutoff=cutoff)
    if summarizer is None:
        if ctx.embed is None:
            raise EmbedderUnavailableError("compress needs an embedder for the extractive summariser")
        summarizer = ExtractiveSummarizer(ctx.embed, s.compress_sentences)
    report.summarizer = getattr(summarizer, "name", type(summarizer).__name__)

    ctx.tick("loading events", 0, 1)
    # One read of every event (compressed ones too: a session that grew after it was compressed is
    # summarised again over all its events), grouped by session here rather than one query per session.
    events = load_all(
        store,
        owner,
        MemoryFilter(kinds=[MemoryKind.EVENT], active=True, include_archived=True, include_compressed=True),
    )
    sessions: dict[str, list[Memory]] = {}
    for m in events:
        if m.session_id is None:
            report.events_without_session += int(not m.compressed)
        else:
            sessions.setdefault(m.session_id, []).append(m)
    pending = {sid: evs for sid, evs in sessions.items() if any(not e.compressed for e in evs)}
    old = {sid: evs for sid, evs in pending.items() if max(e.created_at for e in evs) < cutoff}
    report.recent_sessions = len(pending) - len(old)
    existing = {m.id for m in store.get_memories(owner, [summary_id(owner, sid) for sid in old])}

    plans: list[tuple[SessionPlan, list[Memory], list[Memory]]] = []
    for i, sid in enumerate(sorted(old, key=lambda x: (min(e.created_at for e in old[x]), x))):
        sources = sorted(old[sid], key=lambda e: (e.created_at, e.id))
        new_events = [e for e in sources if not e.compressed]
        sid_summary = summary_id(owner, sid)
        plan = SessionPlan(
            session_id=sid,
            events=len(sources),
            new_events=len(new_events),
            first_at=sources[0].created_at,
            last_at=sources[-1].created_at,
            summary_id=sid_summary,
            rewrite=sid_summary in existing,
        )
        plan.summary = summarizer.summarize([e.content for e in sources]).strip()
        if not plan.summary:
            plan.skipped = "the summariser returned nothing"
            report.warnings.append(f"session {sid}: the summariser returned nothing; left uncompressed")
        report.sessions.append(plan)
        plans.append((plan, sources, new_events))
        ctx.tick("summarising sessions", i + 1, len(old))

    if apply:
        todo = [(p, src, new) for p, src, new in plans if p.skipped is None]
        vectors = ctx.embed([p.summary for p, _, _ in todo]) if todo and ctx.embed is not None else None
        for n, (plan, sources, new_events) in enumerate(todo):
            vec = None if vectors is None else vectors[n]
            write_summary(
                store, owner, plan, sources, new_events, vec, report.summarizer, ctx.embedding_model, now
            )
            report.summaries_written += 1
            report.events_compressed += len(new_events)
            ctx.tick("writing summaries", n + 1, len(todo))
    report.finished_at = utcnow()
    return report


def write_summary(
    store: GraphStore,
    owner: str,
    plan: SessionPlan,
    sources: Sequence[Memory],
    new_events: Sequence[Memory],
    vector: np.ndarray | None,
    summarizer_name: str,
    embedding_model: str,
    now: datetime,
) -> Memory:
    """One atomic write: the summary, DerivedFrom to every source, the sources marked compressed.
    Raises ProvenanceError (and writes nothing) when there is no evidence to point at."""
    if not sources or not plan.summary.strip():
        raise ProvenanceError(f"session {plan.session_id}: refusing to write a summary without evidence")
    summary = Memory(
        id=plan.summary_id,
        user_id=owner,
        content=plan.summary,
        kind=MemoryKind.SUMMARY,
        layer=Layer.EPISODIC,
        scope=Scope.GLOBAL,
        session_id=plan.session_id,
        created_at=plan.last_at,
        updated_at=now,
        last_accessed=max(e.last_accessed for e in sources),
        importance=max(e.importance for e in sources),
        provenance=Provenance.EXTRACTED,
        metadata={
            "source_session_id": plan.session_id,
            "compression_source": True,
            "sources": len(sources),
            "summarizer": summarizer_name,
        },
        tags=sorted({t for e in sources for t in e.tags}),
        embedding_model=embedding_model if vector is not None else None,
    )
    links = [
        Link(
            src=summary.id,
            dst=e.id,
            relation=Relation.DERIVED_FROM,
            source=LinkSource.DISCOVERED,
            reason="session summary",
            created_at=now,
            updated_at=now,
        )
        for e in sources
    ]
    if len(links) != len(sources):  # pragma: no cover - defensive: the rule is the point of this function
        raise ProvenanceError("every source must have its DerivedFrom edge")
    updates = [MemoryUpdate(id=e.id, set={"compressed": True}) for e in new_events]
    embeddings = None if vector is None else np.asarray(vector, dtype=np.float32).reshape(1, -1)
    store.write(owner, WriteBatch(memories=[summary], embeddings=embeddings, links=links, updates=updates))
    return summary
