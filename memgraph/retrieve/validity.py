"""A change that starts later, served as such (the write path's `ingest/starts.py`).

"From next week the bakery opens at 7:30 on weekdays." supersedes "The bakery opens at 7am on weekdays", but the old
hours hold until next Monday: the write keeps the old memory active and records the day on both (`valid_until` on
the old one, `valid_from` on the new one). Before that day recall serves either as it ranks, and marks them so the
agent can tell which holds now: `[FACT, until 2026-11-30]` on the old one, `[FACT, from 2026-11-30]` on the new one.
From that day on the old one is no longer served (read here from the memory's own metadata, no store query), and
the decay job retires it for good (`jobs/decay.py`); a query that matched the old wording is answered by the new one
(`seeds.resolve_superseded` reads `lapsed` as it reads an inactive seed).

A compound old memory ("opens at 7am on weekdays and 8am on Saturdays") leaves a remainder ("... 8am on Saturdays",
`ingest/remainders.py`), written with the change so it is there on the day with no job. While the compound memory
holds it says the remainder itself, so the remainder is not served beside it (`covered`); from the day, or once the
compound memory is superseded at once, the remainder is what is served of it. A plan called off before its day
(`ingest/plans.py`) leaves the compound memory holding, and the remainder stays behind it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from datetime import datetime

from memgraph.ingest import starts
from memgraph.ingest.remainders import REMAINDER_OF
from memgraph.models import Memory, RecallTrace
from memgraph.store.base import GraphStore


def lapsed(store: GraphStore, user_id: str, memories: Iterable[Memory], now: datetime) -> set[str]:
    """The ids of `memories` that a change that starts later has replaced by `now` (`starts.lapsed`: their day has
    come and a memory that replaces them is still active). A replacement forgotten or superseded before its day
    ("Actually the bakery keeps its hours") replaces nothing, and the old memory stays current. One store read, and
    only when some memory's day has come (rare: the metadata is read first)."""
    due_now = [m for m in memories if starts.due(m.metadata, now)]
    if not due_now:
        return set()
    wanted = list(dict.fromkeys(r for m in due_now for r in starts.replacers(m.metadata)))
    standing = {m.id for m in store.get_memories(user_id, wanted) if m.active} if wanted else set()
    return {m.id for m in due_now if starts.lapsed(m.metadata, now, standing)}


def covered(memories: Iterable[Memory], holding: Collection[str]) -> set[str]:
    """The ids of `memories` that are remainders of a memory among `holding` (served, or standing to be): the
    compound memory still holds and says them itself."""
    return {m.id for m in memories if isinstance(m.metadata, dict) and m.metadata.get(REMAINDER_OF) in holding}


def mark(
    store: GraphStore, user_id: str, served: Sequence[Memory], traces: Sequence[RecallTrace], now: datetime
) -> None:
    """Each served memory whose day is still ahead says it: the new side of a change that starts later the day it
    holds from, the old side the day it holds until, while a memory that replaces it stands (a replacement
    forgotten before its day ends nothing: one store read, only when an old side is served before its day)."""
    today = now.date()
    ahead = [m for m in served if (d := starts.until(m.metadata)) is not None and today < d]
    wanted = list(dict.fromkeys(r for m in ahead for r in starts.replacers(m.metadata)))
    standing = {m.id for m in store.get_memories(user_id, wanted) if m.active} if wanted else set()
    for mem, trace in zip(served, traces, strict=True):
        since, until = starts.since(mem.metadata), starts.until(mem.metadata)
        if since is not None and today < since:
            trace.valid_from = since
        if until is not None and today < until and any(r in standing for r in starts.replacers(mem.metadata)):
            trace.valid_until = until
