"""The graph from ordinary writes (ingest/structure.py): facet and topic tags, session chains across calls."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memgraph import MemoryEngine
from memgraph.config import Settings
from memgraph.ingest.signals import entities
from memgraph.ingest.structure import dates_named, speaker_of, structure_tags, user_tags
from memgraph.models import LinkSource, Relation

DAY = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)


def sequence(engine: MemoryEngine, user: str) -> set[tuple[str, str]]:
    return {
        (lk.src, lk.dst)
        for lk in engine.store.get_links(user, relations=[Relation.RELATES_TO])
        if lk.source is LinkSource.SEQUENCE
    }


def test_session_turns_written_with_remember_many_get_facets_topics_and_order(engine: MemoryEngine) -> None:
    turns = ["Caroline: I went to the LGBTQ support group yesterday.", "Melanie: That sounds powerful, how was it?",
             "Caroline: The transgender stories were so inspiring."]
    mems = engine.remember_many(
        [{"content": t, "session_id": "conv-s1", "created_at": DAY} for t in turns], user_id="u"
    )
    first = mems[0]
    assert {"session:conv-s1", "speaker:caroline", "date:2023-05-08", "month:2023-05"} <= set(first.tags)
    assert "topic:support" in first.tags and "topic:caroline" not in first.tags  # the name is a facet, not a topic
    assert "speaker:melanie" in mems[1].tags
    # one timestamp for the whole session: the order of writing is the order of the chain
    assert sequence(engine, "u") == {(mems[0].id, mems[1].id), (mems[1].id, mems[2].id)}


def test_a_session_written_one_memory_per_call_is_chained_across_calls(engine: MemoryEngine) -> None:
    ids = [
        engine.remember(t, user_id="u", session_id="s", metadata={"turn": i}).id
        for i, t in enumerate(["Ada: we moved the standup to 9:30", "Bob: noted, I will update the invite",
                               "Ada: also the retro is on Friday afternoons now"])
    ]
    assert sequence(engine, "u") == {(ids[0], ids[1]), (ids[1], ids[2])}
    # another session starts its own chain
    other = engine.remember("Ada: new week, new plan for the billing service", user_id="u", session_id="s2")
    assert all(other.id not in pair for pair in sequence(engine, "u"))


def test_ties_on_the_timestamp_chain_in_writing_order_across_calls(engine: MemoryEngine) -> None:
    texts = ["Ada: I packed the tent and two sleeping bags", "Bob: great, the stove needs new gas cartridges",
             "Ada: my brother lends us his canoe for the lake"]
    ids = [
        engine.remember_many([{"content": t, "session_id": "s", "created_at": DAY}], user_id="u")[0].id
        for t in texts
    ]
    assert sequence(engine, "u") == {(ids[0], ids[1]), (ids[1], ids[2])}


def test_an_older_memory_is_not_spliced_after_the_tail(engine: MemoryEngine) -> None:
    late = engine.remember_many([{"content": "Ada: the launch went well", "session_id": "s",
                                  "created_at": DAY + timedelta(hours=2)}], user_id="u")[0]
    early = engine.remember_many([{"content": "Ada: the launch starts in an hour", "session_id": "s",
                                   "created_at": DAY}], user_id="u")[0]
    assert (late.id, early.id) not in sequence(engine, "u")


def test_plain_remember_keeps_exactly_its_tags(engine: MemoryEngine) -> None:
    mem = engine.remember("I prefer tabs over spaces in Python", user_id="u", kind="preference", tags=["style"])
    assert mem.tags == ["python", "style"]  # an entity tag, no facets: no session, no date given
    assert user_tags(mem.tags) == mem.tags


def test_dates_named_in_the_text_become_date_tags(engine: MemoryEngine) -> None:
    mem = engine.remember("The cutover is planned for 14 November 2026.", user_id="u")
    assert {"date:2026-11-14"} <= set(mem.tags)
    assert dates_named("We ship in November 2026") == (["month:2026-11"], ["November 2026"])
    assert dates_named("see you on Monday, 14 November")[0] == []  # no year: no day is named


@pytest.mark.parametrize(
    ("text", "who"),
    [("Caroline: hi", "Caroline"), ("Mary Ann: hi", "Mary Ann"), ("Note: deploy on Fridays", None),
     ("Quick update: it works", None), ("TODO: fix", None), ("user: hello", None), ("Step 1: run it", None)],
)
def test_only_name_like_labels_are_speakers(text: str, who: str | None) -> None:
    assert speaker_of(text) == who


@pytest.mark.parametrize("text", ["Tue: called the insurer, claim ref 44-812", "Wed: insurer needs photos of the dent",
                                  "Monday: gym, legs", "Thurs. - long run 18k"])
def test_a_log_lines_day_is_no_speaker(engine: MemoryEngine, text: str) -> None:
    """A journal's day stamp read as a speaker gave every Tuesday's note one `speaker:tue` tag: a hub of notes
    that share nothing but the weekday they were written on."""
    assert speaker_of(text) is None
    mem = engine.remember(text, user_id="u")
    assert not any(t.startswith("speaker:") for t in mem.tags)


def test_a_role_label_is_not_a_topic() -> None:
    """"user:" opens every turn of an agent's transcript: as a topic it would join them all."""
    s = Settings(store=":memory:")
    text = "user: Tomasz owns the reconciliation reports."
    tags = structure_tags(text, session_id="s", created_at=DAY, settings=s)
    assert "topic:reconciliation" in tags and "topic:user" not in tags
    assert not any(t.startswith("speaker:") for t in tags)


