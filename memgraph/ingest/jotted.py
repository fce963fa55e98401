"""A jotted note's line read as the sentence it stands for: "dojo style: Shotokan" says "the dojo style is
Shotokan", "flow temp on the ASHP = 45 deg" that the flow temperature is 45 degrees.

Why: the conflict rules compare statements, and a label is no statement ("tagged one" / "tagged two" assert nothing
to conflict with: `reconcile.RuleReconciler.conflict`). Notes are written as key and value: a line with a key, a
colon, an equals sign or a spaced dash, and a value that is no clause of its own. Such a line asserts its value of
its key as a copula does, so the conflict rules read it so (held-out pairs 16: 5 of its 30 contradictions were
notes, stopped at the label test). A heading that announces what follows ("Update:", "Correction:", "Per Callum:")
or a speaker's turn ("Caroline: …") opens a clause, which is read as it is.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memgraph.ingest.chunk import looks_like_turn
from memgraph.ingest.statement import statement
from memgraph.ingest.voice import BARE_TEXTS

#: A key (a few words, no digit first), then ":" / "=" / a spaced dash, then the value. The key may not hold a
#: sentence's end.
_KEY_VALUE = re.compile(r"^\s*(?P<key>[^\W\d][\w'’ &/+.-]{0,40}?)\s*(?::|=|\s[-–—]\s)\s*(?P<value>\S.*)$")
#: A list item's marker: a dash, a star, a bullet, a number ("1." / "2)").
_BULLET = re.compile(r"^\s*(?:[-*•·–—]|\d{1,2}[.)])\s+")
#: Where a note's value lists its items: a comma and a space (not "£38,500").
_ITEMS = re.compile(r"\s*,\s+")
#: Keys that announce what follows rather than name an attribute.
_HEADINGS = frozenset(
    "update correction note notes reminder fyi ps nb edit warning important summary status todo tip per re "
    "erratum fix heads".split()
)


@lru_cache(maxsize=BARE_TEXTS)
def sentence(text: str) -> str:
    """`text` with a jotted key-value line said as a copula ("key: value" -> "key is value"); `text` itself when it
    is no such line, when its value is a clause ("Client note: Aarav has to avoid sesame"), or when its key is a
    heading ("Update: …"). A list (lines, bulleted or not) is read line by line, its lines joined by ";" as clauses
    (a lead-in line's colon dropped): the conflict rules read each clause alone, so the one item a new statement
    changes meets it ("Kids' week:\n- Mon: swimming\n- Tue: piano" against "Piano is on Thursdays."). Cached as the
    bare readings it is asked of are (`voice.BARE_TEXTS`: both texts of every pair the conflict chain reaches)."""
    lines = [line for line in text.strip().splitlines() if line.strip()]
    if len(lines) < 2:
        # (a speaker's turn, "John: Thanks! Talk to you later!", is one line and says nothing of John: LoCoMo read so
        # gained 15 false contradictions between one speaker's turns; a list's line "Mon: swimming" is no turn)
        return text if looks_like_turn(text) else _line(text)
    said = [_line(_BULLET.sub("", line)).strip().rstrip(":;,") for line in lines]
    return "; ".join(line for line in said if line)


def _line(text: str) -> str:
    """One line said as a sentence (see `sentence`)."""
    m = _KEY_VALUE.match(text)
    if m is None:
        return text
    key, value = m.group("key").strip(), m.group("value").strip()
    words = key.lower().split()
    if not words or len(words) > 6 or words[0] in _HEADINGS or statement(key).clause:
        return text
    if statement(_ITEMS.split(value, 1)[0]).clause:
        return text  # (the first item: "£10 guest passes" later in a list reads "passes" as a verb)
    # a note's items, one after another ("free entry, £50 bar tab for the winners"), are each said of the key: the
    # conflict rules read the clauses joined by ";" one by one (`conflicts._joined`)
    return f"{key} is " + _ITEMS.sub("; ", value)
