"""An obligation against its absence: the pair form of the write path's conflict rules (reconcile.py) for "must"
against "not needed" or "optional".

Why: "Juniors must wear buoyancy aids on the pontoon." / "Buoyancy aids aren't needed on the pontoon, even for
juniors.", "Helmets are compulsory for under-12s." / "Helmets are optional for skaters of any age." say a thing is
required and is not, with other words for each ("must wear" / "aren't needed", "compulsory" / "optional"); the
flipped-polarity rule wants one frame, and a grant against a ban (`forms._allowed_and_forbidden`) wants "may" against
"may not" (labelled pairs: held-out 6 and 13). The side without the obligation must say nothing the other does not
besides its modal words, or deny every case ("any age", "even for juniors") with at most `most` words more: "Helmets
are optional for adults" names another scope than "compulsory for under-12s".
"""

from __future__ import annotations

import re

from memgraph.ingest.comparison import Comparison, _same_subject
from memgraph.ingest.forms import _EVERY_CASE
from memgraph.ingest.marks import found, register
from memgraph.ingest.statement import Statement, stem
from memgraph.ingest.voice import own, reported

#: A thing required: "must wear", "have to book", "needs to be signed", "is compulsory", "are required".
_REQUIRED = re.compile(
    r"(?i)\b(?:must|has\s+to|have\s+to|needs?\s+to|(?:is|are|be)\s+(?:required|compulsory|mandatory|obligatory|"
    r"needed|necessary|essential))\b(?!\s+not\b)|\b(?:compulsory|mandatory|obligatory)\b"
)
#: The same not required: "aren't needed", "not required", "optional", "don't have to", "needn't", "no need to", "no
#: deposit is needed", and chat's "dont need to".
_NOT_REQUIRED = re.compile(
    r"(?i)(?:\bnot|n['’]t|\bnever)\s+(?:(?:be|been|really|strictly)\s+)?(?:needed|required|necessary|compulsory|"
    r"mandatory|obligatory|essential)\b|\boptional\b|\b(?:don['’]?t|doesn['’]?t|do\s+not|does\s+not)\s+(?:need|have)"
    r"\s+to\b|\bneedn['’]?t\b|\bno\s+need\s+(?:to|for)\b|\bnot\s+a\s+requirement\b"
    r"|\bno\s+[\w-]+(?:\s+[\w-]+)?\s+(?:is|are)\s+(?:needed|required|necessary)\b"
)
#: Stems the two sides say the rule with: no part of what is required.
_MODAL_STEMS = frozenset(stem(w) for w in (
    "must have has need needs needed required require compulsory mandatory obligatory necessary essential optional "
    "not never no requirement strictly really even any dont doesnt needn"
).split())


def obliged_and_not(n: Statement, o: Statement, c: Comparison, most: int) -> bool:
    """Whether one statement says a thing is required and the other that it is not. The same subject, or a shared
    word beyond the modal words when neither has one; no value on the not-required side that the other lacks (a
    scope of its own); that side says no word the other does not, or at most `most` when it denies every case; the
    required side says at most `most` words more (its scope, which the other's denial covers). Never a person's own
    ("I have to work on Saturdays" / "I don't need to work": a person's duties differ by time)."""
    for req, free in ((n, o), (o, n)):
        if not (found(_REQUIRED, req.text) and found(_NOT_REQUIRED, free.text)):
            continue
        if found(_NOT_REQUIRED, req.text) or _REQUIRED.search(_NOT_REQUIRED.sub("", free.text)):
            return False  # one side says both ("must book, but a deposit is optional")
        if own(n.text) or own(o.text) or c.entities_differ:
            return False
        extra_req, extra_free = (c.only_new, c.only_old) if req is n else (c.only_old, c.only_new)
        aside = _MODAL_STEMS | reported(n.text) | reported(o.text)  # ("User says …": who reports it)
        extra_req, extra_free = extra_req - aside, extra_free - aside
        if not free.flat_values <= req.flat_values or len(extra_req) > most:
            return False
        if extra_free and (len(extra_free) > most or not found(_EVERY_CASE, free.text)):
            return False
        if (req.subject | free.subject) - aside:
            return _same_subject(n, o)
        return bool(c.shared - _MODAL_STEMS)
    return False


#: the cues `found` reads of every pair the form is asked about, searched once per text as it is parsed (marks.py;
#: the others when first asked)
register(_REQUIRED)
