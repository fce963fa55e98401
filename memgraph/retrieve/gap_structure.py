"""Gap detection, whose value a served memory holds: the question's own subject, or a sibling of it.

A memory can hold a value of the kind asked and still answer another question: "how often does the Salesforce data
sync?" / "Raw Stripe data ... synced every 6 hours", "who owns the marketing marts?" / "... owns the finance
marts", "where's the eyewash station in lab 1?" / "... in Lab 2". The sentence model scores such a sibling close
to the question (it shares the frame and all but one word), and the focus-word test forgives the odd word by
meaning ("marketing" and "finance" are near in the embedding space), so the learned decision read these recalls as
answered (held-out 11: 6 of its 19 missed misses). What tells them apart is structure, not words: the question
names a subject (a name, an identifier, a numbered thing) the memory lacks while the memory names another, or the
question and the memory qualify the same word differently. Read by word only, no embedding (cheap, deterministic).

A memory can also name the question's subject and not say what is asked of it: "who's my examiner?" / "Exam entry
confirmed: Grade 5, Fri 20 Jun, 11:40, Candidate 0412.", "what's the excess on the policy?" / "Insurance: ...
classic policy with Footman James, limited to 3,000 miles" (held-out 20: 11 of its 25 missed misses, most of them a
notification's record). The sentence model and the focus test read such a record as near (the exam, the policy are
said); `asked_head` reads the word a what / which / who question asks for, and `head_absent` whether the memory says
it (on the read parts, the most similar memory lacking it: 67% misses, saying it: 29%).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from memgraph.ingest.statement import stem
from memgraph.retrieve.gap_fields import answering_field
from memgraph.retrieve.gap_focus import (
    SLOT_WORDS,
    ServedHit,
    acronym_words,
    focus_words,
    stem_in,
    subject_names,
)
from memgraph.retrieve.gap_question import QUESTION_WORDS, asked
from memgraph.retrieve.gap_values import expected_answer, holds_answer, holds_asked_values, is_role, tense_clash
from memgraph.text import stop_words, tokenize

#: A thing named by a word and a number: "lab 3", "Year 11", "room 4B", "gate 12".
#: "no. 10" is "no 10": the house at number 10 ("the people at no. 10" / "the Fosters at no. 14").
_NUMBERED = re.compile(r"(?i)\b([a-z]{2,})\.?\s+(\d+[a-z]?)\b")
#: A thing named by a word and a capital letter, as a numbered one is by a number: "Depot C", "Block B", "bay C",
#: "Plan B" (a sibling of "Depot A"). Not "I", not an initial before a name ("Dr K Ade"), not a letter that starts
#: an abbreviation ("gate A.1").
_LETTERED = re.compile(r"\b([A-Za-z]{2,})\s+([A-HJ-Z])\b(?![.\-/]\w)(?!\s+[A-Z][a-z])")
#: An identifier: "fct_subscriptions", "RAW.STRIPE", "v2", "A100".
_IDENTIFIER = re.compile(r"\b[A-Za-z]+[_.][A-Za-z_.]*[A-Za-z]\b|\b[A-Za-z]+\d[\w]*\b")
#: An acronym of the question: "SLA", "MOT".
_ACRONYM = re.compile(r"\b[A-Z]{2,}[a-z]?\b")
#: A name written with a capital inside, never at its start: "macOS", "iPad", "eBay" (`subject_names` reads only
#: capitalised words).
_MIXED_CASE = re.compile(r"\b[a-z]+[A-Z][A-Za-z]*\b")
#: An ordinal and the word it counts: "the *second Sunday*", "the *3rd floor*"; in a memory also a list of them
#: before the word ("the first and third Sundays").
_ORDINALS = "first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|\\d+(?:st|nd|rd|th)"
_ORDINAL_THING = re.compile(rf"(?i)\b({_ORDINALS})\s+([a-z]{{3,}})\b")
_ORDINAL_LIST = re.compile(rf"(?i)\b((?:(?:{_ORDINALS})(?:\s*,\s*|\s+and\s+|\s+or\s+|\s+))+)([a-z]{{3,}})\b")
#: A possessor and the word it owns, in any case: "dad's birthday", "Nomsa's place", "the twins' bedtime".
_OWNED = re.compile(r"(?i)\b([a-z][\w-]*)(?:['’]s|s['’])\s+(?=([a-z][\w-]{2,})\b)")
#: Words that take "'s" without owning: "what's the", "it's time", "that's when", "let's".
_NOT_OWNERS = frozenset("what when where who how it that there here let he she this everyone one".split())
#: Where a phrase ends: a word's qualifier never stands across these ("Wednesdays, Papier", "queues:\n- mailers").
_PHRASE_END = re.compile(r"[,;:.!?()\[\]\n\u2022]+|\s[-\u2013\u2014]\s")
#: A question that asks for a thing by its name: "what's the *excess* on ...", "who's my *examiner*?", "which
#: *class* ...". The word it asks for stands before the first preposition ("the door *code* for the clubhouse").
_WHAT_THING = re.compile(r"(?i)^\W*(?:what|which|who)(?:['’]?s|se|m)?\b")
_PREPOSITIONS = frozenset("of for on in at with to from about down up by over under near into onto between".split())
_CALLED = re.compile(r"(?i)\bcalled\b")
_NAMING = frozenset({"called", "named"})
_COPULAS = frozenset("is are was were".split())
#: "what's Angus *playing* off?", "what are the kids *arguing* at the regionals?", "what's the dog eating these
#: days?": "what", a form of "be", a subject and its verb in -ing, which ends the question or stands before a
#: preposition, a particle or a time: the thing asked is the verb's object, unnamed ("playing" is no word a memory
#: must say: "Handicap list: ... Angus 14"). "the team training schedule" goes on with its noun and is no verb.
_PROGRESSIVE = re.compile(
    r"(?i)^\W*what(?:['’]?s|\s+(?:is|are|was|were))\s+(?:(?:the|my|our|his|her|their|your|a|an)\s+)?"
    r"(?!(?:the|my|our|his|her|their|your|a|an)\b)[\w'’-]+(?:\s+[\w'’-]+)?\s+[a-z]{2,}ing"
    r"(?:\W*$|\s+(?:of|for|on|in|at|with|to|from|about|down|up|by|over|off|out|as|into|these|this|that|now|today|"
    r"tonight|tomorrow|then|next)\b)"
)
_AUXILIARIES = frozenset("is are was were does do did will can should has have had would could".split())
#: What is read of each served memory, for the most similar one and the most similar one holding the answer.
_PER_MEMORY = ("names_absent", "sibling_name", "lexical_left", "sibling_owner", "sibling_qualifier", "head_absent")
#: The features `structure_features` gives (bench/gaps_model.py adds them to older checkouts' rows).
FEATURES = (*(f"{p}_{k}" for p in ("best", "good") for k in _PER_MEMORY), "clean_best_sim", "whole_best_sim",
            "asked_subjects", "field_answer")


def _counts(word: str) -> bool:
    """`word` names a numbered thing ("lab 3", "no. 10"), not a function word before a value the question names ("is
    it *still 3* retries?", "was it 2 *or 3*", "back *to 0*"): those are no subject a memory must say."""
    w = word.lower()
    return w == "no" or w not in stop_words()


def _numbered(text: str) -> list[tuple[str, str]]:
    """(word, number or letter) of each numbered or lettered thing of `text`: "Lab 2, Depot B" -> [("Lab", "2"),
    ("Depot", "B")]; a stop word numbers nothing ("is it still 3", "is A")."""
    out = [(h, n) for h, n in _NUMBERED.findall(text)]
    return out + [(h, n) for h, n in _LETTERED.findall(text) if h.lower() not in stop_words()]


def asked_subjects(query: str) -> list[str]:
    """What the question is about, by its own words: its names (`subject_names`), acronyms, identifiers and
    numbered or lettered things, lowercased ("lab 1", "depot c", "fct_subscriptions", "salesforce")."""
    q = asked(query)
    out = list(subject_names(query))
    out += [m.group(0).lower() for m in _ACRONYM.finditer(q)]
    out += [m.group(0).lower() for m in _IDENTIFIER.finditer(q)]
    out += [f"{m.group(1).lower()} {m.group(2).lower()}" for m in _NUMBERED.finditer(q) if _counts(m.group(1))]
    out += [f"{h.lower()} {n.lower()}" for h, n in _LETTERED.findall(q) if h.lower() not in stop_words()]
    out += [m.group(0).lower() for m in _MIXED_CASE.finditer(q)]
    out += [f"{m.group(1).lower()} {m.group(2).lower()}" for m in _ORDINAL_THING.finditer(q)
            if m.group(2).lower() not in SLOT_WORDS and m.group(2).lower() not in stop_words()]
    return list(dict.fromkeys(out))


def asked_head(query: str) -> str | None:
    """The word a what / which / who question asks for: its last focus word before the first preposition or verb
    ("what's the pass *mark* for the exam?", "who's my *examiner*?", "what *call sign* is the club using?" ->
    "sign"); None when a verb comes first ("what does the museum ...": what is asked is in the verb), when a title
    is asked ("what's the show called": the thing is named, its name asked) and when the question asks a kind of
    value other than a name (a time, a date, a number, a price, a code: `holds_answer` reads the value, and its
    word is often a unit's, "rate" / "4.35%")."""
    q = asked(query)
    if not _WHAT_THING.match(q) or expected_answer(q) not in (None, "name") or _CALLED.search(q):
        return None
    if _PROGRESSIVE.match(q):
        return None  # "what's Angus playing off?": what is asked is the verb's object
    focus = set(focus_words(q, typed=True))
    words = tokenize(q)
    # "which command installs frontend packages?": a question word before its noun, and no verb word or preposition
    # to end the noun: where the thing ends is unknown (the last word is no head)
    open_ended = words[0] in ("what", "which") and len(words) > 1 and words[1] not in _COPULAS
    head = None
    for i, w in enumerate(words[1:]):
        if i == 0 and w in _COPULAS:  # "what *are* my exam pieces?"
            continue
        if w in _PREPOSITIONS or w in _AUXILIARIES:
            return head
        if w in focus and not (i == 0 and w.endswith("ing")):  # "who's *going* on the course": a verb
            head = w
    return None if open_ended else head


def _ordinal_things(content: str) -> list[tuple[set[str], str]]:
    """The ordinals of `content` and the stem of the word they count: "the first and third Sundays" ->
    ({"first", "third"}, "sunday")."""
    out = []
    for m in _ORDINAL_LIST.finditer(content):
        ordinals = {o.lower() for o in re.findall(rf"(?i)\b(?:{_ORDINALS})\b", m.group(1))}
        out.append((ordinals, stem(m.group(2).lower())))
    return out


def _stems(text: str) -> set[str]:
    return {stem(w) for w in tokenize(text)}


@dataclass(frozen=True)
class _Asked:
    """What the readings below take from the question, read once per recall rather than once per served memory."""

    subjects: list[str]  # `asked_subjects`
    stems: set[str]  # the stems of the subjects' words and of the question
    focus: list[str]  # the focus words of what is asked
    question: str  # what is asked (`asked`)
    head: str | None  # the stem of the word asked for (`asked_head`)
    owned: list[tuple[str, str]]  # its possessives (`_owned`)
    qualified: list[tuple[str, str]]  # its qualified words (`_qualified`)

    @classmethod
    def of(cls, query: str) -> _Asked:
        subjects = asked_subjects(query)
        stems = {stem(w) for s in subjects for w in tokenize(s)} | _stems(query)
        question = asked(query)
        head = asked_head(query)
        return cls(subjects, stems, focus_words(question), question, stem(head) if head else None, _owned(question),
                   _qualified(question))


def _said(subject: str, content: str, have: set[str], spelled: set[str]) -> bool:
    """`content` says `subject`: every word of it, by stem or prefix ("lab 1" needs "lab" and "1" side by side,
    "second sunday" the ordinal before the word), or its acronym spelled out (`spelled`: "PR" / "pull requests")."""
    if subject in spelled:
        return True
    ordinal = _ORDINAL_THING.fullmatch(subject)
    if ordinal:
        word = stem(ordinal.group(2))
        return any(ordinal.group(1) in ordinals and n == word for ordinals, n in _ordinal_things(content))
    if " " in subject:
        head, num = subject.split(" ", 1)
        return any(h.lower().startswith(head[:4]) and n.lower() == num for h, n in _numbered(content))
    return all(stem_in(stem(w), have) for w in tokenize(subject))


def _missing(q: _Asked, content: str, have: set[str]) -> list[str]:
    """The question's subjects `content` does not say."""
    if not q.subjects:
        return []
    spelled = acronym_words(q.question, content)
    return [s for s in q.subjects if not _said(s, content, have, spelled)]


def _names_absent(q: _Asked, missing: list[str]) -> float:
    return len(missing) / len(q.subjects) if q.subjects else 0.0


def _sibling_name(q: _Asked, content: str, missing: list[str]) -> bool:
    if not missing:
        return False
    things = [m for s in missing if (m := _ORDINAL_THING.fullmatch(s))]
    if things:  # an ordinal thing: the same word counted by another ordinal ("second Sunday" / "third Sundays")
        words = {stem(m.group(2)) for m in things}
        if any(n in words for _, n in _ordinal_things(content)):
            return True
    if any(" " in s and not _ORDINAL_THING.fullmatch(s) for s in missing):  # a numbered thing: another number
        heads = {s.split(" ", 1)[0][:4] for s in missing if " " in s}
        if any(h.lower()[:4] in heads for h, _ in _numbered(content)):
            return True
    theirs = {stem(w) for n in subject_names(content) for w in tokenize(n)}
    theirs |= {stem(m.group(0).lower()) for m in _MIXED_CASE.finditer(content)}
    theirs |= {stem(w) for m in _IDENTIFIER.finditer(content) for w in tokenize(m.group(0))}
    return bool(theirs - q.stems)


def _owned(text: str) -> list[tuple[str, str]]:
    """(owner, stem of the owned word) of each possessive in `text`: "mum's birthday 3 March" -> [("mum",
    "birthday")]."""
    return [(m.group(1).lower(), stem(m.group(2).lower())) for m in _OWNED.finditer(text)
            if m.group(1).lower() not in _NOT_OWNERS]


def _named(content: str) -> set[str]:
    """The words `content` writes with a capital, lowercased and stemmed: a person named there ("Rory's unicycle")."""
    words = {m.group(0).lower() for m in re.finditer(r"\b[A-Z][a-z]+\b", content)}
    return words | {stem(w) for w in words}


def _maybe_same(mine: str, theirs: str, named: set[str]) -> bool:
    """The question's owner or qualifier may be the memory's: one names a person by role or relation, the other by
    name ("my son's unicycle" / "Rory's unicycle": Rory may be the son; "dad's" / "mum's" are two people)."""
    return is_role(mine) and theirs in named and not is_role(theirs)


def _sibling_owner(q: _Asked, content: str, have: set[str]) -> bool:
    """The memory gives the same thing another owner: "when's dad's birthday" / "mum's birthday 3 March". Read in
    any case (`sibling_name` reads names by their capitals, which chat and dictation drop: "dad", "nomsa"); not
    when the question's owner is a role and the memory's a name (`_maybe_same`)."""
    theirs = _owned(content)
    named = _named(content)
    return any(h == head and y != owner and not stem_in(stem(owner), have) and not _maybe_same(owner, y, named)
               for owner, head in q.owned for y, h in theirs)


def _qualified(text: str) -> list[tuple[str, str]]:
    """(stem of the qualifier, the word it qualifies) of each two content words side by side within a phrase: "the
    XML importer" -> [("xml", "importer")]; "enhanced maternity pay" -> [("enhanc", "maternity"), ("matern", "pay")].
    A number, a stop word or a word of two letters is no qualifier ("deck 11", "my pay"), nor the word a question
    word asks for ("which *command* installs ...": the kind of thing asked, not a sibling's name); "called" and
    "named" qualify nothing ("what's the big lifeboat called?" / "a Shannon class called Elsie Mae": the name is
    asked and given, no thing shared). The qualified word is kept as written: a verb's other form is no shared thing
    ("command installs" / "npm install")."""
    def content(w: str) -> bool:
        return len(w) > 2 and not w.isdigit() and w not in stop_words()

    out = []
    for phrase in _PHRASE_END.split(text):
        words = tokenize(phrase)
        out += [(stem(a), b) for i, (a, b) in enumerate(zip(words, words[1:], strict=False))
                if content(a) and content(b) and b not in _NAMING and not (i and words[i - 1] in QUESTION_WORDS)]
    return out


def _sibling_qualifier(q: _Asked, content: str, have: set[str]) -> bool:
    """The memory qualifies a word of the question by another word: "the XML importer" / "The CSV importer expects
    UTF-8", "paternity pay" / "maternity pay: 16 weeks", "my SSS contribution" / "Pag-IBIG contribution, 600
    pesos". The question's qualifier is absent from the memory and the memory's from the question: a sibling of the
    thing asked, whose value is no answer (the sentence model and the focus test read the two as near)."""
    if not q.qualified:
        return False
    theirs = _qualified(content)
    named = _named(content)
    return any(h == head and mine != qual and not stem_in(qual, have) and mine not in q.stems
               and not _maybe_same(qual, mine, named) for qual, head in q.qualified for mine, h in theirs)


def _lexical_left(q: _Asked, have: set[str]) -> float:
    if not q.focus:
        return 0.0
    return sum(not stem_in(stem(w), have) for w in q.focus) / len(q.focus)


def _head_absent(q: _Asked, have: set[str]) -> bool:
    """The head word unsaid, by its stem or a prefix of three letters or more ("alk" / "alkalinity")."""
    head = q.head
    return head is not None and not (stem_in(head, have) or any(h.startswith(head) for h in have if len(head) >= 3))


def head_absent(query: str, content: str) -> bool:
    """The memory does not say the word the question asks for (`asked_head`): "who's my examiner?" / "Exam entry
    confirmed: Grade 5, Fri 20 Jun, 11:40, Candidate 0412." names the exam and not who examines. Read by the word,
    its stem or a prefix; the sentence model and the focus test read the record as near (the exam is said)."""
    return _head_absent(_Asked.of(query), _stems(content))


def names_absent(query: str, content: str) -> float:
    """The share of the question's subjects (`asked_subjects`) that `content` does not say; 0 when it names none."""
    q = _Asked.of(query)
    return _names_absent(q, _missing(q, content, _stems(content)))


def sibling_name(query: str, content: str) -> bool:
    """The memory speaks of another subject of the question's kind: a subject the question names is missing from
    it and it names one the question does not ("key safe code at The Old Forge" / "Gull Cottage's key safe ...";
    "lab 1" / "Lab 2")."""
    q = _Asked.of(query)
    return _sibling_name(q, content, _missing(q, content, _stems(content)))


def sibling_owner(query: str, content: str) -> bool:
    """The memory gives what the question asks of one owner to another ("when's dad's birthday" / "mum's birthday 3
    March"), in any case."""
    q = _Asked.of(query)
    return _sibling_owner(q, content, _stems(content))


def sibling_qualifier(query: str, content: str) -> bool:
    """The memory qualifies a word of the question differently ("the XML importer" / "The CSV importer ...")."""
    return _sibling_qualifier(_Asked.of(query), content, _stems(content))


def lexical_left(query: str, content: str) -> float:
    """The share of the question's focus words `content` does not say by the word, its stem or a prefix (no
    meaning test: a sibling word is near in meaning, "nitrate" / "magnesium")."""
    return _lexical_left(_Asked.of(query), _stems(content))


def structure_features(query: str, served: Sequence[ServedHit], *, weak_cosine: float) -> dict[str, float]:
    """Over the most similar served memory and the most similar one holding the kind of value asked (and the
    values named, of the same time): whether it says the question's subjects, speaks of a sibling, qualifies a
    shared word differently (`sibling_qualifier`), gives the thing asked another owner, how many focus words it
    lacks by the word; the best cosine of a memory holding the answer with none of these signs (`clean_best_sim`),
    and of one that also says every focus word (`whole_best_sim`); whether such a memory, at any cosine, has a field
    that answers by itself (`field_answer`: a record's cosine says little)."""
    q = _Asked.of(query)
    question = q.question  # (`asked(query)`, read once)
    expects = expected_answer(question)
    per = []
    for h in served:
        c = h.content
        have = _stems(c)
        missing = _missing(q, c, have)
        good = holds_answer(c, expects, query) and holds_asked_values(c, question) and not tense_clash(c, question)
        per.append({"sim": h.similarity or 0.0, "names_absent": _names_absent(q, missing),
                    "sibling_name": float(_sibling_name(q, c, missing)), "lexical_left": _lexical_left(q, have),
                    "sibling_owner": float(_sibling_owner(q, c, have)),
                    "sibling_qualifier": float(_sibling_qualifier(q, c, have)),
                    "head_absent": float(_head_absent(q, have)), "good": good,
                    "field": good and answering_field(c, query, question, expects, q.focus)})
    f: dict[str, float] = {}
    top = max(per, key=lambda p: p["sim"]) if per else None
    goods = [p for p in per if p["good"]]
    for k in _PER_MEMORY:
        f[f"best_{k}"] = float(top[k]) if top else (1.0 if k in ("names_absent", "lexical_left") else 0.0)
        # the most favourable memory holding the answer: the answer need not be the most similar one
        f[f"good_{k}"] = min((float(p[k]) for p in goods), default=1.0)
    clean = [p["sim"] for p in goods if not p["sibling_name"] and not p["names_absent"] and not p["sibling_owner"]
             and p["sim"] >= weak_cosine]
    f["clean_best_sim"] = max(clean, default=0.0)
    # one memory must both name the question's subjects and say what is asked of them: "where do I send Brandt's
    # invoices" / "Brandt sends manuals ..." + "Invoices to Halvorsen go to ..." is two halves of no answer
    whole = [p["sim"] for p in goods if not p["sibling_name"] and not p["names_absent"] and not p["sibling_owner"]
             and not p["lexical_left"] and p["sim"] >= weak_cosine]
    f["whole_best_sim"] = max(whole, default=0.0)
    f["asked_subjects"] = float(len(q.subjects))
    # a record's field that answers, whatever the record's cosine (`gap_fields`), of a memory naming the question's
    # subjects and no sibling of them
    f["field_answer"] = float(any(p["field"] and p["good"] and not p["sibling_name"] and not p["names_absent"]
                                  and not p["sibling_owner"] and not p["sibling_qualifier"] for p in per))
    return f
