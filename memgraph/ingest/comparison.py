"""How two statements compare: the parts of a pair that the write path's rules read (`reconcile.py`).

A `Comparison` holds a new statement and an old one (`statement.py`) with their cosine, and works out each part
(shared and differing frame words, changed typed values, polarity, swaps, Jaccards) the first time a rule asks for
it. The rules that decide duplicate / supersede / contradict from these parts live in `reconcile.py`; the learned
duplicate gate (`pair_model.py`) reads the same parts as features.
"""

from __future__ import annotations

import re

from memgraph.config import Settings
from memgraph.ingest.measures import convert, measure, same_measure
from memgraph.ingest.statement import Statement, statement, stem
from memgraph.ingest.units import EVERY_MINUTES
from memgraph.ingest.values import same_duration

_TOLERANCE: float = Settings.model_fields["duration_calendar_tolerance"].default
_MEASURE_TOLERANCE: float = Settings.model_fields["measure_conversion_tolerance"].default


#: The calendar units a recurring time, weekday or day of the month can imply how often of: hourly, daily, weekly,
#: monthly (in minutes, as "every" quantities are read).
_RECURRENCE_UNITS = tuple(EVERY_MINUTES[u] for u in ("hour", "day", "week", "month"))


def implied_interval(minutes: float) -> bool:
    """Whether how often `minutes` (an "every" quantity) is one a recurring value can say without it: once or a
    whole number of times an hour, a day, a week or a month ("every night" beside "at 22:00", "twice a day" beside
    "at nine and three", "monthly" beside "the last Thursday of the month"), or once a year. An interval of several
    units ("every three months", "fortnightly", "every other day") is said by no time or day: a fact of its own."""
    if minutes <= 0:
        return False
    if minutes == EVERY_MINUTES["year"]:
        return True
    return any(unit >= minutes and abs(unit / minutes - round(unit / minutes)) < 1e-6 for unit in _RECURRENCE_UNITS)


