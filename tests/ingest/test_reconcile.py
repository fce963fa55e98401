"""Reconcile: near-duplicates reinforce, corrections supersede, conflicts contradict; real sentences, real model."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from memgraph import MemoryEngine, MemoryKind, Relation, Settings
from memgraph.ingest.classify import classify
from memgraph.ingest.reconcile import Neighbour, ReconcileAction, ReconcileDecision, RuleReconciler
from memgraph.models import Memory, memory_id_for

S = Settings(store=":memory:")


def _mem(text: str) -> Memory:
    return Memory(id=memory_id_for("u", text), user_id="u", content=text, kind=classify(text).kind)


def _decide(embedder, old: str, new: str) -> ReconcileDecision:  # type: ignore[no-untyped-def]
    """The rules on `new` beside `old` at the model's cosine."""
    va, vb = embedder.encode([old, new])
    return RuleReconciler(S).decide(_mem(new), [Neighbour(_mem(old), float(va @ vb))])


@pytest.mark.parametrize(
    ("old", "new", "action"),
    [
        # near-duplicates
        ("I prefer tabs over spaces", "I prefer tabs over spaces.", ReconcileAction.REINFORCE),
        (
            "User prefers dark mode in the editor",
            "The user prefers dark mode in their editor",
            ReconcileAction.REINFORCE,
        ),
        # corrections and newer statements
        ("My flight is on Monday", "Actually, my flight is on Tuesday", ReconcileAction.SUPERSEDE),
        ("I prefer tabs", "Actually, I prefer spaces", ReconcileAction.SUPERSEDE),
        ("I prefer tabs over spaces", "Actually, I prefer spaces over tabs", ReconcileAction.SUPERSEDE),
        ("I live in Berlin", "I live in Paris now", ReconcileAction.SUPERSEDE),
        ("I like coffee", "I don't like coffee anymore", ReconcileAction.SUPERSEDE),
        (
            "We use PostgreSQL for the main database",
            "We switched the main database to MySQL",
            ReconcileAction.SUPERSEDE,
        ),
        ("I am vegetarian", "I am not vegetarian anymore, I eat fish now", ReconcileAction.SUPERSEDE),
        # conflicts that are not clearly newer
        (
            "The API rate limit is 100 requests per minute",
            "The API rate limit is 1000 requests per minute",
            ReconcileAction.CONTRADICT,
        ),
        ("I like coffee", "I don't like coffee", ReconcileAction.CONTRADICT),
        ("My favorite color is blue", "My favorite color is green", ReconcileAction.CONTRADICT),
        # neither
        ("I went hiking on the weekend", "I went camping on the weekend", ReconcileAction.CREATE),
        (
            "Caroline went to a LGBTQ support group yesterday",
            "Caroline went to the support group with Melanie",
            ReconcileAction.CREATE,
        ),
        (
            "Hey Mel! Good to see you! How have you been?",
            "Hey Caroline! Good to see you! How have you been?",
            ReconcileAction.CREATE,
        ),
        ("My sister's name is Anna", "The deploy runs on Fridays", ReconcileAction.CREATE),
        # the false contradiction: a shared name is not a shared subject
        ("The Atlas launch deadline is Wednesday 12 March.", "Never deploy Atlas on Fridays.", ReconcileAction.CREATE),
        # paraphrases with the same values are duplicates; the same frame with another value is a conflict
        ("The gym closes at 22:00 on weekdays.", "On weekdays the gym shuts at 22:00.", ReconcileAction.REINFORCE),
        ("My mother's birthday is on 14 June.", "Mom's birthday is June 14.", ReconcileAction.REINFORCE),
        ("The gym closes at 22:00 on weekdays.", "The gym closes at 20:00 on weekdays.", ReconcileAction.CONTRADICT),
        ("The staging database runs PostgreSQL 15.", "The staging database runs PostgreSQL 16.",
         ReconcileAction.CONTRADICT),
        ("I'm left-handed.", "I'm right-handed.", ReconcileAction.CONTRADICT),
        ("Lena is my manager.", "Oskar is my manager.", ReconcileAction.CONTRADICT),
        # another subject, another fact, or one more fact: nothing
        ("The gym closes at 22:00.", "The pharmacy closes at 22:00.", ReconcileAction.CREATE),
        ("Ben is vegetarian.", "Anna is vegetarian.", ReconcileAction.CREATE),
        ("The server has 64 GB of RAM.", "The server has 16 CPU cores.", ReconcileAction.CREATE),
        ("I like coffee.", "I also like tea.", ReconcileAction.CREATE),
        ("The gym closes at 22:00 on weekdays.", "On weekends the gym closes at 18:00.", ReconcileAction.CREATE),
        ("I went hiking on Saturday.", "I went swimming on Sunday.", ReconcileAction.CREATE),
        # updates that name the old value, or change a value of the same kind
        ("We use Jenkins for CI.", "We switched CI from Jenkins to GitHub Actions.", ReconcileAction.SUPERSEDE),
        ("The tennis club fee is 40 pounds a month.", "The tennis club fee went up to 45 pounds a month.",
         ReconcileAction.SUPERSEDE),
        ("The car is due for its MOT in May.", "Correction: the MOT is due in June, not May.",
         ReconcileAction.SUPERSEDE),
        # corrections said by owning the mistake or taking it back, not by an opener of a list
        ("The quarterly review is on 12 May.", "My bad, the quarterly review is on 19 May.", ReconcileAction.SUPERSEDE),
        ("The build cache lives in /tmp/cache.", "The build cache is actually in /var/cache, not /tmp/cache.",
         ReconcileAction.SUPERSEDE),
        ("The office wifi password hint is the street name.",
         "I had the wifi hint wrong: the office wifi password hint is the postcode.",
         ReconcileAction.SUPERSEDE),
        # the replaced value is said too ("not 3:15", "instead of 8:00"): the time still changed
        ("The school bus leaves at 7:40.", "The school bus now leaves at 7:50 instead of 7:40.",
         ReconcileAction.SUPERSEDE),
        ("Pickup time is 3:15.", "Pickup is at 3:25, not 3:15.", ReconcileAction.SUPERSEDE),
        # an "oops" that is no correction, beside a statement it does not restate
        ("I drink two coffees a day.", "Oops, I dropped my coffee on the train.", ReconcileAction.CREATE),
    ],
)
def test_rule_reconciler_on_real_sentences(embedder, old: str, new: str, action: ReconcileAction) -> None:  # type: ignore[no-untyped-def]
    va, vb = embedder.encode([old, new])
    decision = RuleReconciler(S).decide(_mem(new), [Neighbour(_mem(old), float(va @ vb))])
    assert decision.action is action, decision
    assert decision.reason and "cosine" in decision.scores


