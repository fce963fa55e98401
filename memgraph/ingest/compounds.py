"""A compound note's items, and a one-fact note read against the one item it is about.

"Clock shop: mantel clock ready Friday, carriage clock needs a new mainspring, barometer quoted £85." holds three
facts under one label. "The barometer quote from the clock shop was £85." says one of them again, and "The barometer
quote is £95." changes it; read whole, the note's other items dilute the cosine (0.61), one text says more than the
other (`repeats.one_says_more`), and the frames share too little for any rule that compares two statements (held-out
pairs 22: 5 duplicates, 6 contradictions and a supersede of this shape were found by none). An item is what
`remainders.items` cuts (a sentence, a semicolon's part, a line, a sentence's comma- or "and"-joined pieces), read
under the note's label ("Clock shop"), whose words the new note may say.

What an item is about is its key: its content words that are no value and no name ("barometer quoted" in "barometer
quoted £85"; "pilot" in "pilot Gareth"). A new note is about the items whose key it says whole.
- `repeated` (a note with a label): the new note says nothing the compound does not (each content word is the
  label's, an item's it is about, or the first item's), it is about some item and gives no value another than the
  items it is about, and it says one item whole (its key, its values and its names): a repeat of what the memory
  holds already, which a reinforcement keeps. A note that shares a value with one item and names another ("The AGM
  is on 3 March." beside "demo night 3 March, AGM 7 April") repeats neither.
- `sharing`: the items a new note may contradict, read alone by the conflict chain (`conflicts.py`).
- `changed`: the new note is about exactly one item of a note with a label, says a word of the label, and gives
  that item's one value of a kind another value (or another name where the item names someone), with few words of
  its own (`compound_item_max_new_terms`): "Float ETA at the seafront is 4.15pm." after "Float route: 2.5 miles,
  start 2pm, ETA at the seafront 3.30pm." The caller reads it as a conflict, or a supersede with a change's cue; the
  items the change leaves stand (`remainders.remainder`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from memgraph.ingest import remainders
from memgraph.ingest.records import field
from memgraph.ingest.statement import Statement, statement

#: A token that is a number or holds one ("91" of "9-1"): a value's, no word of a key.
_NUMBERISH = re.compile(r"\d")


@dataclass(frozen=True)
class Item:
    """One item of a compound note: its words, its key (the words that say what it is about), values and names."""

    text: str
    stems: frozenset[str]
    key: frozenset[str]
    kinds: dict[str, frozenset[object]]
    names: frozenset[str]
    negated: bool


@dataclass(frozen=True)
class Compound:
    """A compound note: its label's words (empty when it has none) and its items (two or more)."""

    label: frozenset[str]
    items: tuple[Item, ...]
    heading: str = ""  # the label as written ("Clock shop")

    def words(self) -> frozenset[str]:
        """Every content word the note says: its label's and its items'."""
        return self.label.union(*(i.stems for i in self.items))


def _item(text: str) -> Item:
    st = statement(text)
    key = frozenset(w for w in st.stems - st.entity_words if not _NUMBERISH.search(w))
    return Item(text, st.stems, key, st.kinds, st.entity_words, st.negated)


@lru_cache(maxsize=4096)
def compound(text: str) -> Compound | None:
    """`text` read as a compound note, or None when it holds fewer than two items. A one-line note's label ("Clock
    shop: …") is read apart from its items, whose words it names."""
    label: frozenset[str] = frozenset()
    heading, body = "", text.strip()
    f = field(body) if "\n" not in body else None
    if f is not None and f.value.strip():
        label, heading, body = statement(f.label).stems, f.label, f.value
    if not label and len(remainders.compound_parts(body)) > 1:
        return None  # sentences of their own, each a statement ("I am a singer. I have never been married.")
    parts = remainders.items(body)
    if len(parts) < 2:
        return None
    return Compound(label, tuple(_item(p) for p in parts), heading)


def _held(items: Sequence[Item]) -> set[tuple[str, object]]:
    """The (kind, value) pairs `items` give, a date's month among them ("the December concert" of "12 December")."""
    held = {(k, x) for i in items for k, v in i.kinds.items() for x in v}
    return held | {("month", x[0]) for k, x in held if k == "date" and isinstance(x, tuple)}


def _about(n: Statement, note: Compound) -> list[Item]:
    """The items whose key `n` says whole."""
    return [i for i in note.items if i.key and i.key <= n.stems]


