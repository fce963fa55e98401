"""What one statement says, read without a parser: the words that frame it, the values it gives, its subject,
its polarity and its cues. The write-path decisions (`reconcile`) compare two statements by these.

- **values**: typed values (`values.py`: times, dates, weekdays, months, years, parts of the day, quantities),
  named entities, the complement of a copula ("is *vegetarian*", "is called *Biscuit*"), and either side of a
  common pair of opposites (left/right, positive/negative, …). A duplicate repeats every value; a conflict
  changes one.
- **frame**: the stemmed content words that are not cue words, light verbs or typed values; entity and
  complement words stay in it (a changed entity is a changed frame word *and* a changed value).
- **subject**: the content words before the main verb (the first auxiliary or copula, or the first -s verb
  after a noun): "The gym closes at 22:00" is about the gym. A swapped subject is another statement, not a
  changed value, unless the statement is an identity ("Lena is my manager" = "My manager is Lena").
- **cues**: a correction ("actually", "no, …", "not X but Y"), an update ("now", "moved to", "was raised to"),
  an additive marker ("also", "too": one more fact, not a replacement), a past episode ("went hiking"), a
  question (questions and greetings assert nothing).

Stemming is Snowball English (PyStemmer), so "invoices"/"invoice" and "deploying"/"deploy" meet.
"""

from __future__ import annotations

import re
import sys
import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Generic, TypeVar

from memgraph.ingest import chatter, deltas, hedges, signal_words, signals
from memgraph.ingest.clean import strip_code
from memgraph.ingest.statement_words import (
    _AFTER_VALUE,
    _AGE,
    _AUX,
    _BOUND,
    _CONDITION,
    _COPULA,
    _DETERMINERS,
    _FRONTED,
    _IDENTITY_DET,
    _LABEL,
    _NAMING,
    _NOT_X,
    _OPPOSITES,
    _ORDINAL_DIGITS,
    _ORDINAL_NUMBER,
    _ORDINALS,
    _PARTICIPLES,
    _PREFERENCE_ORDER,
    _PRONOUNS,
    _RELAYED,
    _RELAYED_AFTER,
    _REPLACED_FOLDED,
    CUE_WORDS,
    LIGHT_VERBS,
)
from memgraph.ingest.units import UNIT_WORDS
from memgraph.ingest.values import EMPTY, NO_VALUES, Values, frozen, masked, values
from memgraph.text import stem as stem_tokens
from memgraph.text import stop_words, tokenize