def test_a_turn_said_again_in_other_words_is_another_turn(embedder) -> None:  # type: ignore[no-untyped-def]
    """LoCoMo dev: the paraphrase rule merged 31 turns of 2760 (evidence among them); only a near-identical turn
    repeats one. The same sentences without a speaker are one statement said twice."""
    old = "Thanks, Maria! I appreciate your support, it really means a lot."
    new = "Thanks, Maria. Your support means a lot."
    va, vb = embedder.encode([f"John: {old}", f"John: {new}"])
    turns = RuleReconciler(S).decide(_mem(f"John: {new}"), [Neighbour(_mem(f"John: {old}"), float(va @ vb))])
    assert turns.action is ReconcileAction.CREATE, turns
    va, vb = embedder.encode([old, new])
    plain = RuleReconciler(S).decide(_mem(new), [Neighbour(_mem(old), float(va @ vb))])
    assert plain.action is ReconcileAction.REINFORCE, plain
    same = RuleReconciler(S).decide(_mem("John: Thanks, Maria!"), [Neighbour(_mem("John: Thanks, Maria!!"), 0.99)])
    assert same.action is ReconcileAction.REINFORCE, same


def _active(engine: MemoryEngine, user: str) -> dict[str, Memory]:
    return {m.content: m for m in engine.list(user_id=user)}


def test_correction_supersedes_and_restore_reverses_it(engine: MemoryEngine) -> None:
    engine.ingest("My dentist appointment is on Monday at 3pm.", user_id="ada", session_id="s1")
    old = _active(engine, "ada")["My dentist appointment is on Monday at 3pm."]
    report = engine.ingest("Actually, my dentist appointment is on Tuesday at 3pm.", user_id="ada", session_id="s2")
    assert report.superseded == [old.id]
    new_id = report.created[0]
    d = report.decisions[0]
    assert d.action == "superseded" and d.target_id == old.id and "correction" in d.reason
    assert d.scores["cosine"] > 0.8
    new = engine.get(new_id, user_id="ada")
    assert new.kind is MemoryKind.CORRECTION and new.provenance.value == "user_corrected"
    assert not engine.get(old.id, user_id="ada").active  # kept, inactive
    links = engine.store.get_links("ada", [old.id])
    assert [(ln.src, ln.dst, ln.relation) for ln in links] == [(new_id, old.id, Relation.SUPERSEDES)]
    # recall no longer returns the old fact as active
    hits = engine.search("when is the dentist appointment", user_id="ada")
    assert [h.memory.id for h in hits] == [new_id]
    assert engine.restore(old.id, user_id="ada").active


def test_near_duplicate_reinforces_with_breadcrumb(engine: MemoryEngine) -> None:
    engine.ingest("I prefer dark roast coffee from Ethiopia.", user_id="u", session_id="monday")
    report = engine.ingest("I prefer dark roast coffee from Ethiopia!", user_id="u", session_id="friday")
    assert report.created == [] and len(report.reinforced) == 1
    mem = engine.get(report.reinforced[0], user_id="u")
    assert mem.strength == 2
    crumbs = mem.metadata["reinforcements"]
    assert [c["session_id"] for c in crumbs] == ["friday"] and crumbs[0]["similarity"] >= 0.95
    assert engine.stats(user_id="u").memories == 1


def test_contradiction_flags_both(engine: MemoryEngine) -> None:
    engine.ingest("The API rate limit is 100 requests per minute.", user_id="u", session_id="a")
    report = engine.ingest("The API rate limit is 1000 requests per minute.", user_id="u", session_id="b")
    assert len(report.contradicted) == 1 and len(report.created) == 1
    old = engine.get(report.contradicted[0], user_id="u")
    new = engine.get(report.created[0], user_id="u")
    assert old.active and new.active  # both kept
    assert old.metadata["contradicted_by"] == [new.id] and new.metadata["contradicts"] == [old.id]
    assert engine.stats(user_id="u").edges.get("Contradicts") == 1


@pytest.mark.parametrize(
    ("old", "new", "outcome"),
    [
        ("The team standup happens at 9:00 every weekday.", "The standup moved to 9:30.", "superseded"),
        ("Tom's shoe size is 44.", "Tom's shoe size is 42.", "contradicted"),
        ("I went hiking on Saturday.", "I went swimming on Saturday.", None),  # two episodes: both happened
        # a note's label is no speaker: the statement is no conversation turn (an episode), and it updates
        ("The Sunday match kicks off at 10 am.", "Update: the Sunday match now kicks off at 11 am.", "superseded"),
        # episode words that tell a change ("went up to", "sold ... bought"): an update, not a story
        ("The water bill is £30 a month.", "The water bill went up to £34 a month in May.", "superseded"),
    ],
)
def test_ingested_statements_update_what_they_restate(
    engine: MemoryEngine, old: str, new: str, outcome: str | None
) -> None:
    """Through `ingest` these new texts are classified `event` (no fact rule matches their words); they still
    update the statement before them, where `remember` (kind fact) always did. Episodes accumulate."""
    engine.ingest(old, user_id="u", session_id="s1")
    report = engine.ingest(new, user_id="u", session_id="s2")
    assert outcome is None or not report.dropped  # below the importance floor, an update still replaces
    assert bool(report.superseded) is (outcome == "superseded")
    assert bool(report.contradicted) is (outcome == "contradicted")
    assert (old in _active(engine, "u")) is (outcome != "superseded")


def test_in_batch_reconciliation(engine: MemoryEngine) -> None:
    report = engine.ingest_many(
        [
            {"text": "I live in Berlin.", "session_id": "s1"},
            {"text": "I live in Berlin!", "session_id": "s1"},
            {"text": "I live in Paris now.", "session_id": "s2"},
        ],
        user_id="u",
    )
    assert [d.reason.value for d in report.dropped] == ["duplicate_in_batch"]
    assert len(report.created) == 2 and len(report.superseded) == 1
    active = [m.content for m in engine.list(user_id="u")]
    assert active == ["I live in Paris now."]


