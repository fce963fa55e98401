"""Why two close statements are no repeat, whatever a duplicate score says: the vetoes of the learned gate.

The learned duplicate gate (`pair_model.py`, `RuleReconciler._learned_duplicate`) reads a pair through the rules'
features, and in a bulk load of real text (LoCoMo dev turns, Multi-Session Chat persona sentences; bench/RESULTS.md,
"the duplicate gate on real neighbours") it scored p >= 0.9 on pairs that differ in ways those features do not
carry. Three shapes recurred, and each is a reason never to merge, not a weight to learn:
- **one text says more**: a sentence of one has (almost) none of its content words in the other ("I drive an old
  truck. Ice cream is my favorite food." / "Ice cream is my favorite food."): reinforcing the stored memory loses
  the new sentence, and a stored memory of two facts is no repeat of one of them. The rules' duplicates read this
  one too: embedded whole, "I enjoy driving. I'm a woman." / "I enjoy driving." lies at cosine 0.84, and the
  rules' paraphrase shape reinforced it;
- **another person**: the people named differ ("My cousin is an interior designer." / "I'm an interior
  designer.", "My parents do not go to church." / "I do not go to church.", "My son's football team is the
  Eagles." / "I play football for the eagles.");
- **another time**: one says a past state, the other not ("I used to be a ballet dancer." / "My mom is a ballet
  dancer.", "In the past I liked to travel." / "I like traveling.").
- **one text narrows the other**: it adds "only" and the part it keeps ("Only assistance dogs are allowed …" /
  "Dogs are allowed in all our cars."), or joins a second clause with other content words ("…, and parking is paid
  back with a receipt."): both say more than the stored memory.
Word lists, not a parser: the checks run only on the few neighbours the gate scores (cosine floor, no rule
decided), so they cost little.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memgraph.ingest.statement import statement, stem
from memgraph.ingest.statement_words import LIGHT_VERBS
from memgraph.text import stop_words, tokenize

#: A sentence end: ".", "!" or "?" then a space (chat and persona text often starts a sentence lower-case).
_SENTENCE_END = re.compile(r"(?<=[^\s.!?])[.!?]+\s+(?=\S)")
#: Words a sentence shares with another without saying the same thing: light verbs ("have", "make"), the verbs of
#: liking and thanks. They are not counted: "Thanks, Maria." shares "Maria" with "Thanks, Maria. Your support
#: means a lot.", and a sentence of such words alone ("I like being by myself.") is not read as saying more.
_GENERIC = frozenset(stem(w) for w in (*LIGHT_VERBS, "like", "likes", "love", "loves", "enjoy", "prefer", "hate",
                                       "want", "wants", "thank", "thanks"))
#: Words that name a person other than the speaker (relatives, partners, people one lives or works with), each
#: with the one it counts as: "grandpa" and "my grandfather" are one person, "kids" and "children" one group.
_PEOPLE_GROUPS = {
    "mother": "mother mom mum mommy mummy mama", "father": "father dad daddy papa", "parent": "parent parents",
    "brother": "brother brothers", "sister": "sister sisters", "sibling": "sibling siblings",
    "son": "son sons", "daughter": "daughter daughters", "child": "child children kid kids", "baby": "baby babies",
    "spouse": "wife husband spouse", "partner": "partner girlfriend boyfriend fiance fiancee",
    "cousin": "cousin cousins", "aunt": "aunt aunts", "uncle": "uncle uncles", "niece": "niece nieces",
    "nephew": "nephew nephews", "grandmother": "grandma grandmother gran granny nan",
    "grandfather": "grandpa grandfather",
    "grandparent": "grandparent grandparents", "grandchild": "grandchild grandchildren grandkids grandkid",
    "grandson": "grandson grandsons", "granddaughter": "granddaughter granddaughters",
    "friend": "friend friends buddy", "roommate": "roommate roommates roomate flatmate flatmates",
    "neighbour": "neighbor neighbors neighbour neighbours", "boss": "boss", "colleague":
    "coworker coworkers colleague colleagues", "family": "family",
}
PEOPLE = {w: group for group, words in _PEOPLE_GROUPS.items() for w in words.split()}
#: A state said to be over: "used to", "in the past", "formerly", "no longer", "was", "were".
_PAST = re.compile(
    r"(?i)\b(?:used?\s+to|in\s+the\s+past|formerly|former|previously|no\s+longer|any\s?more|was|were|ex-\w+)\b"
)


#: A title or abbreviation whose full stop ends no sentence ("Dr. Okafor's clinic ...").
_ABBREVIATION = re.compile(r"(?i)\b(dr|mr|mrs|ms|mx|st|prof|jr|sr|vs|etc|approx|no|e\.g|i\.e)\.")


def _sentences(text: str) -> list[str]:
    return [s for s in _SENTENCE_END.split(_ABBREVIATION.sub(r"\1", text.strip())) if s.strip()]


@lru_cache(maxsize=8192)
def _content(text: str) -> frozenset[str]:
    stops = stop_words()
    return frozenset(stem(t) for t in tokenize(text) if t not in stops and not t.isdigit())


def says_more(a: str, b: str, max_covered: float) -> bool:
    """Whether `a` has a sentence with content words (not `_GENERIC` ones) of which no more than the share
    `max_covered` occur in `b` (`Settings.dedup_sentence_max_covered`): "I'm a woman." beside "I enjoy driving.";
    or a clause joined to a sentence (`_joined`) that says another thing, with two such words or more."""
    parts = _sentences(a)
    rest = _continued(a, b)
    if rest:
        parts = [*parts, rest]
    other = _content(b)
    if len(parts) >= 2:
        for part in parts:
            words = _content(part) - _GENERIC
            if words and len(words & other) <= max_covered * len(words):
                return True
    for part in _joined(a):
        words = _content(part) - _GENERIC
        if len(words) >= 2 and len(words & other) <= max_covered * len(words) and not _values_said(part, b):
            return True
    return False


def _values_said(part: str, b: str) -> bool:
    """Whether the clause `part` gives typed values (times, prices, dates) and `b` gives each of them: "…; it starts
    running at quarter to nine" says no more than "The gondola opens at 8:45 …" in other words. A number of things
    `b` does not count is another value: "…, plus six bowls to match" says more than "… a dinner set: six plates"."""
    p, o = statement(part), statement(b)
    values = p.flat_values
    if not values or not values <= o.flat_values:
        return False
    said = _content(b)
    return all(k in o.kinds or stem(k[2:]) in said for k in p.kinds if k.startswith("q:") and len(k) > 2)


#: A second clause joined inside a sentence: "; …", ", and …", ", but …", ", plus …", ", while …", and the plus
#: written as its sign between spaces, as notes join a second item ("lunch £5.71/day + tube fares paid back").
#: Or a clause spliced on with a comma, its own subject and verb after it ("the payroll cut-off is the 20th, any
#: overtime after that goes into next month's pay"): a determiner or a pronoun, up to four words, then a verb.
_JOIN = re.compile(
    r"(?i)\s*;\s+|,\s+(?:and|but|plus|while|whereas|so)\s+|\s+\+\s+"
    r"|,\s+(?=(?:any|all|every|each|the|a|an|my|our|your|their|this|that|these|those|we|they|it|he|she)\s+"
    r"(?:[\w'’-]+\s+){0,4}?(?:is|are|was|were|goes|go|went|gets|get|will|can|must|has|have|had|needs|need)\b)"
)


def _joined(text: str) -> list[str]:
    """The clauses after the first that a sentence of `text` joins to it (`_JOIN`): "Interpreters claim 45p a mile,
    and parking is paid back with a receipt." says a second thing beside "Interpreters claim mileage at 45p a
    mile." (cosine 0.79, held-out pairs 13), which a reinforcement would lose. Only clauses of two content words or
    more count (`says_more`): "…, and coffee too" is a list, "…, and close at 5" a detail of the same slot."""
    return [p for s in _sentences(text) for p in _JOIN.split(s)[1:] if p.strip()]


def _continued(a: str, b: str) -> str:
    """What `a` says after repeating all of `b` word for word, when it goes on after a comma, a dash or a colon:
    "Theory test practice is included free, through an app login I send after the first lesson." after "Theory
    test practice is included free." (cosine 0.85; held-out pairs 12) keeps the whole first text and adds a detail
    that a reinforcement would lose; "" otherwise."""
    head = b.strip().rstrip(".!?").strip().lower()
    text = a.strip().lower()
    if not head or not text.startswith(head):
        return ""
    rest = text[len(head):]
    return rest if re.match(r"\s*[,;:(—–-]", rest) else ""


def one_says_more(a: str, b: str, max_covered: float) -> bool:
    """`says_more`, `narrows` or `lists_contents` either way: the rules' duplicates read it too (a containment
    reinforced loses a sentence, a restriction reinforced loses the limit, a price's contents what it buys)."""
    return (
        says_more(a, b, max_covered) or says_more(b, a, max_covered) or narrows(a, b) or narrows(b, a)
        or lists_contents(a, b) or lists_contents(b, a)
    )


