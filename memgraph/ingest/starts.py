"""The day from which a change holds, when the text names one later than the day it was written.

"From next week the bakery opens at 7:30 on weekdays." supersedes "The bakery opens at 7am on weekdays", but not
before next Monday: until then the old hours are the ones that hold. `start` reads that day, resolved against the
memory's `created_at` (a conversation turn's date when it has one), as a date. What it reads:

- a start word and a day after it: "from", "starting (from|on|in)", "beginning (on|in)", "as of", "as from",
  "effective (from|on)", "with effect from", "commencing" + "next week|month|year", "tomorrow", "next Monday",
  "Monday", "1 March", "March 1st", "the 14th", "January", "March 2027", "2027-03-01" (the day, date and month
  words are read by the value parse, `values.py`; only the relative words are read here);
- a bare "next week|month|year" or "in two weeks" (not after "is", "to", "by", "until", "for", "on" ..., where it
  is the value itself: "the dentist is next week", "moved to next week") and "in May" after "will", "'ll" or
  "going to"; not when the old text names a day, a date or a month itself: there the new one's day is the value
  that changed ("the dentist is on Friday" -> "I'm seeing the dentist next week").

A named day or month is its nearest occurrence: "from 1 March" said in November is next March, "from October"
said in November is the October just gone, a past start. What it does not read: a range or a move ("from Monday
to Friday", "moved from Tuesday"), a past or present start ("from last week", "since Monday", "as of today",
"from this month"), holidays and terms ("after Christmas", "next term": their day depends on the country and the
school), and a time of day ("from 7am").
"""

from __future__ import annotations

import re
from collections.abc import Collection
from datetime import date, datetime, timedelta
from functools import lru_cache
from typing import Any

from memgraph.ingest.value_words import MONTHS, NUMBER_WORDS, WEEKDAYS
from memgraph.ingest.values import values

#: Metadata keys of a change that starts later (`resolve.apply` writes them; recall and the decay job read them):
#: on the new memory the day it holds from and the memory it replaces, on the old one the day it holds until and
#: the memory that replaces it. ISO dates, lists of ids (as `contradicts` / `contradicted_by`).
VALID_FROM = "valid_from"
VALID_UNTIL = "valid_until"
REPLACES = "replaces"
REPLACED_BY = "replaced_by"
KEYS = frozenset({VALID_FROM, VALID_UNTIL, REPLACES, REPLACED_BY})

#: Words that say the day after them is when something starts.
_START = re.compile(
    r"(?i)\b(?:from|starting(?:\s+(?:from|on|in))?|beginning(?:\s+(?:on|in))?|as\s+(?:of|from)|"
    r"effective(?:\s+(?:from|on))?|with\s+effect\s+from|commencing)\s+"
)
#: A word before "from" that makes it the old value's place, not a start: "moved from Tuesday", "up from January".
_MOVED = re.compile(
    r"(?i)\b(?:mov(?:ed|es|ing|e)|chang(?:ed|es|ing|e)|switch(?:ed|es|ing)?|shift(?:ed|s|ing)?|swap(?:ped|s)?|"
    r"reschedul(?:ed|ing)|push(?:ed|ing)|brought|went|gone|go(?:es|ing)?|away|back|apart|different|far|aside|up|down|"
    r"off|out|date[sd]?)\s+$"
)
_TOKEN = re.compile(r"[\w'’/-]+|[^\w\s]")
_ISO = re.compile(r"(?:19|20)\d\d-[01]\d-[0-3]\d")
_NUMERIC = re.compile(r"\d{1,2}(?:st|nd|rd|th)?|(?:19|20)\d\d|[0-3]?\d/[0-3]?\d(?:/(?:19|20)\d\d)?")
_UNITS = frozenset({"week", "month", "year"})
_RELATIVE_FIRST = frozenset({"next", "following", "coming"})
#: Words of a day phrase besides numbers, months and weekdays.
_FILLER = frozenset({"the", "of", "start", "beginning", "on", "in"})
#: Words that make the phrase a day gone or this one: no future start.
_NOT_LATER = frozenset({"today", "now", "tonight", "yesterday", "last", "this", "previous", "past"})
#: Words after the day that make it one end of a range or a move: "from Monday to Friday".
_RANGE = frozenset({"to", "till", "til", "until", "through", "thru", "-", "–", "and"})
#: A bare "next week" / "in two weeks" / "in May", with no start word before it.
_BARE = re.compile(
    r"(?i)\b(?:(?:next|the\s+following)\s+(?P<unit>week|month|year)|in\s+(?P<n>a|an|one|two|three|four|five|six|"
    r"\d{1,2})\s+(?P<units>days?|weeks?|months?)|in\s+(?P<month>"
    + "|".join(m for m in MONTHS if len(m) > 3 or m == "may")
    + r")(?:\s+(?P<year>(?:19|20)\d\d))?)\b"
)
#: Words before a bare day that make it the value said ("is next week", "moved to next week", "due by next month").
_VALUE_BEFORE = re.compile(
    r"(?i)(?:\b(?:is|are|was|were|be|been|being|to|until|till|til|by|for|before|on|of|at|during|than|since|after|"
    r"about|around|until|till)|['’]s|"
    + "|".join(sorted(WEEKDAYS, key=len, reverse=True))
    + r")\s+$"
)
_FUTURE = re.compile(r"(?i)\b(?:will|shall|going\s+to|gonna)\b|['’]ll\b")


