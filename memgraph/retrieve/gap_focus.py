"""Gap detection, what a served memory covers: the question's focus words and whether a memory says them (by
word, by meaning, by a typo, by an acronym's words, by the bare noun of a kind), whose value is asked, the case a
rule covers, the words a memory borrows from the memories linked to it. `memgraph.retrieve.gaps` decides with it."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from memgraph.ingest.statement import stem
from memgraph.ingest.values import values
from memgraph.retrieve.gap_question import QUESTION_WORDS, asked, clauses
from memgraph.retrieve.gap_values import CALENDAR, bounded, spoken_time
from memgraph.text import stop_words, tokenize


@dataclass(frozen=True)
class ServedHit:
    """One served memory as gap detection sees it: its text and its cosine to the query (None: unknown)."""

    content: str
    similarity: float | None


#: Texts -> their embeddings, one row each (the engine's embedder): lets judge test whether a memory covers a word.
Encoder = Callable[[Sequence[str]], np.ndarray]


@dataclass(frozen=True)
class FocusTest:
    """How judge tests a candidate answer for the question's focus words (see `uncovered`): a word is covered
    when the memory holds a word at least `word_cosine` similar to it, or when taking the word out of the question
    lowers the memory's cosine to it by at least `drop`."""

    encode: Encoder
    word_cosine: float
    drop: float
    #: A served memory below the answer cosine but at least this similar is a candidate too, when every focus word
    #: is in it, or a word of it at least `weak_word_cosine` similar ("Can I eat parmesan?" / "… hard cheese is
    #: fine", cosine 0.33): a weak match must name what is asked; the drop test is not trusted that far down.
    weak_cosine: float = 1.0
    weak_word_cosine: float = 1.0


