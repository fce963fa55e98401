"""reindex: re-embed memories whose embedding is missing, invalid (NaN/inf) or from another model.

Embedding backfill and batch re-indexing (`memgraph reindex`). The store remembers the model
that built it (meta `embedding_model`); an engine opened with another model refuses to run anything but this
job (`MemoryEngine.open(..., check_model=False)`), which re-embeds every memory with the engine's model in
batches and then records the new model in the store. A different embedding *dimension* cannot be reindexed
in place (the store's vector layout is fixed): export, then import with `reembed=True` into a new store.
"""

from __future__ import annotations

import numpy as np
from pydantic import Field

from memgraph.errors import EmbedderUnavailableError
from memgraph.jobs.base import JobContext, JobReport, batched, check_user, load_all, load_matrix
from memgraph.models import utcnow
from memgraph.store.base import MemoryFilter


class ReindexReport(JobReport):
    job: str = "reindex"
    target_model: str = ""
    checked: int = 0
    missing: int = 0
    invalid: int = 0
    other_model: dict[str, int] = Field(default_factory=dict)
    to_reembed: int = 0
    reembedded: int = 0
    store_model_updated: bool = False


def reindex_user(ctx: JobContext, user_id: str, *, apply: bool = False, force: bool = False) -> ReindexReport:
    """Plan (or do) the re-embedding of one user's memories; `force` re-embeds every memory."""
    store, s = ctx.store, ctx.settings
    owner = check_user(store, user_id)
    report = ReindexReport(user_id=owner, applied=apply, target_model=ctx.embedding_model)
    ctx.tick("checking embeddings", 0, 1)
    memories = load_all(store, owner, MemoryFilter.everything())
    ids, _, bad = load_matrix(store, owner, MemoryFilter.everything())
    has_vector = set(ids)
    invalid = set(bad)
    todo = []
    for m in memories:
        reason = None
        if m.id in invalid:
            reason = "invalid"
        elif m.id not in has_vector:
            reason = "missing"
        elif m.embedding_model != ctx.embedding_model:
            reason = "other"
            key = m.embedding_model or "(unknown)"
            report.other_model[key] = report.other_model.get(key, 0) + 1
        elif force:
            reason = "forced"
        if reason == "missing":
            report.missing += 1
        elif reason == "invalid":
            report.invalid += 1
        if reason is not None:
            todo.append(m)
    report.checked = len(memories)
    report.invalid_embeddings = sorted(invalid)
    report.to_reembed = len(todo)
    if apply and todo:
        if ctx.embed is None:
            raise EmbedderUnavailableError("reindex needs the embedding model")
        size = max(1, min(s.job_batch_size, 20 * s.embed_batch_size))
        for batch in batched(todo, size):
            vecs = np.asarray(ctx.embed([m.content for m in batch]), dtype=np.float32)
            report.reembedded += store.set_embeddings(owner, [m.id for m in batch], vecs, ctx.embedding_model)
            ctx.tick("re-embedding", report.reembedded, len(todo))
    report.finished_at = utcnow()
    return report


def store_model_consistent(ctx: JobContext) -> bool:
    """True when every memory of every user now carries the engine's model: then the store's recorded model
    may be switched to it."""
    for user in ctx.store.users():
        ids, _, bad = load_matrix(ctx.store, user, MemoryFilter.everything())
        if bad:
            return False
        memories = load_all(ctx.store, user, MemoryFilter.everything())
        if len(ids) != len(memories) or any(m.embedding_model != ctx.embedding_model for m in memories):
            return False
    return True