def start(text: str, written: datetime | date, *, old: str = "") -> date | None:
    """The day from which the change `text` says holds, when it names one later than `written` (the day it was
    written), else None. `old`: the text it changes; a bare day in `text` is the changed value when `old` names
    a day, a date or a month too."""
    day = written.date() if isinstance(written, datetime) else written
    found = _start(text, day, old)
    return found if found is not None and found > day else None


@lru_cache(maxsize=4096)
def _start(text: str, day: date, old: str) -> date | None:
    for m in _START.finditer(text):
        if m.group(0).lower().startswith("from") and _MOVED.search(text[: m.start()]):
            continue
        words = _phrase(text[m.end() :])
        if words is not None:
            got = _day(words, day)
            if got is not None:
                return got
    if _day_changed(old, text):
        return None
    for m in _BARE.finditer(text):
        if _VALUE_BEFORE.search(text[: m.start()]):
            continue
        if m.group("unit"):
            return _next(m.group("unit").lower(), day)
        if m.group("n"):
            n = int(m.group("n")) if m.group("n").isdigit() else int(NUMBER_WORDS.get(m.group("n").lower(), 1))
            unit = m.group("units").lower().rstrip("s")
            return _add_months(day, n) if unit == "month" else day + timedelta(days=n * (7 if unit == "week" else 1))
        if _FUTURE.search(text):
            year = int(m.group("year")) if m.group("year") else None
            return _nearest(MONTHS[m.group("month").lower()], 1, day, year)
    return None


def named(text: str, written: datetime | date) -> date | None:
    """The first day later than `written` that `text` names anywhere, start word or none ("Actually the 7:30
    opening starts on the 14th", "the new hours begin next week, not tomorrow"). Read only where a day is known to be
    a start: a correction of a change that has not started yet moves its day to the one it names (`plans.py`);
    elsewhere "the dentist is on Friday" is the value said, and `start` is the reading."""
    day = written.date() if isinstance(written, datetime) else written
    for m in _TOKEN.finditer(text):
        if m.group(0).lower() in _NOT_LATER or (m.start() and _NOT_BEFORE.search(text[: m.start()])):
            continue
        words = _phrase(text[m.start() :])
        if words is None or all(w.lower() in _FILLER for w in words):
            continue
        got = _day(words, day)
        if got is not None and got > day:
            return got
    return start(text, day)  # "in two weeks"


#: A word before a day that says it is not the one meant: "on the 14th, not next week".
_NOT_BEFORE = re.compile(r"(?i)\b(?:not|never|instead\s+of|rather\s+than)\s+$")


def _phrase(after: str) -> list[str] | None:
    """The day words at the start of `after` (as written), or None when they are one end of a range or a move."""
    words: list[str] = []
    tokens = _TOKEN.findall(after)
    for i, tok in enumerate(tokens):
        w = tok.lower()
        if _day_word(w, tok) or (w == "," and words and i + 1 < len(tokens) and _NUMERIC.fullmatch(tokens[i + 1])):
            words.append(tok)
            continue
        if words and w in _RANGE:
            return None
        break
    while words and words[-1].lower() in _FILLER | {","}:
        words.pop()
    return words or None


def day_word(word: str) -> bool:
    """Whether a lower-case word can be part of a day phrase ("next", "week", "monday", "14th"; not "may")."""
    return _day_word(word, word)


def _day_word(w: str, tok: str) -> bool:
    """Whether a word (`w`: `tok` in lower case) can be part of a day phrase ("may" only as "May")."""
    if w in MONTHS:
        return w != "may" or tok[0] == "M"
    return (
        w in WEEKDAYS or w in _UNITS or w in _FILLER or w in _RELATIVE_FIRST or w in _NOT_LATER or w == "tomorrow"
        or bool(_NUMERIC.fullmatch(w) or _ISO.fullmatch(w))
    )