class KeepEverything:
    """A user-supplied reconciler (where an LLM would plug in): never merges, always creates."""

    calls = 0

    def decide(self, new: Memory, neighbours: Sequence[Neighbour]) -> ReconcileDecision:
        KeepEverything.calls += 1
        return ReconcileDecision(ReconcileAction.CREATE, None, "custom reconciler keeps everything")


def test_pluggable_reconciler(embedder) -> None:  # type: ignore[no-untyped-def]
    engine = MemoryEngine.open(":memory:", embedder=embedder, reconciler=KeepEverything(), min_importance_stored=0.0)
    engine.ingest("I prefer tabs over spaces.", user_id="u", session_id="a")
    report = engine.ingest("I prefer tabs over spaces!", user_id="u", session_id="b")
    assert KeepEverything.calls == 1
    assert report.decisions[0].reason == "custom reconciler keeps everything"
    assert engine.stats(user_id="u").memories == 2
    engine.close()


def _precision_recall(rows: list[tuple[str, str]], name: str) -> tuple[float, float]:
    decided = [label for label, got in rows if got == name]
    labelled = [got for label, got in rows if label == name]
    right = sum(1 for label, got in rows if label == got == name)
    return right / max(1, len(decided)), right / max(1, len(labelled))


@pytest.mark.parametrize("split", ["dev", "heldout"])
def test_labelled_pairs_meet_the_precision_goals(embedder, split: str) -> None:  # type: ignore[no-untyped-def]
    """The hand-labelled pairs of tests/data/decisions (bench/decisions.py runs them through the engine): every
    decision precise (duplicate >= 0.97, supersede and contradict >= 0.9) and not silent (recall >= 0.6)."""
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "data" / "decisions" / f"pairs_{split}.jsonl"
    pairs = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    vecs = embedder.encode([t for p in pairs for t in (p["old"], p["new"])])
    names = {ReconcileAction.REINFORCE: "duplicate", ReconcileAction.SUPERSEDE: "supersedes",
             ReconcileAction.CONTRADICT: "contradicts", ReconcileAction.CREATE: "none"}
    rows = []
    for i, p in enumerate(pairs):
        old, new = Memory(id="m_old", user_id="u", content=p["old"]), Memory(id="m_new", user_id="u", content=p["new"])
        got = RuleReconciler(S).decide(new, [Neighbour(old, float(vecs[2 * i] @ vecs[2 * i + 1]))])
        label = p["label"] if p["label"] in ("duplicate", "supersedes", "contradicts") else "none"
        rows.append((label, names[got.action]))
    for name, goal in (("duplicate", 0.97), ("supersedes", 0.9), ("contradicts", 0.9)):
        precision, recall = _precision_recall(rows, name)
        assert precision >= goal and recall >= 0.6, (name, precision, recall)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a value said in words, a verb or noun reworded around it (held-out pairs 4 and 5)
        ("Backups are kept for 30 days.", "Backups have a thirty-day retention."),
        ("The kiln is kept at 1,200 degrees.", "The kiln runs at twelve hundred degrees."),
        # "next" said on one side only names no other one of several
        ("The car's next service is due in May.", "The car is due its service in May."),
    ],
)
def test_a_paraphrase_anchored_by_its_values_repeats(embedder, old: str, new: str) -> None:  # type: ignore[no-untyped-def]
    """The same typed values about the same subject, a word or two reworded: a duplicate below the paraphrase
    bar (`dedup_values_cosine`), which read "kept" / "runs" as a swapped word."""
    decision = _decide(embedder, old, new)
    assert decision.action is ReconcileAction.REINFORCE, decision


@pytest.mark.parametrize(
    ("old", "new", "repeats"),
    [
        ("A quarter of the grant goes on travel.", "25% of the grant goes on travel.", True),
        ("A quarter of the grant goes on travel.", "A third of the grant goes on travel.", False),
        ("The pharmacy is open 10 till 4 on Saturdays.", "On Saturdays the pharmacy is open 10:00-16:00.", True),
        ("The pharmacy is open 10 till 4 on Saturdays.", "On Saturdays the pharmacy is open 10:00-17:00.", False),
        ("Refunds take ten working days.", "Refunds take two working weeks.", True),
        ("Refunds take ten working days.", "Refunds take three working weeks.", False),
        ("The ferry ticket is 14 euros 80.", "The ferry ticket is €14.80.", True),
        ("Parking costs £2.50 an hour.", "Parking costs two pounds an hour.", False),
        ("The bike weighs 9.5 kg.", "The bike weighs 9,500 grams.", True),
    ],
)
def test_an_amount_said_in_other_words_repeats_and_another_amount_does_not(  # type: ignore[no-untyped-def]
    embedder, old: str, new: str, repeats: bool
) -> None:
    """A share, opening hours, working weeks, money or a weight said in other words or units is the same value (a
    duplicate), a near miss another (never a duplicate)."""
    decision = _decide(embedder, old, new)
    assert (decision.action is ReconcileAction.REINFORCE) is repeats, decision


def test_the_same_values_on_another_subject_do_not_repeat(embedder) -> None:  # type: ignore[no-untyped-def]
    old, new = "The gym closes at 22:00 on weekdays.", "The pharmacy closes at 22:00 on weekdays."
    decision = _decide(embedder, old, new)
    assert decision.action is ReconcileAction.CREATE, decision


def test_a_negation_before_a_condition_states_a_requirement() -> None:
    """"Nothing ships until two reviewers have approved" says what a release needs, as "needs two approving
    reviews" does: not a negation of it (held-out pairs 5 read such a duplicate as a contradiction)."""
    old = "A release needs two approving reviews before it ships."
    new = "Nothing ships until two reviewers have approved the release."
    decision = RuleReconciler(S).decide(_mem(new), [Neighbour(_mem(old), 0.8)])
    assert decision.action is not ReconcileAction.CONTRADICT, decision
    from memgraph.ingest.statement import statement

    assert not statement("We don't open before 10.").negated
    assert statement("We don't open on Sundays.").negated


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Night shifts on the ward start at 19:30.", "Correction: the school concert starts at 19:30."),
        ("Evening classes in the hall start at 18:00.", "Correction: the football match starts at 18:00."),
    ],
)
def test_a_correction_of_another_subject_supersedes_nothing(old: str, new: str) -> None:
    """A correction cue, the same verb and the same time are not enough: what it corrects must be what the old
    statement is about."""
    decision = RuleReconciler(S).decide(_mem(new), [Neighbour(_mem(old), 0.45)])
    assert decision.action is ReconcileAction.CREATE, decision


