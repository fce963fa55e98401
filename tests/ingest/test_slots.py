"""Change of state (`ingest/slots.py`): a move or a job change supersedes the holder's old home or job; visits,
likes, other people's moves and moves within the same place do not. Pure tests of the reading, then the
issue's newcomer case through the public API with the real model."""

from __future__ import annotations

import pytest

from memgraph import MemoryEngine, Relation
from memgraph.ingest.remainders import remainder
from memgraph.ingest.slots import same_holder, slots, verdict


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("My sister Lena lives in Porto and works as a nurse.", "Actually Lena moved to Lisbon last month."),
        ("Lena lives in Porto.", "Lena now lives in Lisbon."),
        ("Tom works at Deloitte as an auditor.", "Tom changed jobs and now works at KPMG."),
        ("I work as a barista at Café Nero.", "I no longer work at Café Nero."),
        ("Dad works for the council as a planner.", "Dad retired from the council in March."),
        ("Marco lives with his parents in Turin.", "Marco moved out and now lives in Milan."),
        ("Chloe lives in Melbourne.", "Chloe no longer lives in Melbourne; she moved to Perth."),
        ("Nina is a software engineer at Spotify.", "Nina left Spotify and joined Klarna."),
        ("Our office is in Shoreditch.", "Our office moved to Canary Wharf."),
    ],
)
def test_a_move_or_a_job_change_replaces_the_old_state(old: str, new: str) -> None:
    v = verdict(new, old)
    assert v is not None and v[0], v


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("My sister Lena lives in Porto.", "Lena's friend moved to Lisbon."),
        ("My sister Lena lives in Porto.", "My sister Ana moved to Lisbon."),
        ("Marco lives in Turin.", "Marco moved to a bigger flat in Turin."),
        ("I work at Café Nero.", "I now work weekends at Café Nero."),
        ("I live in Dublin.", "My neighbour moved to Galway."),
        # an update that states no job of Omar's: the shared "Omar" and a swapped frame word replace nothing
        ("Omar works at the Royal Infirmary.", "Omar moved the meeting to Thursday."),
        ("Grace works at Hillside Primary.", "Grace's son now goes to Hillside Primary."),
    ],
)
def test_someone_elses_move_or_the_same_place_is_no_change(old: str, new: str) -> None:
    v = verdict(new, old)
    assert v is not None and not v[0], v  # decided: no other rule may read it as a replacement


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("My sister Lena lives in Porto.", "Lena visited Lisbon last weekend."),
        ("Lena lives in Porto.", "Lena likes Lisbon."),
        ("Lena lives in Porto.", "Lena lives in Lisbon."),  # no change marked: a conflict, for the other rules
    ],
)
def test_no_change_of_state_is_read(old: str, new: str) -> None:
    assert verdict(new, old) is None


def test_holders() -> None:
    (lena,) = [s for s in slots("My sister Lena lives in Porto.")]
    assert lena.kind == "home" and lena.holder[-1] == "lena" and "porto" in lena.value
    assert same_holder(("lena",), ("my", "sister", "lena"))
    assert same_holder(("my", "landlord"), ("landlord",))
    assert not same_holder(("lena's", "friend"), ("my", "sister", "lena"))
    assert not same_holder(("my", "sister", "ana"), ("my", "sister", "lena"))
    # a clause without a holder takes the previous one's
    tom = slots("Tom changed jobs and now works at KPMG.")
    assert [s.holder for s in tom] == [("tom",), ("tom",)] and tom[1].value == {"kpmg"}


def test_newcomer_relocation_supersedes_through_the_api(engine: MemoryEngine) -> None:
    u = "newcomer"
    old = engine.remember("My sister Lena lives in Porto and works as a nurse.", user_id=u)
    new = engine.remember("Actually Lena moved to Lisbon last month.", user_id=u)
    assert new.id != old.id
    assert not engine.get(old.id, user_id=u).active
    sup = [ln for ln in engine.store.get_links(u, [old.id]) if ln.relation is Relation.SUPERSEDES]
    assert [(ln.src, ln.dst) for ln in sup] == [(new.id, old.id)]
    assert "Porto -> Lisbon" in (sup[0].reason or "")  # the words as written
    # recall now gives Lisbon, not Porto
    res = engine.recall("Where does Lena live?", user_id=u)
    assert [m.id for m in res.memories][:1] == [new.id]


