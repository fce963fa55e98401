"""Batch jobs that keep the graph healthy: cluster, decay, links, gaps, consolidate, compress, reindex,
export / import. Reached as `engine.jobs.<name>(...)` and `memgraph <name>` on the command line.

Every job that changes data returns a plan unless called with `apply=True`; an applied run takes the store's
job lock (one job at a time per store, `JobLockedError` otherwise) and is recorded as a `JobRun`
(`engine.jobs.history()`, `memgraph history`). Every public method validates its arguments (`@checked`,
memgraph/validation.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Literal, TypeVar

import numpy as np

from memgraph.config import Settings
from memgraph.embed import Embedder
from memgraph.errors import UnknownUserError, ValidationError
from memgraph.ingest.embedding import encode
from memgraph.jobs.base import (
    LOCK_KEY,
    JobContext,
    JobLock,
    JobReport,
    ProgressFn,
    check_user,
    no_progress,
    recorded_run,
    run_status,
)
from memgraph.jobs.cluster import ClusterReport, cluster_user
from memgraph.jobs.compress import CompressReport, ExtractiveSummarizer, Summarizer, compress_user
from memgraph.jobs.consolidate import ConsolidateReport, consolidate_user
from memgraph.jobs.decay import DecayReport, decay_user, decayed_confidence
from memgraph.jobs.erase import EraseReport, erase_memories, erase_user
from memgraph.jobs.gaps import GapsReport, gaps_user
from memgraph.jobs.links import LinksReport, links_user
from memgraph.jobs.reindex import ReindexReport, reindex_user, store_model_consistent
from memgraph.jobs.transfer import ExportReport, ImportReport, export_graphml, export_jsonl, import_jsonl
from memgraph.models import validate_owner
from memgraph.store.base import GraphStore, JobRun
from memgraph.validation import checked

R = TypeVar("R", bound=JobReport)

#: `export` writes JSON Lines (lossless, what `import_` reads) or GraphML (for graph viewers).
ExportFormat = Literal["jsonl", "graphml"]

__all__ = [
    "ClusterReport",
    "CompressReport",
    "ConsolidateReport",
    "DecayReport",
    "EraseReport",
    "ExportFormat",
    "ExportReport",
    "ExtractiveSummarizer",
    "GapsReport",
    "ImportReport",
    "JobReport",
    "Jobs",
    "LinksReport",
    "ReindexReport",
    "Summarizer",
    "decayed_confidence",
]


class Jobs:
    """The maintenance jobs of one store (`engine.jobs` builds it on first use).

    They need exactly a store, the settings and an embedder; `embedder` is called only when a job embeds (so
    the model is not loaded for jobs that do not)."""

    def __init__(self, store: GraphStore, settings: Settings, embedder: Callable[[], Embedder]) -> None:
        self.store = store
        self.settings = settings
        self._embedder = embedder
        self._lock: JobLock | None = None

    # -- plumbing -------------------------------------------------------------------------------------------

    def _embed(self, texts: Sequence[str]) -> np.ndarray:
        return encode(self._embedder(), texts, self.settings.embedding_dim)

    def _ctx(self, progress: ProgressFn | None) -> JobContext:
        ctx = JobContext(
            store=self.store,
            settings=self.settings,
            embed=self._embed,
            embedding_model=self.settings.embedding_model,
            progress=progress or no_progress,
        )
        if self._lock is not None:
            ctx.heartbeat = self._lock.renew
        return ctx

    @checked
    @contextmanager
    def locked(self, job: str) -> Iterator[JobLock]:
        """Hold the store's job lock (re-entrant within this Jobs object)."""
        if self._lock is not None:
            yield self._lock
            return
        lock = JobLock(self.store, job, self.settings.job_lock_ttl_s)
        lock.acquire()
        self._lock = lock
        try:
            yield lock
        finally:
            self._lock = None
            lock.release()

    def _run(
        self,
        job: str,
        user_id: str | None,
        apply: bool,
        fn: Callable[[JobContext], R],
        progress: ProgressFn | None,
    ) -> R:
        if user_id is not None:
            check_user(self.store, user_id)  # a typo'd user is refused before any lock or record
        if not apply:
            return fn(self._ctx(progress))
        with self.locked(job) as lock:
            with recorded_run(self.store, job, user_id) as rec:
                report = fn(self._ctx(progress))
                rec["counts"] = report.counts()
            if lock.taken_over and lock.taken_over not in report.warnings:
                report.warnings.append(lock.taken_over)
            return report

    @checked
    def users(self, user_id: str | None = None, *, all_users: bool = False) -> list[str]:
        """The users a command acts on: exactly one of `user_id` or `all_users`."""
        if (user_id is None) == (not all_users):
            raise ValidationError("name one user (--user) or all of them (--all-users)")
        if all_users:
            return self.store.users()
        return [validate_owner(user_id)]

    # -- the jobs -----------------------------------------------------------------------------------------

    @checked
    def cluster(
        self, user_id: str, *, apply: bool = False, force: bool = False, progress: ProgressFn | None = None
    ) -> ClusterReport:
        """HDBSCAN clusters with stable ids; skipped when the user's memories did not change."""
        return self._run(
            "cluster", user_id, apply, lambda c: cluster_user(c, user_id, apply=apply, force=force), progress
        )

    @checked
    def decay(
        self,
        user_id: str,
        *,
        apply: bool = False,
        prune: bool = False,
        now: datetime | None = None,
        progress: ProgressFn | None = None,
    ) -> DecayReport:
        """Confidence decay by kind half-life; archive below the threshold; delete only with prune=True."""
        if prune and not apply:
            raise ValidationError("prune deletes memories: it needs apply=True (`--apply --prune`)")
        return self._run(
            "decay",
            user_id,
            apply,
            lambda c: decay_user(c, user_id, apply=apply, prune=prune, now=now),
            progress,
        )

    @checked
    def links(
        self,
        user_id: str,
        *,
        apply: bool = False,
        now: datetime | None = None,
        progress: ProgressFn | None = None,
    ) -> LinksReport:
        """Discover, refresh and age RelatesTo links; networkx analysis of the result."""
        return self._run(
            "links", user_id, apply, lambda c: links_user(c, user_id, apply=apply, now=now), progress
        )

    @checked
    def gaps(self, user_id: str, *, progress: ProgressFn | None = None) -> GapsReport:
        """Read-only report of recall misses and thin regions of the graph."""
        return gaps_user(self._ctx(progress), user_id)

    @checked
    def consolidate(
        self, user_id: str, *, apply: bool = False, progress: ProgressFn | None = None
    ) -> ConsolidateReport:
        """Merge near-duplicates (nothing deleted), merge duplicate tags, list open contradictions."""
        return self._run(
            "consolidate", user_id, apply, lambda c: consolidate_user(c, user_id, apply=apply), progress
        )

    @checked
    def compress(
        self,
        user_id: str,
        *,
        apply: bool = False,
        summarizer: Summarizer | None = None,
        now: datetime | None = None,
        progress: ProgressFn | None = None,
    ) -> CompressReport:
        """Old episodic sessions -> summary memories with DerivedFrom evidence; originals compressed."""
        return self._run(
            "compress",
            user_id,
            apply,
            lambda c: compress_user(c, user_id, apply=apply, summarizer=summarizer, now=now),
            progress,
        )

    @checked
    def reindex(
        self, user_id: str, *, apply: bool = False, force: bool = False, progress: ProgressFn | None = None
    ) -> ReindexReport:
        """Re-embed memories with a missing/invalid embedding or one from another model."""

        def run(ctx: JobContext) -> ReindexReport:
            report = reindex_user(ctx, user_id, apply=apply, force=force)
            if apply and ctx.store.get_meta("embedding_model") != ctx.embedding_model:
                if store_model_consistent(ctx):
                    ctx.store.set_meta("embedding_model", ctx.embedding_model)
                    report.store_model_updated = True
            return report

        return self._run("reindex", user_id, apply, run, progress)

    @checked
    def export(
        self,
        path: str | Path,
        *,
        user_id: str | None = None,
        all_users: bool = False,
        format: ExportFormat = "jsonl",
        progress: ProgressFn | None = None,
    ) -> ExportReport:
        """Write the graph (one user or all) as JSON Lines (lossless) or GraphML (for graph viewers)."""
        users = self.users(user_id, all_users=all_users)
        known = set(self.store.users())
        for u in users:
            if u not in known:
                raise UnknownUserError(f"user {u!r} has no memories in this store")
        ctx = self._ctx(progress)
        if format == "graphml":
            if str(path) == "-":
                raise ValidationError("GraphML is written to a file: give a path, not '-'")
            return export_graphml(ctx, users, path)
        if format != "jsonl":
            raise ValidationError(f"unknown export format {format!r}: use jsonl or graphml")
        return export_jsonl(ctx, users, path)

    @checked
    def import_(
        self, path: str | Path, *, reembed: bool = False, progress: ProgressFn | None = None
    ) -> ImportReport:
        """Read an export: validated whole first (nothing written on error), then upserted."""
        return self._run("import", None, True, lambda c: import_jsonl(c, path, reembed=reembed), progress)

    @checked
    def erase(self, user_id: str, memory_ids: Sequence[str], *, progress: ProgressFn | None = None) -> EraseReport:
        """Erase memories for good, with what derives from them (memgraph/jobs/erase.py); `engine.erase`."""
        owner = validate_owner(user_id)
        with self.locked("erase"), recorded_run(self.store, "erase", owner) as rec:
            report = erase_memories(self._ctx(progress), owner, memory_ids, forget_texts=self._forget_texts())
            rec["counts"] = report.counts()
        return report

    @checked
    def erase_user(self, user_id: str, *, progress: ProgressFn | None = None) -> EraseReport:
        """Erase everything of one user (memgraph/jobs/erase.py); `engine.erase_user`. Its history record names
        no user (the user's own job records are erased)."""
        owner = validate_owner(user_id)
        with self.locked("erase_user"), recorded_run(self.store, "erase_user", None) as rec:
            report = erase_user(self._ctx(progress), owner, forget_texts=self._forget_texts())
            rec["counts"] = report.counts()
        return report

    def _forget_texts(self) -> Callable[[Sequence[str]], int] | None:
        """The embedding cache's `forget` (the engine's CachedEmbedder), when it has one."""
        forget = getattr(self._embedder(), "forget", None)
        return forget if callable(forget) else None

    @checked
    def history(self, limit: int = 50) -> list[JobRun]:
        """Recent applied job runs, newest first."""
        if limit < 0:  # a store's LIMIT -1 reads every run
            raise ValidationError("history(): limit must be zero or more")
        return self.store.list_jobs(limit)

    @checked
    def status_of(self, run: JobRun) -> str:
        """done / failed / running / interrupted (a run left 'running' while no job holds the lock)."""
        held = self.store.get_meta(LOCK_KEY)
        return run_status(run, held is not None and JobLock.stale_reason(held) is None)
