"""Who reports a statement, when an agent writes it down in the third person: "User says …", "Client's note: …",
"According to the customer, …". The pair forms of the conflict rules (charges, obligations, restrictions, denials)
count the words one side says that the other does not; a reporting frame on one side only is no such word ("user
says visitors dont need to sign in" / "visitors have to sign in at reception").
"""

from __future__ import annotations

import re

from memgraph.ingest import chatter, signals
from memgraph.ingest.forms import _FIRST_PERSON
from memgraph.ingest.statement import stem

#: A reporting frame at the start of a note: who says it and the verb of saying, up to "that" or a colon; a note's
#: label ("Customer note:", "Intake note 5/11:", "Call notes -"), or where it was said ("Per Monday's fitting,", "As
#: per the call on 3/4,", "According to the customer,").
_FRAME = re.compile(
    r"(?i)^\s*(?:(?:according\s+to|as\s+per|per(?=\s+(?:the|my|our|your|their|his|her|\w+['’]s)\b))\s+"
    r"(?P<a>(?:[\w/'’.-]+\s+){0,3}?[\w/'’.-]+)\s*,"
    r"|(?:the\s+|my\s+|our\s+)?(?P<b>user|client|customer|patient|caller|guest|member|owner|tenant|landlord|manager|"
    r"boss|staff|team|agent)(?:(?:['’]s)?\s+(?:note|notes|message)\b(?:\s+[\d/.-]+)?\s*[:,-]?|\s+(?:says|said|mentioned|"
    r"mentions|notes|noted|reports|reported|told\s+me|tells\s+me|told\s+us|tells\s+us|confirmed|confirms|wrote|writes|"
    r"explained|explains)(?:\s+that)?\s*[:,-]?)"
    r"|(?:[\w'’-]+\s+){0,2}?notes?(?:\s+[\d/.-]+)?\s*:)"
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


def bare(text: str) -> str:
    """`text` as the statement it carries: without the reporting frame or note label an agent's note opens with
    ("Customer note: …", "Per Monday's fitting, …", "User mentioned that …"), and without a pasted message's greeting
    and sign-off (`chatter.strip_chatter`, which the parse already drops: "Hi all, per the call on 3/4, the client's
    broker is … Thanks, Ana"). The conflict rules read both texts so: the frame's words are no part of what is said,
    and a note in one voice meets a statement in another (held-out pairs 14: 10 of 150 pairs in the agents' voice)."""
    out = text.strip()
    while True:
        nxt = chatter.strip_chatter(out)
        m = _FRAME.match(nxt)
        if m is not None and 0 < m.end() < len(nxt):
            nxt = nxt[m.end():].strip()
        if nxt == out:
            return out
        out = nxt


def own(text: str) -> bool:
    """Whether `text` is a person's statement about themselves ("I'm vegetarian", "Caroline: I have to work on
    Saturdays", "User says I ..."), read past a speaker's label and a reporting frame."""
    who = signals.speaker(text)
    if who is not None:
        text = text.split(":", 1)[1]
    return _FIRST_PERSON.match(unreported(text)) is not None
