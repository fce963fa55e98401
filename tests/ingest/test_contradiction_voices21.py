"""Contradictions of held-out 21's round (bench/RESULTS.md, "Contradictions, held-out 21's causes"): two names of one
subject in the slot its copula fills, the frame said in other words (`names.named_in_one_slot`); pictographs that say
a polarity read as words (`pictographs.said`); a sign's verbless line said as a sentence (`jotted._sign`); a report
tag after a clause (`voice.bare`) and a clause's subject the rest of its text gives (`referents.completed`); open
every day against closed on a weekday (`hours.every_day_against_closed`); another name given and the old one denied
(`names.name_denied`). Sentences of my own in several domains and
voices, beside the near misses each must leave alone; the real model's cosine, the default rules."""

from __future__ import annotations

import pytest

from memgraph.ingest import jotted, pictographs, referents, voice
from memgraph.ingest.reconcile import ReconcileAction
from memgraph.ingest.statement import statement
from tests.ingest.test_reconcile import _decide

_C, _N = ReconcileAction.CONTRADICT, ReconcileAction.CREATE


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("🚫🐕 in the beer garden", "no dog in the beer garden"),
        ("tent pitches: 🚫 glass bottles", "tent pitches: no glass bottles"),
        ("⛔️ entry after 9pm", "no entry after 9pm"),
        ("🚭 anywhere on the platform", "no smoking anywhere on the platform"),
        # a negation said already; a cross before a clause (cancelled, not forbidden); a decoration
        ("❌ no phones in the exam hall", "no phones in the exam hall"),
        ("❌ Tuesday's ride is off", "Tuesday's ride is off"),
        ("🎉 party at Jo's on Friday 🍕", "party at Jo's on Friday"),
        ("no pictographs at all", "no pictographs at all"),
    ],
)
def test_pictographs_said(text: str, said: str) -> None:
    assert pictographs.said(text) == said


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("no dogs on the beach", "dogs is not allowed on the beach"),
        ("No ball games after 8pm.", "ball games is not allowed after 8pm."),
        ("children welcome in the lounge", "children are welcome in the lounge"),
        ("Cards accepted", "Cards are accepted"),
        # a clause is read as it is
        ("No idea where it is", "No idea where it is"),
        ("No, the ride is on Sunday", "No, the ride is on Sunday"),
        ("Dogs are welcome", "Dogs are welcome"),
    ],
)
def test_a_sign_said_as_a_sentence(text: str, said: str) -> None:
    assert jotted.sentence(text) == said


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("the ferry goes at nine, apparently.", "the ferry goes at nine."),
        ("it's in the top drawer, she reckons.", "it's in the top drawer."),
        ("The pool shuts at 8 on Sundays, the lifeguard said, always has.",
         "The pool shuts at 8 on Sundays, always has."),
        ("Apparently, the bins go out on Tuesday.", "the bins go out on Tuesday."),
        ("The match starts at 3, I'm told.", "The match starts at 3."),
        # a verb of saying that is the statement itself
        ("I said no to the extra shift.", "I said no to the extra shift."),
        ("Clean the brushes, I said, and he did.", "Clean the brushes, I said, and he did."),
    ],
)
def test_a_report_tag_is_no_part_of_what_is_said(text: str, said: str) -> None:
    assert voice.bare(text) == said


@pytest.mark.parametrize(
    ("parts", "other", "said"),
    [
        # a subject shortened in its clause, the rest said in another clause
        (["Saw the allotment society newsletter", "the autumn show is on the Sunday."],
         "The allotment society's autumn show is on the Saturday.",
         "The allotment society's autumn show is on the Sunday."),
        # a pronoun for the subject an earlier clause names
        (["Chatted to Jo about the choir concert", "it's at St Mary's this year."],
         "The choir concert is at the town hall.", "The choir concert is at St Mary's this year."),
        # the missing words said nowhere; the pronoun's thing not the other's subject
        (["Saw the newsletter", "the autumn show is on the Sunday."],
         "The allotment society's autumn show is on the Saturday.", "the autumn show is on the Sunday."),
        (["Chatted to Jo about the choir rehearsal", "it's at St Mary's this year."],
         "The choir concert is at the town hall.", "it's at St Mary's this year."),
    ],
)
def test_a_clause_said_with_the_subject_its_text_gives(parts: list[str], other: str, said: str) -> None:
    assert referents.completed(parts, statement(other))[-1] == said