for _a, _b in (
    ("left", "right"), ("positive", "negative"), ("open", "closed"), ("enabled", "disabled"), ("true", "false"),
    ("early", "late"), ("earlier", "later"), ("hot", "cold"), ("dark", "light"), ("high", "low"),
    ("higher", "lower"), ("older", "younger"), ("oldest", "youngest"), ("bigger", "smaller"),
    ("larger", "smaller"), ("public", "private"), ("internal", "external"), ("allowed", "forbidden"),
    ("required", "optional"), ("paid", "unpaid"), ("free", "paid"), ("single", "double"), ("odd", "even"),
    ("inside", "outside"), ("indoor", "outdoor"), ("north", "south"), ("east", "west"), ("win", "lose"),
    ("won", "lost"), ("wet", "dry"), ("major", "minor"), ("maximum", "minimum"), ("max", "min"),
    ("upstairs", "downstairs"), ("front", "back"), ("first", "last"), ("full", "empty"), ("male", "female"),
):
    _OPPOSITES[_a], _OPPOSITES[_b] = _b, _a


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The Snowball stem full text uses (`memgraph.text`: one stemmer per thread; reconcile runs on the writers'
    threads and gap detection on the maintenance thread, and a PyStemmer object is not safe to share). Cached:
    a statement stems ~80 words, most of them common (LoCoMo turns: 0.8 of the 2 ms a statement took)."""
    if not word.isascii():
        # "café" / "cafe", "Pérignon" / "Perignon": a word typed without its accents is the same word (chat and
        # notes drop them); only the combining marks go, so other scripts keep their letters
        word = "".join(ch for ch in unicodedata.normalize("NFKD", word) if not unicodedata.combining(ch))
    return stem_tokens([chatter.WORDS.get(word, word)])[0]  # chat's "tkt" is "ticket" (`chatter.py`)


@lru_cache(maxsize=1)
def _stops() -> frozenset[str]:
    """The stop words a statement's content leaves out, with chat's short forms of them ("u", "ur": `chatter.WORDS`)
    and its interjections ("lol", "ngl"): "the sync is on wed now lol" has the frame of "the sync is on wed now"."""
    stops = stop_words()
    return frozenset(stops | {k for k, v in chatter.WORDS.items() if v in stops} | chatter.INTERJECTIONS)


@lru_cache(maxsize=1)
def _cue_stems() -> frozenset[str]:
    return frozenset(stem(w) for w in CUE_WORDS)


@dataclass(frozen=True, slots=True)
class Statement:
    """The parts of one statement the decisions compare (see the module docstring). Slots, and the shared
    empty set for every empty field (`values.frozen`): a cached statement is then ~6 objects the garbage
    collector tracks instead of ~20 (bench/RESULTS.md, "Bulk writes, ninth round")."""

    text: str
    tokens: frozenset[str]  # every token, unstemmed: the dedup Jaccard, and "is X mentioned?"
    stems: frozenset[str]  # every content token, stemmed
    frame: frozenset[str]
    subject: frozenset[str]
    complement: frozenset[str]
    entity_words: frozenset[str]  # stemmed
    opposites: frozenset[str]  # stemmed words of an opposite pair present
    ordinals: frozenset[str]  # "first", "second", "3rd", "last", "next": which one of several
    values: Values
    replaced: frozenset[str]  # stemmed words this statement says were replaced ("from X to", "not X")
    preference: tuple[str, str] | None  # "prefer A over B": (A, B)
    negated: bool
    correction: bool
    update: bool
    additive: bool
    episode: bool
    question: bool
    identity: bool
    clause: bool  # a verb or a subject pronoun: a statement, not a label ("tagged two", "first seed")
    # Derived once per statement, not once per pair compared (a statement is cached and compared with ~5
    # neighbours per write): `reconcile.compare` asked for these ~10 times per new memory.
    _value_words: frozenset[str] | None = field(default=None, init=False, repr=False, compare=False)
    _kinds: dict[str, frozenset[object]] | None = field(default=None, init=False, repr=False, compare=False)
    _flat_values: frozenset[tuple[str, object]] | None = field(default=None, init=False, repr=False, compare=False)

    def value_words(self) -> frozenset[str]:
        """Frame words that are values: entity and complement words, opposites."""
        out = self._value_words
        if out is None:
            out = self.entity_words | self.complement | self.opposites
            object.__setattr__(self, "_value_words", out)
        return out

    @property
    def kinds(self) -> dict[str, frozenset[object]]:
        """`values.kinds()`, computed once (read only)."""
        out = self._kinds
        if out is None:
            out = self.values.kinds()
            object.__setattr__(self, "_kinds", out)
        return out

    @property
    def flat_values(self) -> frozenset[tuple[str, object]]:
        """Typed values without units: "44" in "size 44 shoes" and "shoe size is 44" is one value."""
        out = self._flat_values
        if out is None:
            v = self.values
            flat: set[tuple[str, object]] = {("time", t) for t in v.times}
            flat |= {("date", d) for d in v.dates} | {("weekday", d) for d in v.weekdays}
            flat |= {("month", m) for m in v.months} | {("period", p) for p in v.periods}
            flat |= {("number", float(y)) for y in v.years} | {("number", q) for _, q in v.quantities}
            out = frozen(flat)
            object.__setattr__(self, "_flat_values", out)
        return out


def statement(text: str) -> Statement:
    """`text` read as a statement (cached: neighbours recur across a batch). The texts parsed last are kept whole
    (`_WHOLE`); behind them `_PACKED` holds many more in a compact form, unpacked on each read and not kept whole:
    a bulk write reads ~25k stored neighbours per 5,000 new texts, and whole statements made of them lived long
    enough to reach the collector's oldest generation, which a batch then scanned in full 4-7 times
    (bench/RESULTS.md, "Bulk writes, ninth round"). An unpacked statement dies with the comparison that read it."""
    out = _WHOLE.get(text)
    if out is not None:
        return out
    packed = _PACKED.get(text)
    if packed is not None:
        return _unpack(text, packed)
    out = _parse(text)
    for read in ON_PARSE:
        read(text)
    _PACKED.put(text, _pack(out))
    _WHOLE.put(text, out)
    return out


#: What else reads a text once, when it is parsed, and keeps it beside the statement cache: `marks.py` searches it for
#: the conflict forms' cues there, so a stored text read again as a neighbour is searched no more than it is parsed.
ON_PARSE: list[Callable[[str], None]] = []


#: Statements parsed last, kept whole: a new text is compared with the next texts of its batch and the next
#: batches (in-batch neighbours), and a text is often read twice in a row.
WHOLE_STATEMENTS = 16_384


#: Texts whose statements `_PACKED` keeps (least recently read dropped first). A bulk write compares each new
#: text with ~5 stored neighbours drawn from the whole store, so once the store outgrows the 16,384 whole
#: statements above, most neighbours were read again (0.35-0.7 ms each, three quarters of a 5,000-memory batch's
#: reconciliation at 60k memories). Packed (tuples of shared strings, no per-statement sets) a statement takes
#: ~0.6-0.9 KB with its key (bench/RESULTS.md, "Bulk writes, seventh round"): ~100 MB when full.
PACKED_STATEMENTS = 131_072


V = TypeVar("V")


class _Lru(Generic[V]):
    """A bounded LRU map text -> a statement (whole or packed), safe across writer threads."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._data: OrderedDict[str, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, text: str) -> V | None:
        if text not in self._data:
            # a miss needs no lock (most stored neighbours miss the whole statements): a text put by another
            # thread meanwhile is only parsed or unpacked again, to the same statement
            return None
        with self._lock:
            out = self._data.get(text)
            if out is not None:
                self._data.move_to_end(text)
            return out

    def put(self, text: str, value: V) -> None:
        with self._lock:
            self._data[text] = value
            if len(self._data) > self.size:
                self._data.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._data.clear()

    def __len__(self) -> int:
        return len(self._data)