SLOT_WORDS = frozenset(
    "time times day days date dates week weeks month months year years name names number numbers size amount "
    "kind kinds type types sort much many long often soon far thing things anything something everything "
    "use uses used get gets got go goes went come comes came put keep make makes do does did have has had need needs "
    "want new "
    "normal usual typical current currently responsible main exact moment step steps "
    # a time limit is the kind of date asked ("when's my registration renewal deadline?" / "… before 31 March")
    "deadline deadlines due cutoff latest earliest".split()
)
_EXCLUDED = re.compile(r"(?i)\b(?:apart\s+from|except(?:\s+for)?|other\s+than|besides|aside\s+from)\b[^,;?!.]*")
#: Past participles that do not end in -ed ("where are the spare keys *kept*?", "where are the deposits *held*?").
_IRREGULAR_PARTICIPLES = (
    "kept|held|put|set|found|built|sent|made|done|written|run|paid|bought|sold|taught|brought|shown|given|known|"
    "seen|left|hidden|hung|stuck|laid|spent|shut|read|told|said|met|led|fed|worn|drawn|taken|got|gotten|stood"
)
#: Words that soften or stress a question without saying what it asks ("can I *just* dunk …", "are we *still*
#: going", "when does the money *actually* arrive?"): never focus words, and skipped before a question's verb.
_HEDGE = r"just|still|really|actually|also|even|ever|only|already|always|usually|then|basically|honestly"
_HEDGES = frozenset(_HEDGE.split("|"))
#: The verbs of a request to be told ("*forgot* the code to get in", "*remind* me …", "*pull* up the booking ref",
#: "I *wanted* to ask when ..."): how it asks, not what.
_REQUEST_VERBS = frozenset(
    "forgot forget forgotten remember remind recall pull dig fetch wanted wanting meant asking checking".split()
)
#: The verb of a question asked about a subject ("how do I *ship* …", "which seat should I *book*", "how much does
#: the babysitter *cost*") and the word after "how" ("how *big*"): what is done or measured, said in other words
#: by the answer ("released with", "charges 12 pounds", "a target of six months"). Not a focus word.
_QUESTION_VERB = (
    re.compile(
        r"(?i)\b(?:do|does|did|can|could|should|shall|will|would|may|might|must|am|are|is)\s+"
        r"(?:i|we|you|he|she|they|it|people|folks?|everyone|everybody|anyone|anybody|someone|somebody|"
        r"(?-i:[A-Z][a-z])[\w'’-]*)\s+(?:(?:\w+ly|" + _HEDGE + r")\s+)?(?P<v>[\w'-]+)"
        r"(?:\s+(?P<p>up|down|in|out|on|off|aside|back|away|over|by))?"
    ),
    re.compile(
        r"(?i)\b(?:what|which|how|when|where|who|whom)\b[^?]*?\b(?:do|does|did)\s+"
        r"(?:the|my|our|your|his|her|their|this|that)\s+(?:[\w'’-]+\s+){0,2}?"
        r"(?P<end>[\w'-]+)(?:\s+(?:for|about|with|to|on|of|at|from|in|into|up|out|over|by))?\s*[?.!]*\s*$"
    ),  # "what did the Bakers *ask* for?"
    re.compile(r"(?i)\bhow\s+(?P<how>[\w'-]+)"),
    # "where is the CI workflow defined?": a participle closing the question
    re.compile(
        r"(?i)\b(?:is|are|was|were)\s+(?:the|my|our|your|his|her|their|this|that)\s+(?:[\w'’-]+\s+){0,2}?"
        r"(?P<ed>[\w'-]+ed|" + _IRREGULAR_PARTICIPLES + r")\s*[?.!]*\s*$"
    ),
    re.compile(r"(?i)\bwho\s+(?!is\b|are\b|was\b|were\b|has\b|have\b|had\b)(?P<who>[\w'-]+)"),  # "who runs …"
    # "who needs to *look* at my migration?": the verb after need/have to is what is done, said otherwise
    re.compile(r"(?i)\b(?:who|what|which|where|when|how)\b[^?,]*?\b(?:need|needs|has|have|got)\s+to\s+(?:be\s+)?(?P<inf>[\w'-]+)"),
    # "is it ok to *fire* them off to Ulrike?": the action asked about, said otherwise by the rule
    re.compile(r"(?i)\b(?:ok(?:ay)?|fine|alright|allowed|safe)\s+to\s+(?P<ok>[\w'-]+)"),
    # "what's the latest I can *send* the FPS?": the verb after its subject inside a question
    re.compile(
        r"(?i)\b(?:what|which|when|where|how|who)\b[^?,]*?\b(?:i|we|you|they)\s+"
        r"(?:can|could|should|must|may|might|need\s+to|have\s+to)\s+(?:(?:\w+ly|" + _HEDGE + r")\s+)?(?P<decl>[\w'-]+)"
    ),
    # a verb in its -ing form after its subject ("how many people *are coming*?") or before its object ("*adding* a
    # new gpio"): what is done, said otherwise ("40 evening guests"). Not after a question's opening auxiliary,
    # where the -ing word is a noun ("is *parking* free at the hotel?"), nor after "'s", which may be a possessive
    # ("the pool's *opening* time").
    re.compile(r"(?i)(?:(?<=\w\s)(?:is|are|was|were|am)|(?<=\w)['’]re)\s+(?P<ing>[a-z]{2,}ing)\b"),
    re.compile(r"(?i)\b(?P<ger>[a-z]{3,}ing)\s+(?:a|an|the|my|our|his|her|their|your|this|that|these|those|some)\b"),
    # "the cut off time *for asking* for a home visit": an -ing verb after a preposition is what is done
    re.compile(r"(?i)\b(?:for|about|before|after|when|while|without|by)\s+(?P<pger>[a-z]{3,}ing)\s+"
               r"(?:for|about|to|on|in|with|at|from|into|up|out|off|over)\b"),
    # "this python file", "the new pipeline": the thing at hand, not something stored
    re.compile(r"(?i)\b(?:this|that|these|those|the\s+new|a\s+new)\s+(?P<d1>[\w'-]+)(?:\s+(?P<d2>[\w'-]+)(?=\s*[?.!]*\s*$))?"),
)
#: A question verb that picks the end of what it is about is what is asked: "When does the café *close*?" is not
#: answered by "I work at the campus café on Wednesday and Friday afternoons.". An event's time is its start,
#: so "start" and "begin" stay question verbs.
_END_VERBS = frozenset("close closes shut shuts end ends finish finishes stop stops expire expires".split())
#: "What language is …", "which pager tool do …": the words between the question word and the verb name the
#: answer's type, which the answer is an instance of and seldom repeats ("written in Go", "lives in Opsgenie").
#: On the labelled cases (dev, dev2, dev3, first held-out) they were the focus words most often wrongly uncovered.
_ANSWER_TYPE = (
    re.compile(
        r"(?i)^\W*(?:what|which)\s+(?P<t>(?:[a-z][\w'-]*\s+){1,2}?)"
        r"(?:do|does|did|is|are|was|were|should|can|could|will|would|have|has)\b"
    ),
    re.compile(r"(?i)^\W*(?:what|which)\s+(?P<t>[a-z][\w'-]*)\s+(?!of\b)"),
)
#: A focus word this long or longer that begins a memory's word is covered: an abbreviation ("prod" /
#: "production", "physio" / "physiotherapist").
_PREFIX_MIN = 4
#: The full-text stop list holds nouns that are what a question asks about ("the *fire*
#: alarm", "the *mill*", "the phone *bill*", "the *front* door"): they are focus words and a memory's words here.
_CONTENT_STOPS = frozenset(  # not "call": "can I put a call in at 9?" asks about meetings, said otherwise
    "bill fire interest mill system front back top bottom side full empty move part detail thick thin cry "
    "serious describe".split()
)


