"""Whether a thing agrees with a person: "trains are fine", "dairy doesn't bother me", "I'm fine with heights" against
"trains make me sick", "dairy doesn't agree with me", "I get motion sickness on buses", "I can't stand heights".

Why: a person says how they get on with a thing inside a longer statement ("I get motion sickness on long bus rides,
trains are fine.") and later the opposite of one of its things ("Trains make me sick too."). The two share no value
and no frame word but the thing, the new one has no verb the parse reads ("Trains make"), and "too" reads as an
additive statement, which never contradicts: the write path stored it beside the old one (a newcomer's trip notes,
bench/RESULTS.md, the merged main's nineteenth round). Read clause by clause, each clause says of one thing (its
head noun) that it is fine or that it troubles the person; one thing on both sides of the same axis is a conflict.

A closed class of phrases, not a data file's words: the ways English says "is fine for me" and "makes me ill" are
few and the same in every domain (travel, food, noise, heights, medicines).
"""

from __future__ import annotations

import re
from functools import lru_cache

from memgraph.ingest.marks import found, register
from memgraph.ingest.statement import stem
from memgraph.ingest.voice import bare

#: A thing: up to three words, its head last ("long bus rides", "the night ferry", "spicy food"); no auxiliary of a
#: denial among them (chat's "wool doesnt bother my skin" says of "wool" that it is fine, not of "wool doesnt").
_NOT_AUX = r"(?!(?:doesn['’]?t|don['’]?t|didn['’]?t|does|do|did|not|never)\b)"
_WORD = rf"{_NOT_AUX}[a-z][\w-]*"
_THING = rf"(?:(?:the|a|an|my|any|most|all|some|long|short)\s+)*({_WORD}(?:\s+{_WORD}){{0,2}})"
#: Whom it troubles or suits: a personal pronoun (not "my son").
_WHOM = r"(?:me|him|her|them|us)"
#: Or the part of them it troubles or spares: "my skin", "her stomach", "my eczema" (a possessive and one word).
_PART = r"(?:my|his|her|their|our)\s+[a-z]+"
_BE = r"(?:is|are|r|was|were|['’]s|['’]re|seem|seems|feel|feels)"
_ILL = (
    r"(?:feel\s+)?(?:sick|ill|nauseous|queasy|dizzy|unwell|travel[\s-]?sick|car[\s-]?sick|sea[\s-]?sick|motion[\s-]?sick"
    r"|a\s+headache|headaches|a\s+migraine|migraines|motion\s+sickness|travel\s+sickness|a\s+rash|hives)"
)
_FINE_WORDS = (
    r"(?:fine|ok|okay|alright|all\s+right|no\s+problem|not\s+a\s+problem|no\s+bother|no\s+issue|not\s+an\s+issue)"
)
#: A clause that says the thing suits the person.
_FINE = re.compile(
    rf"(?i)^\s*(?:but\s+|and\s+|though\s+|while\s+)?{_THING}\s+(?:{_BE}\s+(?:\w+ly\s+)?{_FINE_WORDS}(?:\s+for\s+{_WHOM})?"
    rf"|(?:doesn['’]?t|don['’]?t|does\s+not|do\s+not|never)\s+(?:bother|affect|upset|trouble)\s+(?:{_WHOM}|{_PART}))\b"
    rf"|\b(?:i['’]m|i\s+am|she['’]s|he['’]s|they['’]re|user\s+is)\s+(?:\w+ly\s+)?(?:fine|ok|okay|alright)\s+(?:with|on|in)\s+"
    rf"{_THING}"
)
#: A modal denial of taking a thing in ("must not take", "can't eat", "shouldn't drink"): it troubles the person.
_KEPT_OFF = (
    r"(?:must\s+not|mustn['’]?t|can['’]?t|cannot|can\s+not|shouldn['’]?t|should\s+not|am\s+not\s+allowed\s+to|"
    r"is\s+not\s+allowed\s+to|isn['’]?t\s+allowed\s+to)\s+(?:take|have|eat|drink)"
)
#: A clause that says it troubles them.
_ILL_SAID = re.compile(
    rf"(?i)^\s*(?:but\s+|and\s+|though\s+|while\s+)?{_THING}\s+(?:(?:makes?|made|gives?|gave)\s+{_WHOM}\s+{_ILL}"
    rf"|(?:bothers?|upsets?|disagrees?\s+with)\s+(?:{_WHOM}|{_PART})"
    rf"|(?:doesn['’]?t|don['’]?t|does\s+not|do\s+not)\s+agree\s+with\s+{_WHOM}"
    # what it sets off in them: "wool flares my eczema", "dust triggers her asthma", "soap irritates my skin"
    rf"|(?:flares?|flared|triggers?|triggered|irritates?|irritated|aggravates?|aggravated)\s+(?:up\s+)?{_PART})\b"
    rf"|\b(?:i|she|he|they|user)\s+(?:\w+\s+)?(?:get|gets|got|feel|feels|am|is|are|['’]m)\s+{_ILL}\s+(?:on|in|with|from|after)\s+"
    rf"{_THING}"
    rf"|\b(?:i|she|he|they|user)\s+(?:can['’]t|cannot|can\s+not|couldn['’]t)\s+(?:stand|handle|tolerate|take)\s+{_THING}"
    # a thing the person must keep off: "I mustn't have dairy", "she can't eat gluten", "the soy sauce I must not
    # take" (its object said first, as speech topicalises it)
    rf"|\b(?:i|she|he|they|user)\s+{_KEPT_OFF}\s+{_THING}"
    rf"|^\s*{_THING}\s+(?:i|she|he|they)\s+{_KEPT_OFF}\b"
)
#: Clauses: split at ";", ",", "but", so each says one thing of one thing.
_CLAUSES = re.compile(r"(?i)[;,.!?]|\s+but\s+|\s+whereas\s+|\s+while\s+")
#: A person the text speaks of: "fine" alone ("The hotel is fine.") says nothing of how a thing suits anyone.
_PERSON = re.compile(r"(?i)\b(?:i|i['’]m|me|my|she|her|he|him|they|them|user)\b")
#: Words after a thing that are no part of it ("trains too", "buses as well").
_TAIL = re.compile(r"(?i)(?:\s+(?:too|as\s+well|also|either|though|tbh|honestly|lol|now))+$")
#: A word that every clause `_FINE` or `_ILL_SAID` reads holds: a word of `_FINE_WORDS`, of the verbs after "doesn't",
#: "bothers", "disagrees with", "can't", "must not" (`_KEPT_OFF`), or of `_ILL`. Each comes after a space in those
#: patterns, and `voice.bare` only cuts a text at a word's edge (or puts a space for a chat markup) and says a note's
#: verb in the first person by cutting its ending ("User takes" -> "I take"; "-ies" -> "-y": hence "dizz", "queas"), so
#: a word that begins there in the bare text begins there in the text; "sick" also inside a word ("seasick"). A cheap
#: necessary condition for `sides`: 1,890 of 61,088 real texts say one (81 say a side), and `opposed`, asked of pairs a
#: new additive text ("too") meets, read ~5% of a real batch past 60k through `sides` (its cache, 8,192 texts, holds few
#: of a store's), before "have" after a denial and "eat" and "drink" were added (`_KEPT_OFF`).
_CUE = re.compile(
    r"(?i)\b(?:fine|ok|alright|right|problem|bother|issue|affect|upset|trouble|ill|nauseous|queas|dizz|unwell"
    r"|headache|migraine|rash|hives|disagree|agree|stand|handle|tolerate|take|flare|trigger|irritat|aggravat"
    r"|eat|drink)|sick|(?:n['’]?t|not|cannot|to)\s+have\b"
)


