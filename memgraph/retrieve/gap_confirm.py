"""Gap detection, a question that asks to confirm: a statement with a tag ("The bins are Thursdays now, aren't
they?", "practice is Monday nights, right?"), a negative question ("Didn't Alfie say the scaffold goes up on
Monday?", "wasn't it the 2nd?") or a value checked after its topic ("the Okafors' voucher number, was it 2231?").

Such a question asks for what its statement says: it needs the information (the value), as "when is practice?"
does, and a memory giving another value answers it too ("practice moved to Tuesdays"). Read as a scene and a
question, "The hut's got electricity, hasn't it?" asked "hasn't it?": no focus word, no kind of value (held-out
22, the part that showed the voice: every one of its 17 tag questions was read so). Here the tag and the
statement are one question; the statement's values are what is checked, not a pin a memory must repeat
(`gap_values.holds_asked_values`), and their kind is what is asked when the question names no other
(`gap_values.expected_answer`). The readings are of the shape of the sentence only: an auxiliary and a pronoun
after a comma or a dash, a negated auxiliary before its subject, a closing "right?"; no word of any topic.
"""

from __future__ import annotations

import re

from memgraph.ingest.units import CURRENCY
from memgraph.ingest.values import values

_AUX = r"(?:is|are|was|were|do|does|did|has|have|had|can|could|will|would|should|shall|must|might|may)"
_NEG_AUX = rf"(?:{_AUX}n['’]?t|won['’]?t|can['’]?t|shan['’]?t|ain['’]?t|aren['’]?t\s+i|am\s+i\s+not)"
_PRONOUN = r"(?:it|he|she|they|we|i|you|u|there|that|this|these|those)"
#: A positive tag is a form of "be", "do" or "have" ("so it's Tuesday, is it?"): a positive modal after a wish asks
#: leave, a case of a rule ("Dad wants to drive to the shop, can he?"), and keeps its scene.
_BE_DO_HAVE = r"(?:is|are|was|were|do|does|did|has|have|had)"
#: A tag alone: "isn't it", "hasn't she", "don't they", "aren't I", "is it", "innit"; or a closing check word with
#: its mark: "right?", "yeah?", "correct?", "no?", "is that right?", "am I right?" (an unmarked "right" is a word).
_TAG = (
    rf"(?:or\s+)?(?:{_NEG_AUX}(?:\s+{_PRONOUN})?|{_BE_DO_HAVE}\s+{_PRONOUN}(?:\s+not)?|innit)(?:\s+(?:then|now|still|again))?"
)
_TAG_CLAUSE = re.compile(
    rf"(?i)^\W*(?:{_TAG}\W*|(?:right|yeah|yes|correct|no|true|eh|surely|am\s+i\s+right|(?:is|was)\s+(?:that|it|this)\s+"
    rf"(?:right|correct|true|still\s+(?:right|true|the\s+case|on)))\s*\?+\W*)$"
)
#: A tag at the end of a sentence, with or without its comma and mark: "practice is monday nights isnt it".
_TAG_END = re.compile(rf"(?i)(?<=\w)\s*(?:,\s*|\s+[-–—]\s+|\s+)(?:{_NEG_AUX}\s+{_PRONOUN}|innit)\W*$")
#: A value checked after its topic: "the Okafors' voucher number, was it 2231?", "wasn't it the 2nd?": an
#: auxiliary, "it" or "that", and a few words holding a value.
_VALUE_CHECK = re.compile(
    rf"(?i)^\W*(?:or\s+)?(?:{_AUX}|{_NEG_AUX})(?:\s+not)?\s+(?:it|that|they)\s+(?P<rest>(?:[\w'’£$€.,:/-]+\s*){{1,4}})\?*\W*$"
)
#: The same check closing a question said without a mark or a comma, as dictation writes it: "when's the thatcher
#: starting wasn't it the 2nd" (a negated auxiliary only: "is it 340" may open a question of its own).
_VALUE_CHECK_END = re.compile(
    rf"(?i)\s(?:{_NEG_AUX})\s+(?:it|that|they)\s+(?P<rest>(?:[\w'’£$€.,:/-]+\s*){{1,4}})\?*\W*$"
)
#: A negative question before its subject: "Didn't Alfie say ...?", "Isn't the gym shut on Sundays?", "Don't we
#: have a spare key?" (the mark is asked for: "Don't book anything before 10am" instructs).
_NEGATED_FIRST = re.compile(
    rf"(?i)^\W*{_NEG_AUX}\s+(?:{_PRONOUN}|the|my|our|his|her|their|your|(?-i:[A-Z])[\w'’-]*)\b[^?]*\?\W*$"
)
_CLAUSE = re.compile(r",\s+|\s+[-–—]\s+|;\s+")
#: The units of money `values` gives ("£60" -> gbp).
_MONEY = frozenset(CURRENCY.values())


def tag_clause(clause: str) -> bool:
    """`clause` only asks whether what was said before it is so: a tag ("hasn't it?", "right?") or a value checked
    ("was it 2231?"); it is no question of its own and the clause before it no scene."""
    if _TAG_CLAUSE.match(clause):
        return True
    m = _VALUE_CHECK.match(clause)
    return bool(m and _has_value(m.group("rest")))


def tagged(text: str) -> bool:
    """`text` ends with a tag, with or without its comma or mark ("practice is monday nights isnt it")."""
    return bool(_TAG_END.search(text))


def confirms(question: str) -> bool:
    """`question` asks to confirm a statement: its last clause is a tag or a checked value (`tag_clause`; dictated,
    without its comma: "... wasn't it the 2nd"), it ends with a tag (`tagged`), or it opens with a negated auxiliary
    before its subject ("Didn't they say ...?")."""
    parts = [p for p in _CLAUSE.split(question.strip()) if p.strip()]
    end = _VALUE_CHECK_END.search(question)
    return bool(parts) and (
        (len(parts) > 1 and tag_clause(parts[-1])) or tagged(question) or bool(_NEGATED_FIRST.match(question))
        or bool(end and _has_value(end.group("rest")))
    )


def checked_kind(question: str) -> str | None:
    """The kind of value a confirming question states (`gap_values.expected_answer`'s names): a clock time, a date
    (a day, a weekday, a month, a year, a part of the day, an ordinal day: "the 16th"), an amount of money, another
    number; None when it states none ("The hut's got electricity, hasn't it?") or is no confirmation."""
    if not confirms(question):
        return None
    v = values(question)
    if v.times:
        return "time"
    if v.dates or v.weekdays or v.months or v.years or any(u == "day" for u, _ in v.quantities):
        return "when"
    if any(u in _MONEY for u, _ in v.quantities):
        return "money"
    return "number" if v.quantities else None


def _has_value(text: str) -> bool:
    v = values(text)
    return bool(v.times or v.dates or v.weekdays or v.months or v.years or v.quantities)

