"""Conversation structure (ingest/episodes.py) and the query cues that use it."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memgraph import LinkSource, MemoryEngine, Relation
from memgraph.errors import ValidationError
from memgraph.retrieve.cues import date_tag_names, find_cues


def test_remember_conversation_builds_structure(quiet: MemoryEngine) -> None:
    when = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    mems = quiet.remember_conversation(
        [
            {"speaker": "Ada", "text": "Hi Bob!", "metadata": {"dia_id": "D1:1"}},
            {"speaker": "Bob", "text": "   "},
            {"speaker": "Bob", "text": "Hey Ada, I adopted a cat."},
            "A line with no speaker",
        ],
        user_id="u",
        session_id="s1",
        session_date=when,
    )
    assert [m.content for m in mems] == [
        "Ada: Hi Bob!",
        "Bob: Hey Ada, I adopted a cat.",
        "A line with no speaker",
    ]
    assert mems[0].tags == ["bob", "date:2023-05-08", "month:2023-05", "session:s1", "speaker:ada"]
    assert "speaker:bob" in mems[1].tags and not any(t.startswith("speaker:") for t in mems[2].tags)
    assert mems[0].metadata["dia_id"] == "D1:1" and mems[0].metadata["turn"] == 0
    assert mems[0].created_at == when and mems[1].created_at > mems[0].created_at
    assert all(m.kind.value == "event" and m.session_id == "s1" for m in mems)
    links = quiet.store.get_links("u", relations=[Relation.RELATES_TO])
    pairs = {(lk.src, lk.dst) for lk in links}
    assert pairs == {(mems[0].id, mems[1].id), (mems[1].id, mems[2].id)}
    assert all(lk.source is LinkSource.SEQUENCE and lk.weight == pytest.approx(0.85) for lk in links)


def test_remember_conversation_without_links_and_bad_input(quiet: MemoryEngine) -> None:
    quiet.remember_conversation(["one", "two"], user_id="u", session_id="s", link_sequence=False)
    assert quiet.store.get_links("u") == []
    with pytest.raises(ValidationError):
        quiet.remember_conversation("not a list", user_id="u", session_id="s")  # type: ignore[arg-type]
    with pytest.raises(ValidationError):
        quiet.remember_conversation([{"speaker": "A", "text": 3}], user_id="u", session_id="s")
    with pytest.raises(ValidationError):
        quiet.remember_conversation(["x"], user_id="u", session_id="")
    assert quiet.stats(user_id="u").memories == 2  # nothing written by the failures


def test_date_cues() -> None:
    assert date_tag_names("What did she do on 13 October, 2023?")[0] == ["date:2023-10-13"]
    assert date_tag_names("Plans for October 13th, 2023")[0] == ["date:2023-10-13"]
    assert date_tag_names("the 2024-02-29 release")[0] == ["date:2024-02-29"]
    assert date_tag_names("What happened in July 2023?")[0] == ["month:2023-07"]
    assert date_tag_names("what happened in may")[0] == []


def test_query_cues_match_tags_and_strip_names(quiet: MemoryEngine) -> None:
    quiet.remember_conversation(
        [{"speaker": "Caroline", "text": "I went to a support group."}],
        user_id="u",
        session_id="s9",
        session_date=datetime(2023, 5, 8, tzinfo=UTC),
    )
    cues = find_cues(quiet.store, "u", "What did Caroline's group do on 8 May, 2023?", max_tags=3)
    assert set(cues.tag_names) == {"speaker:caroline", "date:2023-05-08"}
    assert "Caroline" not in cues.stripped_query and "2023" not in cues.stripped_query
    assert "group" in cues.stripped_query
    assert find_cues(quiet.store, "other-user", "Caroline", max_tags=3).tags == []


def test_plain_and_topic_tags_are_not_cues(quiet: MemoryEngine) -> None:
    """Tags made of a memory's own words are already matched by text and vector search; as cues they would
    count the same words again and let a memory that merely names the query's nouns outrank the answer."""
    intro = quiet.remember("We're migrating the ledger service to PostgreSQL this quarter.", user_id="u",
                           tags=["postgresql", "ledger"])
    answer = quiet.remember("The cutover moved: it is now planned for 28 November 2026.", user_id="u",
                            tags=["project:ledger"])
    cues = find_cues(quiet.store, "u", "When is the ledger cutover to PostgreSQL?", max_tags=3)
    assert cues.tag_names == ["project:ledger"]  # the facet is a cue, the plain tags are not
    res = quiet.recall("When is the ledger cutover to PostgreSQL?", user_id="u", top_k=2)
    assert [m.id for m in res.memories] == [answer.id, intro.id]
    assert res.trace[1].cue_boost == 1.0


def test_date_cue_brings_that_session(quiet: MemoryEngine) -> None:
    a = quiet.remember_conversation(
        [{"speaker": "Ada", "text": "Got some great news to share today!"}],
        user_id="u",
        session_id="s1",
        session_date=datetime(2023, 6, 16, tzinfo=UTC),
    )
    quiet.remember_conversation(
        [{"speaker": "Ada", "text": "I have great news: my sister got married."}],
        user_id="u",
        session_id="s2",
        session_date=datetime(2023, 8, 1, tzinfo=UTC),
    )
    res = quiet.recall("What news did Ada share on 16 June, 2023?", user_id="u", top_k=1)
    assert res.memories[0].id == a[0].id
    assert "date:2023-06-16" in res.trace[0].matched_tags
