"""consolidate: merge near-duplicate memories, merge duplicate tags, list unresolved contradictions.

Memories: recallable memories of the same kind whose cosine is >= `consolidate_cosine` are grouped without
chaining: memories are visited strongest first (pinned, then strength, confidence, oldest, id) and each
unassigned one keeps every unassigned neighbour that is that similar *to it*. A pair joined by Contradicts or
Supersedes is never merged. For each group:
- the kept memory gets the merged ones' tags and memory edges (RelatesTo/Supersedes/Contradicts/outgoing
  DerivedFrom are moved; a DerivedFrom pointing *at* a merged memory is evidence and is copied, not moved),
  their strength and access counts added, the highest confidence and the latest last_accessed;
- `(kept)-[:DerivedFrom {reason}]->(merged)` records where it came from; merged memories become inactive
  with `metadata.merged_into`; nothing is deleted. A run interrupted half-way is finished by the next one
  (inactive memories with `merged_into` that still hold edges or tags are moved again).
Tags: names that differ only in case, separators (space - _ . / :) or a simple English plural (-s, -es,
-ies) are merged into the most used one; variant Tag nodes are removed once no memory points at them.
Contradictions: Contradicts edges whose two memories are both still active are listed for a decision.
Near-duplicate rules: active procedures or constraints of one kind at cosine >= `consolidate_rule_cosine` that
this run does not merge are listed (not merged: "Never deploy on Fridays" and "Never deploy on Fridays after
15:00" read alike and say different things), so the rule set stays small (see the rule cap, ingest/rules.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from memgraph.ingest.rules import CAPPED
from memgraph.jobs.base import JobContext, JobReport, batched, check_user, load_all, load_matrix
from memgraph.jobs.neighbours import knn, pairs_from_knn
from memgraph.models import HasTag, Link, LinkSource, Memory, Relation, Tag, utcnow
from memgraph.store.base import MemoryFilter, MemoryUpdate, WriteBatch

_SEPARATORS = re.compile(r"[\s\-_./:]+")
_NOT_PLURAL = ("ss", "us", "is", "os", "as")


class MergedItem(BaseModel):
    id: str
    content: str
    similarity: float


class MergeGroup(BaseModel):
    keep: str
    keep_content: str
    merged: list[MergedItem]


class TagMerge(BaseModel):
    canonical: str
    variants: list[str]
    memories: int


class ContradictionPair(BaseModel):
    a: str
    b: str
    a_content: str
    b_content: str
    reason: str | None = None
    at: datetime


class RulePair(BaseModel):
    kind: str
    a: str
    b: str
    a_content: str
    b_content: str
    similarity: float


class ConsolidateReport(JobReport):
    job: str = "consolidate"
    memories: int = 0
    groups: list[MergeGroup] = Field(default_factory=list)
    merged_memories: int = 0
    moved_edges: int = 0
    moved_tags: int = 0
    resumed: int = Field(0, description="Memories merged by an earlier, interrupted run finished now.")
    tag_merges: list[TagMerge] = Field(default_factory=list)
    contradictions: list[ContradictionPair] = Field(default_factory=list)
    near_duplicate_rules: list[RulePair] = Field(
        default_factory=list, description="active procedures/constraints that read alike (not merged)"
    )


def singular(word: str) -> str:
    """Simple English singular of one word (enough to spot 'tests' vs 'test', 'libraries' vs 'library')."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and re.search(r"(s|x|z|ch|sh)es$", word):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(_NOT_PLURAL):
        return word[:-1]
    return word


def tag_key(name: str) -> str:
    """Same key, same tag: case, separators and plurals are ignored; symbols (c++, c#) are kept."""
    words = [w for w in _SEPARATORS.split(name.casefold().strip("'\"` ").lstrip("#")) if w]
    return "".join(singular(w) for w in words)