def repeated(n: Statement, old: str) -> bool:
    """Whether `n` says one item of the compound note `old` again, and nothing the note does not (module docstring)."""
    note = compound(old)
    if note is None or not note.label or n.question:
        # (a sentence's pieces said again, "I have 3 dogs." after "I have 3 dogs and 2 cats.", are left to the
        # rules that read a sentence said again (`repeats.one_says_more`): MSC personas, 3 such repeats and a
        # coordinated subject read as two pieces, "My ex boyfriend and I broke up …")
        return False
    about = _about(n, note)
    if not about:
        return False
    kinds = n.kinds
    if compound(n.text) is not None:
        # a compound note said again, its items in another order ("Launch site …, Gareth piloting, …"): every item
        # said, no word of its own, no other value
        whole = all(i in about for i in note.items if i.key) and not n.stems - note.words()
        return whole and all(item.kinds.get(k, v) == v for item in about for k, v in kinds.items())
    # the words the note holds for it: the label's, the items' it is about, the first item's (the holder the items
    # share: "Pepper's" of "Pepper's Kennel Club registration done, Builth show entry sent") and the whole note's
    said = note.label.union(*(i.stems for i in about), note.items[0].stems, *(i.stems for i in note.items if not i.key))
    if n.stems - said:
        return False  # a word of its own, or of another item: something the memory does not hold
    for item in about:  # no value of a kind an item it is about gives otherwise
        if any(item.kinds[k] != v for k, v in kinds.items() if k in item.kinds):
            return False
    held = _held([*about, *(i for i in note.items if not i.key)])  # (an item of values only is the whole note's)
    if any((k, x) not in held for k, v in kinds.items() for x in v):
        return False  # a value that only another item gives ("The AGM is on 3 March." / "demo night 3 March")
    return any(
        i.negated == n.negated and i.names <= n.stems and all(kinds.get(k) == v for k, v in i.kinds.items())
        for i in about
    )


def changed(n: Statement, old: str, max_new_terms: int) -> str | None:
    """How `n` gives the one item of the compound note `old` it is about another value or name, or None (module
    docstring)."""
    note = compound(old)
    if note is None or n.question or compound(n.text) is not None:
        return None
    about = _about(n, note)
    if len(about) != 1 or not note.label & n.stems:
        # (a note without a label is a sentence whose pieces share words the parse splits: "User is short-sighted,
        # -2.75 in both eyes." read against "… minus 2.75 in each eye" met a sign, not a change)
        return None
    item = about[0]
    if item.negated != n.negated:
        return None
    own = n.stems - note.words()
    names = n.entity_words & own
    if len(own - names) > max_new_terms:
        return None
    kinds = n.kinds
    flips = [
        k for k, v in kinds.items()
        if len(v) == 1 and len(item.kinds.get(k, ())) == 1 and not v & item.kinds[k]
    ]
    others = _held(note.items)
    if any((k, x) not in others for k, v in kinds.items() if k not in flips for x in v):
        return None  # a value of its own besides the one it changes: another statement
    if len(flips) == 1:
        return f"changed {flips[0].removeprefix('q:') or 'number'} in one item of a compound note"
    if not flips and item.names and names and not item.names & n.stems:
        return "another name in one item of a compound note"
    return None


def sharing(n: Statement, old: str) -> list[str]:
    """The items of the compound note `old` that share a word of their key with `n` (or, an item of values only, a
    value: "Sat 9-1" of "Clock shop hours: Mon-Fri 9-5, Sat 9-1, closed Sun." beside "… shut on Saturdays"), each
    under the note's label ("Beach hut: dogs welcome"), when `n` says a word of the label too: the other items
    are no part of what `n` may contradict ("Dogs aren't allowed in the beach huts." against "Beach hut: no overnight
    stays, gas ring allowed, dogs welcome.", whose other items grant and forbid other things)."""
    note = compound(old)
    if note is None or n.question or compound(n.text) is not None or not note.label & n.stems:
        # (not a sentence's pieces: read alone they slip the guards the whole sentence meets, "I like music but i
        # love to read." / "I dont like music too much.", one MSC persona's)
        return []
    kinds = n.kinds
    return [
        f"{note.heading}: {i.text}" if note.heading else i.text for i in note.items
        if i.key & n.stems or not i.key and any(v & i.kinds.get(k, frozenset()) for k, v in kinds.items())
    ]