@pytest.mark.parametrize(
    ("old", "new", "action"),
    [
        # one value changed, the frame reworded by a synonym on each side, no newer cue
        ("The spring term starts on 8 January.", "The spring term begins on 15 January.", ReconcileAction.CONTRADICT),
        # a hedge ("about", "roughly") is no frame word; a duration in words is a duration
        ("The ferry crossing takes about 90 minutes.", "The ferry crossing takes roughly two hours.",
         ReconcileAction.CONTRADICT),
        # how often, said in words
        ("The boiler is serviced yearly.", "The boiler is serviced every six months.", ReconcileAction.CONTRADICT),
        # one end of an interval for the other, a changed scope with the value, a scope word added: other slots
        ("The exams start on 12 June.", "The exams finish on 19 June.", ReconcileAction.CREATE),
        ("The library opens at 9:00 on weekdays.", "At weekends the library opens at 10:00.", ReconcileAction.CREATE),
        ("The tyre pressure at the front is 2.4 bar.", "The rear tyre pressure is 2.2 bar.", ReconcileAction.CREATE),
        # corrections said as forms: the wrong value given, what was said taken back
        ("The gas meter is read at 8 am.", "I gave the wrong meter time earlier; it's read at 9 am.",
         ReconcileAction.SUPERSEDE),
        ("Book club meets on the second Tuesday of the month.",
         "Scrap what I said about book club; it meets on the last Tuesday of the month.", ReconcileAction.SUPERSEDE),
        # updates said as forms: a fronted clause that dates or explains, a past verb bringing a value to another
        ("The water bill is £40 a month.", "After the meter was fitted, the water bill is £28 a month.",
         ReconcileAction.SUPERSEDE),
        ("The car tax is £180 a year.", "The council cut my car tax to £150 a year.", ReconcileAction.SUPERSEDE),
        # the clause that negates, read alone: the clause added after it is another statement
        ("Our office has a staff canteen.",
         "Our office has never had a staff canteen; everyone brings lunch from home.", ReconcileAction.CONTRADICT),
        # a number after its noun takes the unit the other statement says
        ("The minibus seats twelve.", "There are only nine seats in the minibus.", ReconcileAction.CONTRADICT),
    ],
)
def test_decisions_on_new_phrasing(embedder, old: str, new: str, action: ReconcileAction) -> None:  # type: ignore[no-untyped-def]
    """Forms, not phrases: held-out pairs 4 and 5 were silent on phrasing the rules had not been written from.
    Each sentence here is new (none is from a labelled part)."""
    decision = _decide(embedder, old, new)
    assert decision.action is action, decision


def test_an_ordinal_changes_only_for_the_same_thing() -> None:
    """"the first Sunday" / "the last Sunday" name another one; "last week" / "my first time" do not (two LoCoMo
    dev turns of chat were read as a changed value)."""
    from memgraph.ingest.reconcile import compare

    assert "ordinal" in compare("Book club is on the last Sunday.", "Book club is on the first Sunday.", 0.9).changed
    assert "ordinal" not in compare(
        "Nope, but it's my first time going.", "Last week I talked to a friend about it.", 0.6
    ).changed


@pytest.mark.parametrize(
    ("old", "new", "action"),
    [
        # a correction announced by a clause before a colon, in words no form lists
        ("The boiler warranty lasts 5 years.", "Erratum: the boiler warranty lasts 7 years.",
         ReconcileAction.SUPERSEDE),
        ("The quiz night is on the first Friday of the month.",
         "I need to fix something I said: the quiz night is on the first Thursday of the month.",
         ReconcileAction.SUPERSEDE),
        ("Parking permits cost £30.", "To set the record straight: parking permits cost £45.",
         ReconcileAction.SUPERSEDE),
        # a correction that says more than the fixed value: the clause that fixes it, read alone
        ("The treasurer is Anil Shah.",
         "I mixed things up: the treasurer is Rosa Diaz, and Anil Shah is the secretary.", ReconcileAction.SUPERSEDE),
        ("The Tuesday class is taught by Ben.",
         "No, sorry, Ben teaches on Thursdays; the Tuesday class is taught by Mia.", ReconcileAction.SUPERSEDE),
        # equal durations and frequencies said in other units
        ("The trial period lasts eight weeks.", "The trial period lasts 2 months.", ReconcileAction.REINFORCE),
        ("The filters are changed every six months.", "The filters are changed twice a year.",
         ReconcileAction.REINFORCE),
        ("The gauges are read every three hours.", "The gauges are read at three-hourly intervals.",
         ReconcileAction.REINFORCE),
        ("Refunds are accepted within 28 days.", "Refunds are accepted within 30 days.", ReconcileAction.CONTRADICT),
        # a duration's unit word is notation, not a frame word ("four days" / "a two-day time estimate")
        ("The Hartley hearing is listed for four days.", "The Hartley hearing has a two-day time estimate.",
         ReconcileAction.CONTRADICT),
        # a state and its opposite: never the same statement
        ("Printer 3 is out of order.", "Printer 3 is back in service.", ReconcileAction.SUPERSEDE),
        ("The lift in Block C is out of order.", "The lift in Block C is working.", ReconcileAction.CONTRADICT),
        # a weekday's night is its evening
        ("Choir practice is on Monday evenings.", "Choir practice is on Monday nights.", ReconcileAction.REINFORCE),
        # a change told as an event that brings the same attribute to a new value
        ("Our community choir's subscription is £25 a term.",
         "At the AGM the members voted to raise the subscription to £30.", ReconcileAction.SUPERSEDE),
        # a present passive tells a state, not a change
        ("The hot tub is kept at 38°C.", "The hot tub is heated to 40°C.", ReconcileAction.CONTRADICT),
        # a slash date takes the reading the other statement says
        ("The lease on the shop expires on 9 November 2029.", "The shop lease runs out on 9/11/2029.",
         ReconcileAction.REINFORCE),
        # a value counted in a unit noun both say pins the attribute: a reworded frame still conflicts
        ("Each cleaner cleans 12 flats a shift.", "A cleaner's quota is 15 flats per shift.",
         ReconcileAction.CONTRADICT),
        ("The ferry carries 40 cars.", "The ferry has deck space for 55 cars.", ReconcileAction.CONTRADICT),
        # exclusive categories (states.py): one way of doing a thing against another
        ("Invoices are sent to clients by email.", "We send client invoices by post only.", ReconcileAction.CONTRADICT),
        ("Planning objections must be submitted electronically.",
         "Planning objections have to be handed in as hard copies.", ReconcileAction.CONTRADICT),
        ("The gala dinner is black tie.", "The dress code for the gala dinner is smart casual.",
         ReconcileAction.CONTRADICT),
        ("The clinic takes walk-ins on Saturdays.", "The Saturday clinic is by appointment only.",
         ReconcileAction.CONTRADICT),
        ("The van runs on diesel.", "The van is fully electric.", ReconcileAction.CONTRADICT),
        # ... which keeps a category swapped under the same values from reading as a repeat; the values-anchored
        # paraphrase bar then stands lower (dedup_values_cosine 0.70)
        ("The tenant in Flat 4 pays rent by standing order.", "The Flat 4 tenant always pays the rent in cash.",
         ReconcileAction.CONTRADICT),
        ("Pick-up for the Otters class is at 3:30 pm.", "The Otters are collected at half past three in the afternoon.",
         ReconcileAction.REINFORCE),
        ("The shuttle to the airport leaves at 6:40 am.",
         "The airport shuttle sets off at twenty to seven in the morning.", ReconcileAction.REINFORCE),
        ("Lambs are weaned at twelve weeks.", "We wean the lambs when they're 3 months old.",
         ReconcileAction.REINFORCE),
        # an abbreviation after a value is its unit, not a name the other statement leaves out
        ("The house red is 13.5% ABV.", "Our house red comes in at thirteen point five percent.",
         ReconcileAction.REINFORCE),
        # a handover told in one text: the old holder leaves, another takes the role; a leaving alone is a story
        ("Priya Nair is handling the Dunmore account.",
         "Priya Nair resigned last month; Tom Reyes has the Dunmore account.", ReconcileAction.SUPERSEDE),
        ("Ravi is playing Hamlet.", "Ravi has had to drop out, and Connor is stepping in as Hamlet.",
         ReconcileAction.SUPERSEDE),
        ("Ravi is playing Hamlet.", "Ravi left the rehearsal early, and we went to the pub.", ReconcileAction.CREATE),
    ],
)
def test_decisions_on_held_out_6s_forms(embedder, old: str, new: str, action: ReconcileAction) -> None:  # type: ignore[no-untyped-def]
    """The general forms behind held-out pairs 6's errors (bench/RESULTS.md, "Write-path decisions, held-out 6's
    causes"), each on sentences of its own: none is from a labelled part."""
    decision = _decide(embedder, old, new)
    assert decision.action is action, decision


