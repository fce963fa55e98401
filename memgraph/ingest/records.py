"""A record's grammar: a text of labelled fields ("Reg: VDF 481 | model: Riley 1.5 | chassis: 38721", "Weight (kg):
4.2; status: draft", a Markdown table's row, "Grow room 2 | temp (°C): 18") cut into its parts, each a field (a label,
the label's unit, a value) or a part with no label (the record's lead, "Grow room 2", or a heading).

Why one grammar: four readers ask of records (the chunker whether a text is one, `fields` which field changed,
`jotted` the record said as a sentence, `gap_fields` whether a served field answers), and each had written its own
separators and labels; a fix in one was missed in the others.

The grammar:
- Parts are cut at a bar, a semicolon, a tab, a line break or a bullet set inside a line (`SEPARATOR`); a list
  item's mark opening a part is no part of it ("- Ground floor: Priya Desai"); empty parts (a table row's outer
  bars) are dropped. A comma or a spaced dash is no separator: they part a value's items
  ("supervisor Prof. Rees, second supervisor Dr Ade") or its note ("Library - changed"), which readers ask of apart.
- A field is a label, a mark and a value. A label names a field: it opens with a letter (not "09:00", "3:1"), holds
  word characters, spaces and the marks names of fields take ("R&D", "km/h", "temp (°C)", "fat %", "No."), is at most
  `LABEL_CHARS` characters and `LABEL_WORDS` words (a longer run before a colon is a sentence: "I told him what I
  thought of the plan: no"). A unit in brackets at its end ("Weight (kg)") is the unit of its value.
- The mark is a colon or an equals sign followed by a space or the part's end ("10:30", "https://x", "3:1" hold
  colons that mark nothing; "region=eu-west-1" and a key's "==" are code, not a note). A jotted line, not a
  record's field, may also mark its label with a spaced dash ("car - MOT due 14 March"): `field(..., dash=True)`.
- The value is the rest of the part, possibly empty ("Notes:").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

#: Where a record's parts meet: a bar, a semicolon, a tab, a line break, a bullet inside a line.
SEPARATOR = re.compile(r"[ \t]*(?:[|;\t\n\u2022\u25aa])[ \t]*")
#: A bullet or a number that opens a list item ("- ", "• ", "2. ", "(3) ") and the space after it.
BULLET = r"(?:[-*•+▪–]|\(?\d{1,3}[.)])[ \t]+"
#: A list item's mark at a line's start: the chunker keeps such lines together, the readers of a statement read each
#: item after its mark (`signals` for names, `classify` for kinds), and a record's line is read after it ("- Ground
#: floor: Priya Desai").
ITEM_MARK = re.compile(rf"(?m)^[ \t]*{BULLET}")
#: A label is a field's name: a few words ("next service due", "flow temp on the ASHP"), never a sentence.
LABEL_WORDS = 6
#: ... and a short one (40 characters: "Emergency contact (out of hours)").
LABEL_CHARS = 40
#: A label: a letter first, then word characters, spaces and the marks fields' names hold; its unit in brackets.
_LABEL = r"[^\W\d][\w'’ &/+.()°%#-]*?"
#: A label's mark: a colon or an equals sign before a space or the end; (dash) a spaced dash.
_MARK = r"[:=](?=\s|$)"
_DASH_MARK = r"(?:[:=](?=\s|$)|\s[-–—](?=\s))"
_FIELD = re.compile(rf"^\s*(?P<label>{_LABEL})\s*{_MARK}\s*(?P<value>.*?)\s*$", re.DOTALL)
_DASH_FIELD = re.compile(rf"^\s*(?P<label>{_LABEL})\s*{_DASH_MARK}\s*(?P<value>.*?)\s*$", re.DOTALL)
#: A unit in brackets at a label's end ("temp (°C)", "weight (kg)", "distance (miles)"): a few characters, no digit.
_UNIT = re.compile(r"^(?P<label>.*?)\s*\((?P<unit>[^()\d]{1,12})\)$")


@dataclass(frozen=True)
class Field:
    """One part of a record: `label` and `unit` empty for a part with no label, whose `value` is the part."""

    text: str
    label: str
    unit: str
    value: str

    @property
    def labelled(self) -> bool:
        return bool(self.label)

    @property
    def filled(self) -> bool:
        """A labelled field with a value ("Contact: Jo Pike"; not "Notes:", not a part with no label)."""
        return bool(self.label and self.value)

    @property
    def name(self) -> str:
        """The label with its unit, as a column's name ("temp (°C)")."""
        return f"{self.label} ({self.unit})" if self.unit else self.label


@dataclass(frozen=True)
class Record:
    """A text's parts in order (`fields`), labelled or not."""

    fields: tuple[Field, ...]

    @property
    def labelled(self) -> tuple[Field, ...]:
        """The parts with a label."""
        return tuple(f for f in self.fields if f.labelled)

    @property
    def is_record(self) -> bool:
        """Two labelled fields or more: one label before a colon is a note's ("Note: I moved the meeting"), a
        record names several things."""
        return len(self.labelled) >= 2

    @property
    def lead(self) -> str:
        """What comes before the first labelled field ("Grow room 2" in "Grow room 2 | temp: 18"), its parts joined
        by a space; the whole text's parts when none is labelled."""
        out: list[str] = []
        for f in self.fields:
            if f.labelled:
                break
            out.append(f.text)
        return " ".join(out)


def parts(text: str) -> list[str]:
    """`text` cut at its separators (`SEPARATOR`), each part stripped of its list item's mark (`ITEM_MARK`), empty
    ones dropped."""
    return [p for p in (ITEM_MARK.sub("", part).strip() for part in SEPARATOR.split(text)) if p]


def field(part: str, *, dash: bool = False) -> Field | None:
    """`part` read as "label: value" (`dash`: or "label - value", a jotted line's way), None when it has no label by
    the grammar (module docstring)."""
    m = (_DASH_FIELD if dash else _FIELD).match(part)
    if m is None:
        return None
    label = m.group("label").strip()
    if len(label) > LABEL_CHARS or len(label.split()) > LABEL_WORDS or label.count("(") != label.count(")"):
        return None
    unit = ""
    u = _UNIT.match(label)
    if u is not None and u.group("label"):
        label, unit = u.group("label"), u.group("unit").strip()
    return Field(part.strip(), label, unit, m.group("value"))


@lru_cache(maxsize=4096)
def record(text: str) -> Record:
    """`text`'s parts, each read as a field where it has a label."""
    return Record(tuple(field(p) or Field(p, "", "", p) for p in parts(text)))
