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

from memgraph.ingest import signal_words, signals
from memgraph.ingest.clean import strip_code
from memgraph.ingest.statement import Statement, statement

#: The words that open a reason or a circumstance ("as" only before a clause's subject: "as of Monday" dates the
#: change itself; "after all" is no circumstance).
_REASON_WORDS = (
    r"because|since|after(?!\s+all\b)|when|now\s+that|following|due\s+to|so\s+that"
    r"|as(?=\s+(?:we|they|he|she|it|i|you|the|our|their|his|her|my)\b)"
)
#: Joints between the clauses of one text, and the words that open a reason or a circumstance (the split keeps the
#: word with the part it opens, so "since his laminitis flare-up" stays one part and the change another).
_JOINT = re.compile(
    r"\s*[;:]\s+|\s*,\s+(?:(?:and|but|so)\s+)?|\s+[-–—]\s+|\s*[()]\s*|(?<=[a-z0-9])[.!?]\s+(?=\w)"
    # chat drops the comma before "so" ("sam has started eating eggs again so hes vegetarian now")
    r"|\s+so\s+(?!(?:much|many|far|long|well|good|that)\b)"
    rf"|\s+(?=(?:{_REASON_WORDS})\s)",
    re.IGNORECASE,
)


#: A part that gives the reason or the circumstance says why, not what changed ("since his laminitis flare-up").
_REASON = re.compile(rf"(?i)^(?:{_REASON_WORDS})\s")
#: A text placed in the past tells a story, not a change to what holds now: "I moved to the Caribbean as a child."
#: beside "I was in California during the Hurricane." (one person's facts, bench/msc_false_positives.py).
_PAST = re.compile(
    r"(?i)\b(?:as\s+an?\s+(?:child|kid|boy|girl|teen|teenager|student|baby)|when\s+(?:i|we|he|she|they)\s+(?:was|were)"
    r"|growing\s+up|years\s+ago|back\s+then|in\s+(?:high\s+)?school|in\s+my\s+(?:youth|childhood|teens|twenties))\b"
)


@lru_cache(maxsize=4096)
def without_reason(text: str) -> str | None:
    """`text` with its reason's parts cut out, its other parts kept together (a condition stays with its clause: "If
    it rains, the fete will now be held in the church, because the school hall is being painted." -> "If it rains
    the fete will now be held in the church"); None when no part gives a reason, or the text is placed in the past."""
    plain = signals.punctuated(strip_code(text))
    if _PAST.search(plain):
        return None
    parts = [p.strip() for p in _JOINT.split(plain) if p and p.strip()]
    kept = [p for p in parts if not _REASON.match(p)]
    return " ".join(kept) if kept and len(kept) < len(parts) else None


@lru_cache(maxsize=4096)
def change_parts(text: str) -> tuple[str, ...]:
    """The parts of `text` that may each say a change on their own (two words or more each, a reason's part left
    out); empty when it is one part, or when the text is placed in the past."""
    plain = signals.punctuated(strip_code(text))
    if _PAST.search(plain):
        return ()
    parts = [p.strip() for p in _JOINT.split(plain) if p and len(p.split()) > 1]
    if len(parts) < 2:
        return ()
    return tuple(p for p in parts if not _REASON.match(p))


_WITHDRAWN = re.compile(signal_words.WITHDRAWN_PLAN, re.IGNORECASE)


def withdrawn(text: str, old: Statement) -> bool:
    """Whether `text` withdraws the plan `old` states: its part with "not … after all" denies the old statement and
    says nothing it does not, naming two things of it at least ("Hana can't take Biscuit after all, he's going to
    Oakwood kennels." after "Our dog Biscuit will stay with my sister Hana while we're away."). The new arrangement
    said beside it shares too little with the plan for the update rules, and the denial alone is no conflict: its
    frame ("take") is not the plan's ("stay")."""
    if old.negated or not _WITHDRAWN.search(text):
        return False
    for part in change_parts(text) or (text,):
        if not _WITHDRAWN.search(part):
            continue
        p = statement(part)
        # (the cue holds the negation: chat's "cant" is no negation to the parse, nor "tom" a subject)
        words = p.frame | p.subject | p.entity_words
        return len(words) >= 2 and words <= old.stems
    return False
