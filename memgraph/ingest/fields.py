"""A record's fields ("Label: value | Label: value"), and the new version of a record that says one field changed.

"Open day | date: 9 May | venue: Town Hall" then "Open day | date: 9 May | venue: Library (changed, hall flooded)":
the venue changed, and the new record says so. Read as one statement each, the two share most words (the old value
is named again in the reason), no typed value changed and the names differ, so no update rule found the change
(held-out pairs 19). "Supplier (flour): Millers Ltd" then "Flour supplier | switched to: Grain Co | reason: price"
puts the field's label in a heading and the change in the field's own label.

A field is a part of the text with "label: value" (`records`: parts cut at a bar, a semicolon, a line break ...); a
part without a label is a heading, whose words name the field that follows it ("Flour supplier | switched to: …"). A
field's label is its words' stems (its bracket's too: "Supplier (flour)") without the words that say a change
("switched to", "changed to", "now", "new"); a value is cut at a bracket or a dash that starts a note of its own
("Library (changed, …)", "8 - updated after …"). A field's reason ("reason: price", "why: …") is no field of the
record.

`changed` is asked only of a new text that says a change (an update cue: the caller's); the old record's field
must be given again with the same label and a value that shares no word with the old one, and the old record's
heading, if any, said again.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memgraph.ingest.records import record
from memgraph.ingest.statement import stem
from memgraph.text import stop_words, tokenize

#: Words of a label that say the field changed, not which field it is.
_CHANGE_WORDS = frozenset("switched switch changed change moved now new updated to".split())
#: A label that gives a reason or a note, not a field of the record.
_REASON_LABELS = frozenset("reason why because note notes comment comments".split())
#: Where a value's own note starts: a bracket, or a dash set off by spaces.
_NOTE = re.compile(r"\s*(?:\(|\[|\s[-–—]\s)")
#: A field's value is a few words ("Co-op Hall", "Fungi Direct"); a sentence after a label is a note, no field.
_MOST_WORDS = 6


def _words(text: str) -> frozenset[str]:
    stops = stop_words()
    return frozenset(stem(t) for t in tokenize(text) if t not in stops)


@lru_cache(maxsize=4096)
def fields(text: str) -> tuple[tuple[frozenset[str], frozenset[str]], ...]:
    """(label stems, value stems) of each field of `text`, a heading's words joined to the field after it; empty
    when the text is no record."""
    out: list[tuple[frozenset[str], frozenset[str]]] = []
    heading: frozenset[str] = frozenset()
    for part in record(text).fields:
        if not part.filled:
            heading = _words(part.text)
            continue
        # (the bracket at a label's end names the field as much as its unit: "Supplier (flour)", "Weight (kg)")
        label = _words(f"{part.label} {part.unit}") - {stem(w) for w in _CHANGE_WORDS}
        if label & {stem(w) for w in _REASON_LABELS}:
            continue
        said = _NOTE.split(part.value, maxsplit=1)[0]
        value = _words(said)
        if value and len(said.split()) <= _MOST_WORDS:
            out.append((label | heading, value))
        heading = frozenset()
    return tuple(out)


def headings(text: str) -> frozenset[str]:
    """The words of the parts of `text` that are no field ("Open day" in "Open day | date: 9 May")."""
    return frozenset().union(*(_words(p.text) for p in record(text).fields if not p.filled))


def changed(new: str, old: str) -> bool:
    """Whether the record `new`, which says a change, gives a field of the record `old` with another value (module
    docstring)."""
    if "|" not in old and "|" not in new:
        return False  # ("Reminder: bins out on Tuesday" is a note with a label, no record)
    before, after = fields(old), fields(new)
    if not before or not after or not headings(old) <= _words(new):
        return False
    for label, value in before:
        for label2, value2 in after:
            if label and label == label2 and not value & value2:
                return True
    return False
