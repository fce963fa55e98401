"""Gap detection, a query typed in chat's voice read with the capitals its subjects have in the served memories.

The learned gap decision reads the question's subjects by their capitals (a name, an acronym: `subject_names`,
`possessors`, `gap_structure`'s names absent and sibling names). Typed in lower case ("when is the frome market",
"mr joyce's phone number please"), the same question lost them: on the read parts replayed so (`bench/decisions.py
--replay --voice chat`), 50 of the true misses the decision caught as written fell under the threshold. A word the
served memories write with a capital inside a sentence is a name there, so it is one in the question too; a word no
served memory names stays as typed (its subject is then unread, as before). Only a query with no capital at all is
read so: one typed with capitals says its own names. A possessor with no determiner before it is a name too ("when is
yuki's parents' evening", "what's bluefin's phone number": "the van's MOT" is no name), so a name that no served
memory holds, the surest sign of a miss, is not lost with the capitals: dictated, 27 of the read parts' true misses
caught as written fell under the threshold, 6 of them asked about such a possessor.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memgraph.retrieve.gap_focus import ServedHit
from memgraph.retrieve.gap_values import CALENDAR
from memgraph.text import stop_words

_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*")
#: A word in the possessive with no determiner before it: "sam's", "dad's" (not "the van's", "my sister's").
_BARE_POSSESSOR = re.compile(
    r"(?<!\bthe\s)(?<!\ba\s)(?<!\ban\s)(?<!\bmy\s)(?<!\bour\s)(?<!\byour\s)(?<!\bhis\s)(?<!\bher\s)"
    r"(?<!\btheir\s)(?<!\bits\s)(?<!\bthis\s)(?<!\bthat\s)(?<!\bnext\s)(?<!\blast\s)(?<!\bother\s)(?<!\bone\s)"
    r"(?<!\bwhose\s)(?<!\bwhich\s)(?<!\bwhat\s)(?<!\beach\s)(?<!\bevery\s)\b([a-z][a-z0-9-]+)(?=['’]s\b)"
)
#: Possessives that name no one: a time ("today's", "tonight's") or an indefinite pronoun ("everyone's").
_NO_NAME = frozenset(
    "today tomorrow yesterday tonight everyone everybody someone somebody anyone anybody nobody else other week "
    "year month day night morning evening weekend".split()
)
_SENTENCE = re.compile(r"(?<=[.!?;:])\s+|\n+")


def restore_case(query: str, served: Sequence[ServedHit]) -> str:
    """`query` with each word the served memories write capitalised inside a sentence ("Joyce", "PR", "macOS")
    written so, a possessor with no determiner before it as a name ("sam's" -> "Sam's"), and "i" as "I"; unchanged
    when it has any capital of its own."""
    if any(ch.isupper() for ch in query):
        return query
    caps = {"i": "I"}
    for hit in served:
        for sentence in _SENTENCE.split(hit.content):
            for word in _WORD.findall(sentence)[1:]:  # a sentence's first word is capitalised by position
                if word[0].isupper() or any(ch.isupper() for ch in word[1:]):
                    caps.setdefault(word.lower(), word)
    for m in _BARE_POSSESSOR.finditer(query):
        w = m.group(1)
        if w not in stop_words() and w not in CALENDAR and w not in _NO_NAME and m.start() > 0:
            caps.setdefault(w, w.title())
    return _WORD.sub(lambda m: caps.get(m.group(0), m.group(0)), query)
