"""A title said in quotes and changed: "They've changed the final's motion to 'This House would abolish homework'"
after "The motion for the debate final is 'This House would ban zoos'."; "We renamed the newsletter to 'Village
Voice'" after "Our newsletter is called 'Parish Pump'". A title is a value that no typed-value reader finds (its words
are ordinary words), and a change told as an event says more words than the swap of two (held-out pairs 22: cosine
0.53, five words differ).

A change verb brings a thing to a title in quotes; the old statement gives one title in quotes, another one; and the
thing changed is named by the old statement.
"""

from __future__ import annotations

import re

from memgraph.ingest.statement import Statement, stem
from memgraph.text import stop_words

#: A title in quotes: opened after a space or the start, with a capital, closed before no letter ("final's" opens none).
_QUOTED = re.compile(r"(?:(?<=\s)|^)['‘\"“](?P<t>[A-Z][^'‘’\"“”]{1,80}?)['’\"”](?!\w)")
#: A change verb, the thing it changes, and "to" before a quote: "changed the final's motion to '…'".
_TO_TITLE = re.compile(
    r"(?i)\b(?:chang|switch|renam|swap|updat|replac|mov)\w*\s+(?P<thing>(?:[\w'’-]+\s+){1,5}?)to\s+['‘\"“]"
)


def _titles(text: str) -> set[str]:
    return {" ".join(m.group("t").lower().split()) for m in _QUOTED.finditer(text)}


def retitled(n: Statement, o: Statement) -> bool:
    """Whether `n` tells a change of a thing `o` names to a title in quotes other than the one title `o` gives."""
    if "'" not in n.text and "‘" not in n.text and '"' not in n.text and "“" not in n.text:
        return False
    m = _TO_TITLE.search(n.text)
    if m is None:
        return False
    old, new = _titles(o.text), _titles(n.text[m.end() - 1 :])
    if len(old) != 1 or not new or old & new:
        return False
    stops = stop_words()
    thing = {stem(w.removesuffix("'s").removesuffix("’s")) for w in m.group("thing").lower().split() if w not in stops}
    return bool(thing & o.stems)
