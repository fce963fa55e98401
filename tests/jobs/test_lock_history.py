"""Two jobs at once, a crashed earlier run, and the history of applied runs."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

from memgraph.errors import JobLockedError
from memgraph.jobs import Jobs
from memgraph.jobs.base import LOCK_KEY, JobLock


def test_second_job_is_refused_while_one_runs(corpus_engine):
    engine, _, _ = corpus_engine
    seen: list[str] = []

    def progress(stage: str, done: int, total: int) -> None:
        if stage == "HDBSCAN" and not seen:
            # a second job on the same store while the cluster job holds the lock
            with pytest.raises(JobLockedError) as err:
                Jobs(engine.store, engine.settings, lambda: engine.embedder).decay("ada", apply=True)
            seen.append(str(err.value))

    engine.jobs.cluster("ada", apply=True, progress=progress)
    assert seen and "cluster" in seen[0] and "holds this store's job lock" in seen[0]
    assert engine.store.get_meta(LOCK_KEY) is None  # released afterwards
    engine.jobs.decay("ada", apply=True)  # and the next job runs


def test_plans_do_not_take_the_lock(corpus_engine):
    engine, _, _ = corpus_engine
    with engine.jobs.locked("cluster"):
        Jobs(engine.store, engine.settings, lambda: engine.embedder).decay("ada")  # a dry run reads only


def test_crashed_run_is_taken_over_and_shown_interrupted(dir_engine, tmp_path):
    engine = dir_engine
    engine.remember("one memory", user_id="u")
    # a process that took the lock and recorded a running job, then died
    code = (
        "import sys; from memgraph.store.sqlite import SQLiteStore; from memgraph.jobs.base import JobLock, "
        "recorded_run\n"
        f"s = SQLiteStore({str(tmp_path / 'store')!r})\n"
        "lock = JobLock(s, 'decay', 900); lock.acquire()\n"
        "cm = recorded_run(s, 'decay', 'u'); cm.__enter__()\n"
        "import os; os._exit(3)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], env={**__import__("os").environ}, timeout=120)
    assert proc.returncode == 3
    held = engine.store.get_meta(LOCK_KEY)
    assert held is not None and "no longer running" in (JobLock.stale_reason(held) or "")
    runs = engine.jobs.history()
    assert [engine.jobs.status_of(r) for r in runs] == ["interrupted"]
    report = engine.jobs.decay("u", apply=True)
    assert any("took over the lock" in w for w in report.warnings)
    statuses = [engine.jobs.status_of(r) for r in engine.jobs.history()]
    assert sorted(statuses) == ["done", "interrupted"]


def test_expired_lock_is_taken_over(engine):
    engine.remember("one memory", user_id="u")
    stale = json.dumps(
        {
            "owner": "x",
            "job": "links",
            "pid": 1,
            "host": "elsewhere",
            "started_at": 0,
            "expires_at": time.time() - 5,
        }
    )
    engine.store.set_meta(LOCK_KEY, stale)
    report = engine.jobs.decay("u", apply=True)
    assert any("expired" in w for w in report.warnings)
    live = json.dumps(
        {
            "owner": "x",
            "job": "links",
            "pid": 1,
            "host": "elsewhere",
            "started_at": 0,
            "expires_at": time.time() + 60,
        }
    )
    engine.store.set_meta(LOCK_KEY, live)
    with pytest.raises(JobLockedError, match="links"):
        engine.jobs.decay("u", apply=True)


def test_history_records_applied_runs_only(engine):
    engine.remember("one memory", user_id="u")
    engine.jobs.decay("u")
    assert engine.jobs.history() == []
    engine.jobs.decay("u", apply=True)
    (run,) = engine.jobs.history()
    assert run.job == "decay" and run.user_id == "u" and run.finished_at is not None
    assert run.counts["status"] == "done" and run.counts["evaluated"] == 1
