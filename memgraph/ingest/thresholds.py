"""A threshold against a grant below it: one statement says how old one must be, or how long one must wait, before
something is allowed ("Volunteers must be 16 or over.", "No sleepovers until she's 12.", "I can't swim for four
weeks after the surgery."), the other allows it earlier ("Under-16s can volunteer on Sundays.", "She can go to
sleepovers at 10.", "I've been told I can swim two weeks after the surgery."). The two cannot both hold; a grant at
or past the threshold agrees with it ("… can swim four weeks after …").

Why apart: the pair's numbers are one kind of value (an age, a wait) said once as a bound and once as a point, with
the polarity flipped and the grant's words mostly another frame ("not allowed on social media" / "can have a TikTok
account"); the value rules read a changed value only in one frame, the negation rules only the same value. Held-out
pairs 18. A wait is compared in days, an age as a bare number; a bound and a grant of two kinds never meet.
"""

from __future__ import annotations

import re

_WORDS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "twenty": 20, "twenty-one": 21,
}
_N = r"(?P<n>\d+|" + "|".join(sorted(_WORDS, key=len, reverse=True)) + r")"
#: A wait's unit, in days.
_DAYS = {"day": 1.0, "week": 7.0, "fortnight": 14.0, "month": 30.4, "year": 365.0}
_UNIT = r"(?P<u>days?|weeks?|fortnights?|months?|years?)"
#: A negation or a ban before the thing it keeps back ("isn't allowed", "can't", "no").
_NOT = (
    r"(?:can['’]?t|cannot|can\s+not|mustn['’]?t|must\s+not|shouldn['’]?t|won['’]?t|not|never|no|"
    r"isn['’]?t|aren['’]?t|not\s+allowed|banned|forbidden)"
)
_WHO = r"(?:(?:he|she|they|i|we|you|it)(?:['’](?:s|re|m)|\s+(?:is|are|am|turns?|reach(?:es)?))\s+)"
#: A modal that grants, not denied ("can", not "can't" / "cannot"; "allowed", not "not allowed").
_MAY = r"(?:(?:may|can|could)(?!['’]?t\b|not\b|\s+not\b)|(?<!not\s)(?:allowed|permitted|welcome|ok|okay|fine)\b)"
#: An age and all above it: "16 or over", "aged 18 and above", "18+", "over-18s or older".
_OVER = rf"(?:aged\s+)?{_N}\s*(?:\+|s?\s*(?:or|and)\s+(?:over|older|above|upwards?))(?![\w-])"
#: Bounds: the least age or wait at which the thing is allowed.
_BOUNDS = [
    # "must be 16 or over", "18+ only" (not "aged 21 and over can …": a grant from 21)
    re.compile(rf"(?i)\b{_OVER}(?![^.;]*?\b{_MAY})"),
    # "for over-16s only", "over-18s only": the group of ages above a bound, named as a noun (not "over-18s can …")
    re.compile(rf"(?i)\bover[- ]?{_N}s\b(?![^.;]*?\b{_MAY})"),
    # "Members under 25 can't drive the van"
    re.compile(rf"(?i)\bunder[- ]?{_N}s?\b[^.;]*?\b{_NOT}\b"),
    # "isn't allowed on social media until he's 13", "no phone till she turns 12", "not before the age of 16": an
    # age said as one (a person's "he's", "turns", or "age"), never a bare number ("doesn't open until 10", a clock)
    re.compile(rf"(?i)\b{_NOT}\b[^.;]*?\b(?:until|till|til|before)\s+(?:(?:the\s+age\s+of|age)\s+|{_WHO})"
               rf"{_N}\b(?!\s*(?::|\.\d|am|pm|o['’]clock|%))"),
    # "can't drive for six weeks after the operation", "no lifting for 3 months"
    re.compile(rf"(?i)\b{_NOT}\b[^.;]*?\bfor\s+(?:at\s+least\s+)?{_N}\s+{_UNIT}\b(?=\s+(?:after|following|post)\b)"),
]
#: Grants: the age or wait at which the thing is said to be allowed.
_GRANTS = [
    # "Under-16s may volunteer", "under 12s can ride"
    re.compile(rf"(?i)\b(?P<under>under)[- ]?{_N}s?\b[^.;]*?\b{_MAY}"),
    # "Members aged 21 and over can drive the van"
    re.compile(rf"(?i)\b{_OVER}[^.;]*?\b{_MAY}"),
    # "Kids from 12 can join", "children aged 8 may enter": an age said before the modal that grants
    re.compile(rf"(?i)\b(?:from|aged)\s+(?:the\s+age\s+of\s+|age\s+)?{_N}\b(?!\s*(?::|\.\d|am|pm|o['’]clock|%))"
               rf"(?:\s*\+|\s+(?:and|or)\s+(?:up|upwards|over|above|older))?\s+{_MAY}"),
    # "can have his own account at 11", "is allowed a phone from age 10"
    re.compile(rf"(?i)\b{_MAY}[^.;]*?\b(?:at|from)\s+(?:the\s+age\s+of\s+|age\s+)?"
               rf"{_N}\b(?!\s*(?::|\.\d|am|pm|o['’]clock|%|[a-z]))"),
    # "may drive two weeks after the operation", "can swim after 10 days"
    re.compile(rf"(?i)\b{_MAY}[^.;]*?\b{_N}\s+{_UNIT}\s+(?:after|following|post)\b"),
    re.compile(rf"(?i)\b{_MAY}[^.;]*?\bafter\s+{_N}\s+{_UNIT}\b"),
]
#: A grant denied is no grant ("can't … at 11", "may not drive two weeks after").
_GRANT_DENIED = re.compile(r"(?i)\b(?:can['’]?t|cannot|can\s+not|may\s+not|mustn['’]?t|not\s+allowed|never)\b")


def _value(m: re.Match[str]) -> tuple[str, float] | None:
    """An age (kind "age") or a wait in days (kind "wait") from a match's number and unit."""
    n = m.group("n").lower()
    value = float(_WORDS[n]) if n in _WORDS else float(n)
    unit = m.groupdict().get("u")
    if m.groupdict().get("under"):
        value -= 0.5  # "under-16s": any age below 16
    if unit:
        return "wait", value * _DAYS[unit.lower().rstrip("s")]
    return "age", value


def bound(text: str) -> tuple[str, float] | None:
    """The least age or wait `text` sets before something is allowed, or None."""
    for pattern in _BOUNDS:
        m = pattern.search(text)
        if m is not None:
            return _value(m)
    return None


def grant(text: str) -> tuple[str, float] | None:
    """The age or wait at which `text` allows something, or None (a denied grant is none)."""
    for pattern in _GRANTS:
        m = pattern.search(text)
        if m is not None and not _GRANT_DENIED.search(m.group(0)):
            return _value(m)
    return None


def granted_below(new: str, old: str) -> bool | None:
    """Whether one text allows something before the age or wait the other sets as its threshold: "Volunteers must
    be 16 or over." / "Under-16s can volunteer on Sundays." (True); a grant at or past the threshold agrees with it
    ("can't swim for four weeks after" / "can swim four weeks after": False, though one is negated); None when the
    texts are no threshold and grant of one kind."""
    for a, b in ((new, old), (old, new)):
        limit = bound(a)
        if limit is None or bound(b) is not None:
            continue
        given = grant(b)
        if given is not None and given[0] == limit[0]:
            return given[1] < limit[1]
    return None