_PAIRS: list[tuple[str, str, ReconcileAction]] = [
    # one subject's name in its copula's slot, the frame said in other words
    ("My daughter's swimming coach is Hannah.", "My daughter's swimming coach is called Priya.", _C),
    ("Our dentist is Dr Patel.", "Our dentist is called Dr Okafor.", _C),
    ("The village hall's caretaker is the Brown lad.", "The village hall's caretaker is the Jenkins woman.", _C),
    ("The quiz is at the Crown.", "The quiz is held at the Swan.", _C),
    # near misses: a scope on one side; one name said by both; a kind, not a name; no subject (two dogs); many
    # named; a scope of time on one side
    ("My daughter's coach is Hannah.", "My daughter's diving coach is Priya.", _N),
    ("Our dentist is Dr Patel.", "Our dentist is Dr Patel at the Bridge Street practice.", _N),
    ("My dog is called Rex.", "My dog is a Labrador.", _N),
    ("I have a cat named Mittens.", "I have a cat named Socks.", _N),
    ("My sister's cats are Mittens and Socks.", "My sister's cat is Socks.", _N),
    ("The book group meets at the Crown.", "The book group meets at the Swan in summer.", _N),
    # pictographs that forbid, against a grant; the same ban in two scripts
    ("🐕 dogs welcome in the beer garden", "🚫🐕 in the beer garden", _C),
    ("Smoking is allowed on the terrace.", "🚭 on the terrace", _C),
    ("tent pitches: 🚫 glass bottles", "No glass bottles on the tent pitches.", _N),
    ("🚫🐕 in the beer garden", "Dogs aren't allowed in the beer garden.", _N),
    # another name given, the old one denied in a clause of its own
    ("My brother's football team is Rovers.", "My brother plays for Athletic; he's never played for Rovers.", _C),
    ("Grandad's allotment neighbour is Mr Okoro.",
     "Grandad's plot is beside Mrs Lewis; he's never been next to Mr Okoro.", _C),
    # near misses: the other name denied; the old name qualifies what is denied
    ("My brother's football team is Rovers.", "My brother plays for Rovers; he's never played for Athletic.", _N),
    ("My brother's football team is Rovers.", "My brother watches Athletic, but he's never missed a Rovers game.", _N),
    # one measure in two systems, changed: the kinds meet (`forms._kind_on_one_side` with `comparison._measures_met`);
    # a height said by standing (`forms._MEASURE`)
    ("The loft ladder is 3 metres long.", "Our loft ladder is about 14 feet long.", _C),
    ("The pony is 130 cm at the withers.", "The pony stands 60 inches at the withers.", _C),
    # near misses: the same measure in the other system
    ("The loft ladder is 3 metres long.", "Our loft ladder is about 10 feet long.", _N),
    ("The pony is 130 cm at the withers.", "The pony stands 51 inches at the withers.", _N),
    # open every day against closed on a weekday
    ("The library is closed on Sundays.", "The library is open seven days a week.", _C),
    ("The farm shop is open daily.", "The farm shop is shut on Wednesdays.", _C),
    # near misses: a place in it; another place
    ("The library is closed on Sundays.", "The library's café is open every day.", _N),
    ("The library is closed on Sundays.", "The leisure centre is open seven days a week.", _N),
    # a diary's clause with a report tag, its subject said in full by another clause
    ("The allotment society's autumn show is on the Saturday.",
     "Picked up the allotment society newsletter at the shop; the autumn show is on the Sunday, apparently.", _C),
    ("The choir's summer concert is at the Guildhall.",
     "Asked Jo about the choir's summer concert; it's at the Corn Exchange, she said.", _C),
    # near misses: the same day; another show the text names
    ("The allotment society's autumn show is on the Saturday.",
     "Picked up the allotment society newsletter at the shop; the autumn show is on the Saturday, apparently.", _N),
    ("The allotment society's autumn show is on the Saturday.",
     "Picked up the newsletter at the shop; the dog club's autumn show is on the Sunday, apparently.", _N),
    ("The choir's summer concert is at the Guildhall.",
     "Asked Jo about the choir's summer concert; it's at the Guildhall, she said.", _N),
    ("The choir's summer concert is at the Guildhall.",
     "Asked Jo about the choir's rehearsals; they're at the Corn Exchange, she said.", _N),
]


@pytest.mark.parametrize(("old", "new", "action"), _PAIRS)
def test_forms_of_held_out_21(embedder, old: str, new: str, action: ReconcileAction) -> None:  # type: ignore[no-untyped-def]
    decision = _decide(embedder, old, new)
    if action is _N:  # (a near miss may be a repeat; it must be no conflict)
        assert decision.action not in (_C, ReconcileAction.SUPERSEDE), decision
    else:
        assert decision.action is action, decision
