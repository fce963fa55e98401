"""What a query names that the graph has a facet for: speakers, dates, sessions, projects.

A query like "What did Caroline paint on 13 October, 2023?" names two things the graph knows as facet tags:
`speaker:caroline` and `date:2023-10-13` (ingest/episodes.py writes such tags for conversations, ingest writes
`project:<name>` for file paths, users may write any `facet:value`). Recall searches inside each named facet
as extra seed lists and boosts candidates that carry it. Matching is exact on normalised tag names (or the
value after the `facet:` prefix); nothing here knows any particular data set.

Only facet tags are cues. A plain tag (`postgresql`, inferred from a capitalised word, or `#billing`) and a
`topic:` tag are made of the memory's own words, which full-text and vector search already match: used as
cues they would count the same words two more times (a scoped list and a boost), and a memory that merely
mentions the query's nouns ("we're migrating the ledger to PostgreSQL") would outrank the one that answers
it ("the cutover moved to 28 November"). A facet says what the text need not: who said it, when, where.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from memgraph.ingest.structure import dates_named
from memgraph.models import Tag
from memgraph.store.base import GraphStore
from memgraph.text import stop_words, tokenize

#: Facet-looking tags made from a memory's own words (ingest/episodes.py) are not cues either: full-text
#: search already matches those words, and a query's every content word would crowd out speaker and date.
TEXT_DERIVED_PREFIXES = ("topic:",)


def is_facet(name: str) -> bool:
    """`facet:value` tags other than the text-derived ones: the only tags a query can name as a cue."""
    return ":" in name and not name.startswith(TEXT_DERIVED_PREFIXES)

@dataclass
class QueryCues:
    """Tags the query names, the query with those names removed (for searching inside the tags)."""

    tags: list[Tag] = field(default_factory=list)
    stripped_query: str = ""
    date_phrases: list[str] = field(default_factory=list)

    @property
    def tag_names(self) -> list[str]:
        return [t.name for t in self.tags]


def date_tag_names(query: str) -> tuple[list[str], list[str]]:
    """Date facet tags a query names (`date:YYYY-MM-DD`, `month:YYYY-MM`) and the phrases that named them: the
    same rule that tags memories with the dates their text names (ingest/structure.py)."""
    return dates_named(query)


def _terms(query: str) -> list[str]:
    """Candidate tag names from the query: content words and word pairs; possessives reduced ("ada's")."""
    stops = stop_words()
    words = [re.sub(r"'s$", "", t) for t in tokenize(query)]
    singles = [w for w in words if w not in stops and len(w) > 1]
    pairs = [f"{a} {b}" for a, b in zip(words, words[1:], strict=False) if a not in stops and b not in stops]
    return list(dict.fromkeys(singles + pairs))


def _find_tags(store: GraphStore, user_id: str, names: list[str]) -> list[Tag]:
    """The store's tags on at least one memory that the names name: `find_tags_in_use` where the store has it
    (SQLite: from its graph in memory), else `store.find_tags`; a store that predates both is served from
    `list_tags` (slower, same result). Tags with no members are dropped by the caller either way."""
    in_use = getattr(store, "find_tags_in_use", None)
    if in_use is not None:
        used: list[Tag] = in_use(user_id, names)
        return used
    finder = getattr(store, "find_tags", None)
    if finder is not None:
        found: list[Tag] = finder(user_id, names)
        return found
    wanted = set(names)
    return [t for t in store.list_tags(user_id) if t.name in wanted or t.name.split(":", 1)[-1] in wanted]


def find_cues(store: GraphStore, user_id: str, query: str, *, max_tags: int) -> QueryCues:
    """Look the query's terms and dates up among the user's tags (one store query)."""
    dates, phrases = date_tag_names(query)
    terms = _terms(query)
    if max_tags <= 0 or not (terms or dates):
        return QueryCues(stripped_query=query)
    found = [
        t
        for t in _find_tags(store, user_id, [*dates, *terms])
        if t.count > 0 and is_facet(t.name)
    ]
    # Most specific first: a tag on few memories says more than one on half of them.
    found.sort(key=lambda t: (t.count, t.name))
    tags = found[:max_tags]
    stripped = query
    for phrase in phrases:
        stripped = stripped.replace(phrase, " ")
    for tag in tags:
        value = tag.name.split(":", 1)[1] if ":" in tag.name else tag.name
        if tag.name.startswith(("date:", "month:")):
            continue
        stripped = re.sub(rf"(?i)\b{re.escape(value)}(?:'s|’s)?\b", " ", stripped)
    stripped = " ".join(stripped.split())
    return QueryCues(tags=tags, stripped_query=stripped or query, date_phrases=phrases)
