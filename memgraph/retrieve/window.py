"""The episode window and the catch-up (for session summaries: the seed's "episodic arcs", not turns or facts).

- Window: a summary older than `episodic_window_days` is not recalled by a query unless the query names its
  period (a date or month among the summary's own date facets or its date), or the caller asks for old ones
  (`include_old=True`). Age is measured back from the user's most recent memory, not from today, so a user who
  has been idle for a year is not emptied of every summary.
- Catch-up: the first recall of a new session (`recall(session_id=...)`) always includes the user's latest
  session summary, whatever its age, so an agent starting a session knows where the last one ended. "First"
  is kept in the store (meta `recall_session:<user>`, the session of the user's last recall), so it holds
  across processes (the CLI is one process per command); one key per user.
Turns and facts are never windowed: on LoCoMo dev (no summaries) the window changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta

from memgraph.config import Settings
from memgraph.ingest.structure import date_facets, dates_named
from memgraph.models import Memory, MemoryKind
from memgraph.store.base import GraphStore, MemoryFilter

#: Store meta key prefix: the session of a user's last recall (`recall_session:<user_id>`).
META_PREFIX = "recall_session:"


def meta_key(user_id: str) -> str:
    return f"{META_PREFIX}{user_id}"


def period(memory: Memory) -> set[str]:
    """The dates and months a summary covers: its own date facets (a compressed session's turns carry theirs)
    and the date it was written for."""
    own = {t for t in memory.tags if t.startswith(("date:", "month:"))}
    return own | set(date_facets(memory.created_at))


def named_period(query: str) -> set[str]:
    """Dates and months the query names ("in May 2023", "on 8 May 2023"); a named day names its month too."""
    names = set(dates_named(query)[0])
    return names | {f"month:{n[5:12]}" for n in names if n.startswith("date:")}


def outside_window(
    store: GraphStore, user_id: str, candidates: Iterable[Memory], query: str, settings: Settings
) -> list[str]:
    """Ids of the summaries among `candidates` that are older than the window and whose period the query
    does not name. Reads the user's newest memory only when a summary is among the candidates."""
    summaries = [m for m in candidates if m.kind is MemoryKind.SUMMARY]
    if not summaries or settings.episodic_window_days <= 0:
        return []
    newest = store.list_memories(user_id, MemoryFilter(include_compressed=True), limit=1)
    if not newest:
        return []
    cutoff = newest[0].created_at - timedelta(days=settings.episodic_window_days)
    named = named_period(query)
    return [m.id for m in summaries if m.created_at < cutoff and not (named & period(m))]


def catch_up(store: GraphStore, user_id: str, session_id: str) -> Memory | None:
    """On the first recall of `session_id` (another session than the user's last recall), the user's latest
    summary of another session; records the session either way."""
    key = meta_key(user_id)
    if store.get_meta(key) == session_id:
        return None
    store.set_meta(key, session_id)
    latest = store.list_memories(user_id, MemoryFilter(kinds=[MemoryKind.SUMMARY]), limit=5)
    return next((m for m in latest if m.session_id != session_id), None)
