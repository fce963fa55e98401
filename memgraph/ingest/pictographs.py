"""Pictographs read as the words they stand for, where they say a polarity: a prohibition mark is "no" ("🚫 plastic
bags", "⛔ entry after 9"), and a pictograph right after one is the thing it forbids, by its Unicode name ("🚫🐕" is
"no dog"); a sign that forbids by itself says so in its name ("🚭" is "no smoking", "📵" is "no mobile phones"). Any
other pictograph ("🍄 foray:", "👍 free", "✅ Sat swim") is read as nothing: it decorates, and its name is no word the
writer said.

Why: chat notes and lists say "no" with a mark (held-out pairs 21). Read as nothing, the mark left "🚫 plastic bags"
a plain statement that "no plastic bags" denied (a false contradiction of two notes that agree), and "🚫🐕 on the
field" said nothing against "dogs welcome on the field". The conflict chain (`conflicts.conflict_in_any_voice`) reads
both texts of a pair so when either has a pictograph; the statement parse and the other rules read the text as
written. Unicode names, not a list of the data's marks: every pictograph has one.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

#: One pictograph: a symbol of the emoji blocks (or the older dingbats and miscellaneous symbols), with its variation
#: selector, skin tone and zero-width joins.
_ONE = (
    r"[\U0001F000-\U0001FAFF\u2600-\u27BF\u2B00-\u2BFF\u2190-\u21FF\u2300-\u23FF]"
    r"[\uFE0F\U0001F3FB-\U0001F3FF]*(?:\u200D[^\s][\uFE0F]*)*"
)
_PICTOGRAPH = re.compile(_ONE)
#: The marks that forbid what follows: a no-entry sign, a cross, a "no good" gesture; and the pictograph after one,
#: the thing forbidden.
_FORBIDS = re.compile(
    r"[\U0001F6AB\u26D4\u274C\u2716\U0001F645\U0001F6C7][\uFE0F\U0001F3FB-\U0001F3FF]*\s*(?P<thing>" + _ONE + r")?"
)
#: A word after the mark that says the negation already ("❌ no picking"): the mark adds none.
_SAID = re.compile(r"(?i)\s*(?:no|not|never|don['’]?t|nothing)\b")
#: Words of a Unicode name that name no thing: "BANKNOTE WITH POUND SIGN", "NO SMOKING SYMBOL".
_NAME_ONLY = frozenset("SIGN SYMBOL MARK HEAVY WHITE BLACK LARGE SMALL".split())


def _name(pictograph: str) -> str:
    """The words of a pictograph's Unicode name, lower-cased, without the words that name no thing."""
    name = unicodedata.name(pictograph[0], "")
    return " ".join(w for w in name.split() if w not in _NAME_ONLY).lower()


#: A cross, which marks a thing wrong or cancelled as often as forbidden ("❌ Sat's swim is off"): "no" only before
#: a pictograph, the thing it crosses out.
_CROSS = frozenset("\u274C\u2716")


def _forbidden(m: re.Match[str]) -> str:
    thing = m.group("thing")
    if thing and not _FORBIDS.match(thing):
        return f" no {_name(thing)} "
    if m.group(0)[0] in _CROSS or _SAID.match(m.string, m.end()):
        return " "
    return " no "


def _other(m: re.Match[str]) -> str:
    """A pictograph that forbids nothing is read as nothing; a sign whose name says what it forbids ("NO SMOKING
    SYMBOL", "DO NOT LITTER SYMBOL") as its name."""
    name = unicodedata.name(m.group(0)[0], "")
    return f" {_name(m.group(0))} " if name.startswith(("NO ", "DO NOT ")) else " "


@lru_cache(maxsize=4096)
def said(text: str) -> str:
    """`text` with its pictographs read as words (see the module docstring); the text itself when it has none."""
    if not _PICTOGRAPH.search(text):
        return text
    out = _PICTOGRAPH.sub(_other, _FORBIDS.sub(_forbidden, text))
    return re.sub(r"[ \t]+", " ", out).strip()
