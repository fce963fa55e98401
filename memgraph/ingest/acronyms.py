"""An initialism in one text that the other spells out: the pair is read with the words, not the letters.

"BSL interpreters are booked for a minimum of two hours." / "there's a 2-hour minimum on any British Sign Language
booking", "We need a TPO check before felling …" / "… a tree preservation order check …", "Lucy is the club's range
safety officer." / "correction, Adebayo is the RSO, …" (held-out pairs 13: two duplicates and a correction missed,
each read as another name and another subject). A statement's words are compared as stems, so the letters share
nothing with the words they stand for. Only capitals of three to five letters (a plural "s" allowed) whose letters
are the initials of as many consecutive words of the other text, none of them a stop word: two letters match
chance words too often ("IT" / "is Tuesday").
"""

from __future__ import annotations

import re

from memgraph.ingest.statement import Statement, statement
from memgraph.text import stop_words

_INITIALISM = re.compile(r"(?<![\w'’-])(?-i:[A-Z]{3,5})(?:s|['’]s)?(?![\w'’-])")
_WORD = re.compile(r"[A-Za-z][\w'’-]*")


def _spelled(text: str, other: str) -> str | None:
    """`text` with each initialism that `other` spells out replaced by those words; None when there is none."""
    if not _INITIALISM.search(text):
        return None
    words = _WORD.findall(other)
    stops = stop_words()
    changed = False

    def expand(m: re.Match[str]) -> str:
        nonlocal changed
        token = m.group(0)
        letters = re.match(r"[A-Z]+", token)
        assert letters is not None
        acr = letters.group(0).lower()
        k = len(acr)
        for i in range(len(words) - k + 1):
            run = words[i:i + k]
            if "".join(w[0] for w in run).lower() == acr and not any(w.lower() in stops for w in run):
                changed = True
                return " ".join(run) + token[k:]
        return token

    out = _INITIALISM.sub(expand, text)
    return out if changed else None


def spelled_out(n: Statement, o: Statement) -> tuple[Statement, Statement]:
    """`n` and `o`, the one whose initialism the other spells out read again with the words instead."""
    if new := _spelled(n.text, o.text):
        n = statement(new)
    if old := _spelled(o.text, n.text):
        o = statement(old)
    return n, o
