"""What every batch job shares: typed reports, the job lock, JobRun records, user and embedding loading.

A job is a plain function `job(ctx, user_id, ..., apply=False) -> SomeReport`. Without `apply` it computes
and returns the plan and writes nothing (not even a lock or a history record). With `apply` the caller
(`memgraph.jobs.Jobs`) first takes the store's job lock, records a `JobRun` marked running, runs the job and
records it again with its counts, so `memgraph history` shows finished, failed and interrupted runs.
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import numpy as np
from pydantic import BaseModel, Field

from memgraph.config import Settings
from memgraph.errors import JobLockedError, UnknownUserError
from memgraph.models import Memory, utcnow, validate_owner
from memgraph.store.base import GraphStore, JobRun, MemoryFilter

#: A progress callback: (stage, done, total). The CLI turns it into a rich progress bar.
ProgressFn = Callable[[str, int, int], None]

LOCK_KEY = "jobs.lock"


def no_progress(stage: str, done: int, total: int) -> None:
    """The default progress callback: silent."""


class JobReport(BaseModel):
    """Fields every job report has. `applied` is False for a plan (dry run): nothing was changed."""

    job: str
    user_id: str | None = None
    applied: bool = False
    started_at: datetime = Field(default_factory=utcnow)
    finished_at: datetime | None = None
    skipped: str | None = None  # why the job did nothing for this user (e.g. "not enough memories")
    warnings: list[str] = Field(default_factory=list)
    invalid_embeddings: list[str] = Field(
        default_factory=list, description="Memories skipped because their embedding holds NaN/inf."
    )

    def counts(self) -> dict[str, Any]:
        """The numbers kept in the JobRun record (`memgraph history`)."""
        out: dict[str, Any] = {}
        for name, value in self:
            if isinstance(value, bool) or name in ("job", "user_id", "started_at", "finished_at"):
                continue
            if isinstance(value, int | float):
                out[name] = value
            elif isinstance(value, list | dict) and name not in ("warnings", "examples"):
                out[name] = len(value)
        if self.skipped:
            out["skipped"] = self.skipped
        return out


@dataclass
class JobContext:
    """What a job needs: the store, the settings, an embed function (None when the job must not embed)."""

    store: GraphStore
    settings: Settings
    embed: Callable[[Sequence[str]], np.ndarray] | None = None
    embedding_model: str = "all-MiniLM-L6-v2"
    progress: ProgressFn = no_progress
    heartbeat: Callable[[], None] = field(default=lambda: None)

    def tick(self, stage: str, done: int, total: int) -> None:
        """Report progress and keep the job lock alive."""
        self.heartbeat()
        self.progress(stage, done, total)


# --- users --------------------------------------------------------------------------------------------------


def check_user(store: GraphStore, user_id: object) -> str:
    """A job's user must be a valid owner that has memories here; anything else is a typed error. The message
    names no other user (error texts reach logs, CLI output and tool results: another tenant's id is not the
    caller's to see); `memgraph stats` counts the users."""
    owner = validate_owner(user_id)
    if store.count_memories(owner, MemoryFilter.everything()) == 0:
        raise UnknownUserError(
            f"user {owner!r} has no memories in this store (check the spelling and --store)"
        )
    return owner


# --- loading ------------------------------------------------------------------------------------------------


def load_all(store: GraphStore, user_id: str, flt: MemoryFilter | None = None) -> list[Memory]:
    """Every memory of the user matching the filter (jobs see all rows, not a page)."""
    flt = flt or MemoryFilter.everything()
    total = store.count_memories(user_id, flt)
    return store.list_memories(user_id, flt, limit=max(total, 1), offset=0) if total else []


def load_matrix(
    store: GraphStore, user_id: str, flt: MemoryFilter | None = None
) -> tuple[list[str], np.ndarray, list[str]]:
    """(ids, unit-normalised float32 matrix, ids whose embedding holds NaN/inf and were left out)."""
    ids, matrix = store.embeddings(user_id, flt)
    if not ids:
        return [], np.zeros((0, store.embedding_dim), dtype=np.float32), []
    matrix = np.asarray(matrix, dtype=np.float32)
    finite = np.isfinite(matrix).all(axis=1)
    norms = np.linalg.norm(matrix, axis=1)
    ok = finite & (norms > 0)
    bad = [mid for mid, good in zip(ids, ok, strict=True) if not good]
    if bad:
        ids = [mid for mid, good in zip(ids, ok, strict=True) if good]
        matrix = matrix[ok]
        norms = norms[ok]
    return ids, (matrix / norms[:, None]).astype(np.float32), bad


def fingerprint(ids: Sequence[str], matrix: np.ndarray, extra: dict[str, Any]) -> str:
    """A digest of exactly what a job would read: ids, embedding bytes and the settings that matter."""
    h = hashlib.blake2b(digest_size=16)
    h.update(json.dumps(extra, sort_keys=True).encode())
    order: Sequence[int] = np.argsort(np.asarray(ids, dtype=object), kind="stable").tolist() if ids else []
    for i in order:
        h.update(ids[i].encode() + b"\x00")
        h.update(np.ascontiguousarray(matrix[i]).tobytes())
    return h.hexdigest()


def batched(items: Sequence[Any], size: int) -> Iterator[Sequence[Any]]:
    size = max(1, int(size))
    for i in range(0, len(items), size):
        yield items[i : i + size]


def age_days(now: datetime, then: datetime) -> float:
    return max(0.0, (now - then).total_seconds() / 86400.0)


# --- the job lock -----------------------------------------------------------------------------------------


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class JobLock:
    """One maintenance job at a time per store: a meta key holding {owner, job, pid, host, expires_at},
    taken and released with compare-and-set, so it works the same on SQLite, Neo4j and FalkorDB.

    A lock whose expiry passed, or whose process on this host is gone (a crashed run), is taken over and the
    takeover is reported. Long jobs renew the expiry from their progress heartbeat."""

    def __init__(self, store: GraphStore, job: str, ttl_s: float) -> None:
        self.store = store
        self.job = job
        self.ttl_s = float(ttl_s)
        self.owner = uuid.uuid4().hex
        self.value: str | None = None
        self.taken_over: str | None = None
        self._renewed = 0.0

    def _payload(self, started: float | None = None) -> str:
        now = time.time()
        return json.dumps(
            {
                "owner": self.owner,
                "job": self.job,
                "pid": os.getpid(),
                "host": socket.gethostname(),
                "started_at": started if started is not None else now,
                "expires_at": now + self.ttl_s,
            },
            sort_keys=True,
        )

    @staticmethod
    def describe(raw: str) -> str:
        try:
            info = json.loads(raw)
            started = datetime.fromtimestamp(float(info["started_at"]), UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
            expires = datetime.fromtimestamp(float(info["expires_at"]), UTC).strftime("%H:%M:%S UTC")
            return (
                f"job {info.get('job')!r} (pid {info.get('pid')} on {info.get('host')}, started {started}, "
                f"lock expires {expires})"
            )
        except (ValueError, KeyError, TypeError):
            return "an unreadable lock record"

    @staticmethod
    def stale_reason(raw: str) -> str | None:
        """Why a held lock may be taken over, or None when its holder looks alive."""
        try:
            info = json.loads(raw)
            expires = float(info["expires_at"])
        except (ValueError, KeyError, TypeError):
            return "the lock record was unreadable"
        if expires < time.time():
            return "its lock expired (the job stopped renewing it)"
        if info.get("host") == socket.gethostname() and isinstance(info.get("pid"), int):
            if not _pid_alive(info["pid"]):
                return f"its process {info['pid']} is no longer running"
        return None

    def acquire(self) -> None:
        for _ in range(5):
            current = self.store.get_meta(LOCK_KEY)
            if current is not None:
                reason = self.stale_reason(current)
                if reason is None:
                    raise JobLockedError(
                        f"another maintenance job holds this store's job lock: {self.describe(current)}. "
                        "Wait for it to finish and run again; a crashed job's lock is freed when it expires."
                    )
                self.taken_over = f"took over the lock of {self.describe(current)}: {reason}"
            mine = self._payload()
            if self.store.compare_and_set_meta(LOCK_KEY, current, mine):
                self.value = mine
                self._renewed = time.monotonic()
                return
        raise JobLockedError("could not take the job lock: other jobs keep changing it; try again")

    def renew(self, *, force: bool = False) -> None:
        """Push the expiry forward (at most every ttl/4 unless forced); losing the lock is an error."""
        if self.value is None:
            return
        if not force and time.monotonic() - self._renewed < self.ttl_s / 4:
            return
        started = json.loads(self.value)["started_at"]
        new = self._payload(started)
        if not self.store.compare_and_set_meta(LOCK_KEY, self.value, new):
            self.value = None
            raise JobLockedError("this job lost the store's job lock (it expired and another job took it)")
        self.value = new
        self._renewed = time.monotonic()

    def release(self) -> None:
        if self.value is not None:
            self.store.compare_and_set_meta(LOCK_KEY, self.value, None)
            self.value = None


# --- running and recording ------------------------------------------------------------------------------


@contextmanager
def recorded_run(store: GraphStore, job: str, user_id: str | None) -> Iterator[dict[str, Any]]:
    """Record a JobRun marked running before the job writes anything, and again when it ends (done or
    failed). A run that never reaches the end stays 'running' and `history` shows it as interrupted."""
    run = JobRun(id=uuid.uuid4().hex, job=job, user_id=user_id, applied=True, counts={"status": "running"})
    store.record_job(run)
    holder: dict[str, Any] = {}
    try:
        yield holder
    except BaseException as exc:
        run.finished_at = utcnow()
        run.counts = {"status": "failed", "error": f"{type(exc).__name__}: {exc}"[:500]}
        try:
            store.record_job(run)
        except Exception:  # never mask the job's own error with a bookkeeping one
            pass
        raise
    run.finished_at = utcnow()
    run.counts = {"status": "done", **holder.get("counts", {})}
    store.record_job(run)


def run_status(run: JobRun, lock_held: bool) -> str:
    status = str(run.counts.get("status", "done"))
    if status == "running" and not lock_held:
        return "interrupted"
    return status
