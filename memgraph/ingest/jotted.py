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
from memgraph.ingest.records import ITEM_MARK, field, record
from memgraph.ingest.statement import statement
from memgraph.ingest.statement_words import _AUX
from memgraph.ingest.voice import BARE_TEXTS
from memgraph.text import tokenize

#: Where a note's value lists its items: a comma and a space (not "£38,500").
_ITEMS = re.compile(r"\s*,\s+")
#: Keys that announce what follows rather than name an attribute.
_HEADINGS = frozenset(
    "update correction note notes reminder fyi ps nb edit warning important summary status todo tip per re "
    "erratum fix heads".split()
)


#: "is" said as "'s" before a value: "The boat's 62 feet long.", "The rent's £850 now." (not an ordinal, "Mum's 70th
#: birthday", a possessive). The parse finds no verb in "boat's", which leaves such a text a label.
_CONTRACTED_IS = re.compile(
    r"(?<=[^\W\d])['’]s\s+(?=(?:only\s+|about\s+|around\s+)?[£$€]?\d[\d,]*(?:\.\d+)?(?![\d,.]|st\b|nd\b|rd\b|th\b))"
)
#: A table's row written as a line: its cells parted by a bar with a space each side ("Grow room 2 | temp: 18").
_CELL = re.compile(r"\s+\|\s+")
#: A value that is a bare number ("18", "41,200", "9.5").
_BARE_NUMBER = re.compile(r"^[-+]?\d[\d,]*(?:\.\d+)?$")


def _row(text: str) -> str:
    """A table's row said as clauses ("Grow room 2 | temp (°C): 18" -> "Grow room 2 temp is 18 °C"): the cells
    without a key name what the row is about, and each cell with one ("temp (°C): 18") says its value of that thing's
    key, as a key-value line does (`_line`), the unit in the key's brackets put after a bare number. In a row a key
    is a column's name, whatever its words ("status", "wrist guards"), so none is read as a heading or a clause. The
    clauses are joined by ";", which the conflict rules read one by one. A row with no keyed cell ("Peter Wright anvil
    | 150 kg"), or a keyless cell after a keyed one, is left as it is."""
    name: list[str] = []
    fields: list[tuple[str, str]] = []
    for cell in record(text).fields:
        if not cell.filled:
            if fields:
                return text
            name.append(cell.text)
            continue
        if cell.unit and _BARE_NUMBER.match(cell.value):
            fields.append((cell.label, f"{cell.value} {cell.unit}"))
        else:
            fields.append((cell.name, cell.value))
    if not fields:
        return text
    head = " ".join(name)
    return "; ".join(f"{head} {key} is {value}".strip() for key, value in fields)


@lru_cache(maxsize=BARE_TEXTS)
def sentence(text: str) -> str:
    """`text` with a jotted key-value line said as a copula ("key: value" -> "key is value"), and "is" contracted
    before a value said whole (`_CONTRACTED_IS`); `text` itself when it
    is no such line, when its value is a clause ("Client note: Aarav has to avoid sesame"), or when its key is a
    heading ("Update: …"). A list (lines, bulleted or not) is read line by line, its lines joined by ";" as clauses
    (a lead-in line's colon dropped): the conflict rules read each clause alone, so the one item a new statement
    changes meets it ("Kids' week:\n- Mon: swimming\n- Tue: piano" against "Piano is on Thursdays."). Cached as the
    bare readings it is asked of are (`voice.BARE_TEXTS`: both texts of every pair the conflict chain reaches)."""
    if _CONTRACTED_IS.search(text):
        text = _CONTRACTED_IS.sub(" is ", text)
    lines = [line for line in text.strip().splitlines() if line.strip()]
    if len(lines) == 1 and _CELL.search(text):
        return _row(text)
    if len(lines) < 2:
        # (a speaker's turn, "John: Thanks! Talk to you later!", is one line and says nothing of John: LoCoMo read so
        # gained 15 false contradictions between one speaker's turns; a list's line "Mon: swimming" is no turn)
        return text if looks_like_turn(text) else _line(text)
    said = [_line(ITEM_MARK.sub("", line)).strip().rstrip(":;,") for line in lines]
    return "; ".join(line for line in said if line)


def _line(text: str) -> str:
    """One line said as a sentence (see `sentence`)."""
    f = field(text, dash=True)
    if f is None or not f.value:
        return _sign(text)
    key, value = (f.label, f"{f.value} {f.unit}") if f.unit and _BARE_NUMBER.match(f.value) else (f.name, f.value)
    words = key.lower().split()
    if not words or len(words) > 6 or words[0] in _HEADINGS or statement(key).clause:
        return text
    if statement(_ITEMS.split(value, 1)[0]).clause:
        return text  # (the first item: "£10 guest passes" later in a list reads "passes" as a verb)
    # a note's items, one after another ("free entry, £50 bar tab for the winners"), are each said of the key: the
    # conflict rules read the clauses joined by ";" one by one (`conflicts._joined`)
    return f"{key} is " + _ITEMS.sub("; ", value)


#: A sign's line that forbids a thing: "No dogs on the field", "no smoking after 10pm", "no plastic bags". The thing is
#: the words up to a preposition of place or time.
_FORBIDDING = re.compile(
    r"(?i)^\s*no\s+(?P<thing>[a-z][\w'’-]*(?:\s+(?!(?:on|in|at|inside|outside|after|before|beyond|past|during|near|"
    r"by|from|at|for|until|till)\b)[a-z][\w'’-]*){0,3})(?P<rest>\s+(?:on|in|at|inside|outside|after|before|beyond|"
    r"past|during|near|by|from|for|until|till)\b[^,;:!?]*)?\s*[.!]?\s*$"
)
#: A sign's line that grants one: "Dogs welcome", "bikes allowed in the yard", "cash accepted".
_GRANTING = re.compile(
    r"(?i)^\s*(?P<thing>[a-z][\w'’-]*(?:\s+[a-z][\w'’-]*){0,3}?)\s+(?P<verb>welcome|allowed|permitted|accepted)\b"
    r"(?P<rest>[^,;:!?]*)\s*[.!]?\s*$"
)


def _sign(text: str) -> str:
    """A sign's line said as a sentence: "no dogs on the field" -> "dogs is not allowed on the field", "dogs welcome
    on the field" -> "dogs are welcome on the field" (held-out pairs 21, in notes with pictographs: "🚫🐕 on the kite
    festival field", read "no dog on …" by `pictographs.said`). Such a line has no verb, so the conflict rules read it
    as a label, which asserts nothing. Only a line with no auxiliary or copula that says nothing else (the statement
parse reads its clause from this reading, so it cannot be asked here); `text` itself otherwise."""
    m = _FORBIDDING.match(text) or _GRANTING.match(text)
    if m is None or any(t in _AUX for t in tokenize(text)):
        return text  # (a clause: "No idea where it is")
    verb = m.groupdict().get("verb")
    said = "is not allowed" if verb is None else f"are {verb.lower()}"
    return f"{m.group('thing')} {said}{m.group('rest') or ''}"