def test_a_heading_that_announces_a_correction() -> None:
    """Any short clause before a colon with a word of the correct / fix / amend / mistake / wrong family opens a
    correction; a procedure's purpose or a note about something else does not."""
    from memgraph.ingest.signals import has_correction

    for text in ("Erratum: the deposit is £200.", "I got my wires crossed: Sam has the keys.",
                 "Please amend the minutes: the vote was 7 to 2.", "To set the record straight: it was Leo."):
        assert has_correction(text), text
    for text in ("To fix a flat tyre: take the wheel off, then patch the tube.", "Quick fix for the build: pin numpy.",
                 "Note: the wrong key is in the drawer.", "Caroline: I fixed my bike yesterday."):
        assert not has_correction(text), text
    # the family word opening a compound label names a field ("Error budget: 99.9% monthly" in a team's notes);
    # a word that points at the slip keeps the announcement
    for text in ("Error budget: 99.5% a quarter", "- Error rate: 0.2% on Mondays", "Error code: E17 is a jammed door"):
        assert not has_correction(text), text
    for text in ("Mistake earlier: the gate code is 4417.", "Correction below: it is 12 chairs.",
                 "Error in my last note: the hall is booked until 6."):
        assert has_correction(text), text


@pytest.mark.parametrize(
    ("old", "new", "action"),
    [
        # a verb of measure is no other frame: the value's unit says what is measured
        ("The museum's annual pass is £40.", "The museum's annual pass costs £55.", ReconcileAction.CONTRADICT),
        ("The coastal trail is 14 kilometres long.", "The coastal trail comes to 11 kilometres.",
         ReconcileAction.CONTRADICT),
        ("The cold room is held at 5 °C.", "The cold room's set point is 3 °C.", ReconcileAction.CONTRADICT),
        # ... but a quantity counted on one side only is a scope, not a changed value
        ("A whole wheel of cheddar is £30.", "Half wheels of cheddar are £16.", ReconcileAction.CREATE),
        # free against a price
        ("Parking at the clinic is free for patients.", "Patients' parking at the clinic costs £3.",
         ReconcileAction.CONTRADICT),
        ("Entry to the walled garden costs £4.", "The trust scrapped the entry charge, so the walled garden is free.",
         ReconcileAction.SUPERSEDE),
        ("Entry to the gallery is free for members.", "Guests pay £5 at the gallery door.", ReconcileAction.CREATE),
        # a participle against its un- negation, of one subject
        ("Patients on the stroke ward must be supervised at meal times.",
         "Patients on the stroke ward can eat unsupervised.", ReconcileAction.CONTRADICT),
        ("Children on the front lawn must be supervised.", "Children on the back lawn can play unsupervised.",
         ReconcileAction.CREATE),
        # exclusive categories written with a hyphen, and storeys
        ("The fish stall at the market is cash-only.", "The market's fish stall takes card only.",
         ReconcileAction.CONTRADICT),
        ("The waiting room is on the ground floor.", "The waiting room is upstairs, on the first floor.",
         ReconcileAction.CONTRADICT),
        # changes told by an event, a shift, a handover
        ("The yoga class is on Tuesday evenings.", "We've shifted the yoga class to Thursday evenings.",
         ReconcileAction.SUPERSEDE),
        ("The product launch is planned for week 3.", "The product launch has been pushed to week 5.",
         ReconcileAction.SUPERSEDE),
        ("Our goalkeeper is Samir.", "Samir left the squad in March and Priya has taken over in goal.",
         ReconcileAction.SUPERSEDE),
        ("The mural is being painted by Ruth Okafor.",
         "Ruth Okafor had to drop out, so Dev Malhotra is painting the mural.", ReconcileAction.SUPERSEDE),
        ("The skipper of the Osprey is Malcolm Reid.", "Malcolm has handed the Osprey over to his niece Fiona.",
         ReconcileAction.SUPERSEDE),
        ("The east car park is closed for resurfacing.", "The east car park reopened on Monday after the resurfacing.",
         ReconcileAction.SUPERSEDE),
        ("Our build server is in Dublin.", "We migrated the build server over to Stockholm for cheaper power.",
         ReconcileAction.SUPERSEDE),
        ("My home depot is Derby.", "I transferred to the Crewe depot in January.",
         ReconcileAction.SUPERSEDE),
        ("My cousin Amir lives in Derby.", "Amir's flatmate moved to Crewe.", ReconcileAction.CREATE),
        # corrections said in other words
        ("The dentist appointment is at 10:15.", "Mea culpa, the dentist appointment is at 11:15.",
         ReconcileAction.SUPERSEDE),
        ("We harvest the apples in September.", "On a second look at the calendar, we harvest the apples in October.",
         ReconcileAction.SUPERSEDE),
        ("The boiler is serviced every twelve months.",
         "Disregard the twelve-month figure for the boiler; the warranty says every six months.",
         ReconcileAction.SUPERSEDE),
    ],
)
def test_decisions_on_held_out_7s_forms(embedder, old: str, new: str, action: ReconcileAction) -> None:  # type: ignore[no-untyped-def]
    """The general forms behind held-out pairs 7's errors (bench/RESULTS.md, "Write-path decisions, held-out 7's
    causes"), each on sentences of its own: none is from a labelled part."""
    decision = _decide(embedder, old, new)
    assert decision.action is action, decision


