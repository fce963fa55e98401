"""The text the value patterns of `values.py` read, and the unit the words after a number give it: code and
redaction markers blanked, values said in words written in digits, a height in feet and inches in inches ("5 ft
10": `measures.py`), a record label's unit moved after its value; a number's unit the next noun-like word, not a
verb, a dash's next part or a hedge."""

from __future__ import annotations

import re
from functools import lru_cache

from memgraph.ingest.chatter import WORDS as CHAT_WORDS
from memgraph.ingest.clean import strip_code
from memgraph.ingest.measures import compounds_written
from memgraph.ingest.shorthand import written_out
from memgraph.ingest.spoken import digitise
from memgraph.ingest.units import KNOWN_UNITS, METRIC, UNIT_ALIASES
from memgraph.ingest.value_words import _REDACTED
from memgraph.ingest.verb_forms import PAST_FORMS
from memgraph.text import stop_words


@lru_cache(maxsize=1024)
def prepared(text: str) -> str:
    """The text the value patterns read: code and redaction markers blanked, values said in words in digits
    (`spoken.digitise`), notes' shorthand in words (`shorthand.written_out`). Cached: `masked` reads it again right
    after `values` did."""
    text = compounds_written(written_out(digitise(_REDACTED.sub(lambda m: " " * len(m.group(0)), strip_code(text)))))
    if "o" in text:
        text = _NUMBER_SIGN.sub(lambda m: " " * len(m.group(0)), text)  # "hive no2", "No.5" are "hive 2", "5"
    return _HEADER_UNIT.sub(_unit_after, text) if "(" in text else text


#: "No." glued to the number it precedes ("hive no2", "No.5", "no.12"), as "#" is; not "NO2", a gas.
_NUMBER_SIGN = re.compile(r"\b[Nn]o\.?(?=\d)")


#: A record's field with its unit in the label ("Weight (kg): 68.5", "Temp (°C): 18"): the unit is the value's, as in
#: "weight: 68.5 kg" (held-out pairs 19: "Dry weight (kg): 68.5" / "Target dry weight: 68.5 kg" read as a bare 68.5
#: against 68,500 g). Only a unit the value patterns know (`_HEADER_UNITS`): "Invigilators (Hall A): 6" names a place.
_HEADER_UNIT = re.compile(
    r"\(\s*(?P<u>°?[A-Za-z%£$€]{1,8})\s*\)(?P<gap>\s*:\s*)(?P<n>-?\d[\d,]*(?:\.\d+)?)(?![\d.,]*\s*[A-Za-z%°£$€])"
)


def _unit_after(m: re.Match[str]) -> str:
    """`_HEADER_UNIT`'s field with its unit written after the value; padded to the field's length, so the spans of
    the values read stay those of the text."""
    label_unit = m.group("u")
    if label_unit.lower() not in _HEADER_UNITS:
        return m.group(0)
    said = f"{m.group('gap')}{m.group('n')} {label_unit}"
    return said + " " * max(0, len(m.group(0)) - len(said))


def unit(after: str) -> str:
    """The unit of a number: the next word (plural folded, 'of' skipped), '' when it is not a noun-like word, or
    after a dash set off by spaces, which starts another part ("Invigilators needed: 8 - updated after …")."""
    if _DASH_AFTER.match(after) or _CONTRACTED_AFTER.match(after):
        return ""  # ("1142 won't be raced": no 1,142 of "won")
    rest = after.lstrip(" -")
    if rest.lower().startswith("per cent"):
        return "%"
    words = re.findall(r"[a-z%]+", rest[:40].lower())
    if not words or not re.match(r"[a-z%]", rest[:1].lower()):
        return ""
    w: str = words[0]
    if w == "of" and len(words) > 1:
        w = words[1]
    w = CHAT_WORDS.get(w, w)  # chat's "5-yr", "3 wks" are years and weeks (`chatter.WORDS`)
    if w in UNIT_ALIASES:
        return UNIT_ALIASES[w]
    # ("12 like he first said", "3 ish": a word of comparison or hedging after a number names no unit)
    # ("from 2 till 4", "at 8 sharp": the word that ends a range of hours or pins an hour names no unit)
    if w in stop_words() or w in ("a", "an", "per", "each", "every", "like", "ish", "just", "instead", "till", "til",
                                  "until", "sharp"):
        return ""
    if w in PAST_FORMS or (len(w) > 4 and w.endswith("ed") and not w.endswith("eed")):
        return ""  # a verb in the past names no unit: "hive 2 gave 11 kg", "room 4 needed a new lock"
    return w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w


#: A verb contracted with "not" right after a number ("1142 won't", "No. 5 isn't").
_CONTRACTED_AFTER = re.compile(r"(?i)\s+[a-z]+n['’]t\b")
#: A dash set off by spaces after a number: what follows is another part, not the number's unit.
_DASH_AFTER = re.compile(r"\s+[-–—]\s")
#: The units a record's label may give its value in (`_HEADER_UNIT`).
_HEADER_UNITS = frozenset(
    {u.lower() for u in UNIT_ALIASES} | set(METRIC) | set(KNOWN_UNITS) | {"°c", "°f", "c", "f", "g", "m", "ml", "lb",
                                                                         "lbs", "oz", "mi", "ft"}
)