def test_structure_can_be_switched_off() -> None:
    off = Settings(store=":memory:", write_structure=False)
    assert structure_tags("Ada: hi there everyone", session_id="s", created_at=DAY, settings=off) == []
    on = Settings(store=":memory:")
    assert "speaker:ada" in structure_tags("Ada: hi there everyone", session_id="s", created_at=DAY, settings=on)


def test_a_conversation_appended_in_two_calls_is_one_chain(engine: MemoryEngine) -> None:
    a = engine.remember_conversation([{"speaker": "Ada", "text": "Shall we plan the hiking trip?"},
                                      {"speaker": "Bob", "text": "Yes, the Dolomites in July."}],
                                     user_id="u", session_id="trip", session_date=DAY)
    b = engine.remember_conversation([{"speaker": "Ada", "text": "I booked the mountain hut for three nights."}],
                                     user_id="u", session_id="trip", session_date=DAY + timedelta(minutes=5))
    assert sequence(engine, "u") == {(a[0].id, a[1].id), (a[1].id, b[0].id)}


@pytest.mark.parametrize("text", ["Supplier: Harlow Mills | Contact: Ann Reyes | Phone: 0117 496 0555",
                                  "Room: C3; Time: 09:00; Tutor: Ms Obi", "Vendor: Acme\tInvoice: 4471\tDue: 12 May"])
def test_a_records_first_label_is_no_speaker(engine: MemoryEngine, text: str) -> None:
    """A record of labelled fields read as a turn made its first label a speaker: every record opening with
    "Supplier:" shared one `speaker:supplier` tag, and two versions of one record were never compared."""
    assert speaker_of(text) is None
    mem = engine.remember(text, user_id="u")
    assert not any(t.startswith("speaker:") for t in mem.tags)
    assert speaker_of("Caroline: I went to the group; Mel came too, at 9: late") == "Caroline"  # a turn stays one


def test_a_records_labels_are_no_names_and_its_values_are() -> None:
    """"Contact", "Phone" as entity tags joined every record with those fields; the name after a label was read
    as a sentence's first word, so "Jo Pike" gave the tag "pike" alone."""
    assert entities("Supplier: Harlow Mills | Contact: Ann Reyes | Phone: 0117 496 0555") == ["Harlow Mills",
                                                                                             "Ann Reyes"]
    assert entities("Status: Done; Owner: Priya") == ["Priya"]
    assert entities("Caroline: I met Mel at the Louvre") == ["Caroline", "Mel", "Louvre"]  # a turn's speaker stays


def test_a_record_with_one_field_changed_is_compared(engine: MemoryEngine) -> None:
    """Two versions of a record are compared like two statements: a field changed without a word of change
    conflicts (as "Ann's phone is A" / "Ann's phone is B" does), the same record again is a repeat."""
    old = engine.remember("Supplier: Harlow Mills | Contact: Ann Reyes | Phone: 0117 496 0555", user_id="r")
    record = "Supplier: Harlow Mills | Contact: Ann Reyes | Phone: 0117 496 0777"
    report = engine.ingest(record, user_id="r", session_id="s")
    assert report.contradicted == [old.id]
    again = engine.ingest("Room: C3; Time: 09:00; Tutor: Ms Obi", user_id="r2", session_id="s")
    repeat = engine.ingest("Room: C3; Time: 09:00; Tutor: Ms Obi.", user_id="r2", session_id="s")
    assert again.created and repeat.reinforced