def _day(said_words: list[str], day: date) -> date | None:
    """The day a phrase names, resolved against `day`; None for a past or present one, or none at all."""
    words = [w.lower() for w in said_words]
    if any(w in _NOT_LATER for w in words):
        return None
    if "tomorrow" in words:
        return day + timedelta(days=1)
    for first, unit in zip(words, words[1:], strict=False):
        if first in _RELATIVE_FIRST and unit in _UNITS:
            return _next(unit, day)
        if first in _RELATIVE_FIRST and unit in WEEKDAYS:
            return _weekday(WEEKDAYS[unit], day)
    said = values(" ".join(w for w in said_words if w.lower() != "the").replace(" ,", ","))
    year = next(iter(said.years)) if len(said.years) == 1 else None
    if len(said.dates) == 1:
        month, d = next(iter(said.dates))
        return _nearest(month, d, day, year)
    if said.dates or len(said.weekdays) > 1 or len(said.months) > 1:
        return None  # several days: a range or a list, not one start
    if said.weekdays:
        return _weekday(next(iter(said.weekdays)), day)
    if said.months:
        return _nearest(next(iter(said.months)), 1, day, year)
    if year is not None:
        return date(year, 1, 1)
    nth = [int(w.rstrip("stndrh")) for w in words if re.fullmatch(r"\d{1,2}(?:st|nd|rd|th)", w)]
    if len(nth) == 1 and words[0] == "the" and 1 <= nth[0] <= 31:  # "from the 14th": this month's or the next
        return _day_of_month(nth[0], day)
    return None


def _next(unit: str, day: date) -> date:
    """The first day of the week (Monday), month or year after `day`'s."""
    if unit == "week":
        return day + timedelta(days=7 - day.weekday())
    if unit == "month":
        return _add_months(day.replace(day=1), 1)
    return date(day.year + 1, 1, 1)


def _weekday(weekday: int, day: date) -> date:
    """The next such weekday after `day` ("from Monday" said on a Monday is the next one)."""
    return day + timedelta(days=(weekday - day.weekday() - 1) % 7 + 1)


def _add_months(day: date, n: int) -> date:
    """`day` moved by `n` months, on the last day of a shorter month."""
    y, m = divmod(day.month - 1 + n, 12)
    year, month = day.year + y, m + 1
    for d in range(day.day, 27, -1):
        try:
            return date(year, month, d)
        except ValueError:
            continue
    return date(year, month, min(day.day, 28))


def _nearest(month: int, d: int, day: date, year: int | None) -> date | None:
    """The occurrence of month/day nearest `day` (in `year` when it is said): "from 1 March" said in November is
    next March, "as of 1 November" said on the 28th the day gone."""
    options = [year] if year is not None else [day.year - 1, day.year, day.year + 1]
    found: list[date] = []
    for y in options:
        try:
            found.append(date(y, month, d))
        except ValueError:
            continue
    return min(found, key=lambda x: (abs((x - day).days), x)) if found else None


def _day_of_month(d: int, day: date) -> date | None:
    """The next `d`th of a month on or after `day`."""
    for n in range(3):
        base = _add_months(day.replace(day=1), n)
        try:
            cand = base.replace(day=d)
        except ValueError:
            continue
        if cand >= day:
            return cand
    return None


def _day_changed(old: str, new: str) -> bool:
    """Whether the old text names a day, a date or a month (or a relative day) that the new one does not say again:
    then a bare day of the new one is the value that changed ("the dentist is on Friday" -> "... next week")."""
    if not old:
        return False
    o, n = values(old), values(new)
    return bool(o.dates - n.dates or o.weekdays - n.weekdays or o.months - n.months or _BARE.search(old))


def replaced(metadata: dict[str, Any], new_id: str, begins: date) -> None:
    """Record on an old memory's metadata that `new_id` replaces it from `begins` (the earliest such day)."""
    held = until(metadata)
    metadata[VALID_UNTIL] = min(begins, held).isoformat() if held else begins.isoformat()
    metadata[REPLACED_BY] = list(dict.fromkeys([*metadata.get(REPLACED_BY, []), new_id]))


def until(metadata: object) -> date | None:
    """The day a memory holds until (`VALID_UNTIL`), when a change that starts later replaces it."""
    return _iso(metadata, VALID_UNTIL)


def replacers(metadata: object) -> list[str]:
    """The memories named as replacing this one from a later day (`REPLACED_BY`)."""
    value = metadata.get(REPLACED_BY) if isinstance(metadata, dict) else None
    return [x for x in value if isinstance(x, str)] if isinstance(value, list) else []


def due(metadata: object, now: datetime) -> bool:
    """Whether the day a memory holds until (`VALID_UNTIL`) has come by `now`."""
    held = until(metadata)
    return held is not None and now.date() >= held


def lapsed(metadata: object, now: datetime, standing: Collection[str]) -> bool:
    """Whether a change that starts later has replaced the memory by `now`: its day has come and a memory that
    replaces it is among `standing` (the active ones; a replacement forgotten before its day replaces nothing).
    Recall (retrieve/validity.py) and the decay job read it alike."""
    return due(metadata, now) and any(r in standing for r in replacers(metadata))


def since(metadata: object) -> date | None:
    """The day a memory holds from (`VALID_FROM`), when it is a change that starts later."""
    return _iso(metadata, VALID_FROM)


def _iso(metadata: object, key: str) -> date | None:
    value = metadata.get(key) if isinstance(metadata, dict) else None
    if not isinstance(value, str):
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        return None