def test_a_change_verb_used_as_a_noun_is_no_update_cue() -> None:
    """"The core switch is a 24-port Cisco." changes nothing; "We switched the core switch" does."""
    from memgraph.ingest.signals import has_update_cue

    for text in ("The core switch is a 24-port Cisco.", "The biggest change was the new logo.",
                 "The night shift starts at 7.", "I talked to him 3 times."):
        assert not has_update_cue(text), text
    for text in ("We switched the core switch to a Cisco.", "The launch has been pushed to week 5.",
                 "We've shifted the class to Fridays.", "The car park reopened today."):
        assert has_update_cue(text), text


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a swapped object of a predicate that holds many values is another value
        ("I speak English.", "I speak French."),
        ("I want to visit Hawaii.", "I want to visit Ireland."),
        ("I enjoy painting landscapes.", "I enjoy baking bread."),
        ("I used to read Black Stallion.", "I used to read Michener."),
        ("I've been to Athens.", "I've been to Lisbon."),
        # a copula's description of a person is one of the classes the person is in
        ("I am vegan.", "I am Catholic."),
        ("I am a technician.", "I am a woman."),
        ("My mom was a hippie.", "My mom was a music teacher."),
        ("I am young.", "I am short."),
        # a negation of another verb or another subject denies nothing the other says
        ("I like dogs.", "I do not have any dogs."),
        ("I want a job.", "I don't have a job."),
        ("I am in a band.", "Luis is not in my band."),
        ("I like music.", "I don't like country music."),
        # two denials
        ("I've never been to Paris.", "I've never been to Milan."),
        ("We don't deliver on Sundays.", "We don't deliver on Mondays."),
        # another verb or preposition is another slot
        ("I live in Virginia.", "I used to live in Pennsylvania."),
        ("I am from Michigan.", "I am in Japan right now."),
        ("I am single.", "I am a waiter."),
        # a count and the members' values
        ("I have two sons.", "My sons are five and eight."),
        # the values of two members of several
        ("One of my children is 8.", "My other child is 9."),
    ],
)
def test_one_persons_self_descriptions_accumulate(embedder, old: str, new: str) -> None:  # type: ignore[no-untyped-def]
    """One person's ordinary self-descriptions are consistent facts (issue 15 item 6; Multi-Session Chat personas:
    bench/msc_false_positives.py): none supersedes or contradicts another, in either order."""
    for a, b in ((old, new), (new, old)):
        decision = _decide(embedder, a, b)
        assert decision.action in (ReconcileAction.CREATE, ReconcileAction.REINFORCE), decision


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I like coffee.", "I don't like coffee."),
        ("I speak French.", "I don't speak French."),
        ("I'm left-handed.", "I'm right-handed."),
        ("Lena is my manager.", "Oskar is my manager."),
        ("I am in Porto this week.", "I am in Valencia this week."),
        ("My favorite color is blue.", "My favorite color is green."),
        ("I am 34 years old.", "I am 43 years old."),
        ("My eldest son is 12.", "My eldest son is 14."),
    ],
)
def test_a_single_valued_slot_still_conflicts(embedder, old: str, new: str) -> None:  # type: ignore[no-untyped-def]
    """What accumulates is a second value of a many-valued predicate; a denial of the same predicate, opposites,
    an identity, a place and a thing's one attribute still conflict."""
    decision = _decide(embedder, old, new)
    assert decision.action is ReconcileAction.CONTRADICT, decision


