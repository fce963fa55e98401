"""Typed values a statement carries: times of day, calendar dates, weekdays, months, years, and quantities with
their unit. The write-path decisions compare statements by these (a duplicate repeats the same values, a
contradiction changes one of the same kind), so spellings of one value must meet: "5pm" = "17:00",
"14 June" = "June 14th", "five-a-side" = "5-a-side", "1,450 euros" = "1450 EUR", "3.9%" = "3.9 percent".

Values said in words are first written in digits (`spoken.py`: "forty-five quid", "half past seven", "a
fortnight", "the ninth of September"). For the write-path decisions (`compare`) units of time are one kind
(minutes: "48-hour" = "two days") and how often ("weekly", "every two weeks", "£6 a week") is a value too.

Rules, no parser (English): a part of the day (morning, afternoon, evening, night) is a value; a time is H:MM
or H(:MM) with am/pm (or noon/midnight); a date is a day number next to a month name (either order, ordinals
allowed, "12-14 May" gives two) or ISO 2024-05-01; a year is a 4-digit 19xx/20xx; any other number (digits,
or a number word before a noun or in a hyphenated compound) is a quantity whose unit is the word after it
(plural folded, "of" skipped) or a currency sign before it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain
from typing import Any, TypeVar

from memgraph.ingest.units import (
    CALENDAR_MINUTES,
    CURRENCY,
    DURATION_MINUTES,
    EVERY_MINUTES,
    GLUED_SCALE,
    KNOWN_UNITS,
    METRIC,
    MONEY,
    SCALE,
    SCALE_WORDS,
)
from memgraph.ingest.value_text import prepared as _prepared
from memgraph.ingest.value_text import unit as _unit
from memgraph.ingest.value_words import (
    _AFTERNOON_END,
    _AT_TIME,
    _BARE_DEGREES,
    _CHAT_WEEKDAYS,
    _CLOCK_GAP,
    _DATE,
    _DAY_BEFORE,
    _DAY_RANGE_GAP,
    _DEGREES,
    _DETERMINERS,
    _DIGIT,
    _FOR_BEFORE,
    _FREQUENCY,
    _FREQUENCY_WORDS,
    _HOURS_BEFORE,
    _MARKING,
    _MONTH,
    _MONTH_STEMS,
    _NOUN_NEXT,
    _NUMBER,
    _NUMBER_DIGITS,
    _NUMBER_WORDS,
    _PERCENT_AFTER,
    _PERIOD,
    _PERIOD_HOURS,
    _PERIOD_SAID,
    _PERIOD_WORDS,
    _RANGE_GAP,
    _RATE_BEFORE,
    _SHORT_SLASH_DATE,
    _SLASH_DATE,
    _TIME,
    _TIME_RANGE,
    _TIME_WORDS,
    _TIMES_WORDS,
    _WEEK_PART,
    _WEEKDAY,
    _WEEKDAY_ABROAD,
    _WEEKDAY_ABROAD_NAME,
    _WEEKDAY_BEFORE,
    _WEEKDAY_SHORT,
    _WEEKDAY_STEMS,
    _WORD,
    _WORD_RANGE,
    _WRAP_RANGE,
    _YEAR,
    MONTHS,
    NUMBER_WORDS,
    WEEKDAYS,
)
from memgraph.text import stop_words

T = TypeVar("T")

#: An article and up to three modifiers before "one": the pronoun for a noun said before ("The lathe is a 12-inch one",
#: "the old blue one"), no count; a preposition among them makes it one ("a table for one", "a hundred and one").
_PRONOUN_ONE = re.compile(
    r"(?i)\b(?:a|an|the|this|that|another|my|our|your|his|her|their)\s+"
    r"(?:(?!(?:for|of|to|and|or|in|on|at|by|with|from|than)\b)[\w'’-]+\s+){0,3}$"
)


def _slash_readings(a: int, b: int) -> set[tuple[int, int]]:
    """The (month, day) readings of a slashed "a/b": day first unless that cannot be, both when either can."""
    readings = {(b, a), (a, b)} if a <= 12 and b <= 12 else {(b, a)} if b <= 12 else {(a, b)} if a <= 12 else set()
    return {(mo, d) for mo, d in readings if 1 <= d <= 31}


def _gate(words: tuple[str, ...]) -> tuple[tuple[str, ...], frozenset[tuple[str, ...]]]:
    if any(len(w) < 3 for w in words):
        raise ValueError(f"a gate word needs three letters: {words}")
    return words, frozenset(tuple(w[:3]) for w in words)


_TIME_GATE, _WEEKDAY_GATE, _MONTH_GATE, _PERIOD_GATE, _NUMBER_GATE, _FREQUENCY_GATE = map(
    _gate, (_TIME_WORDS, _WEEKDAY_STEMS, _MONTH_STEMS, _PERIOD_WORDS, _NUMBER_WORDS, _FREQUENCY_WORDS)
)
#: What a digit pattern needs beyond a digit: a clock time (_TIME's "H:MM" / "H.MM"), am/pm after a number (_TIME's
#: "7pm", _TIME_RANGE's "2 to 5pm"); a date needs a month's name or an ISO date's "-", a year "19" or "20", a
#: slashed date "/". Every match of the pattern contains it (a/p/m fold to no other letter), so the pattern is
#: skipped where it is absent, in a text with numbers that are none of these (most of them).
_CLOCK = re.compile(r"\d[:.]\d")
_AM_PM = re.compile(r"\d\s*[aApP]\.?[mM]")


#: The one empty frozenset every empty field shares. Sets are always tracked by the garbage collector (a tuple
#: or a dict of atoms is not), and most of a statement's fields are empty: a new empty set for each was most of
#: the ~370k frozensets the statement caches held after a 60k-memory bulk load, which every full collection
#: scanned (bench/RESULTS.md, "Bulk writes, ninth round").
EMPTY: frozenset[Any] = frozenset()


def frozen(items: Iterable[T]) -> frozenset[T]:
    """`frozenset(items)`, or the shared `EMPTY` when there are none (equal either way)."""
    out = frozenset(items)
    return out if out else EMPTY


@dataclass(frozen=True, slots=True)  # slots: no per-instance dict for the collector to scan
class Values:
    """The typed values of one text."""

    times: frozenset[int]  # minutes after midnight
    dates: frozenset[tuple[int, int]]  # (month, day)
    weekdays: frozenset[int]
    months: frozenset[int]  # months named without a day
    years: frozenset[int]
    periods: frozenset[str]  # parts of the day: morning, afternoon, evening, night
    quantities: frozenset[tuple[str, float]]  # (unit, value); unit "" when none was found
    spans: tuple[tuple[int, int], ...]  # where the values are in the text (for masking)
    #: the hours said as a number alone, without am/pm or a part of the day ("closes at 4"), read as morning hours in
    #: `times`: the same hour said with "pm" elsewhere is the same time (`comparison.py`); not "08:00" or "at 7:30",
    #: which a 24-hour clock writes
    bare_times: frozenset[int] = EMPTY

    @property
    def empty(self) -> bool:
        return not (
            self.times or self.dates or self.weekdays or self.months or self.years or self.periods or self.quantities
        )

    def numbers(self) -> frozenset[float]:
        """Every numeric value regardless of type (to ask: does a value of one text occur in the other?)."""
        out: set[float] = {float(q) for _, q in self.quantities} | {float(y) for y in self.years}
        out |= {float(d) for _, d in self.dates}
        return frozenset(out)

    def kinds(self) -> dict[str, frozenset[object]]:
        """Values grouped by comparable kind: a quantity's kind is its unit."""
        out: dict[str, set[object]] = {}
        for name, vals in (("time", self.times), ("date", self.dates), ("weekday", self.weekdays),
                           ("month", self.months), ("year", self.years), ("period", self.periods)):
            if vals:
                out[name] = set(vals)
        for unit, q in self.quantities:
            out.setdefault(f"q:{unit}", set()).add(q)
        return {k: frozenset(v) for k, v in out.items()}


