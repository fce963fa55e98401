"""Whether a text contains a pattern, searched once per text and pattern, not once per pair.

Why: the conflict chain (`reconcile.RuleReconciler.conflict`) asks of every pair it reaches whether each text says a
form's cue ("free", a ban, "only", "must", "single" / "double", a category), and most real pairs run the chain to
its end. A new text is compared with ~5 neighbours, and a stored text is read again as a neighbour by later writes;
the same regular expression searched the same text again each time (py-spy on a real-text batch past 60k memories:
the forms' searches ~15% of `remember_many`; bench/RESULTS.md, "Bulk writes, sixteenth round"). `found(pattern,
text)` answers `bool(pattern.search(text))` from the text's marks: two bit sets per text (the patterns searched,
the patterns found), so a cached text costs one dictionary entry of two small ints, which the garbage collector
does not track. A form also uses a mark as a cheap necessary condition before its own reading ("both texts say
'favourite'"), so that most pairs skip the form's parsing.

The forms `register` their patterns when imported, and a text is searched for all of them when it is parsed
(`statement.ON_PARSE`): once per text, as its statement is, and a stored text read back from the statement cache
finds its marks kept. A pattern not registered, or registered after the text was parsed, is searched the first time
a form asks. Either way the answers are those of the search itself.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict

from memgraph.ingest import literals, signals, statement

#: id(pattern) -> its bit, in the order registered or first asked for (`_PATTERNS` holds them by bit, `_LOWERED` the
#: same searched case-sensitively in lower-cased ASCII text where it can be: `signals.Folded`, the same answers 3-5x
#: faster). Keyed by identity, not by the pattern: a compiled pattern's hash is computed from its whole program on
#: every lookup (7 us for the largest registered one; `found` is asked ~130 times per new text in a bulk write, 12% of
#: the rules' time on a real batch: bench/RESULTS.md, "Bulk writes, eighteenth round"). `_PATTERNS` keeps every
#: pattern with a bit alive, so no other object takes its id.
_BITS: dict[int, int] = {}
_PATTERNS: list[re.Pattern[str]] = []
_LOWERED: list[re.Pattern[str] | None] = []
#: By bit too: the strings one of which a lower-cased ASCII text must hold for the pattern to match it
#: (`literals.necessary`); a text without any of them is not searched (most texts for most patterns: "free", a ban,
#: "only", "single" / "double"). The searches were ~60% of `mark` on a real batch (bench/RESULTS.md, "Bulk writes,
#: twentieth round").
_NEEDS: list[literals.Needs] = []
#: text -> (bits of the patterns searched, bits of those found); the first texts marked are dropped first, at the size
#: of the packed statement cache (a bulk write reads its stored neighbours from the whole store)
_MARKS: OrderedDict[str, tuple[int, int]] = OrderedDict()
_LOCK = threading.Lock()


def _bit(pattern: re.Pattern[str]) -> int:
    with _LOCK:
        bit = _BITS.get(id(pattern))
        if bit is None:
            bit = 1 << len(_PATTERNS)
            _PATTERNS.append(pattern)
            _LOWERED.append(_lowered(pattern))
            _NEEDS.append(literals.necessary(pattern))
            _BITS[id(pattern)] = bit  # (last: `found` reads the bit without the lock, then the lists by it)
        return bit


def _lowered(pattern: re.Pattern[str]) -> re.Pattern[str] | None:
    try:
        return signals.Folded(pattern).lowered
    except ValueError:
        return None  # not case-insensitive, or a capital letter in it: searched as it is


def register(*patterns: re.Pattern[str]) -> None:
    """Search every text parsed from now on for `patterns` as it is parsed."""
    for p in patterns:
        _bit(p)


def _put(text: str, searched: int, hits: int) -> None:
    """Add marks to `text`'s (another writer thread may have marked it meanwhile: its bits are kept too; a lost bit
    is only searched again, to the same answer)."""
    with _LOCK:
        entry = _MARKS.get(text)
        if entry is not None:
            searched, hits = searched | entry[0], hits | entry[1]
        _MARKS[text] = (searched, hits)
        if entry is None and len(_MARKS) > statement.PACKED_STATEMENTS:
            _MARKS.popitem(last=False)


def mark(text: str) -> None:
    """Search `text` for every registered pattern (`statement.ON_PARSE`: once, when it is parsed)."""
    patterns, lowered, needs = list(_PATTERNS), list(_LOWERED), list(_NEEDS)
    low = text.lower() if text.isascii() else None
    hits = 0
    for i, (p, lp, need) in enumerate(zip(patterns, lowered, needs, strict=False)):
        if low is not None and not literals.holds(need, low):
            continue
        if (p.search(text) if lp is None or low is None else lp.search(low)) is not None:
            hits |= 1 << i
    _put(text, (1 << min(len(patterns), len(lowered), len(needs))) - 1, hits)


def found(pattern: re.Pattern[str], text: str) -> bool:
    """`bool(pattern.search(text))`, searched once per text (see the module docstring)."""
    bit = _BITS.get(id(pattern)) or _bit(pattern)
    entry = _MARKS.get(text)
    if entry is not None and entry[0] & bit:
        return bool(entry[1] & bit)
    need = _NEEDS[bit.bit_length() - 1]
    hit = (not text.isascii() or literals.holds(need, text.lower())) and pattern.search(text) is not None
    _put(text, bit, bit if hit else 0)
    return hit


def clear() -> None:
    """Forget every text's marks (tests; the patterns keep their bits)."""
    with _LOCK:
        _MARKS.clear()


statement.ON_PARSE.append(mark)