#: Texting abbreviations: a politeness or a generic word, never what is asked ("duty dr's direct line *pls*", "how
#: long does fail2ban ban *ppl* for").
_CHAT = frozenset("pls plz ppl thx tho btw imo lol".split())


def _function_word(w: str) -> bool:
    return w in stop_words() and w not in _CONTENT_STOPS


#: Focus words a memory must cover to be forgiven one more it does not (`gaps.judge`).
FOCUS_ENOUGH = 3
#: Words of at most this many letters are not tested (they are mostly function words the stop list lacks).
_FOCUS_MIN_LETTERS = 3


def focus_words(question: str, *, typed: bool = False) -> list[str]:
    """The words a memory must cover to answer `question`: its content words, less question words, the answer's
    slot (`SLOT_WORDS`) and type (`_ANSWER_TYPE`; kept with `typed`), the question's own verb (`_QUESTION_VERB`)
    and names (capitalised words: the subject, which an answer may give by another name: "the Lisbon hotel" /
    "Casa do Largo")."""
    # one word, a slot word like "deadline": "the cut-off", "the cut off time for …"
    question = re.sub(r"(?i)\bcut-off\b|\bcut\s+off\b(?=\s+(?:time|date|day|point)\b|\s*[?.!]*\s*$)", "cutoff",
                      question)
    # what is excluded is not asked: "who has a spare key *apart from the key safe*?"
    question = _EXCLUDED.sub(" ", question)
    skip: set[str] = set()
    for pattern in _QUESTION_VERB:
        for m in pattern.finditer(question):
            skip |= {w.lower() for w in m.groups() if w} - _END_VERBS
    # Title-case words are names; an all-capitals word is an acronym, often the very thing asked ("the SLA")
    # a plural possessive is the name too ("the *Oduyas'* papers"); a quoted word is the term asked about ("how
    # does Vossberg want 'Spindel' translated?")
    names = {_owner(re.sub(r"(?<=s)['’]$", "", w).lower())
             for w in re.findall(r"(?<![‘'\"“])\b[A-Z][a-z][\w'’-]*", question)}
    for pattern in () if typed else _ANSWER_TYPE:  # typed: the answer's type words count (a question's length)
        for clause in clauses(question):  # after its scene too: "adding a new gpio, *which overlay file* do I …"
            for m in pattern.finditer(clause):
                skip |= set(tokenize(m.group("t")))
    out: list[str] = []
    for w in _owners(tokenize(question)):
        if (
            _function_word(w) or w in QUESTION_WORDS or w in SLOT_WORDS or w in _CHAT or w in skip or w in names
            or w in _HEDGES or w in _REQUEST_VERBS
            or len(w) < _FOCUS_MIN_LETTERS or not w.isalpha() or w in out
        ):
            continue
        out.append(w)
    return out