_PACKED: _Lru[tuple[Any, ...]] = _Lru(PACKED_STATEMENTS)
_WHOLE: _Lru[Statement] = _Lru(WHOLE_STATEMENTS)
_FLAGS = ("negated", "correction", "update", "additive", "episode", "question", "identity", "clause")
_SETS = ("tokens", "stems", "frame", "subject", "complement", "entity_words", "opposites", "ordinals", "replaced")


def _strings(words: frozenset[str]) -> tuple[str, ...]:
    return tuple(sys.intern(w) for w in words)


def _pack(s: Statement) -> tuple[Any, ...]:
    """`s` as tuples of interned strings (a frozenset costs 216-728 bytes, a small tuple 40-120)."""
    v = s.values
    vals = None if v == NO_VALUES else (
        tuple(v.times), tuple(v.dates), tuple(v.weekdays), tuple(v.months), tuple(v.years),
        _strings(v.periods), tuple(v.quantities), v.spans, tuple(v.bare_times),
    )
    flags = sum(1 << i for i, name in enumerate(_FLAGS) if getattr(s, name))
    return (*(_strings(getattr(s, name)) for name in _SETS), vals, s.preference, flags)


def _unpack(text: str, p: tuple[Any, ...]) -> Statement:
    vals, flags = p[9], p[11]
    return Statement(
        text,
        frozen(p[0]),
        frozen(p[1]),
        frozen(p[2]),
        frozen(p[3]),
        frozen(p[4]),
        frozen(p[5]),
        frozen(p[6]),
        frozen(p[7]),
        NO_VALUES if vals is None else _values_of(vals),
        frozen(p[8]),
        p[10],
        bool(flags & 1),
        bool(flags & 2),
        bool(flags & 4),
        bool(flags & 8),
        bool(flags & 16),
        bool(flags & 32),
        bool(flags & 64),
        bool(flags & 128),
    )


