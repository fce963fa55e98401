"""A change that starts later, served as such (the write path's `ingest/starts.py`).

"From next week the bakery opens at 7:30 on weekdays." supersedes "The bakery opens at 7am on weekdays", but the old
hours hold until next Monday: the write keeps the old memory active and records the day on both (`valid_until` on
the old one, `valid_from` on the new one). Before that day recall serves either as it ranks, and marks them so the
agent can tell which holds now: `[FACT, until 2026-11-30]` on the old one, `[FACT, from 2026-11-30]` on the new one.
From that day on the old one is no longer served (read here from the memory's own metadata, no store query), and
the decay job retires it for good (`jobs/decay.py`).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from memgraph.ingest import starts
from memgraph.models import Memory, RecallTrace


def lapsed(memory: Memory, now: datetime) -> bool:
    """Whether a change that starts later has replaced `memory` by `now` (its `valid_until` day has come)."""
    until = starts.until(memory.metadata)
    return until is not None and now.date() >= until


def mark(served: Sequence[Memory], traces: Sequence[RecallTrace], now: datetime) -> None:
    """Each served memory whose day is still ahead says it: the new side of a change that starts later the day it
    holds from, the old side the day it holds until."""
    today = now.date()
    for mem, trace in zip(served, traces, strict=True):
        since, until = starts.since(mem.metadata), starts.until(mem.metadata)
        if since is not None and today < since:
            trace.valid_from = since
        if until is not None and today < until:
            trace.valid_until = until
