"""A change that names no subject of its own is compared with the latest memories before it (ingest/followups.py,
resolve._with_recent, pipeline._latest), whatever their cosine."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from datetime import timedelta

import pytest

from memgraph import MemoryEngine
from memgraph.config import Settings
from memgraph.embed import CachedEmbedder
from memgraph.ingest.followups import follows, followup
from memgraph.ingest.statement import statement
from memgraph.models import Relation, utcnow
from memgraph.store.sqlite import SQLiteStore


def _follows(old: str, new: str) -> str | None:
    return follows(new, statement(new), statement(old))


def test_a_change_without_a_subject_is_a_followup() -> None:
    assert followup("postponed to the 23rd, the caterer can't do the 16th.")
    assert followup("up to 14 now, two more signed up this morning.")
    assert followup("it's been moved to 4, the hall is busy until then.")
    assert followup("oh actually, Fridays.")
    assert followup("Rehearsals are now on Mondays.")  # a subject of one word, which the old must say


def test_what_names_its_subject_or_changes_nothing_is_no_followup() -> None:
    assert not followup("The bake sale has moved to the 23rd.")  # its own subject: the ordinary neighbours
    assert not followup("I moved to Bristol last spring.")  # a person's own statement
    assert not followup("I'm earning more now than I used to.")
    assert not followup("We've swapped to the 8:15 bus now.")
    assert not followup("Now, we have three cats.")
    assert not followup("moved to 4?")  # a question changes nothing
    assert not followup("sounds good, see you there.")  # no change said
    assert not followup("Dana: haha yes, we loved it.")


def test_the_value_said_replaces_the_old_one_of_its_kind() -> None:
    assert _follows("The bake sale is on 16 May.", "postponed to the 23rd, the caterer can't do the 16th.")
    assert _follows("We have 12 volunteers for the fun run.", "up to 14 now, two more signed up.")
    assert _follows("The quiz starts at 7pm on Fridays.", "moved to 8, the pub wanted it later.")
    assert _follows("Choir practice is on Tuesdays.", "oh actually, Fridays.")
    assert _follows("Tilly's piano lessons are on Thursdays at 5.", "Piano is now on Mondays, same time.")


def test_a_changed_value_beside_one_said_again_is_a_change() -> None:
    # the period said again ("each year") does not hide the amount changed, whatever order a set gives the kinds
    assert _follows("Our allotment rent is £35 a year.", "council letter came, we pay £6 more each year now")
    assert _follows("The window cleaner charges £18 a month.", "new rates, £20 a month from now on")
    assert _follows("Our allotment rent is £35 a year.", "council letter came, still £35 each year") is None


def test_no_change_where_the_value_is_the_same_or_of_no_kind_the_old_says() -> None:
    assert _follows("The bake sale is on 16 May.", "still on the 16th, all sorted now.") is None
    assert _follows("The car is a blue Golf.", "moved to 8, the pub wanted it later.") is None
    # two times in the old: which one changed is not said
    assert _follows("Doors open at 6 and the talk starts at 7.", "moved to 8 now.") is None
    # a subject word the old does not say
    assert _follows("Tilly's piano lessons are on Thursdays at 5.", "Football is now on Mondays.") is None


@pytest.fixture
def store_engine(embedder: CachedEmbedder) -> Iterator[MemoryEngine]:
    eng = MemoryEngine(SQLiteStore(":memory:"), Settings(store=":memory:"), embedder)
    yield eng
    eng.close()


def _superseded(eng: MemoryEngine, user: str) -> list[tuple[str, str]]:
    links = eng.store.get_links(user, relations=[Relation.SUPERSEDES])
    mems = {m.id: m.content for m in eng.store.list_memories(user, limit=100)} | {
        m.id: m.content for m in eng.store.get_memories(user, [x.dst for x in links])
    }
    return [(mems[x.src], mems[x.dst]) for x in links]


def test_a_followup_supersedes_the_memory_before_it(store_engine: MemoryEngine) -> None:
    """The real model: the pair lies under every cosine floor, and is decided only as a follow-up."""
    old = store_engine.remember("The allotment open day is on 9 June.", user_id="u")
    new = "postponed to the 16th, rain is forecast."
    assert float(store_engine.embedder.encode([old.content])[0] @ store_engine.embedder.encode([new])[0]) < (
        store_engine.settings.reconcile_cue_cosine
    )
    store_engine.remember(new, user_id="u")
    assert store_engine.get(old.id, user_id="u").active is False
    assert _superseded(store_engine, "u") == [(new, old.content)]


def test_a_followup_after_an_unrelated_memory_changes_nothing(store_engine: MemoryEngine) -> None:
    store_engine.remember("The bake sale is on 16 May.", user_id="u")
    store_engine.remember("Our car is a blue Golf.", user_id="u")
    store_engine.remember("The vet is Dr Amos on Mill Lane.", user_id="u")
    store_engine.remember("My sister works at the library.", user_id="u")  # the date is past the latest three
    store_engine.remember("postponed to the 23rd, the caterer can't do the 16th.", user_id="u")
    assert _superseded(store_engine, "u") == []


def test_a_followup_in_a_batch_and_in_its_session_only(store_engine: MemoryEngine) -> None:
    store_engine.remember("We have 12 volunteers for the fun run.", user_id="u", session_id="a")
    store_engine.remember_many(
        [{"content": "The bike has 3 gears.", "session_id": "b"}, {"content": "up to 14 now, two more signed up.",
                                                                   "session_id": "a"}],
        user_id="u",
    )
    assert _superseded(store_engine, "u") == [("up to 14 now, two more signed up.",
                                                "We have 12 volunteers for the fun run.")]
    store_engine.remember_many(["The quiz starts at 7pm on Fridays.", "moved to 8, the pub wanted it later."],
                               user_id="v")
    assert _superseded(store_engine, "v") == [("moved to 8, the pub wanted it later.",
                                                "The quiz starts at 7pm on Fridays.")]


def test_a_followup_long_after_changes_nothing(store_engine: MemoryEngine) -> None:
    then = utcnow() - timedelta(minutes=store_engine.settings.reconcile_followup_window_minutes + 5)
    store_engine.remember_many([{"content": "The quiz starts at 7pm on Fridays.", "created_at": then}], user_id="u")
    store_engine.remember("moved to 8, the pub wanted it later.", user_id="u")
    assert _superseded(store_engine, "u") == []


def test_an_elliptical_reply_in_a_conversation_replaces_no_turn(store_engine: MemoryEngine) -> None:
    store_engine.remember_conversation(
        [
            {"speaker": "Ana", "text": "We had 12 people at the book club last night."},
            {"speaker": "Ben", "text": "down to 9 now at ours, people drift off in summer."},
            {"speaker": "Ana", "text": "moved to 8pm since the library changed its hours, it helped."},
        ],
        user_id="u",
        session_id="s1",
    )
    assert _superseded(store_engine, "u") == []


def test_one_store_read_per_write_and_none_without_a_followup(
    store_engine: MemoryEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The latest memories are read once per write, whatever the follow-ups and sessions in it; never for a write
    with none (a bulk write of statements pays nothing)."""
    calls: list[int] = []
    read = store_engine.store.list_memories

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        if sys._getframe(1).f_code.co_name == "_latest":  # (sessions read their own memories too)
            calls.append(kwargs.get("limit", 0))
        return read(*args, **kwargs)

    for text in ("We have 12 volunteers for the fun run.", "The quiz starts at 7pm on Fridays."):  # the quiz last
        store_engine.remember(text, user_id="u", session_id="a")
    monkeypatch.setattr(store_engine.store, "list_memories", counted)
    store_engine.remember_many(["Our car is a blue Golf.", "The vet is on Mill Lane."], user_id="u")
    assert calls == []
    store_engine.remember_many(
        [{"content": "moved to 8, the pub wanted it later.", "session_id": "a"},
         {"content": "up to 14 now, two more signed up.", "session_id": "b"}],
        user_id="u",
    )
    assert calls == [2 * store_engine.settings.reconcile_followup_latest]
    assert [old for _, old in _superseded(store_engine, "u")] == ["The quiz starts at 7pm on Fridays."]