@lru_cache(maxsize=4096)
def denied_values(text: str) -> dict[str, frozenset[object]]:
    """The typed values `text` names as not so ("at 3:25, not 3:15", "at 7:30 instead of 8:00"): the old
    values a correction names, left out of what the text itself says (`_NOT_X`)."""
    plain = strip_code(text)
    spans = " ; ".join(m.group(0) for m in _NOT_X.finditer(plain))
    if not spans:
        return {}
    denied = dict(values(spans, compare=True).kinds())
    bare = denied.pop("q:", None)
    if bare:
        # "four nights in Kyoto, not three": a bare number denied beside a counted one is of the same unit (not
        # read yet: a unit that `compare` converts, "three hours, not two" gives two of "duration", not 120 minutes);
        # the counts are the text's own values, which its (cached) parse already read with the denials left out
        own = statement(text).kinds
        units = [k for k in own if k.startswith("q:") and k != "q:"]
        key = units[0] if len(units) == 1 else "q:"
        denied[key] = denied.get(key, frozenset()) | bare
        # "they're coming at 11 now not 9": an hour denied beside a clock time the text gives (am or pm, as the old
        # text said it)
        if not units and "time" in own and all(isinstance(b, float) and b.is_integer() and 0 < b <= 12 for b in bare):
            hours = {int(b) % 12 * 60 for b in bare if isinstance(b, float)}
            denied["time"] = denied.get("time", frozenset()) | hours | {h + 720 for h in hours}
    return denied


_CLAUSE_BREAK = re.compile(r"\s*;\s*|,\s+so\s+|(?<=[a-z0-9])[.!?]\s+(?=[A-Z])")


@lru_cache(maxsize=4096)
def clauses(text: str) -> tuple[str, ...]:
    """The clauses of a text joined by ";", ", so" or a sentence end ("I've never been on the scheme; I use
    standard accounting."); empty when it is one clause."""
    parts = [p.strip() for p in _CLAUSE_BREAK.split(strip_code(text)) if p.strip()]
    return tuple(parts) if len(parts) > 1 else ()


_PART_BREAK = re.compile(r"\s*[;:]\s+|,\s+(?:and|but|so)\s+|(?<=[a-z0-9])[.!?]\s+(?=[A-Z])")


@lru_cache(maxsize=4096)
def correction_parts(text: str) -> tuple[str, ...]:
    """The parts of a correction that may each say the corrected value: its clauses, also those after a colon or
    joined by ", and" / ", but"; empty when it is one part."""
    parts = [p.strip() for p in _PART_BREAK.split(strip_code(text)) if len(p.split()) > 1]
    return tuple(parts) if len(parts) > 1 else ()


def _values_of(v: tuple[Any, ...]) -> Values:
    return Values(
        times=frozen(v[0]),
        dates=frozen(v[1]),
        weekdays=frozen(v[2]),
        months=frozen(v[3]),
        years=frozen(v[4]),
        periods=frozen(v[5]),
        quantities=frozen(v[6]),
        spans=v[7],
        bare_times=frozen(v[8]),
    )


@lru_cache(maxsize=1024)
def _read(text: str) -> tuple[str, str, str, tuple[str, ...]]:
    """The first stage of the parse: the text without its envelope (`plain`), without the values it names as not so
    (`core`), with its values masked, and that text's tokens; cached, as `frame_bound` reads it just before a parse."""
    plain = chatter.strip_chatter(strip_code(text))  # a pasted message's greeting and sign-off are no content
    # nor is a hedge ("I think …?", "…, not sure") or a confirmation's opener ("Checked the order: …"): `hedges.py`
    plain = hedges.unhedged(plain)
    core = _NOT_X.sub(" ", plain)  # "…, not May": May is the old value, not something this text says
    masked_core = masked(core, compare=True)
    return plain, core, masked_core, tuple(tokenize(masked_core))


#: Texts whose `frame_bound` is kept: a stored text's clauses are asked again by each later text it neighbours (half
#: the asks of a real batch past 60k memories: bench/RESULTS.md, "Bulk writes, nineteenth round"). Only speed.
BOUND_TEXTS = 16_384