#: What a thing includes or comes with, said after it: "includes a full clean", "including VAT", "inc. VAT", "comes
#: with a case" (not "covers": "cloud cover", "statements covering the last half year" say no contents).
_INCLUDES = re.compile(r"(?i)\b(?:includ(?:e|es|ed|ing)\b|inclusive\s+of\b|incl?\.|comes?\s+with\b)")


def lists_contents(a: str, b: str) -> bool:
    """Whether `a` says what a thing includes or covers and `b` says no such thing: "The £210 for the mantel clock
    includes a full clean and a year's guarantee." beside "The mantel clock repair costs £210." (held-out pairs 22,
    cosine 0.73: one price, one subject, and what the price buys, which a reinforcement would lose). Only when what
    follows the word holds content words `b` lacks ("The tour is £40 including lunch." / "The tour costs £40.")."""
    m = _INCLUDES.search(a)
    if m is None or _INCLUDES.search(b):
        return False
    return bool(_content(a[m.end():]) - _content(b) - _GENERIC)


#: An exclusive "only" (not "not only", "if only", "only just"), the word that makes a statement a restriction.
_ONLY = re.compile(r"(?i)(?<!\bnot\s)(?<!\bif\s)\bonly\b(?!\s+just\b)")


def narrows(a: str, b: str) -> bool:
    """Whether `a` restricts what `b` says to a part named by a word `b` lacks: "Only assistance dogs are allowed
    in our cars." beside "Dogs are allowed in all our cars." (cosine 0.83, held-out pairs 13) keeps the words of
    the other and adds "only" and the part, which says the rest is not allowed: no repeat, whatever the score."""
    if not _ONLY.search(a) or _ONLY.search(b):
        return False
    # a number counts ("only children over eight", "only 2 bags"): the stop-word list holds number words
    extra = _content(a) | _numbers(a)
    return bool(extra - _content(b) - _numbers(b) - _GENERIC - {stem("only")})