def test_newcomer_near_misses_keep_the_old_fact(engine: MemoryEngine) -> None:
    for i, text in enumerate(["Lena visited Lisbon last weekend.", "Lena's friend moved to Lisbon.",
                              "Lena likes Lisbon."]):
        u = f"near-{i}"
        old = engine.remember("My sister Lena lives in Porto.", user_id=u)
        new = engine.remember(text, user_id=u)
        assert new.id != old.id and engine.get(old.id, user_id=u).active, text
        assert not [ln for ln in engine.store.get_links(u, [old.id]) if ln.relation is Relation.SUPERSEDES]


@pytest.mark.parametrize(
    ("old", "new", "kept"),
    [
        ("My sister Lena lives in Porto and works as a nurse.", "Actually Lena moved to Lisbon last month.",
         "My sister Lena works as a nurse."),
        ("Lena works as a nurse and lives in Porto.", "Lena moved to Lisbon.", "Lena works as a nurse."),
        ("Tom works at Google and lives in Austin.", "Tom now works at Meta.", "Tom lives in Austin."),
        ("I live in Berlin, work at Siemens and play chess on Sundays.", "I moved to Munich.",
         "I work at Siemens and play chess on Sundays."),
        ("Lena lives in Porto. She loves surfing on weekends.", "Lena moved to Lisbon.",
         "She loves surfing on weekends."),
        ("Sam works at the bakery on Main Street and lives with two cats.", "Sam quit the bakery.",
         "Sam lives with two cats."),
        # any change of a compound statement, not only a move: the clauses that share no word with the new one
        ("Maya is on holiday from 3 March to 14 March 2027; Tomasz covers code review.",
         "Actually, Maya's holiday was moved: she is away from 10 March to 21 March 2027.",
         "Tomasz covers code review."),
        ("The deadline is Thursday; the report goes to Anna.", "Correction: the deadline is Friday.",
         "The report goes to Anna."),
        # a subject every clause names touches none of them: the room stays when the time changes
        ("The standup is at 9:15. The standup is in the Blue room.", "Actually the standup is at 9:30.",
         "The standup is in the Blue room."),
        # a changed value touches the clause holding that kind of value, not one that only names the same thing
        ("Our backend team uses Postgres 15 on RDS; staging is db-staging.internal.",
         "we moved staging to Postgres 16 last week", "Staging is db-staging.internal."),
        ("Flight BA117 lands at 6pm; my brother Jo picks us up.", "The flight now lands at 9pm.",
         "My brother Jo picks us up."),
        # no value changed: the clause that shares the new statement's words is the one replaced
        ("Deploys go through ArgoCD; never deploy the billing service on Fridays.",
         "The billing service can be deployed any day now that we have canaries.", "Deploys go through ArgoCD."),
        # a time in each sentence: the one naming what the new statement names changed, the other stays
        ("The standup is at 9:15 in the Blue room. Retro is Friday at 4.", "standup's at 9:30 now",
         "Retro is Friday at 4."),
        ("Pickup from Ms Rowe's class is at 3:15; swimming finishes at 5.", "Actually pickup is at 3:30.",
         "Swimming finishes at 5."),
        # a list's items are its clauses, kept as lines, with the lead-in over them
        ("Shopping for abuela:\n- pan dulce from La Estrella\n- losartan 50 mg, refill due Dec 2",
         "abuela's losartan went up to 100 mg", "Shopping for abuela:\n- pan dulce from La Estrella"),
        ("- standup: 9:15, Blue room\n- retro: Fri 4pm\n- 1:1 with Sam: Tue 2pm", "standup's at 9:30 now",
         "- retro: Fri 4pm\n- 1:1 with Sam: Tue 2pm"),
        ("car: Mazda 3, rego XPT-442\ninsurance: NRMA, renews 14 Aug\nservice due at 60,000 km",
         "insurance renews on 2 Sept now", "car: Mazda 3, rego XPT-442\nservice due at 60,000 km"),
    ],
)
def test_what_a_replaced_statement_still_says(old: str, new: str, kept: str) -> None:
    assert remainder(new, old) == kept


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Lena lives in Porto.", "Lena moved to Lisbon."),  # the move was all of it
        ("Lena lives in Porto for two years now.", "Lena moved to Lisbon."),  # one clause
        ("Lena lives in Porto and works as a nurse.", "Lena visited Lisbon."),  # nothing replaced
        ("Lena lives in Porto and works as a nurse.", "Lena's friend moved to Lisbon."),
        ("The standup is at 9:00 and lasts ten minutes.", "The standup moved to 9:30."),  # one clause, not a slot
        # the same value kind in two clauses: both changed
        ("The meeting is on Tuesday; the meeting room is 4B.", "Actually the meeting is on Wednesday in room 5C."),
        # a pasted message's envelope is no clause of it
        ("hi Sam - quick one: the Brandt manual deadline is fri 12/12. thx, Lena",
         "Actually the Brandt deadline moved to Monday 15 December."),
        ("Hi all,\nThe office wifi password changes to Falcon22 from Monday.\nCheers,\nMarta",
         "Correction: the office wifi password changes to Heron7 from Monday."),
    ],
)
def test_nothing_is_kept_when_nothing_else_was_said_or_nothing_was_replaced(old: str, new: str) -> None:
    assert remainder(new, old) is None


