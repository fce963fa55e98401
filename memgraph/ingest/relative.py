"""Values said relative to another value rather than given: a comparison with someone else's value ("Ayaan is two
years younger than his cousin Zara, who's 10.", "My allowance is twice my brother's, and he gets 8 units a month.",
"My 5k PB is a minute quicker than my sister's 25:00.") and a change by an amount ("The midwife has upped Ivy's feeds
by 30 ml."). The numbers such a text says are not the subject's value: the other's value and the difference. The
conflict chain reads no changed value from them (`relative_or_change`), and reads the subject's value from the
comparison instead (`disagrees`): the other's value moved by the difference, or multiplied, against the one value the
stored statement gives. A change by an amount gives no new value to compare at all (90 ml upped by 30 ml is no
30 ml feed), so it is left to the update rules.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

#: Number words a difference or a multiple is said in ("two years", "a minute", "three times").
_WORDS: dict[str, float] = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30, "half": 0.5,
}
_NUMBER = r"(?:£|\$|€)?\d[\d,]*(?:\.\d+)?|" + "|".join(sorted(_WORDS, key=len, reverse=True))
#: Comparatives that put the subject above the other's value, and those that put it below. "quicker" and "faster"
#: say less of a time (a run's time, a journey's) and more of anything else (a speed).
_ABOVE = frozenset("older higher more heavier taller longer later bigger larger dearer slower greater".split())
_BELOW = frozenset("younger lower less fewer lighter shorter earlier smaller cheaper quicker faster".split())
_SPEED = frozenset({"quicker", "faster"})
#: "<difference> <comparative> than <the other, with its value>": "two years older than his wife Teresa, who was born
#: in 1885". A bound has no difference before its comparative ("younger than fourteen", "more than two in 24
#: hours") and is no comparison with another's value.
_COMPARED = re.compile(
    rf"(?i)\b(?P<n>{_NUMBER})\s+(?:(?!(?:lot|bit|little|tad|touch|good|great|far|way|much)\b)(?P<unit>[a-z%]+)\s+)?"
    rf"(?P<cmp>{'|'.join(sorted(_ABOVE | _BELOW))})\s+than\b"
    r"(?P<rest>.*)"
)
#: "<multiple> <the other's>": "twice my brother's, and he gets 8 units", "three times as much as Sam's (6 kg)".
_MULTIPLE = re.compile(
    r"(?i)\b(?P<m>twice|double|triple|half|(?:two|three|four|five|ten|\d+)\s+times)\s+"
    r"(?P<rest>(?:(?:as\s+(?:much|many|long|big|high|old|heavy)\s+as|that\s+of|what)\s+(?:the\s+)?"
    r"|(?=(?:my|his|her|their|our|your)\b|(?-i:[A-Z])[\w-]*['’]s\b)).*)"
)
#: A change by an amount, with no value it comes to: "upped Ivy's feeds by 30 ml", "goes up by a tenner",
#: "cut my hours by a third"; not "… by 30 ml to 120 ml", which gives the value too.
_BY_AMOUNT = re.compile(
    r"(?i)\b(?:up(?:ped|s)?|rais(?:e|ed|es)|increas(?:e|ed|es)|cut(?:s)?|reduc(?:e|ed|es)|lower(?:ed|s)?|"
    r"drop(?:ped|s)?|r[oi]se[sn]?|fell|fall(?:en|s)?|go(?:es|ne)?\s+up|went\s+up|go(?:es|ne)?\s+down|went\s+down|"
    r"put\s+up|extend(?:ed|s)?|shorten(?:ed|s)?|bump(?:ed|s)?)\b"
    rf"(?:\s+[\w'’-]+){{0,4}}?\s+by\s+(?:{_NUMBER})\b(?![^.;]*\bto\s+(?:£|\$|€)?\d)"
)
#: A number with its unit noun, where the other's value and the stored one are read: "25:00", "1885", "8 units".
_VALUE = re.compile(r"(?<![\w:.])(?:£|\$|€)?(?P<a>\d[\d,]*(?:\.\d+)?)(?::(?P<b>\d\d))?(?![\w:]|\.\d)")


@dataclass(frozen=True)
class Derived:
    """The subject's value a comparison gives, and the shape its numbers were written in."""

    value: float
    colon: bool  # "24:30": a clock or a run's time
    year: bool  # "1885": a year