#: Words that take "'s" as a contraction of "is" or "us", never owning: "it's", "that's", "let's" (`_owner`).
_CONTRACTED = frozenset("it that there here he she let what who where when how why everyone everything one".split())


#: Words after "'s" that make it "is" or "has": "the van's *making* a noise", "the boiler's *not* working", "Sam's
#: *been* told" (a possessive is followed by what is owned).
_AFTER_IS = frozenset("a an the not been got gone going done just still already always never really very so too no "
                      "on off in out up down over back here there fine ok okay broken late early due".split())


def _owner(word: str, after: str | None = None) -> str:
    """A possessive token as the word that owns: "plumber's" -> "plumber", so that "i forgot the plumber's number"
    has a focus word ("plumber") a memory must say; before, the token was not alphabetic and the question had none
    ("Amy's mum's name", "the association's open day" lost "mum" and "association" the same way). Not "'s" as "is"
    (`_CONTRACTED`, or `after` an -ing verb or a word of `_AFTER_IS`): "the van's making a weird noise"."""
    base = re.sub(r"['’]s$", "", word)
    if after is not None and (after.endswith("ing") or after in _AFTER_IS):
        return word
    return base if base != word and base.isalpha() and base not in _CONTRACTED else word


def _owners(words: list[str]) -> list[str]:
    """`_owner` of each token, read with the token after it."""
    return [_owner(w, words[i + 1] if i + 1 < len(words) else None) for i, w in enumerate(words)]


_POSSESSIVE = re.compile(r"(?<![.!?]\s)(?<!^)\b([A-Z][a-z][\w-]*)['’]s\b")


def possessors(query: str) -> list[str]:
    """The people or things whose attribute the question asks ("What's *Kofi's* day rate?"): an answer must name
    them, itself or through a linked memory, or it is someone else's value ("My day rate … is 650 pounds").
    Unlike the other names of a question, a possessor is not given by another name in the answer."""
    return [
        m.group(1).lower() for m in _POSSESSIVE.finditer(asked(query))
        if m.group(1).lower() not in QUESTION_WORDS and m.group(1).lower() not in CALENDAR  # "Saturday's walk"
    ]