class Comparison:
    """What differs between a new statement and an old one, and how much they share. Each part is worked out
    the first time a rule asks for it: most pairs are settled by one or two of them (`duplicate` stops at the
    first differing value, `conflict` at a label). Working out all of them for every pair took 1.0-1.2 s of CPU
    (~45 us a pair, load 9) in a bulk batch of 5,000 past 60k memories, whose ~25k pairs decided 76 times
    (bench/RESULTS.md, "Bulk writes, tenth round"). The values are those the whole comparison gave."""

    __slots__ = ("cosine", "tolerance", "_n", "_o", "_aligned", "_done")

    def __init__(self, n: Statement, o: Statement, cosine: float, tolerance: float = _TOLERANCE) -> None:
        self.cosine = cosine
        self.tolerance = tolerance  # Settings.duration_calendar_tolerance
        self._n, self._o = n, o
        self._aligned: tuple[frozenset[str], frozenset[str]] | None = None
        self._done: dict[str, object] = {}

    def _get(self, name: str) -> object:
        try:
            return self._done[name]
        except KeyError:
            value = self._done[name] = getattr(self, "_" + name)()
            return value

    def _frames(self) -> tuple[frozenset[str], frozenset[str]]:
        if self._aligned is None:
            n, o = self._n, self._o
            self._aligned = _abbreviations_met(*_align(n.frame, o.frame), n.entity_words | o.entity_words)
        return self._aligned

    @property
    def only_new(self) -> frozenset[str]:
        return self._frames()[0]

    @property
    def only_old(self) -> frozenset[str]:
        return self._frames()[1]

    @property
    def jaccard(self) -> float:
        """Token Jaccard (== memgraph.text.jaccard)."""
        return self._get("jaccard")  # type: ignore[return-value]

    def _jaccard(self) -> float:
        n, o = self._n, self._o
        union = n.tokens | o.tokens
        return (len(n.tokens & o.tokens) / len(union)) if union else 1.0

    @property
    def shared(self) -> frozenset[str]:
        """Frame words in both."""
        return self._get("shared")  # type: ignore[return-value]

    def _shared(self) -> frozenset[str]:
        return self._n.frame & self._o.frame

    @property
    def same_values(self) -> bool:
        """Every typed value of one occurs in the other (units aside; a duration in months as the weeks or days
        it approximates: `values.same_duration`)."""
        if self._n.flat_values == self._o.flat_values:
            return True
        return self._get("same_said_otherwise")  # type: ignore[return-value]

    def _same_said_otherwise(self) -> bool:
        """The same values once a duration in months meets the weeks it approximates, and a slash date that could
        be read either way ("3/10/2027") takes the reading the other statement says ("3 October 2027")."""
        n, o = self._n, self._o
        flat = n.flat_values
        dn, do = n.kinds.get("q:duration"), o.kinds.get("q:duration")
        if dn and do and dn != do:
            flat = (flat - {("number", v) for v in dn}) | {("number", v) for v in _snapped(dn, do, self.tolerance)}
        other = o.flat_values
        tn, to = n.values.times, o.values.times
        if tn and to and (n.values.bare_times or o.values.bare_times) and tn != to:
            flat = (flat - {("time", t) for t in tn}) | {("time", t) for t in _clock_read(tn, n.values.bare_times, to)}
            other = (other - {("time", t) for t in to}) | {
                ("time", t) for t in _clock_read(to, o.values.bare_times, tn)
            }
        en, eo = n.kinds.get("q:every"), o.kinds.get("q:every")
        if bool(en) != bool(eo) and all(isinstance(v, float) and implied_interval(v) for v in (en or eo or ())):
            # how often, said on one side only, of a value both give: the time, the weekday or the day it recurs
            # at says it already ("Every night at 22:00 I inject ..." / "... at 10pm", "on the last Thursday of
            # every month" / "of the month", "twice a day, at nine and three" / "at 9 am and 3 pm"); not alone
            # ("I swim." / "I swim every day." says how often, which the other does not), nor an interval of
            # several units, which no time or day implies ("… and she sees the hygienist every three months",
            # "every other Thursday" beside "on Thursdays": `implied_interval`)
            shared = flat & other
            keep_n = (flat - {("number", v) for v in en or ()}) | shared
            keep_o = (other - {("number", v) for v in eo or ()}) | shared
            if keep_n and keep_o:
                flat, other = keep_n, keep_o
        met = _measures_met(n.kinds, o.kinds)
        if met is not n.kinds:  # "about 360 ft" / "110 metres": one length in two systems (`measures.py`)
            flat = (flat - {("number", v) for k in n.kinds.keys() - met.keys() for v in n.kinds[k]}) | {
                ("number", v) for k in met.keys() - n.kinds.keys() for v in met[k]}
        mine, theirs = n.values.dates, o.values.dates
        if _either_reading(mine, theirs):
            flat = (flat - {("date", d) for d in mine}) | {("date", d) for d in theirs}
        elif _either_reading(theirs, mine):
            other = (other - {("date", d) for d in theirs}) | {("date", d) for d in mine}
        return flat == other

    @property
    def changed(self) -> tuple[str, ...]:
        """Kinds of typed value both give, with different values (neither a subset)."""
        return self._get("changed")  # type: ignore[return-value]

    def _changed(self) -> tuple[str, ...]:
        n, o = self._n, self._o
        kn, ko = _unit_said(n, o.kinds, n.kinds), _unit_said(o, n.kinds, o.kinds)
        if "q:duration" in kn and "q:duration" in ko:  # "eight weeks" / "2 months" is no changed duration
            kn = {**kn, "q:duration": _snapped(kn["q:duration"], ko["q:duration"], self.tolerance)}
        if kn.get("time") and ko.get("time"):  # "closes at 4" / "shuts at 4pm": an hour said bare is either
            kn, ko = ({**kn, "time": _clock_read(kn["time"], n.values.bare_times, ko["time"])},
                      {**ko, "time": _clock_read(ko["time"], o.values.bare_times, kn["time"])})
        if kn.get("period") and ko.get("period"):  # "evening" / "night": one part of the day said two ways
            kn, ko = {**kn, "period": _periods(kn["period"])}, {**ko, "period": _periods(ko["period"])}
        kn, ko = _day_as_date(kn, ko), _day_as_date(ko, kn)
        kn = _measures_met(kn, ko)  # "1 mile" / "1 km": a length changed in another system
        changed = tuple(k for k in sorted(set(kn) & set(ko)) if not (kn[k] <= ko[k] or ko[k] <= kn[k]))
        if n.ordinals and o.ordinals and _ordinal_changed(n.text, o.text):
            changed += ("ordinal",)  # "on the first Sunday" / "on the last Sunday": which one of several changed
        return changed

    @property
    def entities_differ(self) -> bool:
        """A name in one is not mentioned by the other."""
        return self._get("entities_differ")  # type: ignore[return-value]

    def _entities_differ(self) -> bool:
        n, o = self._n, self._o
        if not (_unaligned(n.entity_words, o.stems) or _unaligned(o.entity_words, n.stems)):
            return False
        # a place's class word said after its name by one text only ("on the Grand Union" / "on the Grand Union
        # Canal", "Victoria" / "Victoria Station"): the other name words said by both, no other place (held-out 19);
        # not another class word in its place ("Victoria Road" / "Victoria Street")
        nc, oc = _classless(n.entity_words), _classless(o.entity_words)
        one_side = not (n.entity_words - nc and o.entity_words - oc)
        if one_side and (nc != n.entity_words or oc != o.entity_words) and not (
            _unaligned(nc, o.stems) or _unaligned(oc, n.stems)
        ):
            return False
        names = n.entity_words | o.entity_words
        if not any(2 <= len(w) <= 4 for w in names):
            return True  # no name word short enough to abbreviate another: the two alignments again would say so
        return bool(_abbreviations_met(*_align(n.entity_words, o.stems), names)[0]
                    or _abbreviations_met(*_align(o.entity_words, n.stems), names)[0])

    @property
    def value_swap(self) -> bool:
        """The frames differ only by value words (entities, complements, opposites)."""
        only_new, only_old = self._frames()
        return (
            bool(only_new and only_old) and only_new <= self._n.value_words() and only_old <= self._o.value_words()
        )

    @property
    def subject_changed(self) -> bool:
        """A differing word is in a subject."""
        only_new, only_old = self._frames()
        return bool(only_new & self._n.subject and only_old & self._o.subject)

    @property
    def identity(self) -> bool:
        """Either is an identity ("Lena is my manager"): its subject is a value too."""
        return self._n.identity or self._o.identity

    @property
    def polarity(self) -> bool:
        """One is negated, the other not."""
        return self._n.negated != self._o.negated

    @property
    def replaced(self) -> bool:
        """The new one names a word of the old one as replaced ("from X to", "not X"), or a correction names a
        number the old one gives with its unit (`said_number`)."""
        n, o = self._n, self._o
        return bool(n.replaced & (o.stems | o.entity_words)) or said_number(n, o)

    @property
    def preference_swapped(self) -> bool:
        """"prefer A over B" / "prefer B over A"."""
        a, b = self._n.preference, self._o.preference
        return bool(a and b and a != b and set(a) == set(b))

    @property
    def same_frame(self) -> bool:
        only_new, only_old = self._frames()
        return not only_new and not only_old

    @property
    def frame_jaccard(self) -> float:
        union = len(self.shared) + len(self.only_new) + len(self.only_old)
        return len(self.shared) / union if union else 1.0

    def scores(self) -> dict[str, float]:
        return {
            "cosine": round(self.cosine, 4),
            "jaccard": round(self.jaccard, 4),
            "frame_jaccard": round(self.frame_jaccard, 4),
        }


