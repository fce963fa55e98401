"""What a text must contain for a regular expression to match it: a cheap test before the search itself.

Why: the write path's parse and conflict forms search every new text for dozens of patterns (the correction and
update cues, the forms' marks), and most patterns do not match most texts; the searches were about half of
`RuleReconciler.decide`'s CPU on a real batch past 60k memories (bench/RESULTS.md, "Bulk writes, twentieth round").
Python's engine tries an alternation of a hundred phrases at every position of the text. Every match of such a
pattern contains one of a few strings ("actually", "correct", "mistake", ...), which `str.__contains__` finds far
faster; a text holding none of them is not searched.

`necessary(pattern)` reads the strings from the compiled pattern's own parse tree, so a pattern changed by a rule
edit gets its new strings with it: no list kept by hand. The strings are lower-cased and are tested against the
lower-cased text; only ASCII texts and ASCII strings are read so (case-insensitive matching folds a few non-ASCII
letters onto ASCII ones: the Kelvin sign matches "k"). A text passing the test is searched as before, so the answers
are those of the search itself.
"""

from __future__ import annotations

import re
from re import _constants as _c  # type: ignore[attr-defined]
from re import _parser as _p  # type: ignore[attr-defined]
from typing import Any

#: What a sequence needs, as strings one of which the text holds; None where nothing is needed.
Needs = frozenset[str] | None

_REPEATS = {_c.MAX_REPEAT, _c.MIN_REPEAT, getattr(_c, "POSSESSIVE_REPEAT", _c.MAX_REPEAT)}


def necessary(pattern: re.Pattern[str]) -> Needs:
    """Lower-case ASCII strings one of which every text that `pattern` matches holds, lower-cased (the text searched,
    lookarounds included); None when the pattern needs no such string (an optional part, a class of characters
    only). No string holds another: the shorter one is enough."""
    needs = _sequence(_p.parse(pattern.pattern, pattern.flags))
    if needs is None:
        return None
    # (a string that holds another of the set is found only where the other is)
    return frozenset(s for s in needs if not any(t != s and t in s for t in needs))


def _cost(needs: frozenset[str]) -> float:
    """How often a text may hold one of `needs`, roughly: a short string is common ("ed", "no"), a long one rare."""
    return sum(4.0 ** -min(len(s), 6) for s in needs)


def _sequence(items: Any) -> Needs:
    """The cheapest need of a sequence: each of its parts is needed, so any one of them will do."""
    options: list[frozenset[str]] = []
    run: list[str] = []

    def close() -> None:
        if run:
            options.append(frozenset({"".join(run)}))
            run.clear()

    for op, av in items:
        if op is _c.LITERAL and av < 128:
            run.append(chr(av).lower())
            continue
        if op is _c.AT:  # an anchor or a word boundary takes no character: the run goes on
            continue
        close()
        need = _item(op, av)
        if need is not None:
            options.append(need)
    close()
    return min(options, key=_cost) if options else None


def _item(op: Any, av: Any) -> Needs:
    if op is _c.SUBPATTERN:
        return _sequence(av[-1])
    if op is _c.ATOMIC_GROUP:
        return _sequence(av)
    if op is _c.BRANCH:
        out: set[str] = set()
        for branch in av[1]:
            need = _sequence(branch)
            if need is None:
                return None
            out |= need
        return frozenset(out)
    if op in _REPEATS:
        low, _, body = av
        return _sequence(body) if low >= 1 else None
    if op is _c.ASSERT:  # a lookahead or lookbehind that must hold: its characters are in the text too
        return _sequence(av[1])
    return None  # a class, a negative lookaround, a back reference, a non-ASCII letter: needs nothing known


def holds(needs: Needs, low: str) -> bool:
    """Whether the lower-cased ASCII text `low` holds one of `needs` (always, when nothing is needed)."""
    if needs is None:
        return True
    return any(s in low for s in needs)
