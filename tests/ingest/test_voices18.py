"""Duplicates and supersedes said in the voices of held-out 18 (bench/RESULTS.md, "Write-path decisions, held-out
18's duplicates and supersedes"): a hedged statement ("I think …?", "…, not sure") and the firm one that settles it,
a value changed by an amount or a factor ("goes up by £5", "twice as often as before"), an update relayed from a
source ("The bank's letter says …"), a clause that counts other things ("…, plus two mugs"). Sentences of my own in
other domains, each form with a near-miss it must leave alone. Real model, the rules as the write path runs them."""

from __future__ import annotations

import pytest

from memgraph.ingest import deltas, hedges, voice
from memgraph.ingest.reconcile import ReconcileAction
from memgraph.ingest.statement import statement
from memgraph.ingest.values import values
from tests.ingest.test_reconcile import _decide

SUPERSEDE, CREATE, REINFORCE, CONTRADICT = (
    ReconcileAction.SUPERSEDE, ReconcileAction.CREATE, ReconcileAction.REINFORCE, ReconcileAction.CONTRADICT,
)


def test_a_hedge_is_no_question_and_no_part_of_what_is_said() -> None:
    """"I think X?" states X unsurely, it asks nothing; the hedge's words are no frame word. "Do you think X?" asks."""
    st = statement("I think the boiler service is due in October?")
    assert not st.question and "think" not in st.frame
    assert statement("Do you think the boiler service is due in October?").question
    assert statement("the boiler service is due in October, not totally sure though").frame == statement(
        "The boiler service is due in October."
    ).frame
    assert hedges.hedged("pretty sure the bins go out on Tuesdays")
    assert hedges.hedged("the bins go out on Tuesdays, I think")
    assert not hedges.hedged("I think about my grandad a lot.")
    assert not hedges.hedged("The bins go out on Tuesdays.")
    assert hedges.unhedged("Checked the booking: the table is for six.") == "the table is for six."
    assert hedges.unhedged("Confirmed: the table is for six.") == "the table is for six."


@pytest.mark.parametrize(
    ("old", "new", "action"),
    [
        # a firm statement with another value settles a guess
        ("I think the boiler service is due in October?", "Rang the engineer: the boiler service is due in November.",
         SUPERSEDE),
        ("pretty sure our wifi router is a Netgear, not 100% sure", "Checked the label: the router is a TP-Link.",
         SUPERSEDE),
        ("I think the allotment rent is £45 a year? not sure", "Found the invoice: the allotment rent is £52 a year.",
         SUPERSEDE),
        # ... and repeats it when the value agrees
        ("I think the allotment rent is £45 a year? not sure", "Confirmed: the allotment rent is £45 a year.",
         REINFORCE),
        # a firm statement of another subject settles nothing
        ("I think the boiler service is due in October?", "Checked the diary: the dentist is on 3 November.", CREATE),
    ],
)
def test_a_firm_statement_settles_a_hedged_one(embedder, old: str, new: str, action: ReconcileAction) -> None:  # type: ignore[no-untyped-def]
    assert _decide(embedder, old, new).action is action


def test_a_relative_value_is_a_change_and_a_comparison_is_not() -> None:
    """A value changed by an amount or a factor, or compared with before, says a change; a comparison with another
    thing ("than my brother's") or a need ("two more chairs") does not."""
    for text in ("The gym fee goes up by £5 a month in May.", "The vet halved the cat's dose.",
                 "We water the seedlings twice as often as before.",
                 "The bus now leaves 10 minutes earlier than before.", "The council raised our bin charge by a third."):
        assert deltas.changes(text), text
        assert statement(text).update, text
    for text in ("My commute is ten minutes longer than my wife's.", "We need two more chairs for Sunday.",
                 "Our dog eats twice as much as the cat.", "The double room is on the top floor."):
        assert not deltas.changes(text), text
    assert deltas.relative("I pay £20 more each quarter now")
    assert not deltas.relative("I pay £20 each quarter")