@lru_cache(maxsize=BOUND_TEXTS)
def frame_bound(text: str) -> frozenset[str]:
    """Every stem that `statement(text).frame` may hold, from the parse's first stage alone (~40% of a parse: no
    names, cues or marks): the frame is stems of the masked text's tokens, a phrasal noun's verb replaced by the
    noun (`_parse`). A rule that needs a frame word shared skips a clause whose bound shares none, unparsed. Cached
    (`BOUND_TEXTS`)."""
    _, core, _, toks = _read(text)
    return frozenset({stem(t) for t in toks} | {stem(v + p) for v, p in _phrasal_nouns(core)})


def _parse(text: str) -> Statement:
    stops = _stops()
    plain, core, masked_core, read = _read(text)
    vals = values(core, compare=True)
    toks = list(read)
    # a heading before a colon ("New protocol: samples now go in …", "Correction: …") and a fronted clause
    # ("After the meter was fitted, the water bill is …") are no part of the subject
    label = _LABEL.match(masked_core) or _FRONTED.match(masked_core)
    head = len(tokenize(masked_core[: label.end()])) if label else 0
    # a source the statement is relayed from ("The consultant's letter says …", "…, according to Gav") is no part
    # of it: not its subject, nor a name it gives
    relay = _RELAYED.match(masked_core, label.end() if label else 0)
    after = _RELAYED_AFTER.search(masked_core)
    source = frozenset(tokenize(relay.group(0)) if relay else ()) | frozenset(tokenize(after.group(0)) if after else ())
    if relay:
        head = len(tokenize(masked_core[: relay.end()]))
    verb = _verb_index(toks[head:])
    verb = None if verb is None else verb + head
    units = _units_of_values(masked_core, toks)
    # a heading that announces a correction ("Erratum:", "To set the record straight:") is a cue, not content: its
    # words are no frame word nor name ("erratum", "record", "straight" made every such correction a changed frame),
    # except what it says the correction is about ("I was wrong about the auto-belays: they're inspected …")
    announced = _announced(toks[:head]) if label and signals.has_correction(masked_core[: label.end()]) else EMPTY
    # one search for the correction cue and for where it ends (`_strip_cue`): `correction_cue` reads the text
    # with its code blanked, which `plain` already is when no fence is left in it (and classifying the new text
    # searched it already)
    fenced = "```" in plain or "~~~" in plain
    cue = signal_words.CORRECTION.search(plain) if fenced else signals.correction_cue(plain)
    correction = bool(cue) if not fenced else signals.has_correction(plain)
    # so is the cue that opens a correction ("My bad - …", "No, sorry, …", "Oops, …")
    opener = plain[: len(plain) - len(_strip_cue(plain, cue))]
    if opener and len(tokenize(opener)) <= 3:
        announced = announced | frozenset(tokenize(opener)) | _SORRY
    content = [t for t in toks if t not in stops and t != "#" and t not in announced]
    cue_stems = _cue_stems()
    ents = {stem(w) for e in signals.entities(masked_core) for w in tokenize(e) if w not in stops}
    # an abbreviation right after a value is its unit ("4.2% ABV", "97.8 FM", "16:00 UTC"), not a name
    ents -= cue_stems | {stem(w) for w in announced}
    ents -= {stem(w.lower()) for w in _UNIT_ABBREVIATION.findall(masked_core)}
    frame = {
        stem(t) for t in content
        if t not in CUE_WORDS and t not in LIGHT_VERBS and not t.isdigit() and t not in units and t not in _AUX
    }
    if source:  # (its words stay in the frame: "Callum says …" and "callum cleared me …" name one person)
        ents -= {stem(t) for t in source}
    phrasal = _phrasal_nouns(core)
    if phrasal:  # the noun stands for its verb ("pick-up" is "pickup", not "pick" and "pickup")
        frame = frame - {stem(v) for v, _ in phrasal} | {stem(v + p) for v, p in phrasal}
    subject: set[str] = set()
    complement: set[str] = set()
    identity = False
    if verb is not None:
        subject = {stem(t) for t in toks[head:verb] if t not in stops and t not in _AUX and t != "#"}
        if toks[verb] in _COPULA:
            rest = toks[verb + 1 :]
            identity = bool(rest) and rest[0] in _IDENTITY_DET and bool(subject)
            # "Lena is my manager": the description is the slot, the name before it the value
            complement = set(subject) if identity else _complement(rest)
    opposites = {stem(t) for t in content if t in _OPPOSITES}
    # dates are masked; "1st" is "first" ("the 1st Monday of each month" / "the first Monday of every month")
    ordinals = {_ORDINAL_DIGITS.get(t, t) for t in toks if t in _ORDINALS or _ORDINAL_NUMBER.fullmatch(t)}
    replaced = {
        stem(w)
        for m in _REPLACED_FOLDED.finditer(plain)  # the words are lower-cased: tokenize does as much
        for w in tokenize(m.group("w") or m.group("who") or m.group("thing"))
        if w not in stops
    }
    joined = {stem(w.replace("-", "")) for w in re.findall(r"\w+(?:-\w+)+", core.lower())}
    pref = _PREFERENCE_ORDER.search(plain)
    # polarity is read without the correction cue and the replaced value: `core` already, when no cue was cut
    stripped = _strip_cue(plain, cue)
    asserted = core if stripped is plain else _NOT_X.sub(" ", stripped)
    return Statement(
        text=text,
        tokens=frozen(tokenize(plain)),
        stems=frozen({stem(t) for t in content} | joined),
        frame=frozen(frame),
        subject=frozen(subject & frame),
        complement=frozen(complement & frame),
        entity_words=frozen(ents),
        opposites=frozen(opposites),
        ordinals=frozen(ordinals),
        values=vals,
        replaced=frozen(replaced),
        preference=(pref.group("a").strip().lower(), pref.group("b").strip().lower()) if pref else None,
        negated=_negated(asserted),
        correction=correction,
        # (a value changed by an amount or a factor, "goes up by a tenner", "doubled my dose": `deltas.py`)
        update=signals.has_update_cue(plain) or deltas.changes(plain),
        additive=signals.is_additive(plain),
        episode=signals.is_episode(plain),
        question="?" in plain or plain.rstrip().endswith("!") and len(content) <= 3,
        identity=identity,
        clause=verb is not None or (len(toks) > 1 and toks[0] in _PRONOUNS),
    )


