"""Whether a text contains a pattern, searched once per text and pattern, not once per pair.

Why: the conflict chain (`reconcile.RuleReconciler.conflict`) asks of every pair it reaches whether each text says a
form's cue ("free", a ban, "only", "must", "single" / "double", a category), and most real pairs run the chain to
its end. A new text is compared with ~5 neighbours, and a stored text is read again as a neighbour by later writes;
the same regular expression searched the same text again each time (py-spy on a real-text batch past 60k memories:
the forms' searches ~15% of `remember_many`; bench/RESULTS.md, "Bulk writes, sixteenth round"). `found(pattern,
text)` answers `bool(pattern.search(text))` from the text's marks: two bit sets per text (the patterns searched,
the patterns found), so a cached text costs one dictionary entry of two small ints, which the garbage collector
does not track. A form also uses a mark as a cheap necessary condition before its own reading ("both texts say
'favourite'") so that most pairs skip the form's parsing. The answers are those of the search itself: a text is
searched for a pattern the first time a form asks, whatever the order.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict

from memgraph.ingest.statement import PACKED_STATEMENTS

#: pattern -> its bit; a pattern gets one the first time it is asked for
_BITS: dict[re.Pattern[str], int] = {}
#: text -> (bits of the patterns searched, bits of those found); the first texts read are dropped first, at the size
#: of the statement cache behind it (a bulk write reads its stored neighbours from the whole store)
_MARKS: OrderedDict[str, tuple[int, int]] = OrderedDict()
_LOCK = threading.Lock()


def _bit(pattern: re.Pattern[str]) -> int:
    with _LOCK:
        bit = _BITS.get(pattern)
        if bit is None:
            bit = _BITS[pattern] = 1 << len(_BITS)
        return bit


def found(pattern: re.Pattern[str], text: str) -> bool:
    """`bool(pattern.search(text))`, searched once per text (see the module docstring)."""
    bit = _BITS.get(pattern) or _bit(pattern)
    entry = _MARKS.get(text)
    searched, hits = entry if entry is not None else (0, 0)
    if searched & bit:
        return bool(hits & bit)
    hit = pattern.search(text) is not None
    with _LOCK:
        # another writer thread may have marked the text meanwhile: keep its bits too (a lost bit is only searched
        # again, to the same answer)
        entry = _MARKS.get(text)
        if entry is not None:
            searched, hits = entry
        _MARKS[text] = (searched | bit, hits | bit if hit else hits)
        if entry is None and len(_MARKS) > PACKED_STATEMENTS:
            _MARKS.popitem(last=False)
    return hit


def clear() -> None:
    """Forget every text's marks (tests; the patterns keep their bits)."""
    with _LOCK:
        _MARKS.clear()