def test_a_move_keeps_the_other_facts_of_the_old_statement(engine: MemoryEngine) -> None:
    """The user's case: the whole old memory became inactive, so recall no longer knew Lena is a nurse."""
    u = "compound"
    old = engine.remember(
        "My sister Lena lives in Porto and works as a nurse.", user_id=u, metadata={"source": "notes"}
    )
    report = engine.remember_report("Actually Lena moved to Lisbon last month.", user_id=u)
    assert report.superseded == [old.id] and len(report.remainders) == 1
    kept = engine.get(report.remainders[0], user_id=u)
    assert kept.content == "My sister Lena works as a nurse." and kept.active
    assert kept.created_at == old.created_at and kept.metadata["remainder_of"] == old.id
    assert kept.metadata["source"] == "notes"  # the caller's metadata stays with what the memory still says
    derived = engine.store.get_links(u, [kept.id], relations=[Relation.DERIVED_FROM])
    assert [(ln.src, ln.dst) for ln in derived] == [(kept.id, old.id)]
    assert not engine.get(old.id, user_id=u).active
    res = engine.recall("What does Lena do for work?", user_id=u)
    assert kept.id in [m.id for m in res.memories][:2]
    assert old.id not in [m.id for m in res.memories]
    # erasing the old statement erases what was kept of it (it quotes the erased text)
    engine.erase([old.id], user_id=u)
    assert engine.store.get_memories(u, [kept.id]) == []


def test_a_remainder_is_dated_as_its_original_was(engine: MemoryEngine) -> None:
    """A newcomer's case: the part of an undated note that an update left became a memory tagged with the day
    it was first written (its kept `created_at` read as a date the caller gave). A note the caller dated keeps
    its day's facets."""
    from datetime import UTC, datetime

    u = "remainder-dates"
    undated = engine.remember("My sister Lena lives in Porto and works as a nurse.", user_id=u)
    report = engine.remember_report("Actually Lena moved to Lisbon last month.", user_id=u)
    kept = engine.get(report.remainders[0], user_id=u)
    assert kept.created_at == undated.created_at
    assert not [t for t in kept.tags if t.startswith(("date:", "month:"))], kept.tags
    when = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    dated = engine.remember_many([{"content": "My brother Tom lives in Leeds and works as a chef.",
                                   "created_at": when}], user_id=u)[0]
    assert "date:2026-03-02" in dated.tags
    report = engine.remember_report("Actually Tom moved to York last month.", user_id=u)
    kept = engine.get(report.remainders[0], user_id=u)
    assert "date:2026-03-02" in kept.tags and "month:2026-03" in kept.tags