def _either_reading(a: frozenset[tuple[int, int]], b: frozenset[tuple[int, int]]) -> bool:
    """Whether `a` is the two readings of one slash date ("3/10/2027": 3 October or 10 March) and `b` one of them."""
    return len(a) == 2 and len(b) == 1 and b < a and {(d, m) for m, d in a} == a


def _clock_read(mine: frozenset[object], bare: frozenset[int], theirs: frozenset[object]) -> frozenset[object]:
    """`mine` with each hour said bare (read as a morning hour: `Values.bare_times`) read as the afternoon hour
    `theirs` gives instead: "the Kita closes at 4" and "it shuts at 4pm" say one time, not two (a newcomer's pair,
    a false contradiction)."""
    if not bare:
        return mine
    return frozenset(
        t + 720 if isinstance(t, int) and t in bare and t not in theirs and t + 720 in theirs else t for t in mine
    )


def _snapped(a: frozenset[object], b: frozenset[object], tolerance: float) -> frozenset[object]:
    """Durations `a` with each one that `same_duration` finds in `b` replaced by it."""
    return frozenset(
        next((y for y in b if isinstance(x, float) and isinstance(y, float) and same_duration(x, y, tolerance)), x)
        for x in a
    )


#: Parts of the day that name the same hours in ordinary speech (a night out is an evening): told apart, they made
#: "Tuesday and Thursday evenings" / "Thursday and Tuesday nights" a changed value (held-out pairs 6).
_SAME_PERIOD = {"night": "evening"}