_NAME_WORD = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][a-z][\w'’-]*")


def subject_names(query: str) -> list[str]:
    """The names the question is about ("the gas safety certificate date for *Mill Lane*", "the *Dragon Ride*"),
    not the first word of a sentence or a calendar word, nor one said in the plural ("on *Mondays*": a record
    writes the day "Mon/Wed/Fri", and a day is when, not whose)."""
    out: list[str] = []
    for m in _NAME_WORD.finditer(asked(query)):
        w = re.sub(r"['’]s$", "", m.group(0)).lower()
        calendar = w in CALENDAR or (w.endswith("s") and w[:-1] in CALENDAR)
        if w not in QUESTION_WORDS and not calendar and w not in stop_words() and w not in out:
            out.append(w)
    return out


#: A yes/no or how question about doing something ("can I run terraform apply from my machine for a quick prod fix?",
#: "is it fine to return anyhow::Error from a library function?", "how can I test the webhook on my laptop?").
_CASE_QUESTION = re.compile(
    r"(?i)^\W*(?:(?:and|so|ok(?:ay)?|also|hey|hi|please|just)[,:]?\s+)*"
    r"(?:(?:is\s+it\s+)?(?:ok(?:ay)?|fine|alright|allowed|safe)\s+to\b|"
    r"(?:can|could|may|might|should|shall|must|do|does|did|is|are|am|will|would)\b|"
    r"how\s+(?:do|does|can|could|should|would|shall|will)\b)"
)
#: The circumstances of that case: the phrases after a preposition ("from my machine for a quick prod fix").
_ADJUNCT = re.compile(
    r"(?i)\b(?:from|for|on|in|at|with|while|during|into|onto|without|via|through|inside|outside)\s+(?P<a>[^,;?!.]+)"
)
#: A memory that states a rule or gives the method: what it says holds for every case of its action.
_RULE = re.compile(
    r"(?i)\b(?:always|never|every|whenever|wherever|any|must|mustn't|only|allowed|can't|cannot|don't|do\s+not|"
    r"shouldn't|should\s+not|no|not|required)\b|`[^`]+`"
)


#: How and when the asker means to do it, which a rule about the action need not say: "can I have a *quick* look in
#: Hive 2?" / "never open it after 4 pm", "are we still going *tomorrow*?" / "If … an amber wind warning …, the walk
#: is off".
_CASE_MANNER = frozenset("quick quickly brief briefly today tomorrow tonight now".split())


def asks_case(question: str) -> bool:
    """A yes/no or how question about doing something (`_CASE_QUESTION`)."""
    return bool(_CASE_QUESTION.match(question))


def case_words(question: str) -> set[str]:
    """The words of a yes/no or how question's circumstances: a rule about the action ("Never run `terraform
    apply` locally against prod"), or its method ("test them locally with `stripe listen`"), answers for any case
    of it without naming the case's circumstances ("my machine", "a quick fix", "my laptop", "a 20 euro lunch").
    On the labelled cases before this rule, the focus-word test logged 6 answered questions of that kind and
    none it found right depended on a circumstance. Empty for other questions: in "what fertiliser do I use on the
    rhubarb?" the rhubarb is what is asked."""
    if not _CASE_QUESTION.match(question):
        return set()
    words = set(tokenize(question))
    return {w for m in _ADJUNCT.finditer(question) for w in tokenize(m.group("a"))} | (words & _CASE_MANNER)


def outside_case(missing: list[str], case: set[str], content: str) -> list[str]:
    """The uncovered focus words less the asked case's circumstances, when `content` is a rule or a method."""
    return [w for w in missing if w not in case] if case and states_rule(content) else missing


def states_rule(content: str) -> bool:
    """`content` states a rule (never, must, only, no, a limit) or a method (a command)."""
    return bool(_RULE.search(content) or bounded(content))


#: A memory that states a habit or a rule speaks of every case: "Martin always flies in an aisle seat, British
#: Airways where possible" answers for the Boston flight although it names other things.
_GENERAL = re.compile(r"(?i)\b(?:always|never|every|whenever|wherever|any)\b")


def other_name(content: str, query: str) -> bool:
    """The memory names something the question does not: it may speak of another subject of the same kind
    ("The gas safety certificate for *Albert Road* …" for Mill Lane's), unless it states a rule (`_GENERAL`)."""
    if _GENERAL.search(content):
        return False
    asked_names = {stem(w) for w in subject_names(query)} | {stem(w) for w in tokenize(query)}
    return any(stem(w) not in asked_names for w in subject_names(content))


def uncovered(query: str, content: str, test: FocusTest) -> list[str]:
    """The question's focus words that `content` does not cover, neither by the word (or its stem) nor in
    meaning. Meaning, measured with the embedding model two ways: a word of the memory close to the focus word
    ("teaches" / "lessons", "plane" / "flights"), or the memory matching the question less once the word is taken
    out ("amoxicillin" / "penicillin", "package manager" / "pnpm"). A focus word neither test finds is what the
    question asks about and the memory does not say: "parking" for "The Lisbon hotel is Casa do Largo …",
    "SLA" for "The Nimbus API rate limit is 600 requests per minute."."""
    question = asked(query)
    have = {stem(w) for w in tokenize(content)}
    spelled = acronym_words(question, content) | kinds_of_subject(question, content) | day_parts(content)
    spelled |= said_by_kind(content)
    missing = [w for w in focus_words(question) if not stem_in(stem(w), have) and w not in spelled]
    if missing:  # "where do setings get saved?" / "Settings are stored in NVS": a typo is the word
        said = set(tokenize(content))
        missing = [w for w in missing if not any(_one_typo(w, t) for t in said)]
    if not missing:
        return []
    mem_words = [w for w in dict.fromkeys(tokenize(content)) if not _function_word(w) and not w.isdigit()]
    ablated = [re.sub(rf"(?i)(?<![\w'-]){re.escape(w)}(?![\w'-])", " ", question) for w in missing]
    texts = [question, content, *ablated, *missing, *mem_words]
    vecs = np.asarray(test.encode(texts), dtype=np.float32)
    vecs = vecs / np.maximum(np.linalg.norm(vecs, axis=1, keepdims=True), 1e-12)
    q, m = vecs[0], vecs[1]
    k = len(missing)
    drops = float(m @ q) - vecs[2 : 2 + k] @ m
    words = vecs[2 + k : 2 + 2 * k]
    near = (words @ vecs[2 + 2 * k :].T).max(axis=1) if mem_words else np.zeros(k, dtype=np.float32)
    return [w for w, d, c in zip(missing, drops, near, strict=True) if d < test.drop and c < test.word_cosine]


#: Parts of the day as (first hour, last hour): a clock time in one says it ("can I put a call in at 9 on Monday
#: *morning*?" / "No meetings before 9:30 on Mondays").
_DAY_PARTS = {"morning": (5, 12), "afternoon": (12, 18), "evening": (17, 23), "night": (20, 30), "tonight": (20, 30)}


def day_parts(content: str) -> set[str]:
    """The parts of the day the clock times of `content` fall in."""
    hours = {t // 60 for t in values(content).times}
    return {part for part, (a, b) in _DAY_PARTS.items() if any(a <= h < b or a <= h + 24 < b for h in hours)}


#: Words a question uses for what a kind of memory says in its own words: permission ("the max current we're
#: *allowed*?") is what a rule states ("must stay under 8 microamps"); an end verb ("when does my DBS *expire*?")
#: is said by any end ("runs out in October 2027"); "early" or "late" by a clock time ("why are we shutting
#: *early* on Thursday?" / "The surgery closes at 13:00 …"). The sentence model puts them far apart ("allowed" /
#: "must" 0.36, "expire" / "runs" 0.22, "early" / "closes" 0.25).
_PERMISSION = frozenset("allowed permitted ok okay fine supposed meant required allow permit".split())
_END_SAID = re.compile(
    r"(?i)\b(?:clos(?:e|es|ed|ing)|shut(?:s|ting)?|ends?|ended|ending|finish(?:es|ed|ing)?|stops?|stopped|"
    r"expir(?:e|es|ed|y|ing)|runs?\s+out|ran\s+out|until|till|valid\s+(?:to|through))\b"
)
_EARLY_LATE = frozenset("early earlier late later".split())


def said_by_kind(content: str) -> set[str]:
    """The question words `content` says by its kind (`_PERMISSION`, `_END_VERBS`, `_EARLY_LATE`)."""
    out: set[str] = set()
    if states_rule(content):
        out |= _PERMISSION
    if _END_SAID.search(content):
        out |= _END_VERBS
    if values(content).times or spoken_time(content):
        out |= _EARLY_LATE
    return out


_DETERMINERS = frozenset("the my our a an all any his her their your".split())


def kinds_of_subject(question: str, content: str) -> set[str]:
    """Words of the question that name a kind of what the memory states without qualification: "where are the
    *tenancy* deposits held?" / "Deposits are protected with the DPS." (the memory opens on the bare noun, so it
    speaks of every deposit). Not when the memory qualifies it otherwise ("The *team* offsite is in Sintra" does
    not answer "When is the next data science offsite?") or names it only in passing ("The library closes at
    midnight during exams" is about the library, not the databases exam)."""
    opening = [w for w in tokenize(content)[:3] if w not in _DETERMINERS]
    if not opening:
        return set()
    head = stem(opening[0])
    words = tokenize(question)
    return {
        w for w, nxt in zip(words, words[1:], strict=False)
        if stem(nxt) == head and w not in stop_words() and w.isalpha()
    }


_ACRONYM = re.compile(r"\b[A-Z][A-Z0-9]*[A-Z][A-Z0-9]*(?=s?\b)")


def acronym_words(question: str, content: str) -> set[str]:
    """Words of the question that an acronym says, one way or the other: "electrical inspection" / "The EICR …",
    "threshold power" / "My FTP …" (the initials of two or more adjacent content words, in order, begin or end an
    acronym of the memory), "SLA" / "service level agreement" (an acronym of the question spelled out in full).
    The sentence model does not link them (cosine 0.29 for "what's my threshold power?" / "My FTP was 245 watts")."""
    out: set[str] = set()
    for text, other in ((question, content), (content, question)):
        acronyms = {a.lower() for a in _ACRONYM.findall(other)}
        if not acronyms:
            continue
        words = [w for w in re.findall(r"[A-Za-z][\w'-]*", text) if w.lower() not in stop_words()]
        for i in range(len(words)):
            for j in range(i + 2, min(len(words), i + 5) + 1):
                initials = "".join(w[0] for w in words[i:j]).lower()
                full = initials in acronyms
                if full or (text is question and any(a.startswith(initials) or a.endswith(initials)
                                                     for a in acronyms)):
                    if text is question:
                        out |= {w.lower() for w in words[i:j]}
                    else:
                        out.add(initials)
    return out


#: Words shorter than this are not read as typos of another word ("cat" / "car" are two words).
_TYPO_MIN = 5


def _one_typo(a: str, b: str) -> bool:
    """`a` and `b` differ by one typo: a letter left out, added, changed, or two neighbours swapped ("shoud" /
    "should", "setings" / "settings", "florsit" / "florist"), both at least `_TYPO_MIN` letters long."""
    if a == b or min(len(a), len(b)) < _TYPO_MIN or abs(len(a) - len(b)) > 1 or not (a.isalpha() and b.isalpha()):
        return False
    if len(a) == len(b):
        diff = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]]
                                  and a[diff[1]] == b[diff[0]])
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    i = next((k for k, (x, y) in enumerate(zip(short, long_, strict=False)) if x != y), len(short))
    return short[i:] == long_[i + 1 :]


