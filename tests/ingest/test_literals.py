"""The strings a pattern's matches must hold (ingest/literals.py) and the searches they let skip (`signals.Folded`,
`marks`): a text the test rejects is one the pattern does not match, so every answer is the search's own."""

from __future__ import annotations

import re

import pytest

from memgraph.ingest import literals, marks, signal_words, signals, slots, statement_words
from memgraph.ingest.literals import holds, necessary

#: Sentences of my own, each meant to hit some cue (a correction, an update, a ban, a price, "only", a favourite,
#: a change told as an event) or to come close to one without it; their upper-cased and title-cased forms too.
SENTENCES = [
    "Actually, the allotment AGM is on Thursday, not Tuesday.",
    "Correction: the ferry leaves at 07:40.",
    "My bad, the bin collection moved to Wednesdays.",
    "Oops, it's the 14th, not the 4th.",
    "No, wait - the boiler service is in March.",
    "No, the quiz starts at eight.",
    "It's not the blue van but the white one.",
    "That's wrong: the hall holds 120 people.",
    "I misspoke earlier about the locker code.",
    "I had the tram times the wrong way round.",
    "Ignore the old rota, the new one is pinned up.",
    "We gave you the wrong postcode for the depot.",
    "Typo earlier: the flat is number 12.",
    "Disregard what I said about the parking permit.",
    "On a second look at the invoice, it's £340.",
    "I double-checked the booking and it's for two nights.",
    "Sorry, the pottery class is £18 a session.",
    "I was reading off last year's price list.",
    "Let me walk that back: the choir meets on Mondays.",
    "Rehearsals have moved to the church hall from next week.",
    "The gym now opens at 6am.",
    "We switched from Octopus to Ovo in the spring.",
    "The subscription was raised to £12 a month.",
    "Our old landlord sold the building, so the new one handles repairs.",
    "Rob stood down and Claire was voted in as treasurer.",
    "Going forward, invoices go to accounts@example.org.",
    "The market stall is no longer open on Sundays.",
    "Dogs are not allowed in the reading room.",
    "You mustn't park on the verge.",
    "Smoking is prohibited anywhere on site.",
    "She has to avoid sesame and peanuts.",
    "Entry is free for under-fives.",
    "The workshop costs nothing for members.",
    "Conservatory roofs are charged separately.",
    "The clinic only takes card payments.",
    "Payment is by bank transfer exclusively.",
    "My favourite biscuit is a ginger nut.",
    "The spare room has a single bed and a double wardrobe.",
    "The printer is out of order again.",
    "He is vegetarian these days.",
    "The pharmacy closes at 18:00 on Saturdays.",
    "Doors open from 7pm.",
    "We went hiking in the Peaks and I also tried climbing.",
    "I've never been to Lisbon.",
    "I don't eat meat anymore.",
    "The lift is unlocked after 9.",
    "We had a lovely day at the beach with the kids.",
    "Thanks so much, see you soon!",
    "The meeting is in room 4B at half past two.",
    "",
    "Ça coûte 5 € ; NOT ALLOWED, Ünïcode text.",
]
TEXTS = [t for s in SENTENCES for t in (s, s.upper(), s.title())]

FOLDED = [
    signal_words.CORRECTION,
    signal_words.UPDATE,
    signal_words.UPDATE_TO_VALUE,
    signal_words.ADDITIVE,
    signal_words.EPISODE,
    signal_words.NEGATION,
    statement_words._REPLACED,
    slots._VERB,
]


@pytest.mark.parametrize(
    ("pattern", "needs"),
    [
        (r"abc", {"abc"}),
        (r"(?i)\bNever\b", {"never"}),
        (r"foo|bar", {"foo", "bar"}),
        (r"foo|b?ar", {"foo", "ar"}),
        (r"foo|(?:x)?", None),  # an alternative that needs nothing
        (r"a*b?", None),
        (r"[ab]c?", None),  # a class is no string
        (r"(?:ab)+cde", {"cde"}),  # the longer string is the rarer
        (r"(?<!not\s)only", {"only"}),  # a negative lookbehind needs nothing
        (r"(?<=\bno\s)way", {"way"}),
        (r"x(?=yz)", {"yz"}),  # a lookahead's characters are in the text
        (r"caf\u00e9|tea", {"caf", "tea"}),  # a non-ASCII letter ends the string
        (r"correct(?:ion)?|correction", {"correct"}),  # no string holding another
    ],
)
def test_necessary_reads_the_pattern_s_own_strings(pattern: str, needs: set[str] | None) -> None:
    got = necessary(re.compile(pattern))
    assert (None if got is None else set(got)) == needs


@pytest.mark.parametrize("pattern", FOLDED + list(marks._PATTERNS), ids=lambda p: p.pattern[:30])
def test_no_text_a_pattern_matches_lacks_its_strings(pattern: re.Pattern[str]) -> None:
    needs = necessary(pattern)
    for text in TEXTS:
        if text.isascii() and pattern.search(text):
            assert holds(needs, text.lower()), (pattern.pattern[:60], text)


@pytest.mark.parametrize("pattern", FOLDED, ids=lambda p: p.pattern[:30])
def test_a_folded_search_answers_as_the_pattern(pattern: re.Pattern[str]) -> None:
    folded = signals.Folded(pattern)
    for text in TEXTS:
        m, raw = folded.search(text), pattern.search(text)
        assert (m is None) == (raw is None), text
        if m is not None and raw is not None:
            assert m.span() == raw.span()
        assert [x.span() for x in folded.finditer(text)] == [x.span() for x in pattern.finditer(text)]


def test_the_cue_patterns_skip_most_texts_unsearched() -> None:
    """The test is no formality: the cues' strings leave out most of these sentences (it fails if `necessary`
    answers None, or a string every text holds)."""
    for pattern in (signal_words.CORRECTION, signal_words.UPDATE, signal_words.EPISODE):
        needs = necessary(pattern)
        assert needs is not None
        rejected = [t for t in SENTENCES if t.isascii() and not holds(needs, t.lower())]
        assert rejected and all(not pattern.search(t) for t in rejected)


def test_marks_answer_as_the_search_for_every_registered_pattern() -> None:
    marks.clear()
    for text in TEXTS:
        marks.mark(text)
    for pattern in list(marks._PATTERNS):
        for text in TEXTS:
            assert marks.found(pattern, text) == bool(pattern.search(text)), (pattern.pattern[:40], text)
    marks.clear()
    for pattern in list(marks._PATTERNS):  # the first ask, searched there and then
        for text in TEXTS:
            assert marks.found(pattern, text) == bool(pattern.search(text)), (pattern.pattern[:40], text)
    marks.clear()


def test_a_non_ascii_text_is_always_searched() -> None:
    """Case-insensitive matching folds a few non-ASCII letters onto ASCII ones (the Kelvin sign is "k"): such a
    text is searched whatever strings it holds."""
    pattern = re.compile(r"(?i)kelvin")
    assert literals.necessary(pattern) == frozenset({"kelvin"})
    text = "\u212aelvin"  # KELVIN SIGN
    assert pattern.search(text) and signals.Folded(pattern).search(text)