def _periods(periods: frozenset[object]) -> frozenset[object]:
    return frozenset(_SAME_PERIOD.get(p, p) if isinstance(p, str) else p for p in periods)


def _align(a: frozenset[str], b: frozenset[str]) -> tuple[frozenset[str], frozenset[str]]:
    """Words only in `a` and only in `b`, where a stem that begins another ("allerg"/"allergi",
    "physio"/"physiotherapi") counts as the same word when the shorter has five letters or more."""
    only_a, only_b = set(a - b), set(b - a)
    for x in list(only_a):
        for y in list(only_b):
            short, long_ = (x, y) if len(x) <= len(y) else (y, x)
            if len(short) >= 5 and long_.startswith(short):
                only_a.discard(x)
                only_b.discard(y)
                break
    return frozenset(only_a), frozenset(only_b)


def _abbreviations_met(
    only_a: frozenset[str], only_b: frozenset[str], names: frozenset[str]
) -> tuple[frozenset[str], frozenset[str]]:
    """`only_a` and `only_b` less the name words one side writes short and the other in full: "Lark St" / "Lark
    Street", "Mt Kenya" / "Mount Kenya", "Elm Ave" / "Elm Avenue" (a newcomer's dentist "on Lark Street" and "Lark
    St" read as a swapped street: a contradiction). Only words of names (`names`: capitalised in their text) are read
    so; among common words a short one that follows a longer one's letters is another word ("car" / "cellar")."""
    if not only_a or not only_b:
        return only_a, only_b
    a, b = set(only_a), set(only_b)
    for x in only_a & names:
        for y in b & names:
            if _abbreviates(x, y) or _abbreviates(y, x):
                a.discard(x)
                b.discard(y)
                break
    return frozenset(a), frozenset(b)


def _abbreviates(short: str, full: str) -> bool:
    """`short` (two to four letters) begins `full`, two letters longer or more, and its letters follow in
    `full`'s order: "st" / "street", "ave" / "avenu", "mt" / "mount", "blvd" / "boulevard"."""
    if not 2 <= len(short) <= 4 or len(full) < len(short) + 2 or short[0] != full[0]:
        return False
    rest = iter(full[1:])
    return all(ch in rest for ch in short[1:])


#: The words that say what kind of place a name is ("Canal", "Station", "Park"), stemmed as entity words are.
_NAME_CLASS = frozenset(stem(w) for w in (
    "canal river road street lane avenue square park station hall bridge lake hill church school hospital centre "
    "center club pub inn hotel airport stadium museum library theatre marina harbour wharf"
).split())


def _classless(words: frozenset[str]) -> frozenset[str]:
    """Entity words without a place's class word, where a name word is left."""
    rest = words - _NAME_CLASS
    return rest if rest else words


def _unaligned(a: frozenset[str], b: frozenset[str]) -> bool:
    """`bool(_align(a, b)[0])`, most pairs settled without aligning: a word of `a` that begins no word only in `b`
    nor is begun by one stays unaligned whatever the order (a name said by one text only; ~25k pairs a bulk batch)."""
    only_a = a - b
    if not only_a:
        return False
    only_b = b - a
    for x in only_a:
        if len(x) < 5 or not any(len(y) >= 5 and (x.startswith(y) or y.startswith(x)) for y in only_b):
            return True
    return bool(_align(a, b)[0])