@pytest.mark.parametrize(
    ("old", "new", "action"),
    [
        ("The allotment rent is £45 a year.", "The committee says the allotment rent goes up by £8 a year from March.",
         SUPERSEDE),
        ("I water the tomatoes once a day.", "In the heatwave I water the tomatoes twice as often as before.",
         SUPERSEDE),
        ("The choir rehearses at 7 pm on Thursdays.", "From next term the choir rehearses half an hour earlier.",
         SUPERSEDE),
        ("Bella gets 60 g of kibble at breakfast.", "The vet has cut Bella's breakfast kibble by 15 g.", SUPERSEDE),
        # another subject's change replaces nothing
        ("The allotment rent is £45 a year.", "The water rate goes up by £8 a year from March.", CREATE),
    ],
)
def test_a_value_changed_by_an_amount_supersedes(embedder, old: str, new: str, action: ReconcileAction) -> None:  # type: ignore[no-untyped-def]
    assert _decide(embedder, old, new).action is action


def test_a_relayed_update_supersedes(embedder) -> None:  # type: ignore[no-untyped-def]
    """An update relayed from a source ("The bank's letter says …", "Council email: …") whose statement changes a
    value of the old subject: the source's words weigh in the cosine only."""
    assert voice.relayed("The bank's letter says the overdraft limit is now £500.")
    assert voice.relayed("Council email: bins are now collected on Mondays.")
    assert not voice.relayed("The overdraft limit is now £500.")
    d = _decide(embedder, "My overdraft limit is £300.", "The bank's letter says my overdraft limit is now £500.")
    assert d.action is SUPERSEDE


def test_lengths_in_any_metric_unit_are_one_value() -> None:
    assert values("The hallway is 4.5 m long.", compare=True).quantities == values(
        "hallway length: 450 cm", compare=True
    ).quantities
    assert values("the shelf is 800 mm wide", compare=True).quantities == values(
        "the shelf is 80 cm wide", compare=True
    ).quantities
    assert values("a 2 km walk", compare=True).quantities != values("a 2 m walk", compare=True).quantities
    assert statement("a 5 km run").flat_values == statement("a 5k run").flat_values


def test_a_clause_that_counts_other_things_says_more(embedder) -> None:  # type: ignore[no-untyped-def]
    """"…, plus two mugs" counts another thing than "… two plates": the same number is no repeat of it."""
    d = _decide(
        embedder, "I'm painting Gran a tea set: two plates.", "Gran's tea set is two plates, plus two mugs to match."
    )
    assert d.action is not REINFORCE


def test_a_rule_said_in_the_present_passive_is_no_update() -> None:
    """"is written off 25 years after graduation" states a rule; "the van was written off" tells an event."""
    assert not statement("The debt is written off 20 years after the first payment.").update
    assert statement("The van was written off in the crash.").update


def test_an_hour_in_words_after_at_is_a_time_and_a_range_keeps_both_ends() -> None:
    """"at seven" is read as "at 7" is (a time); "at one point", "at five people" are no time. A cardinal that bounds
    a range ("six to eight weeks", "from nine to five") is read as its digits are."""
    assert values("we meet at seven in the hall", compare=True).times == values(
        "we meet at 7 in the hall", compare=True
    ).times
    assert not values("at one point we stopped", compare=True).times
    assert not values("a table at five people", compare=True).times
    assert values("due in six to eight weeks", compare=True).quantities == values(
        "due in 6-8 weeks", compare=True
    ).quantities
    assert values("from half nine to half twelve", compare=True).times == frozenset({570, 750})


def test_a_greeting_and_sign_off_are_no_sentence_more(embedder) -> None:  # type: ignore[no-untyped-def]
    """A pasted message's greeting and sign-off ("hi all, …, thanks! Sam") say nothing a repeat would lose."""
    d = _decide(
        embedder, "hi all, the Sunday car boot opens at 7:30 and closes at 12:30 - thanks! Sam",
        "The Sunday car boot runs from half seven to half twelve.",
    )
    assert d.action is REINFORCE
    d = _decide(embedder, "The Sunday car boot opens at 7:30.", "The Sunday car boot opens at 7:30. Pitches cost £8.")
    assert d.action is not REINFORCE


def test_a_clause_spliced_on_with_a_comma_says_more() -> None:
    """A second clause after a comma with its own subject and verb ("…, any late payment gets a £20 fee") says a
    second thing; a list or an aside after a comma does not split."""
    from memgraph.ingest import repeats

    text = "rent is due on the 1st, any late payment after that gets a £20 fee"
    assert repeats._joined(text) == ["any late payment after that gets a £20 fee"]
    assert repeats.one_says_more(text, "Rent is due on the 1st of each month.", 0.5)
    assert not repeats._joined("On Fridays, pickup is at the back gate.")