@lru_cache(maxsize=8192)
def sides(text: str) -> frozenset[tuple[frozenset[str], int]]:
    """(stems of a thing, 0 fine / 1 troubles) for each clause of `text` that says one."""
    out: set[tuple[frozenset[str], int]] = set()
    text = bare(text)
    person = _PERSON.search(text) is not None
    for part in _CLAUSES.split(text):
        part = _TAIL.sub("", part.strip())
        for side, rx in ((0, _FINE), (1, _ILL_SAID)):
            m = rx.search(part)
            if m is not None and (side or person):
                thing = next(g for g in m.groups() if g)
                out.add((frozenset(stem(w) for w in thing.lower().split()), side))
    return frozenset(out)


def opposed(a: str, b: str) -> bool:
    """Whether one text says a thing suits the person and the other that it troubles them, one thing's words said
    whole by the other ("trains" / "trains"; not "the back seat" / "the front seat"), and neither text says both of
    it."""
    if not (found(_CUE, a) and found(_CUE, b)):
        return False
    sa, sb = sides(a), sides(b)
    for x, side in sa:
        for y, other in sb:
            if other == side or not (x <= y or y <= x):
                continue
            both = any(s != side and (z <= x or x <= z) for z, s in sa) or any(
                s == side and (z <= y or y <= z) for z, s in sb
            )
            if not both:
                return True
    return False


#: searched once per text as it is parsed (marks.py)
register(_CUE)
