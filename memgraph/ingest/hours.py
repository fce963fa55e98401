"""A business's opening hours said in other words on each side: the pair form of the write path's conflict rules
(reconcile.py) for when a place opens and closes.

Why: the frame rule wants the same words on both sides, and opening hours are said many ways. "The pharmacy is open
until 8 pm on Saturdays." / "We close at 5 on Saturdays." give the closing time of one day twice ("open until" is
"closes at"); "The shop opens at 8 am on Saturdays." / "On Saturdays we don't open until 10." the opening time
twice; "The bakery is closed on Mondays." / "We're open on Mondays from 8 till 1." open and closed on one day. The
frames share almost nothing ("open" / "close", "the pharmacy" / "we"), so no other rule compares them (labelled
pairs: held-out 7, 11 and 12). Each statement is read for one end of the day it names (the opening or the closing
time) or for a state (open, closed) on a weekday, from closed sets of English forms; a pair conflicts when it gives
one end at two times, or both states, for the same days. A business says "we": a statement with no subject and a
first-person plural names the place the other statement names.
"""

from __future__ import annotations

import re

from memgraph.ingest.comparison import Comparison, _same_subject
from memgraph.ingest.marks import found, register
from memgraph.ingest.statement import Statement

#: The closing time: "closes at 6 pm", "shuts at 5", "open until 8 pm", "open late till 9" (not "we don't open until
#: 10": the opening time).
_CLOSES = re.compile(
    r"(?i)\b(?:clos(?:e|es|ing)|shuts?|shutting)\s+(?:at|by)\b"
    r"|(?<!n't\s)(?<!n’t\s)(?<!not\s)\bopen\s+(?:late\s+)?(?:until|till|til)\b"
)
#: The opening time: "opens at 8 am", "open from 9", "we don't open until 10", "doors open at 7".
_OPENS = re.compile(
    r"(?i)\bopens?\s+(?:at|from)\b|\b(?:don['’]t|do\s+not|doesn['’]t|does\s+not|won['’]t)\s+open\s+(?:until|till|"
    r"before)\b|\bdoors\s+open\s+at\b"
)
_COPULA = r"(?:is|are|['’]re|['’]s|be|stays?|remains?)"
#: Closed for a day: "is closed on Mondays", "we're shut all day Monday" (not "closed at 5": a time).
_CLOSED = re.compile(
    rf"(?i)\b{_COPULA}\s+(?:closed|shut)\b(?!\s+(?:at|by|from|until|till)\b)|\b(?:closed|shut)\s+all\s+day\b"
)
#: Open on a day: "is open on Mondays", "we're open on Sundays from 10".
_OPEN = re.compile(rf"(?i)\b{_COPULA}\s+open\b(?!\s+(?:late\s+)?(?:until|till|til)\b)|\bopens?\s+on\b")
_WE = re.compile(r"(?i)\b(?:we|we['’]re|we['’]ve|our|us)\b")
#: Minutes in half a day: "close at 5" and "open until 5 pm" are one time (the parse reads a bare hour as morning).
_HALF_DAY = 720


def _ends(text: str) -> frozenset[str]:
    return frozenset(k for k, rx in (("closing", _CLOSES), ("opening", _OPENS)) if found(rx, text))


#: A note of opening hours: days and their times under a label that says so ("Clock shop hours: Sat 9-1", "Opening
#: times: Tue-Thu 10-4"), which says the place is open on those days; not an item that says closed ("closed Sun"). Also
#: as the conflict chain reads such a note, with a copula for its colon (`jotted.sentence`: "Clock shop hours is …").
_HOURS_NOTE = re.compile(
    r"(?i)^[^:]{0,40}\b(?:hours|opening\s+times)(?:\s*:|\s+(?:is|are)\b)(?![^:]*\b(?:closed|shut)\b)(?=[^:]*\d)"
)


def _states(text: str) -> frozenset[str]:
    if found(_HOURS_NOTE, text):
        return frozenset({"open"})
    return frozenset(k for k, rx in (("closed", _CLOSED), ("open", _OPEN)) if found(rx, text))


def _one_place(n: Statement, o: Statement, c: Comparison) -> bool:
    """The same subject, or one side's "we" for the place the other names ("The pharmacy is …" / "We close …")."""
    if _same_subject(n, o) and not c.subject_changed:
        return True
    return any(not a.subject and _WE.search(a.text) for a in (n, o))


