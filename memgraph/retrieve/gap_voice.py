"""Gap detection, chat's voice: a query typed in lower case read with the capitals its subjects have in the served
memories, and a memory's pictographs read as the words they stand for.

The learned gap decision reads the question's subjects by their capitals (a name, an acronym: `subject_names`,
`possessors`, `gap_structure`'s names absent and sibling names). Typed in lower case ("when is the frome market",
"mr joyce's phone number please"), the same question lost them: on the read parts replayed so (`bench/decisions.py
--replay --voice chat`), 50 of the true misses the decision caught as written fell under the threshold. A word the
served memories write with a capital inside a sentence is a name there, so it is one in the question too; a word no
served memory names stays as typed (its subject is then unread, as before). Only a query with no capital at all is
read so: one typed with capitals says its own names.

A note in emoji says its thing by a picture: "🎂 Priya 14/6" is Priya's birthday, "🪁 Kite festival" a kite's. The
focus test and the readings by the word saw no "birthday" there and read "when's Priya's birthday?" as unanswered
(held-out 21: p 0.84). Each pictograph is read as its Unicode name ("birthday cake", "kite", "radio"): the standard's
own words, no list of ours. Reactions and marks ("✅", "❌", "🚫", "👍", "🥶": a face, a hand, a sign, a mark, an
arrow, a shape) say how the writer feels or what became of a thing, not what it is: they are read as nothing, so
their names' words ("check", "mark", "sign") never cover a question's.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache

from memgraph.retrieve.gap_focus import ServedHit

_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*")
_SENTENCE = re.compile(r"(?<=[.!?;:])\s+|\n+")


def restore_case(query: str, served: Sequence[ServedHit]) -> str:
    """`query` with each word the served memories write capitalised inside a sentence ("Joyce", "PR", "macOS")
    written so, and "i" as "I"; unchanged when it has any capital of its own."""
    if any(ch.isupper() for ch in query):
        return query
    caps = {"i": "I"}
    for hit in served:
        for sentence in _SENTENCE.split(hit.content):
            for word in _WORD.findall(sentence)[1:]:  # a sentence's first word is capitalised by position
                if word[0].isupper() or any(ch.isupper() for ch in word[1:]):
                    caps.setdefault(word.lower(), word)
    return _WORD.sub(lambda m: caps.get(m.group(0), m.group(0)), query)


#: Words of a pictograph's Unicode name that make it a reaction or a mark, not a thing (`spell_pictographs`).
_MARKS = frozenset("FACE HAND HANDS PERSON HEART SIGN MARK ARROW CIRCLE SQUARE BUTTON SYMBOL".split())
#: Where pictographs are: the miscellaneous symbols and dingbats (U+2600-U+27BF) and the emoji planes (U+1F000 up).
_PICTOGRAPH = re.compile("[\u2600-\u27bf\U0001f000-\U0001faff]\ufe0f?")


@lru_cache(maxsize=512)
def _picture_word(ch: str) -> str:
    """The words a pictograph stands for, lowercased ("🎂" -> "birthday cake"); "" for a reaction or a mark."""
    name = unicodedata.name(ch[0], "")
    return "" if not name or _MARKS & set(name.split()) else name.lower()


def spell_pictographs(text: str) -> str:
    """`text` with each pictograph written as the thing it pictures ("🎂 Priya 14/6" -> "birthday cake Priya
    14/6") and each reaction or mark as a space ("✅ paid" -> "paid")."""
    if not _PICTOGRAPH.search(text):
        return text
    return _PICTOGRAPH.sub(lambda m: f" {_picture_word(m.group(0))} ", text).strip()


def spell_served(served: Sequence[ServedHit]) -> list[ServedHit]:
    """The served memories with their pictographs spelled (`spell_pictographs`), their cosines as served."""
    return [ServedHit(spell_pictographs(h.content), h.similarity) for h in served]