def test_a_correction_keeps_the_untouched_clause_of_a_compound_memory(engine: MemoryEngine) -> None:
    """A newcomer's case: correcting the dates of a holiday made the whole note inactive, and recall no longer
    knew who covers code review meanwhile."""
    u = "clauses"
    old = engine.remember("Maya is on holiday from 3 March to 14 March 2027; Tomasz covers code review.", user_id=u)
    report = engine.remember_report(
        "Actually, Maya's holiday was moved: she is away from 10 March to 21 March 2027.", user_id=u
    )
    assert report.superseded == [old.id] and len(report.remainders) == 1
    kept = engine.get(report.remainders[0], user_id=u)
    assert kept.content == "Tomasz covers code review." and kept.active
    res = engine.recall("who covers code review while Maya is away?", user_id=u)
    assert kept.id in [m.id for m in res.memories]


def test_an_update_keeps_what_it_does_not_change_of_a_note(engine: MemoryEngine) -> None:
    """A newcomer's notes of a team's setup: moving staging to another Postgres version and lifting a Friday ban
    made each whole note inactive, and recall no longer knew the staging host or that deploys go through ArgoCD."""
    u = "setup"
    db = engine.remember("Our backend team uses Postgres 15 on RDS; staging is db-staging.internal.", user_id=u)
    deploys = engine.remember("Deploys go through ArgoCD; never deploy the billing service on Fridays.", user_id=u)
    moved = engine.remember_report("we moved staging to Postgres 16 last week", user_id=u)
    lifted = engine.remember_report("The billing service can be deployed any day now that we have canaries.",
                                    user_id=u)
    assert moved.superseded == [db.id] and lifted.superseded == [deploys.id]
    kept = [engine.get(r.remainders[0], user_id=u).content for r in (moved, lifted)]
    assert kept == ["Staging is db-staging.internal.", "Deploys go through ArgoCD."]
    host = engine.recall("what's the staging database host?", user_id=u, top_k=3)
    assert host.memories and host.memories[0].content == kept[0]
    how = engine.recall("how do we deploy?", user_id=u, top_k=3)
    assert kept[1] in [m.content for m in how.memories]


@pytest.mark.parametrize(
    ("old", "new", "kept"),
    [
        ("- car: Mazda 3, rego XPT-442\n- insurance: NRMA, renews 14 Aug\n- service due: 60,000 km",
         "insurance switched to AAMI, renews 2 Sept now", "- car: Mazda 3, rego XPT-442\n- service due: 60,000 km"),
        ("- gym: Mon/Wed/Fri 7am\n- swim: Sat 9am\n- physio: every other Thurs 4pm",
         "gym moved to tue/thu mornings now, same time", "- swim: Sat 9am\n- physio: every other Thurs 4pm"),
        ("Band practice:\n- venue: the Crown's back room\n- night: Wednesdays from 8",
         "band practice is on thursdays now", "Band practice:\n- venue: the Crown's back room"),
    ],
)
def test_an_update_of_one_item_of_a_list_replaces_that_item_only(
    engine: MemoryEngine, old: str, new: str, kept: str
) -> None:
    """A newcomer's notes as a list: an update of one item left the whole list active and ranked above the update
    (read whole, the other items hid the one that changed); now the item's update supersedes the list, and its
    other items stay, as a list, in a memory of their own."""
    u = f"list-{abs(hash(old)) % 10_000}"
    first = engine.remember(old, user_id=u)
    report = engine.remember_report(new, user_id=u)
    assert report.superseded == [first.id] and len(report.remainders) == 1
    assert engine.get(report.remainders[0], user_id=u).content == kept
    assert sorted(m.content for m in engine.list(user_id=u)) == sorted([new, kept])


def test_an_update_of_another_thing_leaves_the_list_alone(engine: MemoryEngine) -> None:
    u = "list-other"
    first = engine.remember("- gym: Mon/Wed/Fri 7am\n- swim: Sat 9am\n- physio: every other Thurs 4pm", user_id=u)
    for text in ("the climbing wall moved to tuesdays now", "my piano lesson is at 9am on saturdays now"):
        report = engine.remember_report(text, user_id=u)
        assert report.superseded == [] and report.contradicted == []
    assert engine.get(first.id, user_id=u).active
