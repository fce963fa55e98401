"""Gap detection, a query typed in chat's voice read with the capitals its subjects have in the served memories.

The learned gap decision reads the question's subjects by their capitals (a name, an acronym: `subject_names`,
`possessors`, `gap_structure`'s names absent and sibling names). Typed in lower case ("when is the frome market",
"mr joyce's phone number please"), the same question lost them: on the read parts replayed so (`bench/decisions.py
--replay --voice chat`), 50 of the true misses the decision caught as written fell under the threshold. A word the
served memories write with a capital inside a sentence is a name there, so it is one in the question too; a word no
served memory names stays as typed (its subject is then unread, as before). Only a query with no capital at all is
read so: one typed with capitals says its own names.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

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