def _number(word: str) -> float | None:
    """A difference's number: digits or a number word."""
    w = word.lower().lstrip("£$€").replace(",", "")
    if w in _WORDS:
        return _WORDS[w]
    try:
        return float(w)
    except ValueError:
        return None


def _values(text: str) -> list[tuple[float, bool, bool]]:
    """The numbers of `text` as (value, colon, year); a colon value "mm:ss" or "h:mm" as its first field times 60
    plus the second (both sides read the same way, so either reading compares)."""
    out = []
    for m in _VALUE.finditer(text):
        a = float(m.group("a").replace(",", ""))
        if m.group("b") is not None:
            out.append((a * 60 + float(m.group("b")), True, False))
        else:
            out.append((a, False, a.is_integer() and 1000 <= a <= 2100))
    return out


def _scale(unit: str | None, colon: bool) -> float:
    """What one of a difference's unit is in a colon value's counting: a minute is 60 of "mm:ss" (a run's time), an
    hour 60 of "h:mm"; a difference without a time unit counts as written."""
    u = (unit or "").lower().rstrip("s")
    return 60.0 if colon and u in {"minute", "min", "hour", "hr"} else 1.0


@lru_cache(maxsize=4096)
def derived(text: str) -> Derived | None:
    """The subject's value a comparison in `text` gives (the other's value moved by the difference, or multiplied),
    or None when `text` compares with nothing or the other's value is not said."""
    m = _COMPARED.search(text)
    if m is not None:
        delta = _number(m.group("n"))
        others = _values(m.group("rest"))
        if delta is None or not others:
            return None
        value, colon, year = others[0]
        word = m.group("cmp").lower()
        up = word in _ABOVE
        if word in _SPEED and not (colon or (m.group("unit") or "").lower().rstrip("s") in {"minute", "second"}):
            up = True  # faster of a speed is more of it
        if year and word in {"older", "younger"}:
            up = not up  # older is born earlier
        step = delta * _scale(m.group("unit"), colon)
        return Derived(value + step if up else value - step, colon, year)
    m = _MULTIPLE.search(text)
    if m is None:
        return None
    others = _values(m.group("rest"))
    if not others:
        return None
    word = m.group("m").lower().split()
    factor = {"twice": 2.0, "double": 2.0, "triple": 3.0, "half": 0.5}.get(word[0])
    if factor is None:
        factor = _number(word[0])
    if factor is None:
        return None
    value, colon, year = others[0]
    return Derived(value * factor, colon, year)


def changed_by_amount(text: str) -> bool:
    """Whether `text` says a value changed by an amount without the value it came to ("upped by 30 ml")."""
    return _BY_AMOUNT.search(text) is not None


def relative_or_change(new: str, old: str) -> bool:
    """Whether either text says its value relative to another's or as a change by an amount: its numbers are not
    the subject's value, so no changed value may be read from them."""
    return any(derived(t) is not None or changed_by_amount(t) for t in (new, old))


def disagrees(new: str, old: str) -> bool:
    """Whether one text's comparison gives the subject a value other than the one value the other text gives in
    the same shape (a year for a year, a colon value for a colon value): "Ayaan is 9." / "Ayaan is two years
    younger than his cousin Zara, who's 10." (8). The other text must compare with nothing and give exactly one
    such value; a value that agrees (8) is no conflict."""
    for a, b in ((new, old), (old, new)):
        d = derived(a)
        if d is None or derived(b) is not None or changed_by_amount(b):
            continue
        mine = [v for v, colon, year in _values(b) if colon == d.colon and year == d.year]
        if len(mine) == 1:
            return abs(mine[0] - d.value) > 1e-6 * max(1.0, abs(d.value))
    return False