#: A noun made of a verb and its particle ("check-in", "check-out", "pick-up", "drop-off", "log-in"): the particle,
#: a stop word alone, tells the noun apart ("Check-in is from 2 pm." / "Check-out is by 11 am." are two slots).
_PHRASAL_NOUN = re.compile(r"(?i)\b([a-z]+)-(in|out|up|down|off|on|over|back|away|through)\b")


def _phrasal_nouns(text: str) -> set[tuple[str, str]]:
    """The phrasal nouns of `text` as (verb, particle), lower-cased ("check", "in"): see `_PHRASAL_NOUN`."""
    if "-" not in text:
        return set()
    return {(m.group(1).lower(), m.group(2).lower()) for m in _PHRASAL_NOUN.finditer(text)}


#: What every word of `signals.NEGATION` contains ("no", "n't", "never", "neither", "without", "anymore"), anywhere in a
#: word: a text without any of them has no negated statement. The parse reads polarity on the text with code blanked,
#: a replaced value cut out, an opening cue and a message's envelope dropped (`_parse`, `chatter.strip_chatter`:
#: spaces put in, a prefix or a suffix cut), which glues no two parts of it together, so a negation word it finds is
#: in the text as written. The conflict chain's clause loop skips parsing a clause that cannot flip the polarity of a
#: statement that is not negated (`reconcile.RuleReconciler.conflict`; tests/ingest/test_marks.py checks every word).
NEGATION_SAID = re.compile(r"(?i)no|n't|never|neither|without|anymore|(?:" + signal_words.CHAT_NEGATIONS + r")\b")
#: "not only", "not just", "not merely": an addition ("The course is not only taught in Spanish"), no negation; nor
#: is an assent ("Aarav can eat anything with sesame in it, no problem.", "I can do Tuesdays, no worries": held-out
#: pairs 16 read the first as a denial).
_NOT_ONLY = re.compile(
    r"(?i)\bnot\s+(?:only|just|merely|simply|solely)\b"
    r"|(?:^|[,;.!]\s*)(?:no\s+(?:problem|problems|worries|bother|issue|issues)|not\s+a\s+problem)\s*(?=[.,;!]|$)"
)


