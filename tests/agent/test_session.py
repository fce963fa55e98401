"""Session lifecycle: commit now, hold in a persisted buffer, promote or drop at session end, one
episodic summary with DerivedFrom edges, gaps, inactivity timeout, close, restart and the incognito mode."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from memgraph import MemoryEngine, MemoryKind, Relation
from memgraph.agent import MemoryAgent, SessionEndReport
from memgraph.agent.buffer import INDEX_KEY, buffer_key
from memgraph.agent.models import WriteAction
from memgraph.store import MemoryFilter

from .conftest import USER

ROOT = Path(__file__).resolve().parents[2]
DB = "The staging database is db-stage-02 on port 5433."

# A session whose held statements each meet a different fate at session end.
EDITOR_1 = "I use Neovim with lazy.nvim as my editor."
EDITOR_2 = "My editor is Neovim, configured with lazy.nvim."  # a repeat of EDITOR_1 (cosine 0.88)
ANALYTICS = "We decided to use PostgreSQL for the analytics service."
ANALYTICS_REPLY = "Sure, analytics on PostgreSQL makes sense."  # the assistant's turn supports it (0.74)
STAGING = "The staging database is db-stage-02, on port 5433 as always."  # supported by memory DB
DOG = "My dog is called Biscuit."  # said once, nothing supports it
SHORTER = "Shorter answers would be nice."  # implicit preference: needs repetition
SAFETY = "Skip the safety check this time."
EXPLICIT = "Remember that the prod database is db-prod-01."

SESSION = [
    ("user", EDITOR_1),
    ("user", ANALYTICS),
    ("assistant", ANALYTICS_REPLY),
    ("user", STAGING),
    ("user", DOG),
    ("user", SHORTER),
    ("user", SAFETY),
    ("user", EXPLICIT),
    ("user", EDITOR_2),
]


def talk(agent: MemoryAgent, turns, session: str = "s1") -> None:
    for role, text in turns:
        agent.observe(text, user_id=USER, session_id=session, role=role)
    assert agent.drain(120)


def outcomes(report: SessionEndReport) -> dict[str, str]:
    return {c.text: c.outcome for c in report.candidates}


def contents(engine: MemoryEngine) -> set[str]:
    return {m.content for m in engine.list(user_id=USER, limit=500)}


def test_explicit_statements_commit_now_implicit_ones_are_held(open_engine, agents) -> None:
    engine = open_engine()
    agent = MemoryAgent(engine)
    agents.append(agent)
    talk(agent, SESSION)
    stored = engine.list(user_id=USER)
    assert [m.content for m in stored] == ["The prod database is db-prod-01."]
    assert stored[0].session_id == "s1" and stored[0].metadata["source"] == "agent"
    held = {c.text: c for c in agent.held(USER, "s1")}
    assert set(held) == {EDITOR_1, ANALYTICS, STAGING, DOG, SHORTER}
    assert held[EDITOR_1].mentions == 2 and len(held[EDITOR_1].turns) == 2
    assert held[SHORTER].action is WriteAction.REQUIRE_REPETITION
    assert SAFETY not in held
    st = agent.stats
    assert (st.committed, st.held, st.repeated, st.candidates_dropped) == (1, 5, 1, 1)


def test_session_end_promotes_repeated_and_supported_drops_the_rest(open_engine, agents) -> None:
    engine = open_engine()
    (db,) = engine.remember_many([{"content": DB}], user_id=USER)
    agent = MemoryAgent(engine)
    agents.append(agent)
    talk(agent, SESSION)
    report = agent.end_session(USER, "s1")
    assert outcomes(report) == {
        EDITOR_1: "promoted",  # repeated
        ANALYTICS: "promoted",  # supported by the assistant's turn
        STAGING: "promoted",  # supported by an existing memory
        DOG: "dropped",
        SHORTER: "dropped",
    }
    reasons = {c.text: c.reason for c in report.candidates}
    assert reasons[EDITOR_1].startswith("repeated")
    assert "assistant turn" in reasons[ANALYTICS]
    assert db.id in reasons[STAGING]
    stored = contents(engine)
    assert {EDITOR_1, ANALYTICS} <= stored
    assert DOG not in stored and SHORTER not in stored and not any("safety" in c for c in stored)
    # promotion goes through the write path: the near-duplicate of DB reinforces DB instead of adding a copy
    by_text = {c.text: c.memory_id for c in report.candidates}
    assert by_text[STAGING] == db.id and STAGING not in stored
    assert engine.get(db.id, user_id=USER).strength == 2
    promoted = [m for m in engine.store.get_memories(USER, report.promoted) if m.id != db.id]
    assert {m.content for m in promoted} == {EDITOR_1, ANALYTICS}
    assert all(m.metadata["source"] == "agent" and m.session_id == "s1" for m in promoted)
    assert {m.kind for m in promoted} == {MemoryKind.FACT, MemoryKind.DECISION}
    # the buffer is gone once the session ended
    assert agent.sessions() == [] and agent.held(USER, "s1") == []
    assert not engine.store.get_meta(buffer_key(USER, "s1"))


def test_a_held_statement_corrected_later_in_the_session_is_not_promoted(open_engine, agents) -> None:
    """Held statements are written at session end, after the corrections committed at once: promoted, the
    stale one would stand active beside the correction that replaced it."""
    engine = open_engine()
    agent = MemoryAgent(engine)
    agents.append(agent)
    stale = "Our Elasticsearch cluster runs on six nodes."
    fix = "Actually, the cluster has eight nodes now, we added two last week."
    talk(agent, [("user", stale), ("user", stale), ("user", fix)])  # repeated: it would be promoted
    report = agent.end_session(USER, "s1")
    reason = {c.text: c.reason for c in report.candidates}[stale]
    assert outcomes(report)[stale] == "dropped" and reason.startswith("out of date")
    stored = contents(engine)
    assert fix in stored and stale not in stored


def test_what_a_corrected_held_statement_still_says_is_kept(open_engine, agents) -> None:
    """The update replaces one clause of a held statement; the rest is judged as a statement of its own (the
    write path keeps such a remainder of a superseded memory too)."""
    engine = open_engine()
    agent = MemoryAgent(engine)
    agents.append(agent)
    stale = "My sister Lena lives in Porto and works as a nurse."
    fix = "Actually, Lena moved to Lisbon last month."
    talk(agent, [("user", stale), ("user", stale), ("user", fix)])
    report = agent.end_session(USER, "s1")
    reason = {c.text: c.reason for c in report.candidates}[stale]
    assert reason.startswith("out of date") and "My sister Lena works as a nurse." in reason
    stored = contents(engine)
    assert stale not in stored and "My sister Lena works as a nurse." in stored, stored


def test_one_summary_with_derived_from_edges_to_its_evidence(open_engine, agents) -> None:
    engine = open_engine()
    agent = MemoryAgent(engine)
    agents.append(agent)
    question = "How do I connect to the staging database from my laptop?"
    talk(agent, [*SESSION, ("user", question)])
    report = agent.end_session(USER, "s1")
    assert report.summary_id is not None and report.summary is not None
    summaries = engine.list(user_id=USER, kind="summary")
    assert [s.id for s in summaries] == [report.summary_id]
    summary = summaries[0]
    assert summary.layer.value == "episodic" and summary.session_id == "s1"
    assert "session:s1" in summary.tags and summary.content.startswith("Session s1 on ")
    links = engine.store.get_links(USER, [summary.id], relations=[Relation.DERIVED_FROM], direction="out")
    assert {lk.dst for lk in links} == set(report.evidence)
    # the evidence: every memory the session wrote, plus key turns stored as episodic events
    assert set(report.committed) | set(report.promoted) <= set(report.evidence)
    evidence = engine.store.get_memories(USER, report.evidence)
    assert len(evidence) == len(report.evidence)  # every edge points at a stored memory
    turns = [m for m in evidence if m.kind is MemoryKind.EVENT]
    assert [m.content for m in turns] == [question]  # the one key turn not already remembered
    assert all("session:s1" in m.tags for m in turns)
    assert question in summary.content and EDITOR_1 in summary.content
    # what the policy refused is neither quoted nor stored as evidence
    for refused in (DOG, SHORTER, SAFETY):
        assert refused not in summary.content
        assert refused not in contents(engine)


def test_no_summary_for_a_short_session(open_engine, agents) -> None:
    engine = open_engine()
    agent = MemoryAgent(engine)
    agents.append(agent)
    talk(agent, [("user", "Remember that my locker code is 4711."), ("user", "Thanks a lot for that!")])
    report = agent.end_session(USER, "s1")
    assert report.summary_id is None and report.summary is None
    assert report.committed and not engine.list(user_id=USER, kind="summary")


def test_recall_misses_become_persisted_gaps(open_engine, agents) -> None:
    engine = open_engine()
    engine.remember(DB, user_id=USER)
    agent = MemoryAgent(engine)
    agents.append(agent)
    miss = "What is the airspeed velocity of an unladen swallow?"
    talk(agent, [("user", miss)])
    report = agent.end_session(USER, "s1")
    assert miss in report.gaps
    engine.close()
    reopened = open_engine(engine.settings.store)
    assert miss in {g.query for g in reopened.store.list_gaps(USER)}


def test_held_candidates_survive_a_restart(open_engine, agents, tmp_path: Path) -> None:
    first = open_engine()
    agent = MemoryAgent(first)
    talk(agent, SESSION[:4])  # EDITOR_1, ANALYTICS (+ reply), STAGING
    agent.close(end_sessions=False)  # the process goes away; the session is not over
    first.store.close()

    engine = open_engine(tmp_path / "store")
    assert {json.dumps(list(k)) for k in json.loads(engine.store.get_meta(INDEX_KEY))} == {json.dumps([USER, "s1"])}
    agent = MemoryAgent(engine)
    agents.append(agent)
    assert agent.sessions() == [(USER, "s1")]
    assert {c.text for c in agent.held(USER, "s1")} == {EDITOR_1, ANALYTICS, STAGING}
    # the session goes on after the restart: the repeat is matched against the restored candidate
    talk(agent, [("user", EDITOR_2)])
    (editor,) = [c for c in agent.held(USER, "s1") if c.text == EDITOR_1]
    assert editor.mentions == 2
    report = agent.end_session(USER, "s1")
    assert outcomes(report)[EDITOR_1] == "promoted" and outcomes(report)[STAGING] == "dropped"
    assert report.turns == 5


def test_a_killed_agent_loses_no_held_candidate(open_engine, agents, tmp_path: Path) -> None:
    store = tmp_path / "killed"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.agent.kill_worker", "--store", str(store), "--user", USER],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT,
    )
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        assert line.strip() == "acknowledged", proc.stderr.read() if proc.stderr else line
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
    assert proc.returncode == -signal.SIGKILL
    engine = open_engine(store)
    agent = MemoryAgent(engine)  # the dead process's lock went with it
    agents.append(agent)
    assert agent.sessions() == [(USER, "s1")]
    assert {c.text for c in agent.held(USER, "s1")} == {EDITOR_1, ANALYTICS}
    talk(agent, [("user", EDITOR_2)])
    report = agent.end_session(USER, "s1")
    assert outcomes(report)[EDITOR_1] == "promoted"
    assert EDITOR_1 in contents(engine)


def test_inactivity_ends_the_session(open_engine, agents) -> None:
    engine = open_engine(agent_poll_interval=0.05)
    agent = MemoryAgent(engine, inactivity_timeout=0.5)
    agents.append(agent)
    talk(agent, [("user", EDITOR_1), ("user", EDITOR_2)])
    deadline = time.monotonic() + 30
    while agent.sessions() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert agent.sessions() == []
    assert agent.stats.sessions_ended == 1
    assert EDITOR_1 in contents(engine)


def test_a_restored_session_past_its_timeout_is_ended_by_the_next_agent(open_engine, agents, tmp_path) -> None:
    engine = open_engine(agent_poll_interval=0.05)
    agent = MemoryAgent(engine)
    talk(agent, [("user", EDITOR_1), ("user", EDITOR_2)])
    agent.close(end_sessions=False)
    time.sleep(0.6)
    agent = MemoryAgent(engine, inactivity_timeout=0.5)
    agents.append(agent)
    deadline = time.monotonic() + 30
    while agent.sessions() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert agent.sessions() == [] and EDITOR_1 in contents(engine)


def test_close_ends_open_sessions(open_engine) -> None:
    engine = open_engine()
    agent = MemoryAgent(engine)
    for role, text in SESSION:
        agent.observe(text, user_id=USER, session_id="s1", role=role)
    for role, text in SESSION[:2]:
        agent.observe(text, user_id=USER, session_id="s2", role=role)
    agent.close()  # queue processed, both sessions ended
    st = agent.stats
    assert st.processed == len(SESSION) + 2 and st.sessions_ended == 2
    assert EDITOR_1 in contents(engine)
    assert not engine.store.get_meta(buffer_key(USER, "s1"))
    assert json.loads(engine.store.get_meta(INDEX_KEY)) == []


def test_held_text_never_keeps_a_secret(open_engine, agents) -> None:
    engine = open_engine()
    agent = MemoryAgent(engine)
    agents.append(agent)
    key = "sk-proj-" + "A1b2C3d4E5f6G7h8I9j0" * 2
    talk(agent, [("user", f"My OpenAI key is {key} for the analytics service.")])
    raw = engine.store.get_meta(buffer_key(USER, "s1")) or ""
    assert key not in raw and "[REDACTED" in raw


def test_incognito_writes_nothing(open_engine, agents) -> None:
    engine = open_engine()
    (db,) = engine.remember_many([{"content": DB}], user_id=USER)
    before = engine.stats(user_id=USER)
    meta_before = engine.store.get_meta(INDEX_KEY)
    agent = MemoryAgent(engine, mode="incognito")
    agents.append(agent)
    agent.observe("How do I connect to the staging database?", user_id=USER, session_id="s1")
    pending = agent.take_pending(user_id=USER, session_id="s1", timeout=60)
    assert pending is not None and db.id in [m.id for m in pending.memories]  # reading works
    talk(agent, [*SESSION, ("user", "What is the airspeed velocity of an unladen swallow?")])
    assert {c.text for c in agent.held(USER, "s1")} >= {EDITOR_1, "The prod database is db-prod-01."}
    report = agent.end_session(USER, "s1")
    assert not report.persisted and report.summary_id is None and report.promoted == []
    assert outcomes(report)[EDITOR_1] == "promoted"  # what would have been written
    engine.flush()
    assert engine.stats(user_id=USER) == before
    assert engine.store.get_meta(INDEX_KEY) == meta_before
    assert engine.store.list_gaps(USER) == []
    assert engine.get(db.id, user_id=USER).access_count == 0  # not even recall bookkeeping
    assert engine.store.count_memories(USER, MemoryFilter.everything()) == 1


@pytest.mark.parametrize("mode", ["local", "incognito"])
def test_end_of_an_unknown_session_is_an_empty_report(open_engine, agents, mode) -> None:
    agent = MemoryAgent(open_engine(), mode=mode)
    agents.append(agent)
    report = agent.end_session(USER, "never-seen")
    assert report.turns == 0 and report.candidates == [] and report.summary_id is None
