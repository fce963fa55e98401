"""Who a question is about: when it names two speakers, the memories of the one it asks about come first.

"What city did Tim suggest to John for the team trip?" names two speakers, and cascade recall's cue factor
(rank.py) lifts the memories of both alike, so John's turns about the trip crowd out Tim's answer. In a question
that names two values of one facet (`speaker:tim`, `speaker:john`), the value named first is its subject (English
puts the subject before the verb's object: "What did Tim tell John", "What encouragement does Nate give to
Joanna"), unless the two are joined as one ("Jon and Gina", "Tim or John", "Caroline, Melanie": both are asked
about, nothing changes). A candidate that carries another named value of that facet but not the subject's has its
relevance x `Settings.subject_relevance`; the others keep theirs. Date facets are left alone: two dates name a
span ("between August 11 and August 15"), not a subject and an object.

It reads only the query, the cue tags recall found and the candidates' own tags: nothing from the store, the
same on SQLite, FalkorDB and Neo4j. Measured on LoCoMo dev: see `Settings.subject_relevance`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from memgraph.models import Memory

#: Facets whose two values in one question name a span, not a subject and an object.
SPAN_FACETS = ("date", "month")
#: Words (and marks) that join two names into one subject: "Jon and Gina", "Tim or John", "Caroline, Melanie".
_JOINED = re.compile(r"(?i)\b(?:and|or|nor|both)\b|[,&/+]")


def _position(query: str, value: str) -> int | None:
    """Where the query names a tag's value (the same match as the cue-stripped query: a whole word, a
    possessive allowed), or None."""
    m = re.search(rf"(?i)\b{re.escape(value)}(?:'s|’s)?\b", query)
    return m.start() if m else None


def non_subjects(query: str, cue_names: Iterable[str]) -> tuple[set[str], set[str]]:
    """(the subjects' tags, the other named values' tags) over the facets the query names two or more values of;
    both empty where no facet has a subject."""
    by_facet: dict[str, list[tuple[int, str]]] = {}
    for name in sorted(set(cue_names)):
        facet, sep, value = name.partition(":")
        if not sep or facet in SPAN_FACETS:
            continue
        at = _position(query, value)
        if at is not None:
            by_facet.setdefault(facet, []).append((at, name))
    subjects: set[str] = set()
    others: set[str] = set()
    for named in by_facet.values():
        if len(named) < 2:
            continue
        named.sort()
        (first_at, first), (second_at, _) = named[0], named[1]
        if _JOINED.search(query[first_at:second_at]):
            continue  # "Jon and Gina": asked about together
        subjects.add(first)
        others.update(name for _, name in named[1:])
    return subjects, others


def subject_factors(
    query: str, cue_names: Iterable[str], candidates: Mapping[str, Memory], weight: float
) -> dict[str, float]:
    """{memory id: weight} for the candidates that carry a named non-subject value of a facet and not the
    subject's; the others are left out (factor 1)."""
    if weight == 1.0:
        return {}
    subjects, others = non_subjects(query, cue_names)
    if not others:
        return {}
    out: dict[str, float] = {}
    for mid, m in candidates.items():
        tags = set(m.tags)
        if tags & others and not tags & subjects:
            out[mid] = weight
    return out