def consolidate_user(ctx: JobContext, user_id: str, *, apply: bool = False) -> ConsolidateReport:
    store, s = ctx.store, ctx.settings
    owner = check_user(store, user_id)
    now = utcnow()
    report = ConsolidateReport(user_id=owner, applied=apply)
    ctx.tick("loading", 0, 1)
    everything = load_all(store, owner, MemoryFilter.everything())
    by_id = {m.id: m for m in everything}
    links = store.get_links(owner)
    ids, matrix, bad = load_matrix(store, owner, MemoryFilter())
    report.invalid_embeddings = bad
    report.memories = len(ids)

    # -- near-duplicate groups ----------------------------------------------------------------------------
    ctx.tick("nearest neighbours", 0, 1)
    idx, sims = knn(
        matrix,
        s.consolidate_k,
        min_similarity=s.consolidate_cosine,
        exact_max=s.knn_exact_max,
        probe_cells=s.knn_probe_cells,
    )
    blocked = {
        frozenset((ln.src, ln.dst))
        for ln in links
        if ln.relation in (Relation.CONTRADICTS, Relation.SUPERSEDES)
    }
    neighbours: dict[int, dict[int, float]] = {}
    for i, j, sim in zip(*(x.tolist() for x in pairs_from_knn(idx, sims)), strict=True):
        neighbours.setdefault(i, {})[j] = sim
        neighbours.setdefault(j, {})[i] = sim

    def rank(i: int) -> tuple[Any, ...]:
        m = by_id[ids[i]]
        return (not m.pinned, -m.strength, -m.confidence, m.created_at, m.id)

    taken: set[int] = set()
    merge_into: dict[str, str] = {}
    for i in sorted(neighbours, key=rank):
        if i in taken:
            continue
        keep = by_id[ids[i]]
        merged: list[MergedItem] = []
        for j, sim in sorted(neighbours[i].items(), key=lambda kv: (-kv[1], ids[kv[0]])):
            other = by_id[ids[j]]
            if j in taken or other.kind != keep.kind or other.pinned:
                continue
            if frozenset((keep.id, other.id)) in blocked:
                continue
            merged.append(MergedItem(id=other.id, content=other.content, similarity=round(sim, 4)))
            taken.add(j)
            merge_into[other.id] = keep.id
        if merged:
            taken.add(i)
            report.groups.append(MergeGroup(keep=keep.id, keep_content=keep.content, merged=merged))
    report.merged_memories = len(merge_into)

    # Finish merges an interrupted run left half-done (inactive, merged_into set, still holding edges/tags).
    resumed: dict[str, str] = {}
    for m in everything:
        target = m.metadata.get("merged_into")
        if not m.active and isinstance(target, str) and target in by_id and m.id not in merge_into:
            resumed[m.id] = target
    moving = {**resumed, **merge_into}

    updates: list[MemoryUpdate] = []
    new_links: list[Link] = []
    deletes: list[tuple[str, str, Relation]] = []
    add_tags: list[HasTag] = []
    remove_tags: list[HasTag] = []
    for group in report.groups:
        keep = by_id[group.keep]
        olds = [by_id[x.id] for x in group.merged]
        updates.append(
            MemoryUpdate(
                id=keep.id,
                set={
                    "confidence": max(m.confidence for m in [keep, *olds]),
                    "last_accessed": max(m.last_accessed for m in [keep, *olds]),
                    "updated_at": now,
                },
                inc={
                    "strength": sum(m.strength for m in olds),
                    "access_count": sum(m.access_count for m in olds),
                },
            )
        )
        for item in group.merged:
            old = by_id[item.id]
            updates.append(
                MemoryUpdate(
                    id=old.id,
                    set={
                        "active": False,
                        "updated_at": now,
                        "metadata": {**old.metadata, "merged_into": keep.id},
                    },
                )
            )
            new_links.append(
                Link(
                    src=keep.id,
                    dst=old.id,
                    relation=Relation.DERIVED_FROM,
                    weight=1.0,
                    source=LinkSource.DISCOVERED,
                    reason=f"consolidated: cosine {item.similarity:.3f}",
                    created_at=now,
                    updated_at=now,
                )
            )
    resolve = _resolver(moving)
    existing = {(ln.src, ln.dst, ln.relation): ln for ln in links}
    for ln in links:
        if ln.src not in moving and ln.dst not in moving:
            continue
        if ln.relation is Relation.DERIVED_FROM and ln.dst in moving:
            # evidence of a summary (or the kept memory's own provenance link): keep it, copy it to the keeper
            src, dst = resolve(ln.src), resolve(ln.dst)
            if src != dst and moving.get(ln.dst) != ln.src and (src, dst, ln.relation) not in existing:
                new_links.append(ln.model_copy(update={"src": src, "dst": dst, "updated_at": now}))
                report.moved_edges += 1
            continue
        src, dst = resolve(ln.src), resolve(ln.dst)
        deletes.append((ln.src, ln.dst, ln.relation))
        report.moved_edges += 1
        if src == dst:
            continue
        prior = existing.get((src, dst, ln.relation))
        weight = max(ln.weight, prior.weight) if prior is not None else ln.weight
        new_links.append(ln.model_copy(update={"src": src, "dst": dst, "weight": weight, "updated_at": now}))
    for mid, target in moving.items():
        final = resolve(target)
        for tag in by_id[mid].tags:
            add_tags.append(HasTag(memory_id=final, tag=tag))
            remove_tags.append(HasTag(memory_id=mid, tag=tag))
            report.moved_tags += 1
        if mid in resumed and (by_id[mid].tags or any(mid in (d[0], d[1]) for d in deletes)):
            report.resumed += 1

    # -- tags -----------------------------------------------------------------------------------------------
    ctx.tick("tags", 0, 1)
    tags = store.list_tags(owner)
    by_key: dict[str, list[Tag]] = {}
    for t in tags:
        by_key.setdefault(tag_key(t.name), []).append(t)
    tag_moves: list[tuple[str, list[str]]] = []
    for group_tags in by_key.values():
        if len(group_tags) < 2:
            continue
        group_tags.sort(key=lambda t: (-t.count, len(t.name), t.name))
        canonical, variants = group_tags[0], group_tags[1:]
        names = [v.name for v in variants]
        holders = {m.id for m in everything if set(m.tags) & set(names)}
        report.tag_merges.append(TagMerge(canonical=canonical.name, variants=names, memories=len(holders)))
        tag_moves.append((canonical.name, names))

    # -- near-duplicate rules -----------------------------------------------------------------------------------
    report.near_duplicate_rules = _rule_pairs(ids, matrix, by_id, set(merge_into), s.consolidate_rule_cosine,
                                              s.consolidate_k, s.knn_exact_max, s.knn_probe_cells)

    # -- contradictions -------------------------------------------------------------------------------------
    for ln in links:
        if ln.relation is not Relation.CONTRADICTS:
            continue
        a, b = by_id.get(ln.src), by_id.get(ln.dst)
        if a is None or b is None or not (a.active and b.active):
            continue
        report.contradictions.append(
            ContradictionPair(
                a=a.id, b=b.id, a_content=a.content, b_content=b.content, reason=ln.reason, at=ln.created_at
            )
        )

    if apply:
        if updates or new_links or deletes or add_tags or remove_tags:
            _apply(ctx, owner, updates, new_links, deletes, add_tags, remove_tags)
            if tag_moves:
                everything = load_all(store, owner, MemoryFilter.everything())  # tags as they are now
        _apply_tags(ctx, owner, everything, tags, tag_moves)
    report.finished_at = utcnow()
    return report