#: A text without values (most of them): one shared object.
NO_VALUES = Values(EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, ())


def values(text: str, *, compare: bool = False) -> Values:
    """The typed values of `text` (cached: the decisions ask for the same texts repeatedly). `compare`: the
    forms the write-path decisions compare, beyond what a value is: how often something happens ("weekly",
    "every two weeks", "£6 a week"), a quantity of unit "every", and units of time as one kind ("duration", in
    minutes: "48-hour" = "two days"). Gap detection asks `values` what kind of value a question names and a
    memory holds: reading "per day" / "nightly" as values there made it log answered questions (held-out gap
    parts 2, 4, 5: precision 0.91 -> 0.87 / 0.84), and it reads a duration by its unit ("ten minutes early")."""
    return _values(text, compare)


@lru_cache(maxsize=16384)
def _values(text: str, compare: bool = False) -> Values:
    text = _prepared(text)
    taken: list[tuple[int, int]] = []

    def free(a: int, b: int) -> bool:
        return all(b <= x or a >= y for x, y in taken)

    # Each pattern runs only where it can match (a pattern costs 3-60 us on a LoCoMo turn, most of them match
    # nothing): the numeric ones need a digit (or a number or time word); a word pattern needs its word, found
    # in the lower-cased text (only for ASCII text: case-insensitive matching folds some non-ASCII letters).
    digit = _DIGIT.search(text) is not None
    low = text.lower() if text.isascii() else None

    runs = None if low is None else set(zip(low, low[1:], low[2:], strict=False))  # its three-letter runs

    def may(gate: tuple[tuple[str, ...], frozenset[tuple[str, ...]]]) -> bool:
        if low is None or runs is None:
            return True
        return not gate[1].isdisjoint(runs) and any(w in low for w in gate[0])

    month_word = may(_MONTH_GATE)
    am_pm = digit and _AM_PM.search(text) is not None

    times: set[int] = set()
    afternoon: list[tuple[int, int]] = []  # ranges of bare hours that end by `_AFTERNOON_END` (minutes, minutes)
    slash_years: set[int] = set()
    bare: list[tuple[int, int]] = []  # (end, minutes) of times without am/pm, which a period after them may mark
    hours: set[int] = set()  # of those, the whole hours said as a number alone ("at 4"; not "08:00", "at 7:30")
    # "2 to 5pm", "9-11am": the first end takes the second's am/pm
    for m in _TIME_RANGE.finditer(text) if am_pm else ():
        ap = m.group("ap").lower().replace(".", "")
        for h_, m_ in ((m.group("h1"), m.group("m1")), (m.group("h2"), m.group("m2"))):
            h = int(h_)
            h += 12 if ap == "pm" and h < 12 else 0
            times.add((0 if ap == "am" and h == 12 else h) * 60 + int(m_ or 0))
        taken.append(m.span())
    for m in _WRAP_RANGE.finditer(text) if digit and compare else ():
        h1, h2 = int(m.group("h1")), int(m.group("h2"))
        lead = text[max(0, m.start() - 24) : m.start()]
        gap = m.group("gap").lower()
        ranged = (gap in ("till", "until") or (gap != "and" and _HOURS_BEFORE.search(lead) is not None)
                  or (gap == "and" and lead.rstrip().lower().endswith("between")))
        follows = _NOUN_NEXT.match(text, m.end())
        counted = follows is not None and follows.group(1) is not None and follows.group(1).lower() not in stop_words()
        if h2 < h1 and ranged and not counted and free(*m.span()):
            times.update((h1 * 60 + int(m.group("m1") or 0), (h2 + 12) * 60 + int(m.group("m2") or 0)))
            taken.append(m.span())
    for m in _TIME.finditer(text) if am_pm or (digit and _CLOCK.search(text)) or may(_TIME_GATE) else ():
        if not free(*m.span()):
            continue
        if m.group("word"):
            w = m.group("word").lower()
            times.add(0 if w == "midnight" else 720)
        else:
            h = int(m.group("h") or m.group("h2"))
            mins = int(m.group("m") or 0)
            ap = (m.group("ap") or m.group("ap2") or "").lower().replace(".", "")
            dotted = m.group("h") and "." in m.group(0)[: len(m.group("h")) + 1]
            if dotted and not ap and (not _AT_TIME.search(text[max(0, m.start() - 12) : m.start()])
                                      or _PERCENT_AFTER.match(text, m.end())):
                continue  # "3.20 each", "sells for 4.50", "at 4.19 per cent": a decimal; "at 7.40", "7.40pm" are times
            if ap == "pm" and h < 12:
                h += 12
            elif ap == "am" and h == 12:
                h = 0
            elif not ap and 0 < h < 12:
                bare.append((m.end(), h * 60 + mins))
            times.add(h * 60 + mins)
        taken.append(m.span())
    dates: set[tuple[int, int]] = set()
    # with its year first, then without one after a date word (the year's match is taken by then)
    for m in chain(_SLASH_DATE.finditer(text), _SHORT_SLASH_DATE.finditer(text)) if digit and "/" in text else ():
        readings = _slash_readings(int(m.group("a")), int(m.group("b")))
        span = (m.start("a"), m.end())
        if readings and free(*span):
            dates |= readings
            if m.re is _SLASH_DATE:
                slash_years.add(int(m.group("y")))
            taken.append(span)
    for m in _DATE.finditer(text) if digit and (month_word or "-" in text) else ():
        if not free(*m.span()):
            continue
        if m.group("y"):
            mo, d = int(m.group("mo")), int(m.group("d3"))
            if 1 <= mo <= 12 and 1 <= d <= 31:
                dates.add((mo, d))
                slash_years.add(int(m.group("y")))  # "2026-07-14" gives its year, as "14 July 2026" does
                taken.append(m.span())
            continue
        month = MONTHS[(m.group("m1") or m.group("m2")).lower()]
        days = [m.group("d1"), m.group("d1b")] if m.group("m1") else [m.group("d2")]
        got = [int(d) for d in days if d and 1 <= int(d) <= 31]
        if got:
            dates.update((month, d) for d in got)
            taken.append(m.span())
    years = set(slash_years)
    for m in _YEAR.finditer(text) if digit and ("19" in text or "20" in text) else ():
        if free(*m.span()):
            years.add(int(m.group(0)))
            taken.append(m.span())
    weekdays = set()
    days_said: list[tuple[int, int, int]] = []  # (start, end, day) of each weekday read, for ranges of days
    for m in _WEEKDAY.finditer(text) if may(_WEEKDAY_GATE) else ():
        day: str = m.group("d").lower()
        if day in WEEKDAYS:
            num = WEEKDAYS[day]
        elif day in _WEEKDAY_ABROAD and (
            day not in _WEEKDAY_ABROAD_NAME or not m.group(0)[:1].isupper()
            or text[max(0, m.start() - 3) : m.start()].lower() == "el "
        ):
            num = _WEEKDAY_ABROAD[day]
        elif len(day) >= 3 and day in _WEEKDAY_SHORT and (
            m.group(0)[:1].isupper() or day in _CHAT_WEEKDAYS
            or _DAY_BEFORE.search(text[max(0, m.start() - 8) : m.start()])
        ):
            # "Fri", not "sat down"; chat's lower-case "tues 5pm" where the short form is no other word, and
            # "every mon" where a word before it names a day
            num = _WEEKDAY_SHORT[day]
        else:
            continue
        weekdays.add(num)
        days_said.append((m.start(), m.end(), num))
        taken.append(m.span())
    for (_, end, first), (start, _, last) in zip(days_said, days_said[1:], strict=False):
        # "Tuesday to Thursday" = Tuesday, Wednesday and Thursday; "Mon-Fri" = the weekdays (two ends read as
        # two days made "three office days, Tuesday to Thursday" the same as "Tuesday and Thursday")
        if first < last and _DAY_RANGE_GAP.fullmatch(text[end:start]):
            weekdays.update(range(first, last + 1))
    for m in _WEEK_PART.finditer(text) if "week" in (low or "week") else ():
        # "on weekdays" / "at weekends": days of the week, so "closes at 22:00 on weekdays" and "at 18:00 at
        # weekends" change the days as well as the time (two slots, not one value changed)
        weekdays.update(range(5) if m.group(0).lower().startswith("weekday") else (5, 6))
        taken.append(m.span())
    months = set()
    for m in _MONTH.finditer(text) if month_word else ():
        word = m.group("m")
        if not free(*m.span()) or (word.lower() in ("may", "mar", "jan", "sep") and not word[0].isupper()):
            continue  # "may" the verb, "mar" the verb
        if len(word) == 3 and word.lower() not in ("may",) and not word[0].isupper() and not (
            word.lower() in _LOWER_MONTHS and _MONTH_BEFORE.search(text[max(0, m.start() - 8) : m.start()])
        ):
            continue  # ("jan" a name; but chat's "in the aug harvest", "by oct" is a month)
        months.add(MONTHS[word.lower()])
        taken.append(m.span())
    quantities: set[tuple[str, float]] = set()
    for m in _FREQUENCY.finditer(text) if compare and may(_FREQUENCY_GATE) else ():
        if m.group("alt") and free(m.start(), m.start("altday")):  # (the weekday is `_WEEKDAY`'s, read already)
            quantities.add(("every", EVERY_MINUTES["fortnight"]))
            taken.append((m.start(), m.start("altday")))
        elif free(*m.span()) and (m.group("per") or m.group("kadv") or m.group("madv")):
            adv = m.group("kadv") or m.group("madv")
            said = (m.group("per") or adv.lower().removesuffix("ly").replace("dai", "day")).lower()
            per = EVERY_MINUTES[said]
            k = m.group("k") or m.group("kn") or m.group("mn")
            count = int(k) if k.isdigit() else _TIMES_WORDS[k.lower()]
            quantities.add(("every", per / count if m.group("per") or m.group("kadv") else per * count))
            taken.append(m.span())
        elif free(*m.span()):
            word = (m.group("adv") or m.group("unit") or "").lower()
            every = EVERY_MINUTES[word.removesuffix("ly") if m.group("adv") else word]
            n = m.group("n")
            if n is not None and n.lower().startswith("couple"):
                if m.group(0).split()[0].lower() in ("a", "an"):
                    continue  # "a couple of days": how long, not how often
                n = "two"
            times_ = 2 if m.group("other") else (int(n) if n.isdigit() else NUMBER_WORDS[n.lower()]) if n else 1
            if n is None and m.group("unit") and m.group(0).lower().endswith("s"):
                continue  # "every days" is no English; "a months" neither: leave it to the other patterns
            # "a quarter tank", "a day trip", "a week's notice": a measure, not how often ("£6 a week plus VAT": a
            # rate after its value)
            nxt = _NOUN_NEXT.match(text, m.end()) if m.group(0)[:1].lower() == "a" else None
            if (nxt and (nxt.group(1) is None or nxt.group(1).lower() not in stop_words())
                    and not _RATE_BEFORE.search(text[max(0, m.start() - 16) : m.start()])):
                continue
            if m.group(0)[:1].lower() == "a" and _FOR_BEFORE.search(text[max(0, m.start() - 8) : m.start()]):
                # "comes at 5:30 for an hour", "a vegan for a year": how long, not how often
                quantities.add(("duration", every))
                taken.append(m.span())
                continue
            quantities.add(("every", every * times_))
            taken.append(m.span())
    stops = stop_words()
    # a number word is searched for only where the text holds one (values said in words are mostly digits by now)
    numbers = _NUMBER if may(_NUMBER_GATE) else _NUMBER_DIGITS if digit else None
    for m in numbers.finditer(text) if numbers is not None else ():
        if not free(*m.span()):
            continue
        end = m.end()
        if m.group("w"):
            word = m.group("w").lower()
            after = text[m.end():]
            nxt = _WORD.match(after.lstrip())
            noun = nxt.group(0).lower() if nxt else ""
            # a number word counts before a noun ("three coffees"), in a compound ("five-a-side"), or closing a
            # phrase ("tagged two."), but not as a pronoun ("the one I like")
            before = text[max(0, m.start() - 12) : m.start()].lower().split()
            closing = (not noun or not noun.isalnum()) and not (before and before[-1] in _DETERMINERS)
            # (nor "one" standing for a noun after an article and its modifiers: "a 12-inch one", "the old blue one")
            closing = closing and not (word == "one" and _PRONOUN_ONE.search(text[max(0, m.start() - 40) : m.start()]))
            # (the end of a range of hours: "from two till four on sunday")
            gap = text[bare[-1][0] : m.start()] if bare else ""
            ends = bool(bare) and _CLOCK_GAP.fullmatch(gap) is not None
            # or numbering the noun before it, as a digit would ("pen seven until Sunday" is "pen 7 until Sunday",
            # "lock fourteen on the canal"; not "one", most often a pronoun: "got one for Christmas")
            label = (bool(before) and before[-1].isalpha() and before[-1] not in stops and word != "one"
                     and not before[-1].endswith("ed") and text[m.start() - 1 : m.start()] == " ")
            if not (m.group("hy") or (noun and noun.isalnum() and noun not in stops) or closing or ends or label
                    or word in ("twice", "once") or _unit(after) in KNOWN_UNITS):
                continue
            value = float(NUMBER_WORDS[word])
            unit = "times" if word in ("twice", "once") else _unit(after)
            # an hour said in words, where the words leave no doubt: an end of "from five till six" or "at eight
            # sharp" (not "at eight", which may be an age)
            ranged = ends and unit not in KNOWN_UNITS
            opens = unit == "" and _WORD_RANGE.match(after) is not None and _AT_TIME.search(
                text[max(0, m.start() - 12) : m.start()]) is not None
            if (ranged or opens or (unit == "" and after.lstrip().lower().startswith("sharp"))) and (
                    0 < value <= 12 and word not in ("twice", "once")):
                if ranged and compare and bare[-1][1] < value * 60 <= _AFTERNOON_END * 60:
                    afternoon.append((bare[-1][1], int(value) * 60))
                # ("open from nine till five" wraps past noon, as _WRAP_RANGE reads "10 till 4")
                wraps = ranged and value * 60 < bare[-1][1]
                times.add(int(value) * 60 + (720 if wraps else 0))
                if not wraps:
                    hours.add(int(value) * 60)  # an hour said alone, as "at 4" is (`Values.bare_times`)
                bare.append((m.end(), int(value) * 60))
                taken.append(m.span())
                continue
        else:
            value = float(m.group("n").replace(",", ""))
            if m.group("neg"):
                value = -value  # "the -80 freezer", "minus-eighty"
            after = text[m.end():]
            scale = SCALE.match(after) if not (m.group("pct") or m.group("ord")) else None
            glued = GLUED_SCALE.match(after) if scale is None and not m.group("pct") else None
            # ("45k" is 45,000 whatever follows; "5m" is five metres unless it is money)
            if glued and (m.group("cur") or glued.group("s") in "kK" or _unit(after[glued.end():]) in MONEY):
                scale = glued
            if scale:  # "£2.6 million": the number is 2,600,000 whatever its unit
                value *= SCALE_WORDS[scale.group("s").lower()]
                after = after[scale.end():]
                end = m.end() + scale.end()  # "£12k", "2.5 thousand": the scale is the value's, no word of the frame
            degrees = _DEGREES.match(after) or _BARE_DEGREES.match(after)
            if m.group("pct"):
                unit = "%"
            elif degrees:  # "22 °C", "29°C": a temperature, never "at 4" o'clock; its sign and letter are the unit
                unit = "degree" if degrees.group(1).lower() == "c" else "fahrenheit"
                quantities.add((unit, value))
                taken.append((m.start(), m.end() + degrees.end()))
                continue
            elif m.group("cur"):
                unit = CURRENCY[m.group("cur")]
            elif m.group("ord"):
                if _WEEKDAY.match(after.lstrip()):
                    continue  # "the 1st Monday of each month": which Monday (an ordinal, as "first"), no day
                unit = "day"  # "the 9th", "on the 25th": a day of the month
            else:
                unit = _unit(after)
                # "every Monday at 10", "we shut at 4": an hour, as "10 am" is
                # "from 6 to 9": the second end of a range of hours is one too
                gap = text[bare[-1][0] : m.start()] if bare else ""
                ranged = bool(bare) and bool(_RANGE_GAP.fullmatch(gap))
                # dictated speech runs on without a comma: "from five till six kiran does his karate" ends a range
                # of hours at "six" whatever word follows, unless it is a unit ("till 6 weeks")
                spoken_end = ranged and _CLOCK_GAP.fullmatch(gap) is not None and unit not in KNOWN_UNITS
                if ((not unit or spoken_end) and value.is_integer() and 0 < value <= 12 and "." not in m.group("n")
                        and (ranged or _AT_TIME.search(text[max(0, m.start() - 12) : m.start()]))):
                    if ranged and compare and bare[-1][1] < value * 60 <= _AFTERNOON_END * 60:
                        afternoon.append((bare[-1][1], int(value) * 60))
                    bare.append((m.end(), int(value) * 60))
                    hours.add(int(value) * 60)
                    times.add(int(value) * 60)
                    taken.append(m.span())
                    continue
        if compare and unit in DURATION_MINUTES and not (m.group("n") and m.group("ord")):
            unit, value = "duration", value * DURATION_MINUTES[unit]
        elif compare and unit in CALENDAR_MINUTES and not (m.group("n") and m.group("ord")):
            unit, value = "duration", value * CALENDAR_MINUTES[unit]
        elif compare and unit in METRIC:
            unit, value = METRIC[unit][0], round(value * METRIC[unit][1], 6)  # (3.2 * 1000 is 3200.0000000000005)
        quantities.add((unit, value))
        taken.append((m.start(), max(end, m.end())))
    periods = set()
    for m in _PERIOD.finditer(text) if may(_PERIOD_GATE) else ():
        if free(*m.span()) and not re.search(r"\d\s*$", text[max(0, m.start() - 4) : m.start()]):
            period = m.group("p").lower()  # not "4 nights": that is a quantity
            period = _PERIOD_SAID.get(period, period)
            if period == "night" and _WEEKDAY_BEFORE.search(text[max(0, m.start() - 12) : m.start()]):
                period = "evening"  # "on Tuesday nights" are its evenings (a night shift is not)
            elif period == "night" and _event_night(text[max(0, m.start() - 16) : m.start()]):
                continue  # "Practice night is Wednesday, 7:30 to 9", "quiz night": an event's name, no part of the day
            taken.append(m.span())
            # "half past seven till half past nine in the evening": the period says the times before it are pm
            # ("on Tuesday afternoons at five", "Thursday evenings at 8": said before the hour, it marks it too)
            marks = _marked(bare, text, m.start()) or _marked_after(bare, text, m.end(), period)
            if marks and period != "morning":
                times.difference_update(marks)
                times.update(t + 720 for t in marks)
                continue
            periods.add(period)
    # "from 2 till 4", "from five till six": a range of bare hours that ends by seven, no part of the day said, is
    # in the afternoon or the evening, as "2-4pm" and "5 to 6 in the evening" say (no one books a party or a class
    # from two till four in the night; held-out pairs 16's dictated speech)
    for first, last in afternoon:
        if first in times and last in times and not periods:
            times.difference_update((first, last))
            times.update((first + 720, last + 720))
    if weekdays and ("every", 10080.0) in quantities:
        quantities.discard(("every", 10080.0))  # "Mondays and Fridays each week": the weekdays say weekly
    # "afternoons from 14:00 to 18:00": a part of the day the times already say adds no value of its own
    periods = {p for p in periods if not any(_PERIOD_HOURS[p](t // 60) for t in times)}
    if not (times or dates or weekdays or months or years or periods or quantities or taken):
        return NO_VALUES
    return Values(
        times=frozen(times),
        dates=frozen(dates),
        weekdays=frozen(weekdays),
        months=frozen(months),
        years=frozen(years),
        periods=frozen(periods),
        quantities=frozen(quantities),
        spans=tuple(sorted(taken)),
        bare_times=frozen(hours & times),
    )


def calendar_said(minutes: float) -> bool:
    """Whether a duration was said in months or years (a whole number of twelfths of a year)."""
    return minutes >= CALENDAR_MINUTES["month"] and minutes % CALENDAR_MINUTES["month"] == 0


def same_duration(a: float, b: float, tolerance: float) -> bool:
    """Whether two durations are one: equal, or one said in months or years and the other within `tolerance`
    (a share of the longer) of it: "eight weeks" (56 days) = "2 months" (~61), "52 weeks" = "a year"; "28 days" /
    "30 days" and "8 weeks" / "9 weeks" stay two (neither is said in months)."""
    if a == b:
        return True
    if calendar_said(a) == calendar_said(b):
        return False
    return abs(a - b) <= tolerance * max(a, b)


def _marked(bare: list[tuple[int, int]], text: str, at: int) -> list[int]:
    """The times without am/pm that a part of the day at `at` marks: the one right before it, and those joined
    to it as a range ("7:30 till 9:30 in the evening")."""
    out: list[int] = []
    edge = at
    for end, t in sorted(bare, reverse=True):
        if end > edge:
            continue
        gap = text[end:edge]
        if not (_MARKING.fullmatch(gap) if edge == at else _RANGE_GAP.fullmatch(gap)):
            break
        out.append(t)
        starts = [m.start() for m in _TIME.finditer(text[: end]) if m.end() == end]
        edge = starts[0] if starts else end
    return out


#: What stands between a part of the day and the hour it marks, said after it: "afternoons at 5", "evening, from 7",
#: "monday evening duplicate starts 7:15" (a few words of one clause, no other number).
_MARKED_AFTER = re.compile(r"(?i)s?(?:\s+[a-z'’]+){0,3}?\s*,?\s*(?:(?:at|from|around|about|by)\s+)?")


def _marked_after(bare: list[tuple[int, int]], text: str, at: int, period: str) -> list[int]:
    """The times without am/pm that a part of the day said before them marks ("Tuesday afternoons at 5", "on
    Thursday evenings at 8 till 10"): the hour right after "at" or "from", and those joined to it as a range; only
    where each, past noon, falls in that part of the day."""
    out: list[int] = []
    edge, gap = at, _MARKED_AFTER
    for end, t in sorted(bare):
        if end <= edge:
            continue
        start = end - len(re.search(r"[\d:.]*$", text[:end]).group(0))  # type: ignore[union-attr]
        if not gap.fullmatch(text[edge:start]) or t >= 720 or not _PERIOD_HOURS[period]((t + 720) // 60):
            break
        out.append(t)
        edge, gap = end, _RANGE_GAP
    return out


#: The word before "night" that makes it an event's name ("practice night", "quiz night"), unless it says when.
_EVENT_NIGHT = re.compile(r"(?i)\b([a-z]+)\s+$")
_NIGHT_WORDS = frozenset("late early last tomorrow tonight same previous following whole every each one two".split())


def _event_night(before: str) -> bool:
    """Whether the word `before` "night" makes it an event's name ("practice night", "quiz night"), not a time
    ("late night", "last night", "the night")."""
    m = _EVENT_NIGHT.search(before)
    return m is not None and m.group(1).lower() not in stop_words() and m.group(1).lower() not in _NIGHT_WORDS


#: Lower-case short months that are no other common word, read as months after a word that introduces one ("in the
#: aug harvest", "by oct"): hurried notes leave the capital off.
_LOWER_MONTHS = frozenset("feb apr jun jul aug oct nov dec".split())
_MONTH_BEFORE = re.compile(r"(?i)\b(?:in|the|of|by|since|until|till|from|mid|early|late|last|next|this|end)\s+$")


def masked(text: str, *, compare: bool = False) -> str:
    """`text` with its values replaced by a placeholder, to compare what two statements say about them (values
    said in words are read in digits first, so the spans are of that text: `_prepared`). `compare` as for
    `values`."""
    vals = values(text, compare=compare)
    text = _prepared(text)
    out, pos = [], 0
    for a, b in vals.spans:
        out.append(text[pos:a])
        out.append("#")
        pos = b
    out.append(text[pos:])
    return "".join(out)
