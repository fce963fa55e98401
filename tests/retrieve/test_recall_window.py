"""The episode window for session summaries and the catch-up on a session's first recall (retrieve/window.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from memgraph import MemoryEngine
from memgraph.models import MemoryKind

NEWEST = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
OLD = datetime(2026, 1, 10, 12, 0, tzinfo=UTC)


def summary(engine: MemoryEngine, text: str, when: datetime, session: str) -> str:
    return engine.remember_many(
        [{"content": text, "kind": "summary", "created_at": when, "session_id": session}], user_id="u"
    )[0].id


def ids(res: object) -> list[str]:
    return [m.id for m in res.memories]  # type: ignore[attr-defined]


def test_old_summaries_need_their_period_named_or_include_old(quiet: MemoryEngine) -> None:
    old = summary(quiet, "Session summary: we planned the kayak trip to Lake Bled and booked the campsite.", OLD,
                  "s-jan")
    fact = quiet.remember_many([{"content": "The kayak is stored in the garage behind the bikes.",
                                 "created_at": OLD}], user_id="u")[0].id
    quiet.remember_many([{"content": "Dentist appointment moved to Thursday.", "created_at": NEWEST}], user_id="u")
    q = "what did we plan for the kayak trip?"
    plain = quiet.recall(q, user_id="u", top_k=5)
    assert old not in ids(plain)  # older than 30 days before the user's newest memory
    assert fact in ids(plain)  # facts and turns are never windowed
    assert old in ids(quiet.recall(q, user_id="u", top_k=5, include_old=True))
    assert old in ids(quiet.recall("what did we plan for the kayak trip in January 2026?", user_id="u", top_k=5))
    assert old in ids(quiet.recall("the kayak trip we planned on 10 January 2026", user_id="u", top_k=5))
    assert old not in ids(quiet.recall("what did we plan for the kayak trip in March 2026?", user_id="u", top_k=5))


def test_an_idle_user_is_not_emptied(quiet: MemoryEngine) -> None:
    """The window is measured from the user's newest memory, not from today."""
    old = summary(quiet, "Session summary: we compared three espresso machines and chose the Gaggia.", OLD, "s1")
    assert OLD < datetime.now(UTC) - timedelta(days=30)
    assert old in ids(quiet.recall("which espresso machine did we choose?", user_id="u", top_k=3))


def test_first_recall_of_a_new_session_catches_up_on_the_latest_summary(mem: MemoryEngine) -> None:
    summary(mem, "Session summary: refactored the billing module and fixed the invoice rounding bug.", OLD, "s1")
    latest = summary(mem, "Session summary: wrote the migration plan for the ledger database.", OLD + timedelta(1),
                     "s2")
    mem.remember_many([{"content": f"Gardening note {i}: water the tomatoes at dawn", "created_at": NEWEST}
                       for i in range(3)], user_id="u")
    first = mem.recall("tomato watering", user_id="u", top_k=3, session_id="s3")
    assert ids(first)[0] == latest  # whatever its age and its relevance, first
    tr = first.trace[0]
    assert tr.section == "baseline" and any("catch-up" in n for n in tr.notes)
    assert latest not in ids(mem.recall("tomato watering", user_id="u", top_k=3, session_id="s3"))  # only once
    again = mem.recall("tomato watering", user_id="u", top_k=3, session_id="s4")  # a new session catches up again
    assert ids(again)[0] == latest
    assert latest not in ids(mem.recall("tomato watering", user_id="u", top_k=3))  # no session, no catch-up
    kinds = {m.kind for m in mem.list(user_id="u")}
    assert MemoryKind.SUMMARY in kinds