def compare(new: str, old: str, cosine: float) -> Comparison:
    return _compare(statement(new), statement(old), cosine)


def _compare(n: Statement, o: Statement, cosine: float, tolerance: float = _TOLERANCE) -> Comparison:
    return Comparison(n, o, cosine, tolerance)


_ORDINAL_OF = re.compile(
    r"(?i)\b(first|second|third|fourth|fifth|last|next|previous|final|\d+(?:st|nd|rd|th))\s+([a-z]+)"
)


def _ordinal_changed(new: str, old: str) -> bool:
    """Whether the two name another one of the same thing: "the first Sunday" / "the last Sunday"; not "last
    week" / "my first time" (LoCoMo dev: two turns of chat read as a changed ordinal)."""
    a: dict[str, set[str]] = {}
    for m in _ORDINAL_OF.finditer(old):
        a.setdefault(m.group(2).lower(), set()).add(m.group(1).lower())
    return any(
        head in a and ordinal not in a[head]
        for ordinal, head in ((m.group(1).lower(), m.group(2).lower()) for m in _ORDINAL_OF.finditer(new))
    )


def _day_as_date(kinds: dict[str, frozenset[object]],
                 other: dict[str, frozenset[object]]) -> dict[str, frozenset[object]]:
    """`kinds` with a day of the month said alone ("moved it to the 21st") read as a date in the month of the one
    date the other statement gives ("… is Thursday 14 March"): a change of the day is a changed date, which a day
    and a date, two kinds, never were."""
    days, dates = kinds.get("q:day"), other.get("date")
    if not days or "date" in kinds or not dates or len(dates) != 1:
        return kinds
    (date,) = dates
    if not isinstance(date, tuple) or len(date) != 2:
        return kinds
    out = {k: v for k, v in kinds.items() if k != "q:day"}
    out["date"] = frozenset((date[0], int(d)) for d in days if isinstance(d, float) and d.is_integer())
    return out


def _unit_said(st: Statement, other: dict[str, frozenset[object]],
               kinds: dict[str, frozenset[object]]) -> dict[str, frozenset[object]]:
    """`kinds` with a number without a unit given the other statement's unit when its text says that unit's word:
    "The tour van seats six." / "There are only four seats in the tour van." (a number before its noun takes the
    noun as its unit, one after it does not)."""
    bare = kinds.get("q:")
    if not bare:
        return kinds
    units = [k for k in other if k.startswith("q:") and k != "q:" and k not in kinds
             and stem(k.removeprefix("q:")) in st.stems]
    if len(units) != 1:
        return kinds
    out = {k: v for k, v in kinds.items() if k != "q:"}
    out[units[0]] = bare
    return out


def _measures_met(kinds: dict[str, frozenset[object]],
                  other: dict[str, frozenset[object]]) -> dict[str, frozenset[object]]:
    """`kinds` with a measure said in a unit the other statement does not say, of a measure it gives in one other
    unit ("360 ft" beside "110 metres"), said in that unit: as the other's value where `measures.same_measure` finds
    them one, else converted (a changed value: "1 mile" / "1 km"). Without it the two were two kinds that never met
    (held-out pairs 21)."""
    out: dict[str, frozenset[object]] | None = None
    for k, values in kinds.items():
        what = measure(k[2:]) if k.startswith("q:") and k not in other else None
        into = [j for j in other if j.startswith("q:") and j not in kinds and measure(j[2:]) == what] if what else []
        if len(into) != 1:
            continue
        unit, target, theirs = k[2:], into[0][2:], other[into[0]]
        said = frozenset(
            next((y for y in theirs if isinstance(y, float) and same_measure(x, unit, y, target, _MEASURE_TOLERANCE)),
                 round(convert(x, unit, target), 6)) if isinstance(x, float) else x
            for x in values
        )
        out = dict(kinds) if out is None else out
        del out[k]
        out[into[0]] = said
    return kinds if out is None else out


