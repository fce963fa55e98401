"""A price said with an extra included in it or added on top of it: "£450 including VAT" / "£450 plus VAT", "£80 inc.
delivery" / "£80 + delivery", "£30 a head with drinks" / "£30 a head, drinks extra".

Why: the same amount with the extra included and with it added are two totals ("£450 inc. VAT" is £450 to pay, "£450
+ VAT" is £540), yet the values agree and the texts differ by one word, so the pair read as a repeat (held-out pairs
22: "Team karting entry fee: £450 inc. VAT." / "Karting team entry is £450 + VAT.", cosine 0.94, reinforced). Read
on texts whose abbreviations are written out (`abbreviations.written_out`: "inc." is "including", "+" after an
amount "plus", "ex VAT" "excluding VAT"). Only the words that say so right after an amount (up to three words
between: "£30 a head including drinks"), of the same extra on both sides.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memgraph.ingest.comparison import Comparison
from memgraph.ingest.statement import Statement, stem

#: An amount of money, then up to three words, then the extra said included ("including VAT", "inclusive of
#: delivery", "with VAT", "VAT included") or added ("plus VAT", "excluding VAT", "exclusive of VAT", "before VAT",
#: "VAT extra", "VAT on top").
_AMOUNT = r"[£$€]\s?\d[\d,.]*(?:\s?[km]\b)?(?:\s+(?:[a-z]+|per|a)){0,3}?[\s,]+"
_EXTRA = r"(?P<x>[A-Za-z][\w-]*)"
_BEFORE = re.compile(
    rf"(?i){_AMOUNT}(?:(?P<inc>including|inclusive\s+of|incl\.?|inc\.?|with)|"
    rf"plus|excluding|exclusive\s+of|excl?\.?|ex|before|not\s+including|on\s+top\s+of)\s+(?:the\s+|an?\s+)?{_EXTRA}"
)
_AFTER = re.compile(
    rf"(?i){_AMOUNT}{_EXTRA}\s+(?:(?P<inc>included|incl\.?)|extra|on\s+top|not\s+included|excluded)\b"
)


@lru_cache(maxsize=4096)
def bases(text: str) -> frozenset[tuple[str, bool]]:
    """(the extra's stem, whether it is included) for every price of `text` said with an extra included or added."""
    out = set()
    for pattern in (_BEFORE, _AFTER):
        for m in pattern.finditer(text):
            out.add((stem(m.group("x").lower()), m.group("inc") is not None))
    return frozenset(out)


def included_and_added(a: str, b: str) -> bool:
    """Whether one text says an extra is included in its price and the other that the same extra is added on top
    ("£450 including VAT" / "£450 plus VAT"); a text that says both of one extra claims neither."""
    if not any(w in a for w in ("£", "$", "€")) or not any(w in b for w in ("£", "$", "€")):
        return False
    ba, bb = bases(a), bases(b)
    for extra, inc in ba:
        if (extra, not inc) in bb and (extra, inc) not in bb and (extra, not inc) not in ba:
            return True
    return False


#: The words that say an extra is included or added: no part of what is priced.
_BASIS_STEMS = frozenset(stem(w) for w in (
    "including inclusive included plus excluding exclusive excluded extra before top with not"
).split())


def two_totals(n: Statement, o: Statement, c: Comparison) -> bool:
    """Whether the two statements give one amount for one thing, one with an extra included and the other with it
    added (`included_and_added`): the same values, no other name, and besides the words of inclusion one side says
    nothing the other does not ("Team entry fee: £450 inc. VAT." / "Team entry is £450 + VAT."); words of their own
    on both sides price two things ("Thatch quote £14k inc. VAT, start TBC." / "Kitchen extension quote £14k + VAT,
    builder TBC."). The subject test is the caller's."""
    if c.changed or c.entities_differ or not included_and_added(n.text, o.text):
        return False
    return not (c.only_new - _BASIS_STEMS and c.only_old - _BASIS_STEMS)


#: A thing someone else pays for: "are funded by the NHS", "is paid for by my employer", "is covered by insurance",
#: "free on the NHS".
_FUNDED = re.compile(
    r"(?i)\b(?:is|are|was|were|['’]s|['’]re|gets?|being|been)\s+(?:fully\s+|all\s+|still\s+)?"
    r"(?:funded|paid\s+for|covered|reimbursed)\s+by\b|\bfree\s+on\s+the\b"
)
#: ... and one paid for by those who have it: "we pay privately for …", "privately funded", "self-funded", "out of our
#: own pocket", "at our own expense".
_PRIVATE = re.compile(
    r"(?i)\bpa(?:y|ys|id|ying)\s+(?:for\s+(?:[\w'’-]+\s+){1,3})?privately\b|\bprivately\s+(?:funded|paid)\b"
    r"|\bself[-\s]fund(?:ed|ing)\b|\bout\s+of\s+(?:our|my|his|her|their)\s+own\s+pockets?\b"
    r"|\bat\s+(?:our|my|his|her|their)\s+own\s+expense\b"
)


def payers_differ(n: Statement, o: Statement) -> bool:
    """Whether one statement says another party pays for a thing and the other that it is paid for privately
    ("Leo's therapy sessions are funded by the council." / "We pay privately for Leo's therapy – £70 a session."):
    who pays is one slot, and the payer named on one side only reads as another name, which no rule compares. One
    thing: the subject of one side said by the other; a side that says both claims neither."""
    a = (bool(_FUNDED.search(n.text)), bool(_PRIVATE.search(n.text)))
    b = (bool(_FUNDED.search(o.text)), bool(_PRIVATE.search(o.text)))
    if a not in ((True, False), (False, True)) or b not in ((True, False), (False, True)) or a == b:
        return False
    return bool(n.subject and n.subject <= o.stems) or bool(o.subject and o.subject <= n.stems)