def stem_in(term: str, have: set[str]) -> bool:
    """`term` is among the stems `have`, or one begins the other (five letters or more: "physio"/"physiotherapi"),
    or it begins one of them (`_PREFIX_MIN`: "prod" / "product")."""
    return term in have or (
        len(term) >= 5 and any(len(h) >= 5 and (h.startswith(term) or term.startswith(h)) for h in have)
    ) or (len(term) >= _PREFIX_MIN and any(len(h) > len(term) and h.startswith(term) for h in have))


def _content_stems(text: str) -> set[str]:
    return {stem(w) for w in tokenize(text) if w not in stop_words() and not w.isdigit()}


def linked_words(content: str, served: Sequence[ServedHit], query: str) -> set[str]:
    """The words a candidate answer can borrow from the other served memories: those of a memory that names
    something the candidate names besides what the question names ("The Lisbon hotel is Casa do Largo" for
    "Check-in at Casa do Largo is from 15:00."). An unlinked memory's words are another subject's: "My insurance
    covers equipment …" does not make "My van … its MOT is due in March" say when the van insurance is due."""
    own = _content_stems(content)
    subject = own - _content_stems(query)
    out = set(own)
    for h in served:
        theirs = _content_stems(h.content)
        if theirs & subject:
            out |= theirs
    return out


def key_terms(query: str) -> set[str]:
    """The query's content words, stemmed, without question words."""
    return {stem(w) for w in tokenize(query) if w not in stop_words() and w not in QUESTION_WORDS}


def covers(content: str, terms: set[str]) -> bool:
    """A memory found by its words: it shares at least two of the query's key terms and half of them
    ("how do I install dependencies for the frontend?" / "The frontend uses pnpm; never run npm install …")."""
    if len(terms) < 2:
        return False
    have = {stem(w) for w in tokenize(content)}
    shared = {t for t in terms if t in have or (len(t) >= 5 and any(h.startswith(t) or t.startswith(h) for h in have
                                                                   if len(h) >= 5))}
    return len(shared) >= 2 and len(shared) * 2 >= len(terms)