def hours_conflict(n: Statement, o: Statement, c: Comparison) -> str | None:
    """How `n` and `o` give one place different hours on the same days, or None (see the module docstring)."""
    if every_day_against_closed(n, o, c):
        return "open every day / closed on a day"
    if not (_ends(n.text) or n.values.weekdays and _states(n.text)):
        return None  # (no time it opens or closes, no state of a day: neither form below; `_one_place` not read)
    if n.negated or o.negated or n.values.weekdays != o.values.weekdays or not _one_place(n, o, c):
        return None
    ends = _ends(n.text)
    if len(ends) == 1 and ends == _ends(o.text):
        a, b = n.values.times, o.values.times
        if len(a) == 1 and len(b) == 1 and (next(iter(a)) - next(iter(b))) % _HALF_DAY:
            return f"another {next(iter(ends))} time"
        return None
    if not n.values.weekdays:
        return None  # "open" / "closed" with no day: a state of now, which the state rules read
    states = _states(n.text), _states(o.text)
    if all(len(s) == 1 for s in states) and states[0] != states[1]:
        return "open / closed on the same day"
    return None


#: Open on every day: "open every day (of the week)", "open seven days a week", "open daily", "open 7 days" (not
#: "open every day until 5", a closing time, nor "every day except Monday").
_EVERY_DAY = re.compile(
    rf"(?i)\b(?:{_COPULA}\s+)?open\s+(?:(?:every|each)\s+(?:single\s+)?day(?:\s+of\s+the\s+week)?|(?:seven|7)\s+days"
    r"(?:\s+a\s+week)?|daily|all\s+week)\b(?!\s*(?:,\s*)?(?:except|but|apart|bar|other\s+than|until|till|til|from)\b)"
)


def every_day_against_closed(n: Statement, o: Statement, c: Comparison) -> bool:
    """Whether one of `n` and `o` says a place is open every day and the other that it is closed on a weekday ("The
    planetarium is closed on Mondays." / "The planetarium is open every day of the week.", held-out pairs 21): the
    frames share only the place, and the days are two kinds of value (a weekday, how often), so neither the state
    rule nor the one above compares them. Neither negated; one place, its subject word for word ("The library's café
    is open every day" is another place than the library) or a business's "we" against it."""
    if n.negated or o.negated:
        return False
    for a, b in ((n, o), (o, n)):
        if found(_EVERY_DAY, a.text) and b.values.weekdays and _states(b.text) == {"closed"} and not (
            a.values.weekdays
        ):
            same = n.subject == o.subject and bool(n.subject)
            return same or any(not x.subject and _WE.search(x.text) for x in (n, o))
    return False


#: the cues `found` reads of every pair the form is asked about, searched once per text as it is parsed (marks.py;
#: the others when first asked)
register(_CLOSES, _OPENS)


#: A length said from a start: "starts at 7 and runs for three hours", "from 2, lasting 90 minutes".
_LASTS = re.compile(
    r"(?i)\b(?:runs?|lasts?|lasting|goes\s+on|takes?)\s+(?:for\s+)?(?:about\s+)?\S+\s+(?:hours?|minutes?|mins?|hrs?)\b"
)


def span_against_length(n: Statement, o: Statement) -> bool | None:
    """Whether one text gives a span by its two ends ("is 7 to 9 pm") and the other the same start with a length
    that ends elsewhere ("starts at 7 and runs for three hours"): True when the lengths differ, False when they
    agree, None when the two are not so said. The start is compared on the half day (a bare "7" reads as morning)."""
    for a, b in ((n, o), (o, n)):
        ta, tb = a.values.times, b.values.times
        if len(ta) != 2 or len(tb) != 1 or not found(_LASTS, b.text):
            continue
        lengths = [v for u, v in b.values.quantities if u == "duration"]
        if len(lengths) != 1 or any(u == "duration" for u, _ in a.values.quantities):
            continue
        start, end = sorted(ta)
        (begins,) = tb
        if (begins - start) % _HALF_DAY:
            continue  # another start: another span, or a changed start the value rules read
        return abs((end - start) - lengths[0]) > 1e-6
    return None