def _rule_pairs(
    ids: list[str],
    matrix: Any,
    by_id: dict[str, Memory],
    merged: set[str],
    min_similarity: float,
    k: int,
    exact_max: int,
    probe_cells: int,
) -> list[RulePair]:
    """Active rules (procedures, constraints) of one kind that read alike, most similar first."""
    out: list[RulePair] = []
    for kind in CAPPED:
        rows = [i for i, mid in enumerate(ids) if by_id[mid].kind is kind and mid not in merged]
        if len(rows) < 2:
            continue
        idx, sims = knn(matrix[rows], k, min_similarity=min_similarity, exact_max=exact_max, probe_cells=probe_cells)
        for i, j, sim in zip(*(x.tolist() for x in pairs_from_knn(idx, sims)), strict=True):
            a, b = by_id[ids[rows[i]]], by_id[ids[rows[j]]]
            out.append(RulePair(kind=kind.value, a=a.id, b=b.id, a_content=a.content, b_content=b.content,
                                similarity=round(sim, 4)))
    return sorted(out, key=lambda p: (-p.similarity, p.a, p.b))


def _resolver(moving: dict[str, str]) -> Callable[[str], str]:
    def resolve(mid: str) -> str:
        seen = set()
        while mid in moving and mid not in seen:
            seen.add(mid)
            mid = moving[mid]
        return mid

    return resolve


def _apply(
    ctx: JobContext,
    owner: str,
    updates: list[MemoryUpdate],
    links: list[Link],
    deletes: list[tuple[str, str, Relation]],
    add_tags: list[HasTag],
    remove_tags: list[HasTag],
) -> None:
    """Small plans go out as one atomic batch; big ones in chunks (an interruption is finished next run)."""
    size = ctx.settings.job_batch_size
    total = len(updates) + len(links) + len(deletes) + len(add_tags) + len(remove_tags)
    if total <= size:
        ctx.store.write(
            owner,
            WriteBatch(
                links=links, updates=updates, tags=add_tags, remove_tags=remove_tags, delete_links=deletes
            ),
        )
        return
    # Order matters for resumability: new edges/tags first, then the merged memories go inactive, then the
    # old edges/tags are removed (what a resumed run would redo).
    for batch in batched(links, size):
        ctx.store.write(owner, WriteBatch(links=list(batch)))
    for batch in batched(add_tags, size):
        ctx.store.write(owner, WriteBatch(tags=list(batch)))
    for batch in batched(updates, size):
        ctx.store.write(owner, WriteBatch(updates=list(batch)))
    for batch in batched(deletes, size):
        ctx.store.write(owner, WriteBatch(delete_links=list(batch)))
    for batch in batched(remove_tags, size):
        ctx.store.write(owner, WriteBatch(remove_tags=list(batch)))


def _apply_tags(
    ctx: JobContext, owner: str, everything: list[Memory], tags: list[Tag], moves: list[tuple[str, list[str]]]
) -> None:
    if not moves:
        return
    described = {t.name: t.description for t in tags}
    for canonical, variants in moves:
        holders = [m for m in everything if set(m.tags) & set(variants)]
        ctx.store.write(
            owner,
            WriteBatch(
                tags=[HasTag(memory_id=m.id, tag=canonical) for m in holders],
                remove_tags=[HasTag(memory_id=m.id, tag=v) for m in holders for v in variants if v in m.tags],
            ),
        )
        if not described.get(canonical):
            desc = next((described[v] for v in variants if described.get(v)), None)
            if desc:
                ctx.store.upsert_tags(owner, [Tag(name=canonical, user_id=owner, description=desc)])
        ctx.store.delete_tags(owner, variants)
