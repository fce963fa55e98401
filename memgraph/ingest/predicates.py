"""What a statement says its subject does or is: who the subject is, the predicate's verb, and whether that
predicate holds one value or many.

Why: the write path's conflict rules (`reconcile.py`) read a swapped word or a flipped polarity as a conflict.
That is right for a slot that holds one value ("the gym closes at 22:00", "Lena is my manager", "I live in
Porto") and wrong for a predicate that holds many: one person likes dogs and cats, speaks English and French,
wants to visit Hawaii and Ireland, is a technician and a woman, vegan and Catholic. On one Multi-Session Chat
persona's own sentences (consistent facts of one person) main made 723 contradictions in 26,626 neighbour pairs
(bench/msc_false_positives.py), most of them such a second value. And a negation denies only what the other
statement asserts with the same verb: "I want a job" / "I don't have a job", "I like dogs" / "I do not have any
dogs", "I am in a band" / "Luis is not in my band" deny nothing the other says.

A small table of verbs, not a model: the predicates that take many objects are the same in every domain (liking,
having, doing as a pastime, knowing, speaking, wanting); a copula's description of a person ("is a nurse", "is
tall") is a class the person is in, and a person is in many. A place after a copula ("is in Porto", "is from
Leeds"), an identity ("Lena is my manager") and a description of a thing ("the default branch is main", "my
favourite colour is blue") keep one value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from memgraph.ingest.statement import stem
from memgraph.ingest.statement_words import _AUX, _COPULA
from memgraph.ingest.statement_words import _DETERMINERS as _STATEMENT_DETERMINERS
from memgraph.ingest.verb_forms import IRREGULAR
from memgraph.text import stop_words, tokenize

#: Verbs whose object is one of many values of the subject: liking and disliking, having and keeping, pastimes,
#: perceiving and consuming, knowing and speaking, wanting and visiting. Stems (`statement.stem`).
MANY_VALUED = frozenset(stem(w) for w in (
    "like likes love loves enjoy enjoys adore adores hate hates dislike dislikes fancy appreciate admire "
    "have has own owns keep keeps collect collects "
    "play plays read reads watch watches listen listens hear eat eats drink drinks cook cooks bake bakes "
    "grow grows sing sings draw draws paint paints write writes knit knits build builds make makes "
    "speak speaks know knows "
    "want wants wish wishes hope hopes plan plans dream dreams "
    "visit visits travel travels go goes attend attends volunteer volunteers"
).split())
#: The first person singular: only the speaker. "We" may be a team, a shop, a family: it may stand for a noun.
_FIRST = frozenset("i i'm i've i'd i'll".split())
_PERSONS = frozenset("i we you they he she i'm we're you're they're he's she's i've we've they've".split())
_COPULAS = _COPULA | frozenset("be been being 'm 're 's isn't aren't wasn't weren't".split())
#: Words between a subject and its verb: auxiliaries and modals (`statement._AUX`, less the copulas and "have",
#: which are read), negation and adverbs.
_SKIP = (_AUX - _COPULAS - {"has", "have", "had"}) | frozenset(
    "hasn't haven't not never no really also still just only usually always often sometimes absolutely definitely "
    "currently now truly very totally actually mostly all both longer".split()
)
_OWNERS = frozenset("my our your his her their".split())
#: "is allowed to", "are able to": a modal said with a copula; the verb after "to" is the predicate.
_MODAL_ADJECTIVES = frozenset("allowed permitted able supposed meant required".split())
_DETERMINERS = _STATEMENT_DETERMINERS | frozenset("all both some any".split())
_OF = frozenset("for of in at on with from to by about".split())
#: "have" as an auxiliary ("have been", "has visited") is skipped; as a verb ("have two sons") it is the predicate.
_HAVE = frozenset("has have had".split())
_PREPOSITIONS = frozenset("in at from on near with inside outside by into to of".split())
#: Nouns that name a person: "my mom was a hippie", "my brother is a nurse" describe a person, who is in many
#: classes at once.
_PERSON_NOUNS = frozenset(stem(w) for w in (
    "mom mum mother dad father parent parents sister brother sibling wife husband partner spouse son daughter "
    "child children kid kids boyfriend girlfriend fiance fiancee friend grandma grandmother grandpa grandfather "
    "grandparents aunt uncle cousin niece nephew family boss neighbour neighbor roommate"
).split())


@dataclass(frozen=True, slots=True)
class Predicate:
    """The subject (the first person singular, another pronoun, or the subject's head noun) and the verb
    (its stem; "be" for a copula, with the preposition that follows it, if any)."""

    subject: frozenset[str]
    person: str  # "first", "pronoun", "noun"
    verb: str
    preposition: str | None

    @property
    def about_a_person(self) -> bool:
        return self.person != "noun" or bool(self.subject & _PERSON_NOUNS)


@lru_cache(maxsize=16384)
def predicate(text: str) -> Predicate | None:
    """The predicate of `text`'s first clause, or None when no subject and verb are found."""
    toks = tokenize(text.split(";")[0].split(". ")[0])
    if not toks:
        return None
    copula = False
    if toks[0] in _PERSONS:
        person = "first" if toks[0] in _FIRST else "pronoun"
        subject: frozenset[str] = frozenset({"i" if person == "first" else toks[0].split("'")[0]})
        copula = toks[0] in _COPULAS or toks[0].endswith(("'m", "'re", "'s"))
        i = 1
    else:
        v = next((k for k, t in enumerate(toks) if k > 0 and (t in _COPULAS or t in _SKIP or t in _HAVE)), None)
        if v is None and len(toks) > 2 and toks[0] in _OWNERS and toks[2] not in stop_words():
            v = 2  # "My parents work in telecommunications.": a possessive, its noun, the verb
        if v is None:
            return None
        person = "noun"
        subject = _head(toks[:v])
        i = v
    while i < len(toks) and (
        (toks[i] in _SKIP and not _done(toks, i)) or toks[i] in _COPULAS or (toks[i] in _HAVE and _auxiliary(toks, i))
    ):
        copula = copula or toks[i] in _COPULAS
        i += 1
    if copula and i + 2 < len(toks) and toks[i] in _MODAL_ADJECTIVES and toks[i + 1] == "to":
        copula, i = False, i + 2  # "aren't allowed to feed" is "may feed" denied
    past = i + 2 < len(toks) and toks[i] == "used" and toks[i + 1] == "to"
    if past:
        i += 2  # "I used to read Michener": a past habit, a slot of its own beside the present one
    if i >= len(toks):
        return None
    word = toks[i]
    if copula and not (word.endswith("ing") and len(word) > 4):
        return Predicate(subject, person, "be", word if word in _PREPOSITIONS else None)
    verb = stem(IRREGULAR.get(word, word))
    return Predicate(subject, person, f"used to {verb}" if past else verb, None)


def _head(words: list[str]) -> frozenset[str]:
    """The head noun of a subject: its last content word before a preposition ("my tax code for the council job":
    code; "my dog's name": name; "these days my coffee order": order)."""
    head = ""
    for w in words:
        if w in _OF and head:
            break
        if w not in _DETERMINERS and w not in _OF:
            head = w
    return frozenset({stem(head)}) if head else frozenset()


def _done(toks: list[str], i: int) -> bool:
    """Whether the "do" at `i` is the main verb: a noun phrase follows it ("We do a live stream", "don't do the
    Friday stream")."""
    return toks[i] in {"do", "does", "did"} and i + 1 < len(toks) and toks[i + 1] in _DETERMINERS


def _auxiliary(toks: list[str], i: int) -> bool:
    """Whether the "have" at `i` is an auxiliary: a participle or an adverb follows it ("have been", "has
    never", "had visited")."""
    nxt = toks[i + 1] if i + 1 < len(toks) else ""
    return nxt in _SKIP or nxt in _COPULAS or nxt.endswith(("ed", "en")) or nxt in {"got", "gone", "done", "seen"}


def same_subject(a: Predicate, b: Predicate) -> bool:
    """Whether the two subjects may be one: the first person is only itself; a pronoun may stand for any noun;
    two nouns share a word."""
    if (a.person == "first") != (b.person == "first"):
        return False
    if a.person == "noun" and b.person == "noun":
        return bool(a.subject & b.subject)
    return True


def another_slot(a: str, b: str, *, update: bool = False) -> bool:
    """Whether `a` and `b` say something of another subject or with another verb (and preposition), so that a
    swapped or denied word is no conflict: "I want a job" / "I don't have a job", "I am in a band" / "Luis is not
    in my band", "I am from Michigan" / "I am in Japan", "I used to live in Texas" / "I live in Maine", "My dog is a
    boxer" / "My dog's name is Tigger". False when either predicate is not read. `update`: one says it is newer,
    and a change is told with a verb of its own ("We use PostgreSQL" / "We switched the database to MySQL"), so
    only two copulas are compared ("I am from Michigan" / "I am in Japan right now")."""
    pa, pb = predicate(a), predicate(b)
    if pa is None or pb is None or (update and not pa.verb == pb.verb == "be"):
        return False
    if (pa.verb, pa.preposition) != (pb.verb, pb.preposition) or not same_subject(pa, pb):
        return True
    return pa.person == "noun" and pb.person == "noun" and pa.subject != pb.subject


def accumulates(a: str, b: str) -> bool:
    """Whether `a` and `b` give two values of one predicate that holds many: the same verb of `MANY_VALUED`
    ("I speak English" / "I speak French"), or a copula describing the same person without a place ("I am
    vegan" / "I am Catholic", "My mom was a hippie" / "My mom was a music teacher")."""
    pa, pb = predicate(a), predicate(b)
    if pa is None or pb is None or pa.verb != pb.verb or not same_subject(pa, pb):
        return False
    if pa.verb == "be" and pa.preposition == pb.preposition == "to":
        return True  # "I've been to Athens." / "I've been to Greece.": places visited, not where one is
    if pa.verb == "be":
        return pa.preposition is None and pb.preposition is None and pa.about_a_person and pb.about_a_person
    return pa.verb.removeprefix("used to ") in MANY_VALUED


#: Words that pick one member of several in a subject: "one of my children", "my other child", "my eldest".
_PICKERS = re.compile(r"(?i)\b(one\s+of|other|another|eldest|oldest|youngest|middle|younger|older)\b")


def other_members(a: str, b: str) -> bool:
    """Whether the two subjects pick different members of several ("One of my children is 8." / "My other child is
    9."; "My eldest is 12." / "My youngest is 7."): their values are of two members, not one value changed. The
    same picker on both sides ("My eldest is 12." / "My eldest is 13.") is one member."""
    pa, pb = _PICKERS.findall(_subject_part(a)), _PICKERS.findall(_subject_part(b))
    return bool(pa and pb) and {w.lower() for w in pa} != {w.lower() for w in pb}


def _subject_part(text: str) -> str:
    """The words before the first copula or auxiliary (the whole text when there is none)."""
    m = _FIRST_VERB.search(text)
    return text[: m.start()] if m else text


_FIRST_VERB = re.compile(r"(?i)\b(?:am|is|are|was|were|has|have|had)\b")
