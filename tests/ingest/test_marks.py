"""Per-text marks (ingest/marks.py) and the conflict chain's clause skip: the rules read each text's cues once, and
decide exactly as the searches they replace."""

from __future__ import annotations

import random
import re

import pytest

from memgraph import Settings
from memgraph.ingest import conflicts, marks, signals
from memgraph.ingest import statement as st
from memgraph.ingest.charges import _CHARGED, _INCLUDED
from memgraph.ingest.classify import classify
from memgraph.ingest.comparison import _align, _compare, _unaligned
from memgraph.ingest.forms import _EVERY_CASE, _FAVOURITE, _FORBIDS, _FREE, _GRANTS, _MULTIPLE, _ONLY
from memgraph.ingest.reconcile import Neighbour, ReconcileAction, RuleReconciler
from memgraph.ingest.states import _CATEGORY, _STATE
from memgraph.models import Memory, memory_id_for

TEXTS = [
    "Library cards are free for children.",
    "Library cards cost £2 for adults.",
    "Dogs are not allowed anywhere on the site.",
    "Visitors may feed the goats.",
    "The clinic only takes card.",
    "My favourite season is summer.",
    "The branch line is single track.",
    "Payment is by card only.",
    "The lift is out of order.",
    "Conservatory roofs are charged separately at £15.",
    "Bird mesh is included in every quote.",
    "Ça coûte 5 € ; NOT ALLOWED, Ünïcode text.",
    "",
]
PATTERNS = [_FREE, _FORBIDS, _GRANTS, _EVERY_CASE, _ONLY, _FAVOURITE, _MULTIPLE, _CATEGORY, _STATE, _CHARGED, _INCLUDED]


def test_found_answers_as_the_search_in_any_order() -> None:
    marks.clear()
    for rounds in range(2):  # the first round searches, the second reads the marks
        for pattern in PATTERNS if rounds == 0 else reversed(PATTERNS):
            for text in TEXTS:
                assert marks.found(pattern, text) == bool(pattern.search(text)), (pattern.pattern[:40], text)
    searched, hits = marks._MARKS[TEXTS[0]]
    assert searched.bit_count() == len({marks._BITS[id(p)] for p in PATTERNS}) and hits  # one entry a text, every bit


def test_found_keeps_a_bounded_number_of_texts(monkeypatch: pytest.MonkeyPatch) -> None:
    marks.clear()
    monkeypatch.setattr(st, "PACKED_STATEMENTS", 3)
    for i in range(10):
        assert marks.found(_FREE, f"entry {i} is free") is True
    assert list(marks._MARKS) == ["entry 7 is free", "entry 8 is free", "entry 9 is free"]
    marks.clear()


def _negation_words() -> list[str]:
    body = signals.NEGATION.pattern.removeprefix("(?i)\\b(?:").removesuffix(")\\b")
    # a word's lookahead ("no(?!\\.\\s*[\\d#])": "no." before a number is the sign for a number) is no part of it
    return [re.sub(r"\(\?!.*\)$", "", w).replace("\\s+", " ") for w in body.split("|")]


def test_every_negation_word_holds_a_mark_of_negation() -> None:
    words = _negation_words()
    assert "never" in words and "don't" in words and len(words) > 20
    for w in words:
        assert st.NEGATION_SAID.search(w), w
        assert st.NEGATION_SAID.search(w.upper()), w


@pytest.mark.parametrize(
    "text",
    [
        "I don't eat meat.",
        "No, I live in Paris, not Lisbon.",
        "We never deploy on Fridays ```no deploys``` at all.",
        "NOBODY works on Sundays.",
        "Pickup is at 3:25, not 3:15; nothing else changed.",
        "Actually, I cannot come.",
        "Without a ticket you can't enter.",
    ],
)
def test_a_negated_statement_says_a_mark_of_negation(text: str) -> None:
    for part in (text, *st.clauses(text)):
        if st.statement(part).negated:
            assert st.NEGATION_SAID.search(part), part


def _mem(text: str) -> Memory:
    return Memory(id=memory_id_for("u", text), user_id="u", content=text, kind=classify(text).kind)


def test_the_clause_loop_parses_no_clause_that_cannot_flip_the_polarity(monkeypatch: pytest.MonkeyPatch) -> None:
    parsed: list[str] = []
    real = st.statement

    def counting(text: str) -> st.Statement:
        parsed.append(text)
        return real(text)

    monkeypatch.setattr(conflicts, "statement", counting)
    rules = RuleReconciler(Settings(store=":memory:"))
    new = "We moved into the new office in March; the kitchen is on the second floor. Parking is round the back."
    old = st.statement("The office kitchen has a dishwasher.")
    n = st.statement(new)
    assert not old.negated and st.clauses(new)
    assert rules.conflict(n, old, _compare(n, old, 0.6), cue=False) is None
    assert not set(parsed) & set(st.clauses(new))  # no clause read: none says a negation word


def test_a_negating_clause_still_contradicts(embedder) -> None:  # type: ignore[no-untyped-def]
    old = "I'm on the flat rate VAT scheme."
    new = "I've never been on the flat rate VAT scheme; I use standard accounting."
    va, vb = embedder.encode([old, new])
    decision = RuleReconciler(Settings(store=":memory:")).decide(_mem(new), [Neighbour(_mem(old), float(va @ vb))])
    assert decision.action is ReconcileAction.CONTRADICT


def test_the_negation_words_are_one_alternation() -> None:
    # the word list above is read from NEGATION's source: a change of its shape must change this test too
    assert re.fullmatch(r"\(\?i\)\\b\(\?:(?:[^()]|\(\?![^()]*\))+\)\\b", signals.NEGATION.pattern)


def test_a_parsed_text_is_marked_for_every_registered_cue() -> None:
    marks.clear()
    text = "Guests may bring dogs, but only assistance dogs are allowed inside; parking is free."
    st._WHOLE.clear()
    st._PACKED.clear()
    st.statement(text)
    searched, hits = marks._MARKS[text]
    for pattern in (_FREE, _ONLY, _FORBIDS, _CATEGORY):
        assert searched & marks._BITS[id(pattern)]  # read as it was parsed, not at the first pair
        assert bool(hits & marks._BITS[id(pattern)]) == bool(pattern.search(text))
    st._WHOLE.clear()
    st._PACKED.clear()


def test_unaligned_is_the_alignment_s_answer() -> None:
    words = ["allerg", "allergi", "physio", "physiotherapi", "lena", "lenas", "porto", "portobello", "nurse", "nurs",
             "kyoto", "dog", "dogsitt", "berlin", "berliner", "berl"]
    rng = random.Random(7)
    for _ in range(3000):
        a = frozenset(rng.sample(words, rng.randint(0, 4)))
        b = frozenset(rng.sample(words, rng.randint(0, 8)))
        assert _unaligned(a, b) == bool(_align(a, b)[0]), (a, b)
