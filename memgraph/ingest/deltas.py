"""Changes told by their size: a value said as a change of the one before it ("membership goes up by a tenner", "I pay
£35 more each month now", "the swim starts an hour later", "I feed them twice as often as before", "the GP doubled my
dose").
The number such a text gives is the difference or the factor, not the new value ("upped Ivy's feeds by 30 ml" after
"Ivy takes 90 ml per feed" sets no feed of 30 ml); what it says is that the value of the frame it modifies changed,
which replaces the old statement of that frame (`reconcile.RuleReconciler.update`).

A comparison with something else is no change ("a minute quicker than my sister's", "twice my brother's"): only a
comparative with nothing to compare to, or compared with before ("than before", "than the first one", "than last
year"), reads as one. (`relative.py` reads the other side: a value derived from someone else's, for the conflict
chain.)
"""

from __future__ import annotations

import re
from functools import lru_cache

#: What a comparison may be made with and still tell a change: the value before.
_BEFORE = (
    r"(?:before|previously|it\s+(?:was|used\s+to\s+be)|they\s+(?:were|used\s+to\s+be)|usual|normal|now|last\s+\w+|"
    r"the\s+(?:first|old|original|previous|last|current|earlier)\b(?:\s+one)?)"
)
#: An amount: a number with its unit or currency, a number in words, "an hour", "a tenner", "half".
_AMOUNT = (
    r"(?:[£$€]\s?\d[\d.,]*[km]?|\d[\d.,]*\s*(?:%|[a-z]{1,12}\b)?|"
    r"(?:an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|"
    r"sixty|ninety|a\s+few|a\s+couple(?:\s+of)?|half\s+an?)\s+[a-z]+)"
)
_COMPARATIVE = (
    r"(?:more|less|fewer|higher|lower|later|earlier|longer|shorter|extra|cheaper|dearer|bigger|smaller|quicker|"
    r"faster|slower|heavier|lighter)"
)
#: A change said by its size (an amount, not a name that opens with a digit: "Keep Ya Head Up by 2pac"): a verb of
#: rising or falling and "by" an amount ("goes up by a tenner", "upped Ivy's feeds by 30 ml", "cut the dose by half"),
#: or a factor ("doubled my amlodipine", "halves in May", "twice as often as before", "half as many sessions").
_CHANGE = re.compile(
    r"(?i)\b(?:up|down|upped|raised|increased|reduced|lowered|cut|dropped|decreased|bumped|rose|risen|fell|fallen)\b"
    r"[^.;!?]{0,40}?\bby\s+(?:an?\s+|one\s+)?(?:[£$€]?\d(?![\d.,]*[a-z]{3})|half|third|quarter|tenner|fiver|quid|few|couple|two|three|"
    r"four|five|six|seven|eight|nine|ten|twenty|thirty|fifty|hundred|hour|minute|day|week|month)"
    r"|\b(?:doubled|tripled|trebled|halved|quadrupled|doubles|triples|halves)\b"
    r"|\b(?:twice|half|three\s+times|double)\s+as\s+(?:many|much|often|long|far|big|high|early|late|\w+ly)\b"
    rf"(?!\s+(?:[\w'’-]+\s+){{0,2}}?as\s+(?!{_BEFORE}))"
    rf"|\b{_AMOUNT}\s+(?:[a-z]+\s+){{0,2}}?{_COMPARATIVE}\s+than\s+{_BEFORE}"
)
#: A comparative with nothing after it to compare to ("I pay £35 more each month now", "starts an hour later"): a
#: change where the text says one already (an update cue), else perhaps a need ("two more chairs").
_BARE = re.compile(
    rf"(?i)\b{_AMOUNT}\s+(?:(?:a|an|per|each|every)\s+[a-z]+\s+)?{_COMPARATIVE}\b(?!\s+than\b)(?!\s+(?:of|to)\b)"
)


@lru_cache(maxsize=16384)
def changes(text: str) -> bool:
    """Whether `text` says a value changed by an amount or a factor, or compared with before (an update cue)."""
    return _CHANGE.search(text) is not None


@lru_cache(maxsize=16384)
def relative(text: str) -> bool:
    """Whether `text` gives a value relative to another: a change (`changes`) or a bare comparative ("£35 more")."""
    return changes(text) or _BARE.search(text) is not None
