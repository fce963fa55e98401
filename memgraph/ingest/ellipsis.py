"""A correction that says only the new value, leaving its subject to the statement it corrects: "ok scratch that -
Thursdays, they're resurfacing the courts on Wednesday." after "Club night doubles are on Wednesdays from 7.";
"Actually, 7:30." after "Dinner is at 7.".

The frames share nothing (the correction has no subject, and its reason is other words), so the rules that compare
frames find no change. What ties the two is the shape: a retraction or correction opener, then a part that is a
value and nothing else, of a kind the old statement gives exactly one of, and another value of it. The reason after
the value may name the old value again ("on Wednesday"): only the bare part is read.
"""

from __future__ import annotations

import re

from memgraph.ingest.statement import Statement
from memgraph.ingest.values import values
from memgraph.text import stop_words, tokenize

#: A correction's opener, after an interjection: "ok scratch that -", "actually,", "no wait,", "correction:".
_OPENER = re.compile(
    r"(?i)^\s*(?:(?:ok|okay|oh|right|hmm|um|erm|sorry)\s*,?\s+)?(?:scratch\s+that|strike\s+that|actually|"
    r"correction|no,?\s+wait|wait,?\s+no|i\s+meant|sorry,?\s+i\s+meant|make\s+(?:that|it))\s*[,;:.!—–-]*\s*"
)
#: Where the bare part ends: the reason or the rest that follows it.
_PART_END = re.compile(r"[,;!?(]|[:.](?!\d)|\s[-–—]\s")


def opener_end(text: str) -> int:
    """Where a correction's opener ("ok scratch that -", "actually,") ends in `text`; 0 without one."""
    m = _OPENER.match(text)
    return 0 if m is None else m.end()


def bare_value(text: str) -> dict[str, frozenset[object]]:
    """The typed values of the part after a correction's opener, when that part says a value and nothing else
    ("Thursdays", "7:30", "the 19th"); none otherwise."""
    m = _OPENER.match(text)
    if m is None:
        return {}
    part = _PART_END.split(text[m.end():], maxsplit=1)[0]
    v = values(part, compare=True)
    if not v.spans:
        return {}
    rest = part
    for start, end in sorted(v.spans, reverse=True):
        rest = rest[:start] + " " + rest[end:]
    if any(w not in stop_words() for w in tokenize(rest)):
        return {}
    return dict(v.kinds())


def corrected_value(text: str, old: Statement) -> str | None:
    """How a correction that says only a value (`bare_value`) replaces `old`'s one value of that kind, or None."""
    said = bare_value(text)
    if len(said) != 1:
        return None
    kind, new = next(iter(said.items()))
    had = old.kinds.get(kind, frozenset())
    if len(had) != 1 or had == new:
        return None
    return f"changed {kind} (the value said alone)"