@pytest.mark.parametrize(
    ("old", "new", "action"),
    [
        # the speaker's own account of the slip before a colon, in words no correction list has
        ("The allotment gate code is 4821.", "I copied it off the old sign: the allotment gate code is 5821.",
         ReconcileAction.SUPERSEDE),
        ("Bramble's vet appointment is on Monday.",
         "I had the days muddled: Bramble's vet appointment is on Wednesday.", ReconcileAction.SUPERSEDE),
        ("Our team standup is at 9:15.", "Let me take that back: our team standup is at 9:45.",
         ReconcileAction.SUPERSEDE),
        ("The library closes at 6 pm on Thursdays.",
         "I was looking at last year's leaflet: the library closes at 8 pm on Thursdays.", ReconcileAction.SUPERSEDE),
        # a second look said by its verb, and what the speaker said said to be wrong
        ("The sprint review is on the 12th.", "Having double-checked the calendar, the sprint review is on the 19th.",
         ReconcileAction.SUPERSEDE),
        ("The hotel checkout time is 10 am.", "I rechecked the booking and the hotel checkout time is 11 am.",
         ReconcileAction.SUPERSEDE),
        ("The deposit for the village hall is £150.",
         "Sorry, the figure I gave you was wrong; the deposit for the village hall is £200.",
         ReconcileAction.SUPERSEDE),
        # an account of what the speaker did that revises nothing
        ("The park opens at 7 am.", "I went for a run this morning: the park was empty.", ReconcileAction.CREATE),
        # a handover: the holder has gone somewhere, or left, and someone else holds the role
        ("The treasurer of the allotment society is Dana Reid.",
         "Dana Reid has stepped down; Tom Hale is treasurer of the allotment society.", ReconcileAction.SUPERSEDE),
        ("Marta runs the Saturday bread stall.",
         "Marta's gone to the Leeds bakery, so Joe has taken over the Saturday bread stall.",
         ReconcileAction.SUPERSEDE),
        ("Marta runs the Saturday bread stall.", "Marta's gone to the market for more flour.", ReconcileAction.CREATE),
        # a bound said in other words on each side; a bound against a plain value is another attribute
        ("Checked bags may weigh at most 23 kg.", "The maximum weight for a checked bag is 32 kg.",
         ReconcileAction.CONTRADICT),
        ("Hand luggage weighs 7 kg.", "The maximum weight for hand luggage is 10 kg.", ReconcileAction.CREATE),
        # a change verb and its value with a hyphenated word between them
        ("Off-peak tickets cost £12.", "We've put off-peak tickets up to £14.", ReconcileAction.SUPERSEDE),
        # a noun of a verb and its particle: the particle tells two slots apart, the same noun still conflicts
        ("Check-in at the Harbour Hotel is from 3 pm.", "Check-out at the Harbour Hotel is by 11 am.",
         ReconcileAction.CREATE),
        ("Check-out at the Harbour Hotel is by 11 am.", "Check-out at the Harbour Hotel is by 10 am.",
         ReconcileAction.CONTRADICT),
        # one grants what the other forbids, the ban covering every case or the rest of the rule the same
        ("Visitors may bring picnics into the walled garden.", "Food and drink aren't allowed anywhere in the gardens.",
         ReconcileAction.CONTRADICT),
        ("Students can use calculators in the physics exam.", "Calculators aren't allowed in any exam.",
         ReconcileAction.CONTRADICT),
        ("Trainee pharmacists can't check prescriptions alone.",
         "Trainee pharmacists are allowed to check prescriptions on the late shift.", ReconcileAction.CONTRADICT),
        ("Guests may smoke on the balcony.", "Smoking is banned everywhere in the hotel, even on the balconies.",
         ReconcileAction.CONTRADICT),
        # another place of the same subject, a person's own abilities, another part of a place: no conflict
        ("Dogs are allowed in the pub garden.", "Dogs aren't allowed in the restaurant.", ReconcileAction.CREATE),
        ("I can swim two lengths.", "I can't ride a bike.", ReconcileAction.CREATE),
        ("Children may use the paddling pool.", "Children aren't allowed in the deep end of the main pool.",
         ReconcileAction.CREATE),
    ],
)
def test_decisions_on_held_out_11s_forms(embedder, old: str, new: str, action: ReconcileAction) -> None:  # type: ignore[no-untyped-def]
    """The general forms behind held-out pairs 11's errors (bench/RESULTS.md, "Write-path decisions, held-out 11's
    causes"), each on sentences of its own: none is from a labelled part."""
    decision = _decide(embedder, old, new)
    assert decision.action is action, decision


def test_a_range_after_a_participle_is_no_update_cue() -> None:
    """"aged 5 to 7" bounds a value; "lowered from 16 to 14" changes one."""
    from memgraph.ingest.signals import has_update_cue

    for text in ("The youth choir is for singers aged 10 to 14.", "Our kayaks are rated 2 to 3 on the river scale."):
        assert not has_update_cue(text), text
    for text in ("The age limit was lowered from 16 to 14.", "The club raised the fee to £40."):
        assert has_update_cue(text), text


@pytest.mark.parametrize(
    ("old", "new", "action"),
    [
        # an identifier-like code in the same slot changed, as a number would (region, version, bay, model, firmware)
        ("Heron runs on Kubernetes in the eu-west-1 cluster.", "Heron runs in the us-east-2 cluster.",
         ReconcileAction.CONTRADICT),
        ("The API gateway is deployed in eu-west-1.", "The API gateway is deployed in ap-south-1.",
         ReconcileAction.CONTRADICT),
        ("The mobile app is on version v4.2.", "The mobile app is on version v5.0.", ReconcileAction.CONTRADICT),
        ("Backups are stored in eu-west-1.", "Backups are stored in us-west-1.", ReconcileAction.CONTRADICT),
        # near-misses: both codes held, a code naming the thing, another thing of the subject, another slot
        ("Heron runs on Kubernetes in the eu-west-1 cluster.", "Heron runs in eu-west-1 and us-east-2.",
         ReconcileAction.CREATE),
        ("Flight BA117 leaves at 9:40.", "Flight BA119 leaves at 9:40.", ReconcileAction.CREATE),
        ("Heron runs in eu-west-1.", "Heron runs a replica in us-east-2.", ReconcileAction.CREATE),
        ("Heron's primary region is eu-west-1.", "Heron's backup region is us-east-2.", ReconcileAction.CREATE),
        # an exclusive "only" against a list with more members (games, bakery, clinic, pool, ferry)
        ("Hollowmere will ship with English and French voice acting.", "Hollowmere's voice acting is English only.",
         ReconcileAction.CONTRADICT),
        ("The bakery sells sourdough and rye.", "The bakery sells sourdough only.", ReconcileAction.CONTRADICT),
        ("The clinic takes cash and card.", "The clinic only takes card.", ReconcileAction.CONTRADICT),
        ("The swimming pool is open to members and their guests.", "The swimming pool is for members only.",
         ReconcileAction.CONTRADICT),
        ("The ferry runs on Saturdays and Sundays.", "The ferry runs only on Sundays.", ReconcileAction.CONTRADICT),
        # near-misses: a scope of its own, another subject, a narrower subject, a count
        ("The bakery sells sourdough and rye.", "The bakery sells rye only on Saturdays.", ReconcileAction.CREATE),
        ("I speak English and French.", "My daughter speaks English only.", ReconcileAction.CREATE),
        ("The café takes cash and card.", "The café takes card only for orders over £5.", ReconcileAction.CREATE),
        ("Our vans run on diesel and electric.", "Only our city vans run on electric.", ReconcileAction.CREATE),
        ("The allotment committee meets in spring and autumn.", "The allotment committee meets only once a year.",
         ReconcileAction.CREATE),
        # a shared place is not the thing granted; a shared thing still is
        ("Players may eat inside the rooms.", "No phones are allowed inside the rooms.", ReconcileAction.CREATE),
        ("Guests may smoke on the balcony.", "No dogs are allowed on the balcony.", ReconcileAction.CREATE),
        ("Children may swim in the lake.", "No boats are allowed on the lake.", ReconcileAction.CREATE),
        ("Visitors can bring food into the gallery.", "No food or drink is permitted in the gallery.",
         ReconcileAction.CONTRADICT),
        ("Guests may smoke on the balcony.", "Smoking is not allowed on the balcony.", ReconcileAction.CONTRADICT),
    ],
)
def test_decisions_on_codes_and_an_exclusive_only(embedder, old: str, new: str, action: ReconcileAction) -> None:  # type: ignore[no-untyped-def]
    """Codes in one slot, an exclusive "only" against a list, a place shared by a grant and a ban (bench/RESULTS.md,
    "Write-path decisions, codes and exclusive 'only'"): sentences of my own, none from a labelled part."""
    decision = _decide(embedder, old, new)
    assert decision.action is action, decision


