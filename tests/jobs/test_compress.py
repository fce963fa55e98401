"""compress: old sessions become summaries with evidence; originals compressed, excluded from recall."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

import pytest

from memgraph.errors import ProvenanceError
from memgraph.jobs.compress import (
    ExtractiveSummarizer,
    SessionPlan,
    split_sentences,
    summary_id,
    write_summary,
)
from memgraph.models import MemoryKind, Relation, utcnow
from memgraph.store.base import MemoryFilter
from tests.jobs.conftest import checksum

SESSION = [
    "We discussed migrating the billing database from MySQL to PostgreSQL.",
    "The user wants the migration finished before the March release.",
    "Thanks, that sounds good.",
    "Alembic autogenerate fails on enum columns in the billing schema.",
    "We agreed to write the enum migrations by hand.",
    "Okay, see you tomorrow.",
]


def _session(engine, sid: str, texts: Sequence[str], days_ago: float, user: str = "u"):
    t0 = utcnow() - timedelta(days=days_ago)
    return engine.remember_many(
        [
            {"content": t, "kind": "event", "session_id": sid, "created_at": t0 + timedelta(minutes=i)}
            for i, t in enumerate(texts)
        ],
        user_id=user,
    )


def test_old_sessions_are_summarised_with_evidence(engine):
    old = _session(engine, "s-old", SESSION, days_ago=45)
    recent = _session(engine, "s-new", ["We just talked about the weather today."] * 1, days_ago=2)
    engine.remember("A fact without a session.", user_id="u", kind="event")
    before = checksum(engine.store)
    plan = engine.jobs.compress("u")
    assert checksum(engine.store) == before
    assert [s.session_id for s in plan.sessions] == ["s-old"]
    assert plan.recent_sessions == 1 and plan.events_without_session == 1
    summary_text = plan.sessions[0].summary
    assert 1 <= len(split_sentences(summary_text)) <= engine.settings.compress_sentences
    assert all(s in SESSION for s in split_sentences(summary_text))  # extractive
    assert "Okay, see you tomorrow." not in summary_text  # pleasantries are not central

    report = engine.jobs.compress("u", apply=True)
    assert report.summaries_written == 1 and report.events_compressed == len(SESSION)
    sid = summary_id("u", "s-old")
    summary = engine.get(sid, user_id="u", with_embedding=True)
    assert summary.kind is MemoryKind.SUMMARY and summary.layer.value == "episodic"
    assert summary.provenance.value == "extracted" and summary.embedding is not None
    assert summary.metadata["source_session_id"] == "s-old" and summary.metadata["compression_source"]
    evidence = {ln.dst for ln in engine.store.get_links("u", [sid], relations=[Relation.DERIVED_FROM])}
    assert evidence == {m.id for m in old}  # DerivedFrom to EVERY source
    # originals kept but compressed: not listed for recall unless asked
    default = {m.id for m in engine.store.list_memories("u", MemoryFilter(), limit=100)}
    assert not default & {m.id for m in old} and sid in default and recent[0].id in default
    with_compressed = {
        m.id for m in engine.store.list_memories("u", MemoryFilter(include_compressed=True), limit=100)
    }
    assert {m.id for m in old} <= with_compressed
    # idempotent
    again = engine.jobs.compress("u", apply=True)
    assert again.sessions == [] and again.summaries_written == 0


def test_grown_session_rewrites_its_summary(engine):
    first = _session(engine, "s1", SESSION[:3], days_ago=60)
    engine.jobs.compress("u", apply=True)
    more = _session(engine, "s1", ["Later we decided to keep MySQL for the archive tables."], days_ago=50)
    report = engine.jobs.compress("u", apply=True)
    assert report.sessions[0].rewrite and report.sessions[0].events == 4
    sid = summary_id("u", "s1")
    evidence = {ln.dst for ln in engine.store.get_links("u", [sid], relations=[Relation.DERIVED_FROM])}
    assert evidence == {m.id for m in first + more}
    assert len([m for m in engine.list(user_id="u", kind="summary")]) == 1


class Shouty:
    """A plugged-in summariser (an LLM would sit here)."""

    name = "shouty"

    def summarize(self, texts: Sequence[str]) -> str:
        return " / ".join(t.upper() for t in texts[:2])


class Silent:
    name = "silent"

    def summarize(self, texts: Sequence[str]) -> str:
        return ""


def test_pluggable_summarizer_and_no_summary_without_evidence(engine):
    _session(engine, "s1", SESSION, days_ago=40)
    report = engine.jobs.compress("u", apply=True, summarizer=Shouty())
    assert report.summarizer == "shouty"
    assert engine.get(summary_id("u", "s1"), user_id="u").content.startswith("WE DISCUSSED")
    _session(engine, "s2", SESSION[:2], days_ago=40, user="v")
    silent = engine.jobs.compress("v", apply=True, summarizer=Silent())
    assert silent.summaries_written == 0 and silent.warnings
    assert all(not m.compressed for m in engine.list(user_id="v"))
    plan = SessionPlan(
        session_id="x",
        events=0,
        new_events=0,
        first_at=utcnow(),
        last_at=utcnow(),
        summary_id="m_x",
        summary="something",
    )
    with pytest.raises(ProvenanceError):
        write_summary(engine.store, "v", plan, [], [], None, "t", "m", utcnow())
    assert engine.store.get_memories("v", ["m_x"]) == []


def test_textrank_prefers_central_sentences(embedder):
    summ = ExtractiveSummarizer(embedder.encode, sentences=2)
    text = summ.summarize(SESSION)
    assert "see you tomorrow" not in text and "Thanks" not in text
