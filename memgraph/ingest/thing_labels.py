"""A note's one-word label that the other text of a pair names as a thing: "Sweep: HETAS-registered, cert issued on
the day." beside "Our sweep isn't HETAS registered." is a note about the sweep, not a turn that "Sweep" said.

Why: a text that opens with one capitalised word and a colon reads as a conversation turn (`chunk.looks_like_turn`:
"Caroline: …"), and a turn says nothing of its speaker, so the jotted reading ("sweep is HETAS-registered",
`jotted.sentence`) is never asked and the denial has nothing to deny (held-out pairs 22). A name takes no
determiner; when the other text says the label's word after one ("our sweep", "the quote", "my boiler") the label
names that thing. The label is then read with its article ("The sweep: …"), which is no turn, and a jotted line.
"""

from __future__ import annotations

import re

from memgraph.ingest.chunk import looks_like_turn
from memgraph.ingest.statement import Statement, statement

#: The one-word label a turn opens with.
_LABEL = re.compile(r"^\s*(?P<w>[A-Z][a-z]+)(?=\s*:\s)")
_DETERMINERS = r"(?:the|our|my|your|their|his|her|its|this|that)"


def _as_thing(text: str, other: str) -> str | None:
    """`text` with its label read as a thing's, when `other` names the label's word after a determiner; else None."""
    m = _LABEL.match(text)
    if m is None or not looks_like_turn(text):
        return None
    word = m.group("w")
    if not re.search(rf"(?i)\b{_DETERMINERS}\s+(?:[\w'’-]+\s+)?{re.escape(word)}\b", other):
        return None
    return f"{text[: m.start('w')]}The {word.lower()}{text[m.end('w'):]}"


def names_thing(text: str, other: str) -> bool:
    """Whether `text`'s label, read as a speaker's, is a thing `other` names (`_as_thing`)."""
    return _as_thing(text, other) is not None


def as_things(n: Statement, o: Statement) -> tuple[Statement, Statement]:
    """`n` and `o`, a label of either that the other names as a thing read as that thing's (`_as_thing`)."""
    tn, to = _as_thing(n.text, o.text), _as_thing(o.text, n.text)
    return (statement(tn) if tn else n), (statement(to) if to else o)
