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

from dataclasses import dataclass
from functools import lru_cache

from memgraph.ingest.statement import stem
from memgraph.text import tokenize

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
_FIRST = frozenset("i we i'm we're i've we've i'd we'd i'll we'll".split())
_PERSONS = frozenset("i we you they he she i'm we're you're they're he's she's i've we've they've".split())
_COPULAS = frozenset("am is are was were be been being 'm 're 's i'm we're you're they're he's she's".split())
_SKIP = frozenset(
    "do does did don't doesn't didn't not never no can can't cannot could will would won't should must may might "
    "hasn't haven't i've we've they've really also still just only usually always often sometimes "
    "absolutely definitely currently now truly very totally actually mostly all both".split()
)
#: Irregular forms the stemmer leaves apart from their verb.
_IRREGULAR = {"has": "have", "had": "have", "goes": "go", "went": "go", "made": "make", "knew": "know",
              "spoke": "speak", "ate": "eat", "drank": "drink", "wrote": "write", "read": "read", "sang": "sing"}
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
    """The subject (a first-person pronoun, another pronoun, or the subject's content words) and the verb
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
        if v is None:
            return None
        person = "noun"
        subject = frozenset(stem(t) for t in toks[:v] if t not in {"my", "our", "the", "a", "an", "his", "her",
                                                                        "their", "your"})
        i = v
    while i < len(toks) and (toks[i] in _SKIP or toks[i] in _COPULAS or (toks[i] in _HAVE and _auxiliary(toks, i))):
        copula = copula or toks[i] in _COPULAS
        i += 1
    if i >= len(toks):
        return None
    word = toks[i]
    if copula and not (word.endswith("ing") and len(word) > 4):
        return Predicate(subject, person, "be", word if word in _PREPOSITIONS else None)
    return Predicate(subject, person, stem(_IRREGULAR.get(word, word)), None)


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


def denies_another(a: str, b: str) -> bool:
    """Whether a negation between `a` and `b` denies something the other does not assert: another verb ("want a
    job" / "don't have a job") or another subject ("I am in a band" / "Luis is not in my band"). False when
    either predicate is not read."""
    pa, pb = predicate(a), predicate(b)
    if pa is None or pb is None:
        return False
    return pa.verb != pb.verb or not same_subject(pa, pb)


def accumulates(a: str, b: str) -> bool:
    """Whether `a` and `b` give two values of one predicate that holds many: the same verb of `MANY_VALUED`
    ("I speak English" / "I speak French"), or a copula describing the same person without a place ("I am
    vegan" / "I am Catholic", "My mom was a hippie" / "My mom was a music teacher")."""
    pa, pb = predicate(a), predicate(b)
    if pa is None or pb is None or pa.verb != pb.verb or not same_subject(pa, pb):
        return False
    if pa.verb == "be":
        return pa.preposition is None and pb.preposition is None and pa.about_a_person and pb.about_a_person
    return pa.verb in MANY_VALUED
