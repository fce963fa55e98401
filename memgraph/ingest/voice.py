"""Who reports a statement, when an agent writes it down in the third person: "User says …", "Client's note: …",
"According to the customer, …". The pair forms of the conflict rules (charges, obligations, restrictions, denials)
count the words one side says that the other does not; a reporting frame on one side only is no such word ("user
says visitors dont need to sign in" / "visitors have to sign in at reception").
"""

from __future__ import annotations

import re

from memgraph.ingest import signals
from memgraph.ingest.forms import _FIRST_PERSON
from memgraph.ingest.statement import stem

#: A reporting frame at the start of a note: who says it and the verb of saying, up to "that" or a colon.
_FRAME = re.compile(
    r"(?i)^\s*(?:(?:according\s+to|per)\s+(?:the\s+|my\s+|our\s+)?(?P<a>[\w-]+)\s*,"
    r"|(?:the\s+|my\s+|our\s+)?(?P<b>user|client|customer|patient|caller|guest|member|owner|tenant|landlord|manager|"
    r"boss|staff|team|agent)(?:['’]s\s+(?:note|notes|message)|\s+(?:says|said|mentioned|mentions|notes|noted|reports|"
    r"reported|told\s+me|tells\s+me|confirmed|confirms|wrote|writes))(?:\s+that)?\s*[:,-]?)"
)


def reported(text: str) -> frozenset[str]:
    """Stems of the reporting frame `text` opens with ("User says", "Client's note:"), or none."""
    m = _FRAME.match(text)
    if m is None:
        return frozenset()
    words = re.findall(r"[\w-]+", re.sub(r"['’]s\b", "", m.group(0).lower()))
    return frozenset(stem(w) for w in words)


def unreported(text: str) -> str:
    """`text` without its opening reporting frame."""
    m = _FRAME.match(text)
    return text[m.end():].strip() if m else text


def own(text: str) -> bool:
    """Whether `text` is a person's statement about themselves ("I'm vegetarian", "Caroline: I have to work on
    Saturdays", "User says I ..."), read past a speaker's label and a reporting frame."""
    who = signals.speaker(text)
    if who is not None:
        text = text.split(":", 1)[1]
    return _FIRST_PERSON.match(unreported(text)) is not None
