"""A plan, and the later note that moves it or calls it off.

"Remind me to ring the plumber about the boiler on Monday." then "Plumber call moved to Thursday, Monday's a bank
holiday.": the plan changed. The two share little (cosine 0.3-0.5: the reason for the change is most of the new text),
the note names the act by a noun of its own ("call" for "ring", "submission" for "submit", "blacking" for "blacked")
and often leaves the old date out, so neither the frame rules nor a changed value see it (held-out pairs 19: six such
pairs, none decided). The note supersedes the plan when

- the new text opens with the thing changed, a short noun phrase ("Plumber call", "Submission", "The quiz night"),
  followed by a verb that moves a plan or calls it off ("moved", "pushed back", "postponed", "rebooked",
  "brought forward", "cancelled", "scrapped", "called off"), optionally after "has been" / "is" / "got";
- every content word of that noun phrase is a word of the old text (by stem, or by its first five letters:
  "submission" / "submit", "blacking" / "blacked"); a pronoun or a name of no old word ("My family moved to Leeds")
  names nothing of the plan;
- the old text is a plan: an intention ("remind me to", "planning to": `intentions._INTENT`) or a statement with a
  time of its own (a date, a day, a month, a clock time), and no duty that recurs ("every Monday", "on Sundays");
- a move says where to in time: a date, a day, a time or a word of when after it ("to Wednesday", "to next week"),
  or nothing ("peal moved, now 16/5"): "moved to Leeds" is a home, which `slots.py` reads; and the time it gives
  is not the old one;
- the note is no question and denies nothing ("the match hasn't been called off").

The rule reads the shape of a note about a plan, not a domain's words: a note that names another thing ("Car service
moved to Friday" after "Remind me to ring the dentist on Monday") or moves a thing to a place is left alone.

`turned` is what the reconciler asks: a plan changed so, a habit given up (`ended`: "Gave up continuous cruising:
we've taken a berth …"), or a state reversed and said as a change (`states.restored`: "Dryer 3 has been repaired and
is taking coins again." after "Dryer 3 is out of action.", which without the change said read as two opposite states,
a contradiction), of the same subject.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memgraph.ingest import states
from memgraph.ingest.comparison import Comparison
from memgraph.ingest.intentions import _INTENT as INTENT
from memgraph.ingest.intentions import _RECURRING as RECURRING
from memgraph.ingest.intentions import _WHEN as WHEN
from memgraph.ingest.statement import Statement, stem
from memgraph.ingest.values import values
from memgraph.text import stop_words, tokenize

#: The verbs that move a plan in time, and those that call it off.
_MOVES = r"moved|pushed\s+back|pushed\s+forward|pushed|put\s+back|postponed|rescheduled|re-?booked|brought\s+forward"
_OFF = r"cancell?ed|scrapped|called\s+off|shelved|axed"
#: A note that opens with the thing changed and the verb of the change ("Engineer call moved to Wednesday", "The
#: quiz has been postponed", "Hull blacking in June cancelled").
_CHANGE = re.compile(
    r"(?i)^\s*(?P<thing>[\w'’-]+(?:\s+[\w'’/-]+){0,5}?)\s+"
    r"(?:(?:has|have)\s+been\s+|(?:is|are|was|were|got|gets|'s|’s)\s+(?:now\s+|been\s+)?)?"
    rf"(?:(?P<move>{_MOVES})|(?P<off>{_OFF}))\b(?P<rest>.*)$",
    re.DOTALL,
)
#: Words that end the noun phrase of the thing ("Hull blacking in June", "Quiz at the Crown").
_CUT = frozenset("in on at for to from by with of about before after until till".split())
_NEGATED = re.compile(r"(?i)\b(?:not|never|no)\b|n['’]t\b")
#: Where a move goes: "to Wednesday", "until next week", "back to the 14th"; or no place at all (", now 16/5").
_TO = re.compile(r"(?i)^\s*(?:back\s+|forward\s+)?(?:to|till|until|til|into|for)\s+(?P<when>\S.*)$")
_WHEN_KINDS = ("date", "weekday", "month", "time")


def _when(text: str) -> frozenset[tuple[str, object]]:
    """The times `text` gives (dates, days, months, clock times), as (kind, value)."""
    kinds = values(text, compare=True).kinds()
    return frozenset((k, v) for k in _WHEN_KINDS for v in kinds.get(k, ()))


def _same_word(word: str, stems: set[str], words: set[str]) -> bool:
    """Whether `word` is one of the old text's words: by stem, or by its first five letters ("submission" /
    "submit")."""
    return stem(word) in stems or (len(word) >= 5 and any(w[:5] == word[:5] for w in words if len(w) >= 5))


@lru_cache(maxsize=4096)
def changed(new: str, old: str) -> bool:
    """Whether `new` moves or calls off the plan `old` states (module docstring)."""
    m = _CHANGE.match(new)
    if m is None or "?" in new or _NEGATED.search(new[: m.start("rest")]):
        return False
    if RECURRING.search(old) or INTENT.match(new):
        return False
    old_when = _when(old)
    if INTENT.match(old) is None and not old_when:
        return False
    stops = stop_words()
    thing: list[str] = []
    for token in tokenize(m.group("thing")):
        if token in _CUT and thing:
            break
        if token not in stops and token not in WHEN and not token.isdigit():
            thing.append(token)
    said = tokenize(old)
    stems, words = {stem(t) for t in said}, set(said)
    if not thing or not all(_same_word(t, stems, words) for t in thing):
        return False
    if m.group("off"):
        return True
    rest = m.group("rest")
    to = _TO.match(rest)
    if to is not None:
        head = tokenize(to.group("when"))[:3]
        if not (_when(to.group("when")) or any(t in WHEN or t.isdigit() for t in head)):
            return False  # "moved to Leeds", "moved to the big hall": a place, not a time
    elif rest.strip() and rest.lstrip()[:1] not in ",;:.-–—(":
        return False  # "moved house", "moved the sofa": another verb's object
    new_when = _when(new)
    return not new_when or new_when != old_when


#: A habit or an arrangement given up, said of the thing: "Gave up continuous cruising: …", "we've given up the
#: allotment", "…, so the syrup has stopped", "the Friday deliveries have ended".
_GIVEN_UP = re.compile(
    r"(?i)(?:^|[,;:.]\s*(?:so\s+|and\s+)?|\bso\s+)(?:(?:i|we|they|he|she)(?:['’]ve|\s+have|\s+has)?\s+)?"
    r"(?:gave|given|give)\s+up\s+(?P<thing>[^,;:.!?]{3,60})"
    r"|(?:^|[,;:.]\s*(?:so\s+|and\s+)?|\bso\s+)(?P<thing2>[^,;:.!?]{3,40}?)\s+(?:has|have)\s+(?:now\s+)?"
    r"(?:stopped|ended)\b\s*(?:[,;:.!]|$)"
)


def ended(new: str, old: str) -> bool:
    """Whether `new` says the habit or arrangement `old` states given up or stopped, naming it by words of `old`
    ("Gave up continuous cruising: we've taken a berth …" after "We're continuous cruisers with no home mooring.";
    "…, so the syrup has stopped" after "I'm feeding hive 1 sugar syrup every weekend."): every content word of the
    thing named is a word of `old` (`_same_word`), at least one; no question, no negation."""
    if "?" in new or _NEGATED.search(new):
        return False
    said = tokenize(old)
    stems, words = {stem(t) for t in said}, set(said)
    stops = stop_words()
    for m in _GIVEN_UP.finditer(new):
        thing: list[str] = []
        for t in tokenize(m.group("thing") or m.group("thing2") or ""):
            if t in _CUT and thing:
                break  # ("gave up smoking in January": the thing is "smoking")
            if t not in stops and t not in WHEN:
                thing.append(t)
        if thing and len(thing) <= 4 and all(_same_word(t, stems, words) for t in thing):
            return True
    return False


def turned(n: Statement, o: Statement, c: Comparison) -> str | None:
    """Why `n` supersedes `o` as a plan changed (`changed`) or a state reversed (`states.restored`) of `o`'s subject
    (every word of it said again, no value of one kind changed, no other name: "Dryer 3 is working again" reverses
    nothing of "Dryer 4 is out of action"); None when neither."""
    if changed(n.text, o.text):
        return "a plan moved or called off"
    if ended(n.text, o.text) and o.subject <= n.stems:
        return "a habit given up"  # (of the old subject: "We gave up the allotment" ends no sister's allotment)
    if states.restored(n.text, o.text) and o.subject and o.subject <= n.stems and not c.changed and not (
        c.entities_differ
    ):
        return "a state reversed"
    return None