#: Kinds of value that say when (a day, a date, a part of the day) rather than how much or at what time.
def said_number(n: Statement, o: Statement) -> bool:
    """A correction `n` names as replaced a number that `o` gives with its unit: "sorry I said 35 for the standard
    bouquet, it's 38" after "A standard bouquet is £35." (the old text's words hold no "35": the price is a value).
    Only in a correction: "I drive a Honda Civic from 2016." names no replaced year of "My car is a 2016 Honda
    Civic."."""
    if not n.correction:
        return False
    numbers = {w for w in n.replaced if w.replace(".", "", 1).isdigit()}
    return bool(numbers) and any(isinstance(v, float) and f"{v:g}" in numbers for _, v in o.flat_values)


_WHEN = frozenset({"weekday", "date", "month", "year", "period", "ordinal"})


def _same_subject(n: Statement, o: Statement) -> bool:
    """Whether the subject of either (the words before its verb) is said by the other: "The gym closes" and
    "The pharmacy closes" are two subjects; a statement without a subject found shares nothing."""
    return bool(_shares(n.subject, o.stems) or _shares(o.subject, n.stems))


def owned_things_differ(n: Statement, o: Statement) -> bool:
    """Whether both subjects name a thing of an owner ("the sailing club's regatta") and no word of either thing is
    said by the other: "The lifeboat station's open day" and "The lifeboat crew's exercise with the coastguard
    helicopter" share "lifeboat", a word of the owners, and name two things (held-out pairs 21: one date of two
    events read as a paraphrase). A subject without a possessive is left to the subject test."""
    pn, po = _possessed(n), _possessed(o)
    return bool(pn and po) and not (_shares(pn, o.stems) or _shares(po, n.stems))


def owner_word_only(n: Statement, o: Statement) -> bool:
    """Whether one subject names a thing of an owner called by a name ("Pepper's agility class") and the other text
    says the name's word only in lower case, a common word ("The pepper grinder we ordered cost £8.": held-out pairs
    22, one price of two things at cosine 0.67), with none of the owned thing's words. A name said again is the same
    owner ("Buyer's premium is 25%" / "Buyers pay a quarter …", "Dr Okafor's clinic hours" / "Dr Okafor sees …")."""
    for a, b in ((n, o), (o, n)):
        pa = _possessed(a)
        if not pa or _possessed(b) or _shares(pa, b.stems):
            continue
        for owner in _NAMED_OWNER.findall(a.text):
            said = re.findall(rf"(?i)\b{re.escape(owner)}\b", b.text)
            if said and all(w.islower() for w in said):
                return True
    return False


#: An owner called by a name: a capitalised word before a possessive ("Pepper's", "Holly's").
_NAMED_OWNER = re.compile(r"\b([A-Z][a-z]+)['’]s\b")


_POSSESSIVE = re.compile(r"(?i)[a-z]['’]s?\s+((?:[\w-]+\s+){0,5}[\w-]+)")


def _possessed(st: Statement) -> frozenset[str]:
    """The subject's words after its last possessive ("club's annual dinner" -> annual, dinner), or none."""
    found = [m.group(1) for m in _POSSESSIVE.finditer(st.text)]
    for words in reversed(found):
        got = frozenset(stem(w) for w in words.lower().split()) & st.subject
        if got:
            return got
    return frozenset()


def _shares(words: frozenset[str], other: frozenset[str]) -> bool:
    """Whether a word of `words` is in `other`, a stem that begins another counting (`_align`)."""
    if words & other:
        return True
    return len(_align(words, other)[0]) < len(words)


def _names_denied(denied: dict[str, frozenset[object]], old: Statement) -> bool:
    """Whether a typed value the new text says is *not* so (`denied_values`) is one `old` gives."""
    if not denied:
        return False  # most texts deny nothing: `old`'s typed values need not be grouped by kind
    kinds = old.kinds
    if any(v & kinds.get(k, frozenset()) for k, v in denied.items()):
        return True
    # a bare number denied names the old value whatever unit the old text wrote it with ("sorry the fee is 827 not
    # 719" after "The visa fee is £719"): chat and speech leave the sign off the number they take back
    bare = denied.get("q:", frozenset())
    return bool(bare) and any(bare & v for k, v in kinds.items() if k.startswith("q:"))