_NUMBER_WORDS = frozenset(
    "one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty forty fifty hundred".split()
)


def _numbers(text: str) -> frozenset[str]:
    return frozenset(t for t in tokenize(text) if t.isdigit() or t in _NUMBER_WORDS)


def people(text: str) -> frozenset[str]:
    """The people a text names (`PEOPLE`'s groups; "my son's" is the son): pronouns are left out, as they stand for
    a named subject ("Kasper ... when he streams") as often as for another person."""
    return frozenset(PEOPLE[w] for t in tokenize(text) if (w := t.removesuffix("'s")) in PEOPLE)


def holders(text: str) -> frozenset[str]:
    """The people a text says a thing is of (`PEOPLE`'s groups): the last of a chain of possessives ("my brother's
    wife's shift" is the wife's; "my brother's shift" the brother's), a person owned by another being no holder."""
    toks = tokenize(text)
    out = set()
    for i, t in enumerate(toks):
        w = t.removesuffix("'s")
        if w == t or w not in PEOPLE:
            continue
        nxt = toks[i + 1].removesuffix("'s") if i + 1 < len(toks) else ""
        if nxt not in PEOPLE:
            out.add(PEOPLE[w])
    return frozenset(out)


def veto(new: str, old: str, max_covered: float) -> str | None:
    """Why `new` is no repeat of `old` whatever its score (one of the three shapes above), or None."""
    if one_says_more(new, old, max_covered):
        return "one says more"
    if people(new) != people(old):
        return "another person"
    if bool(_PAST.search(new)) != bool(_PAST.search(old)):
        return "another time"
    return None