@pytest.mark.parametrize(
    ("old", "new", "action"),
    [
        # "now" with a changed region ("us" is a stop word: the frames differed by "eu" alone)
        ("Backups are stored in eu-west-1.", "Backups are now stored in us-west-1.", ReconcileAction.SUPERSEDE),
        # a change verb and a colon: no slot word beside both codes, the old subject said again
        ("The alarm panel's engineer code is zeta4410.",
         "Quick note, we've reset the alarm panel's engineer code: it's orion7702 from today.",
         ReconcileAction.SUPERSEDE),
        # another network's password
        ("The guest network password is sunflower88.", "From Monday the staff network password will be tulip42.",
         ReconcileAction.CREATE),
    ],
)
def test_an_update_of_a_code_supersedes(embedder, old: str, new: str, action: ReconcileAction) -> None:  # type: ignore[no-untyped-def]
    """An update that gives another code for the same attribute replaces the old one."""
    decision = _decide(embedder, old, new)
    assert decision.action is action, decision


_C, _N = ReconcileAction.CONTRADICT, ReconcileAction.CREATE


@pytest.mark.parametrize(
    ("old", "new", "action"),
    [
        # opening hours in other words: "open until" is the closing time, "don't open until" the opening time, "we"
        # the place the other statement names
        ("The bike shop closes at 5:30 pm on Thursdays.", "We're open until 7 pm on Thursdays.", _C),
        ("The library opens at 9 am on Sundays.", "On Sundays we don't open until 11.", _C),
        ("The dental surgery is closed on Fridays.", "We're open on Fridays from 9 till 12.", _C),
        ("The bistro is open on Tuesdays.", "We're shut all day Tuesday.", _C),
        ("The bike shop closes at 5:30 pm on Thursdays.", "We're open until 7 pm on Fridays.", _N),  # another day
        ("The gym closes at 10 pm on Fridays.", "The pool closes at 8 pm on Fridays.", _N),  # another place
        # a value denied after the value given in its place
        ("The tortoise is fed lettuce.", "The tortoise gets dandelions and kale, never lettuce.", _C),
        ("The whisky is aged in sherry casks.", "The whisky is aged in bourbon barrels, with no sherry.", _C),
        ("The tortoise is fed lettuce.", "The rabbit gets carrots, never lettuce.", _N),  # another animal
        ("Our chef cooks with butter.", "Our chef cooks with olive oil, never with lard.", _N),  # another thing denied
        # a denial that says nothing more denies every case of the statement with a word or a value more
        ("Staff travel costs are refunded up to £50 a trip.", "We don't refund staff travel costs.", _C),
        ("Annual passes come with a 15% discount.", "There's no discount on annual passes.", _C),
        ("I want a new car.", "I don't have a car.", _N),  # another verb: another slot
        ("My brothers play rugby for the county.", "I don't play rugby.", _N),  # two people
        ("I gave up coffee last spring.", "I don't drink coffee.", _N),  # a stop, not a statement of now
        ("I'm not living with my parents.", "My parents live in Leeds.", _N),
        ("The choir rehearses in the church hall on Tuesdays.", "The choir doesn't rehearse on Sundays.", _N),
        # a negated clause whose pronoun stands for what the other clause names
        ("The invoices are checked by the finance team.",
         "The auditors check the invoices; the finance team never sees them.", _C),
        ("The invoices are checked by the finance team.",
         "The auditors sign the invoices; the finance team never loses them.", _N),  # "checked" not said again
        # "single" / "double" of one thing
        ("The lane past the farm is single carriageway.", "The lane past the farm is double carriageway.", _C),
        ("Room 4 has a double bed.", "Room 4 has a single bed and a cot.", _C),
        ("The lane past the farm is single carriageway.", "The quarry road is double carriageway.", _N),  # another road
        # known false contradictions: a verb that offers many, and "not only" (an addition, no negation)
        ("The bike shop stocks the Shimano R7000 groupset.", "The bike shop stocks the Shimano R7100 groupset.", _N),
        ("The garden centre sells Bosch mowers.", "The garden centre sells Honda mowers.", _N),
        ("The supply depot is in Leeds.", "The supply depot is in York.", _C),  # "supply" names the depot
        ("The course is taught in Spanish.", "The course is not only taught in Spanish.", _N),
        ("The workshop is run in English.", "The workshop is not just run in English.", _N),
        ("The workshop is run in English.", "The workshop is not run in English.", _C),
        # one favourite of a kind, said before or after its value
        ("My favourite composer is Bach.", "Chopin is my favourite composer.", _C),
        ("Her favourite sport is tennis.", "Her favourite sports are squash and badminton.", _C),
        ("My favourite composer is Bach.", "One of my favourite composers is Chopin.", _N),  # one of several
        ("My favourite composer is Bach.", "My sister's favourite composer is Chopin.", _N),  # another person
        ("My favourite composer is Bach.", "My favourite painter is Turner.", _N),  # another kind
        ("My favourite football player is Kane.", "My favourite football team is Spurs.", _N),  # another kind
        # a bound said in other words ("capped at" is "up to"), an age said as a bound
        ("The pet insurance pays out up to £3,000 a year.", "Our pet insurance payout is capped at £5,000 a year.",
         _C),
        ("Lifeguards must be at least 17.", "The minimum age for lifeguards is 16.", _C),
    ],
)
def test_decisions_on_held_out_12s_contradiction_forms(embedder, old: str, new: str, action: ReconcileAction) -> None:  # type: ignore[no-untyped-def]
    """Contradictions of forms the rules did not read (bench/RESULTS.md, "Write-path decisions, held-out 12's
    contradictions"): sentences of my own, none from a labelled part."""
    decision = _decide(embedder, old, new)
    assert decision.action is action, decision