def _negated(text: str) -> bool:
    """Whether `text` negates, a negation that a condition follows (`_CONDITION`), one that makes a bound (`_BOUND`)
    and "not only" (`_NOT_ONLY`) left out. Blanking a word never makes a negation where there was none, so a text
    without one (most) is not searched for conditions."""
    if not signals.is_negated(text):
        return False
    return signals.is_negated(_BOUND.sub(" ", _CONDITION.sub(" ", _NOT_ONLY.sub(" ", text))))


_UNIT_ABBREVIATION = re.compile(r"#\s?([A-Z]{2,4})\b")
_ABOUT = frozenset("about regarding re concerning on".split())
_SORRY = frozenset({"sorry"})


def _announced(head: list[str]) -> frozenset[str]:
    """The words of a heading that announces a correction, up to what it is about ("wrong about the X")."""
    cut = next((i for i, t in enumerate(head) if t in _ABOUT), len(head))
    return frozenset(head[:cut])


def _units_of_values(masked_text: str, toks: list[str]) -> frozenset[str]:
    """Words said only as the unit of a value ("# pounds", "# per cent", "#-day"): part of the value, not of the
    frame, so "£850" / "850 pounds" and "kept for 90 days" / "a ninety-day retention" differ in no frame word."""
    low = masked_text.lower()
    after = [w for w in _AFTER_VALUE.findall(low) if w in UNIT_WORDS]
    # "old" after an age ("six years old", "a year old") says the duration is an age: no frame word ("she's six" /
    # "only a year old" differ in no word but the value)
    after += ["old"] * len(_AGE.findall(low)) if "old" in low else []
    if not after:
        return EMPTY
    return frozen(w for w in after if toks.count(w) <= after.count(w))


def _verb_index(toks: list[str]) -> int | None:
    """Where the main verb is: the first auxiliary or copula, or the first -s verb after a noun."""
    stops = _stops()
    for i, t in enumerate(toks):
        if t in _AUX:
            return i
        if (
            i > 0
            and t not in stops
            and len(t) > 3
            and t.endswith("s")
            and not t.endswith(("ss", "'s", "us", "is"))
            and toks[i - 1] not in _DETERMINERS
            and toks[i - 1] != "#"
            and not toks[i - 1].endswith("'s")
        ):
            return i
    return None


def _complement(rest: list[str]) -> set[str]:
    """Content words right after a copula, up to the first stop word ("is O negative", "is called Biscuit");
    none for a verb phrase ("is learning", "is booked") or a prepositional one ("is at 9:15")."""
    stops = _stops()
    if not rest or rest[0] == "#" or "by" in rest[:3]:
        return set()  # "is 44", "is 1,450 euros": a quantity; "is led by": a passive
    words = [t for t in rest if t != "#"]
    article = bool(words) and words[0] in _DETERMINERS
    while words and words[0] in _DETERMINERS | {"not", "no", "very", "really", "usually", "always", "still"}:
        words = words[1:]
    if words and words[0] in _NAMING:
        words = words[1:]
    elif words and (words[0].endswith(("ed", "ing")) and len(words[0]) > 4 or words[0] in _PARTICIPLES) and not (
        article and words[0].endswith("ing")
    ):
        # (an -ing word after an article qualifies a noun: "is a working cocker spaniel"; an -ed word there, "is a
        # retired teacher", is left as it was: "retired" is a change cue, and with it the complement swapped "truck
        # driver" -> "veteran" on Multi-Session Chat, a false supersede)
        return set()
    out: set[str] = set()
    for t in words:
        if t in stops:
            break
        out.add(stem(t))
        if len(out) >= 3:
            break
    return out


def _strip_cue(text: str, m: re.Match[str] | None) -> str:
    """Text without its leading correction cue, so "No, I live in Paris" is not read as a negation (`m`: the
    first match of `signal_words.CORRECTION` in `text`, which the caller searched for already)."""
    if m and m.start() <= 2:
        return text[m.end() - 1 :] if text[m.end() - 1 : m.end()].isalnum() else text[m.end() :]
    return text
