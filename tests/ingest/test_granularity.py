"""One fact per memory and precise triggers (issue: plain text stored as one blob, triggers on a project name,
false contradictions), end to end through the engine with the real model."""

from __future__ import annotations

import pytest

from memgraph import MemoryEngine, MemoryKind
from memgraph.ingest.classify import classify
from memgraph.models import Memory
from memgraph.retrieve.layers import is_triggered

NOTES = "\n\n".join(
    [
        "# Atlas weekly, Monday 3 March",
        "Priya demoed the new onboarding flow. It is ready for review.",
        "The Atlas launch deadline is Wednesday 12 March.",
        "Never deploy Atlas on Fridays.",
        "Marco will draft the release announcement.",
        "The staging database moves to PostgreSQL 16 next week.",
        "We agreed to keep the standup at 9:30.",
        "The Atlas app icon must use the brand blue.",
        "The budget for the launch party is 800 euros.",
        "Next meeting: Monday 10 March.",
        "Thanks all!",
    ]
)


def test_readme_snippet_gives_a_correction_and_a_constraint(engine: MemoryEngine) -> None:
    report = engine.ingest(
        "Actually, the standup moved to 9:30.\n\nNever push to main on Fridays.", user_id="ada", session_id="s"
    )
    kinds = {m.content: m.kind for m in engine.list(user_id="ada")}
    assert kinds == {
        "Actually, the standup moved to 9:30.": MemoryKind.CORRECTION,
        "Never push to main on Fridays.": MemoryKind.CONSTRAINT,
    }
    assert len(report.created) == 2 and report.chunks == 2


def test_a_notes_file_is_one_memory_per_fact(engine: MemoryEngine) -> None:
    engine.ingest(NOTES, user_id="ada", session_id="weekly")
    mems = engine.list(user_id="ada", limit=100)
    assert len(mems) >= 8
    constraints = [m for m in mems if m.kind is MemoryKind.CONSTRAINT]
    assert {m.content for m in constraints} == {
        "Never deploy Atlas on Fridays.",
        "The Atlas app icon must use the brand blue.",
    }
    for m in constraints:  # the project name is never a trigger on its own
        assert not is_triggered(m, "When is the Atlas launch?")
        assert not any("atlas" in p.lower() for p in m.trigger_patterns)
    deploy = next(m for m in constraints if m.content.startswith("Never deploy"))
    assert is_triggered(deploy, "can I deploy atlas this friday?")
    assert not is_triggered(deploy, "can I deploy atlas on monday?")
    res = engine.recall("can I deploy atlas this friday?", user_id="ada", top_k=5)
    assert deploy.id in [m.id for m in res.memories]
    res = engine.recall("When is the Atlas launch?", user_id="ada", top_k=5)
    assert not [t for t in res.trace if t.section == "triggered"]


def test_a_correction_replaces_only_its_own_fact(engine: MemoryEngine) -> None:
    engine.ingest("The standup is at 9:15. Never push to main on Fridays.", user_id="ada", session_id="s1")
    report = engine.ingest("Actually, the standup moved to 9:30.", user_id="ada", session_id="s2")
    active = {m.content for m in engine.list(user_id="ada")}
    assert active == {"Never push to main on Fridays.", "Actually, the standup moved to 9:30."}
    assert len(report.superseded) == 1


def test_jotted_notes_are_one_memory_per_line_and_keep_no_password(engine: MemoryEngine) -> None:
    notes = "\n".join(["car - MOT due 14 March, garage is Patel Motors on Hill Rd",
                       "vet: Dr Osei, Biscuit's jabs every 12 months", "wifi pw: heron-77 (router in hall cupboard)"])
    report = engine.ingest(notes, user_id="jo", session_id="s")
    contents = sorted(m.content for m in engine.list(user_id="jo"))
    assert report.chunks == 3 and len(contents) == 3
    assert "heron-77" not in " ".join(contents) and any("[REDACTED:password]" in c for c in contents)


def test_no_false_contradiction_from_a_shared_name(engine: MemoryEngine) -> None:
    engine.ingest("The Atlas launch deadline is Wednesday 12 March.", user_id="ada", session_id="s1")
    report = engine.ingest("Never deploy Atlas on Fridays.", user_id="ada", session_id="s2")
    assert report.contradicted == [] and report.superseded == []
    assert engine.stats(user_id="ada").edges.get("Contradicts", 0) == 0


def test_remember_keeps_one_memory_and_a_turn_stays_whole(engine: MemoryEngine) -> None:
    """`remember` stores what the caller gave as one memory; a conversation turn is one memory too."""
    text = "The standup is at 9:15. Never push to main on Fridays."
    mem = engine.remember(text, user_id="bo")
    assert mem.content == text and engine.stats(user_id="bo").memories == 1
    turn = "Caroline: I went to a support group yesterday. It was so powerful."
    report = engine.ingest_many([{"text": turn, "session_id": "c1"}], user_id="cy")
    assert report.chunks == 1
    report = engine.ingest_many(
        [{"text": "I moved to Lisbon. My sister lives in Porto.", "metadata": {"speaker": "Mel"}}], user_id="cy"
    )
    assert report.chunks == 1


@pytest.mark.parametrize(
    ("rule", "fires", "quiet"),
    [
        ("Never deploy Atlas on Fridays.", "Can I deploy Atlas this Friday?", "When does Atlas launch?"),
        ("The Atlas app icon must use the brand blue.", "What colour should the Atlas icon be?", "Who owns Atlas?"),
        ("Never commit secrets to the repo.", "can I commit the API secrets file?", "how do I commit?"),
        ("Don't run migrations on Friday afternoons.", "ok to run the migration friday?", "run the tests friday"),
        ("The VPN must be on before connecting to the prod database.", "How do I connect to prod?", "VPN login?"),
    ],
)
def test_triggers_fire_on_the_action_and_its_condition(rule: str, fires: str, quiet: str) -> None:
    klass = classify(rule)
    mem = Memory(id="m", user_id="u", content=rule, kind=klass.kind, trigger_patterns=klass.trigger_patterns)
    assert klass.kind is MemoryKind.CONSTRAINT
    assert is_triggered(mem, fires) and not is_triggered(mem, quiet), klass.trigger_patterns
