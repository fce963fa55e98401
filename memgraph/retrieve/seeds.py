"""Stage 1 of recall: seed memories from vector kNN and full-text hits, fused into one ranking (fusion.py).

Every list is filtered inside the store query (user, active, archived, kinds, project-scope globs, minimum
importance). In cascade mode each tag the query names (see cues.py) adds a vector and a full-text list run
inside that tag, with the naming words removed from the query, so "what did Ada paint" searches Ada's
memories for "paint". A hit on a superseded memory resolves to the memory that superseded it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

import numpy as np

from memgraph.config import Settings
from memgraph.ingest import starts
from memgraph.models import Memory, Relation
from memgraph.retrieve import validity
from memgraph.retrieve.fusion import fuse_lists
from memgraph.store.base import GraphStore, MemoryFilter

#: How many Supersedes hops a resolution follows (a chain old -> newer -> newest).
MAX_SUPERSEDE_CHAIN = 5


@dataclass
class Seed:
    """One fused seed: its rank and RRF score, and the raw scores of the lists that found it."""

    id: str
    rank: int
    score: float
    vector_score: float | None = None
    text_score: float | None = None
    lists: dict[str, int] = field(default_factory=dict)  # list name -> rank in that list
    resolved_from: str | None = None  # the superseded memory this seed replaced


def text_lists(
    store: GraphStore,
    user_id: str,
    *,
    query: str,
    n: int,
    flt: MemoryFilter,
    scoped: list[tuple[str, str]] | None = None,
) -> dict[str, list[tuple[str, float]]]:
    """The full-text lists alone: `text` and `text@<tag>` per (tag, query). They need no query vector, so recall
    runs them while the question is being embedded (pipeline.py)."""
    lists = {"text": store.text_search(user_id, query, n, flt=flt)}
    for tag, squery in scoped or []:
        lists[f"text@{tag}"] = store.text_search(user_id, squery, n, flt=flt.model_copy(update={"tag": tag}))
    return lists


def search_lists(
    store: GraphStore,
    user_id: str,
    *,
    query: str,
    qvec: np.ndarray | None,
    n: int,
    flt: MemoryFilter,
    min_similarity: float,
    use_vector: bool,
    use_text: bool,
    scoped: list[tuple[str, str, np.ndarray | None]] | None = None,
    scoped_min_similarity: float | None = None,
    texts: dict[str, list[tuple[str, float]]] | None = None,
) -> dict[str, list[tuple[str, float]]]:
    """Named ranked lists: `vector`, `text`, and `vector@<tag>` / `text@<tag>` per (tag, query, vec), in that
    order (fusion breaks no tie by it, but traces list them so). `texts`: the full-text lists already searched
    (`text_lists` with the same query, filter and tags), used instead of searching again."""
    if use_text and texts is None:
        texts = text_lists(
            store, user_id, query=query, n=n, flt=flt, scoped=[(tag, squery) for tag, squery, _ in scoped or []]
        )
    lists: dict[str, list[tuple[str, float]]] = {}
    if use_vector and qvec is not None:
        lists["vector"] = store.vector_search(user_id, qvec, n, min_similarity=min_similarity, flt=flt)
    if use_text and texts is not None:
        lists["text"] = texts["text"]
    for tag, _squery, svec in scoped or []:
        if use_vector and svec is not None:
            tflt = flt.model_copy(update={"tag": tag})
            floor = min_similarity if scoped_min_similarity is None else scoped_min_similarity
            lists[f"vector@{tag}"] = store.vector_search(user_id, svec, n, min_similarity=floor, flt=tflt)
        if use_text and texts is not None:
            lists[f"text@{tag}"] = texts[f"text@{tag}"]
    return lists


def fuse(lists: dict[str, list[tuple[str, float]]], settings: Settings) -> list[Seed]:
    """The named lists fused (fusion.py `fuse_lists`); each seed keeps its per-list ranks and the global lists'
    raw scores."""
    fused = fuse_lists(lists, settings)
    # each memory's {list: rank} in one pass over the lists (a dict per seed tested every list: ~150 seeds x ~6
    # lists in a cascade recall); a list naming a memory twice keeps its last rank, as a dict of it would
    found: dict[str, dict[str, int]] = {}
    for name, ranking in lists.items():
        for r, (mid, _) in enumerate(ranking, start=1):
            at = found.get(mid)
            if at is None:
                found[mid] = {name: r}
            else:
                at[name] = r
    vec = dict(lists.get("vector", []))
    txt = dict(lists.get("text", []))
    # positional: a dataclass called with keywords cost twice as much per seed
    return [
        Seed(mid, rank, score, vec.get(mid), txt.get(mid), found.get(mid, {}))
        for rank, (mid, score) in enumerate(fused, start=1)
    ]


def read_memories(store: GraphStore, user_id: str, ids: list[str]) -> list[Memory]:
    """Memories by id for reading only: the store's shared objects where it offers them (`read_memories`:
    SQLite's row cache, no copy each), else `get_memories`. Whatever recall hands out of them goes through
    `handed_out`."""
    reader = getattr(store, "read_memories", None)
    if reader is None:
        return store.get_memories(user_id, ids)
    shared: list[Memory] = reader(user_id, ids)
    return shared


def handed_out(store: GraphStore, memories: list[Memory]) -> list[Memory]:
    """Memories `read_memories` gave, as the caller may keep and change them: copies where the store shared
    its own objects."""
    copier = getattr(store, "copy_memories", None)
    if copier is None:
        return memories
    copies: list[Memory] = copier(memories)
    return copies


def resolve_superseded(
    store: GraphStore, user_id: str, seeds: list[Seed], flt: MemoryFilter, now: datetime | None = None
) -> list[Seed]:
    """Replace seeds that no longer hold by the first successor that does (Supersedes: newer -> older); drop the
    rest. A seed no longer holds when it is inactive, or (with `now`) when a change that starts later has replaced
    it by then (`validity.lapsed`): on the day "From next week the bakery opens at 7:30" starts, a query worded
    like "the bakery opens at 7am" is answered by the 7:30 memory, not by nothing.

    The lists were searched over inactive memories too, so a query phrased like an old statement still finds
    the statement that replaced it. A successor that is already a seed keeps the better rank. The walk stops at
    the first successor that holds: a change planned after it (a later start) is not yet its successor.
    """
    mems = {m.id: m for m in read_memories(store, user_id, [s.id for s in seeds])}
    gone = validity.lapsed(store, user_id, mems.values(), now) if now is not None else set()

    def holds(mid: str) -> bool:
        return mid in mems and mems[mid].active and mid not in gone

    newer_of: dict[str, list[str]] = {}  # each memory's successors, the most recent supersede first
    frontier = [s.id for s in seeds if s.id in mems and not holds(s.id)]
    walked = set(frontier)
    for _ in range(MAX_SUPERSEDE_CHAIN):
        if not frontier:
            break
        links = store.get_links(user_id, frontier, relations=[Relation.SUPERSEDES], direction="in")
        nxt = []
        for link in sorted(links, key=lambda lk: lk.updated_at, reverse=True):
            newer_of.setdefault(link.dst, []).append(link.src)
            if link.src not in walked:
                walked.add(link.src)
                nxt.append(link.src)
        frontier = nxt
    succ_ids = [mid for mid in walked if mid not in mems]
    succ = read_memories(store, user_id, succ_ids)
    mems.update({m.id: m for m in succ})
    if now is not None and succ:
        gone |= validity.lapsed(store, user_id, succ, now)

    def started(mid: str) -> bool:
        """Not a change whose day is still ahead (with `now`): "From January ..." is no successor in December."""
        day = starts.since(mems[mid].metadata) if now is not None and mid in mems else None
        return day is None or now is None or day <= now.date()

    def newest(mid: str) -> str | None:
        cur = mid
        for _ in range(MAX_SUPERSEDE_CHAIN):
            options = newer_of.get(cur)
            if not options:
                break
            cur = next((o for o in options if started(o)), options[0])  # the most recent that has started
            if holds(cur):
                break
        m = mems.get(cur)
        if cur == mid or m is None or not holds(cur) or (m.archived and not flt.include_archived):
            return None
        return None if flt.kinds and m.kind not in flt.kinds else cur

    out: list[Seed] = []
    seen: set[str] = set()
    for seed in seeds:
        if seed.id in mems and not holds(seed.id):
            new = newest(seed.id)
            if new is None:
                continue
            seed = Seed(
                id=new,
                rank=seed.rank,
                score=seed.score,
                vector_score=seed.vector_score,
                text_score=seed.text_score,
                lists=seed.lists,
                resolved_from=seed.id,
            )
        if seed.id in seen:
            continue
        seen.add(seed.id)
        out.append(seed)
    for rank, seed in enumerate(out, start=1):
        seed.rank = rank
    return out
