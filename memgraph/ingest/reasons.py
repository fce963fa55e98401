"""An update told with its reason: the clause that says the change, read apart from the clause that says why.

People rarely say a change bare. They give its reason or its circumstance in the same breath: "Biscuit has been
moved to the lower paddock since his laminitis flare-up.", "Open evening has moved to Thursdays, because Wednesday
kept clashing with the robotics club …", "Mags has gone down with flu, Tomasz is duty instructor this weekend in
her place.", "We get Portland stone from Stonecraft now, Albion stopped supplying small orders.". Read as one
frame, the reason's words are most of the text (the frames share too little for a replaced word, "Wednesday" is
said on both sides so no day changed), and the update rules find nothing, though the update cue and the subject
are there. On the blind parts 11-14 this was the gate that held back the most supersede misses that had a cue
(`bench/RESULTS.md`, "held-out 14's duplicates and supersedes": 15 of 46 misses, in three of the four parts).

`change_parts` cuts such a text at its clause joints (";", ":", a comma, ", and / but / so", a sentence end) and
before a reason or a circumstance ("because", "since", "as", "after", "when", "now that", "following", "due to"),
so that each part can be read alone against the old statement (`reconcile.RuleReconciler.changed_part`), the way
a correction's parts already are (`statement.correction_parts`).
"""

from __future__ import annotations

import re
from functools import lru_cache

from memgraph.ingest.clean import strip_code

#: Joints between the clauses of one text, and the words that open a reason or a circumstance (the split keeps the
#: word with the part it opens, so "since his laminitis flare-up" stays one part and the change another).
_JOINT = re.compile(
    r"\s*[;:]\s+|\s*,\s+(?:(?:and|but|so)\s+)?|\s+[-–—]\s+|\s*[()]\s*|(?<=[a-z0-9])[.!?]\s+(?=\w)"
    r"|\s+(?=(?:because|since|as|after|when|now\s+that|following|due\s+to|so\s+that)\s)",
    re.IGNORECASE,
)


#: A part that gives the reason or the circumstance says why, not what changed ("since his laminitis flare-up").
_REASON = re.compile(r"(?i)^(?:because|since|as|after|when|now\s+that|following|due\s+to|so\s+that)\b")
#: A text placed in the past tells a story, not a change to what holds now: "I moved to the Caribbean as a child."
#: beside "I was in California during the Hurricane." (one person's facts, bench/msc_false_positives.py).
_PAST = re.compile(
    r"(?i)\b(?:as\s+an?\s+(?:child|kid|boy|girl|teen|teenager|student|baby)|when\s+(?:i|we|he|she|they)\s+(?:was|were)"
    r"|growing\s+up|years\s+ago|back\s+then|in\s+(?:high\s+)?school|in\s+my\s+(?:youth|childhood|teens|twenties))\b"
)


@lru_cache(maxsize=4096)
def change_parts(text: str) -> tuple[str, ...]:
    """The parts of `text` that may each say a change on their own (two words or more each, a reason's part left
    out); empty when it is one part, or when the text is placed in the past."""
    plain = strip_code(text)
    if _PAST.search(plain):
        return ()
    parts = [p.strip() for p in _JOINT.split(plain) if p and len(p.split()) > 1]
    if len(parts) < 2:
        return ()
    return tuple(p for p in parts if not _REASON.match(p))
