"""Erasure: memories (or a whole user) removed for good, with everything derived from them, and the store's files
rewritten so the bytes are gone too (GDPR art. 17, or a secret stored by mistake). `forget` is the soft delete;
this is the hard one. Reached as `engine.erase(ids, user_id=)`, `engine.erase_user(user_id)`, `memgraph erase`
and `memgraph erase-user`.

What erasing memories removes or changes, decided here, applied by the store (`GraphStore.erase_memories`):
- the memories themselves: content, embedding, full-text entries, every edge, their tags when no other memory
  has them, and the clusters that held one of them (a cluster's label and centroid derive from its members; the
  next `cluster` run rebuilds them);
- merged copies: memories that `consolidate` merged into an erased memory (`metadata.merged_into`) are
  near-duplicates of its text, so they are erased too;
- derived memories (summaries, procedures: `DerivedFrom` evidence): one whose evidence is all erased is erased
  too; otherwise its evidence list drops the erased memories, and its text loses every sentence or quoted
  fragment that quotes an erased memory or uses a word only the erased memories had (the default summaries
  are extractive: they quote their evidence). It is re-embedded; when nothing of it is left, or no embedder
  is available, it is erased, and its remaining evidence is served again (`compressed` off) for the next
  `compress` run to summarise;
- supersede chains stay connected: `newer -Supersedes-> erased -Supersedes-> older` becomes
  `newer -Supersedes-> older` (the older statement stays inactive: erasing a correction does not bring back
  what it corrected; `restore` does);
- other memories' metadata that names an erased id (`contradicts`, `contradicted_by`) drops it;
- the embedding cache's entries for the erased texts (and rewritten summaries' old texts).
Gaps are recall misses (queries, not memories) and stay; `erase_user` removes them with everything else,
including the user's job history and open agent session buffers.

Then `GraphStore.purge` rewrites what the database keeps on disk (SQLite: FTS5 optimize, WAL truncated;
FalkorDB: append-only file rewritten, snapshot saved; Neo4j: transaction logs are kept by design, see the
README, "Identifiers, secrets and erasure"). Other processes drop erased vectors from their in-memory read
structures before their next read (SQLite's `vectors_epoch`); a process that never reads again keeps them in RAM
until it exits.

`ERASE_HOOKS` is where other holders of a user's data plug in (a write queue that still holds the erased
memories, for instance): each is called after the store's erase and its counts land in the report.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from pydantic import Field

from memgraph.errors import EmbedderUnavailableError
from memgraph.ids import check_id
from memgraph.ingest import remainders, starts
from memgraph.jobs.base import JobContext, JobReport, load_all
from memgraph.models import HasTag, Link, LinkSource, Memory, Relation, utcnow, validate_owner
from memgraph.store.base import GraphStore, MemoryUpdate, WriteBatch
from memgraph.text import content_tokens

#: (store, user_id, erased memory ids, or None when the whole user was erased) -> counts for the report.
EraseHook = Callable[[GraphStore, str, "list[str] | None"], dict[str, int]]
#: Called after every erasure (see the module docstring); append to it, never replace it.
ERASE_HOOKS: list[EraseHook] = []
#: Removes the embedding cache's entries for these texts; returns how many it removed (the engine's cache).
ForgetTexts = Callable[[Sequence[str]], int]

#: Where a derived memory's text is cut into the pieces that may quote an erased memory: sentence ends, the
#: " | " between quoted turns of a session summary, line breaks.
_FRAGMENT = re.compile(r"(?<=[.!?…])\s+|\s+\|\s+|\n+")
#: Metadata lists of memory ids that an erased id is dropped from (a conflict's sides; a change that starts later
#: and the memory it replaces, ingest/starts.py).
_ID_LISTS = ("contradicts", "contradicted_by", starts.REPLACES, starts.REPLACED_BY, remainders.AMENDS)


class EraseReport(JobReport):
    """What an erasure removed and changed (counts; ids only of what the caller named)."""

    job: str = "erase"
    memories: int = Field(default=0, description="Memories erased, derived and merged ones included.")
    not_found: list[str] = Field(default_factory=list, description="Requested ids that are not this user's.")
    merged_copies: int = Field(default=0, description="Memories merged into an erased one (near-duplicates).")
    summaries_erased: int = Field(default=0, description="Derived memories erased: all their evidence was erased.")
    summaries_rewritten: int = Field(default=0, description="Derived memories that lost some of their evidence.")
    evidence_uncompressed: int = Field(default=0, description="Evidence served again after its summary was erased.")
    supersede_bridges: int = Field(default=0, description="Supersedes links joined across an erased memory.")
    metadata_cleaned: int = Field(default=0, description="Memories whose metadata named an erased id.")
    tags: int = 0
    clusters: int = 0
    gaps: int = 0
    job_runs: int = 0
    cache_entries: int = Field(default=0, description="Embedding-cache entries removed.")
    other: dict[str, int] = Field(default_factory=dict, description="Counts from ERASE_HOOKS.")
    purged: bool = Field(default=False, description="The store's files were rewritten (warnings say what was not).")


def _fragments(text: str) -> list[str]:
    return [f for f in _FRAGMENT.split(text) if f and f.strip()]


def _norm(text: str) -> str:
    return " ".join(text.lower().replace("…", " ").split())


def scrub_derived(content: str, erased: Sequence[str], kept: Sequence[str]) -> str:
    """`content` (a summary) without the fragments that quote an erased text or use a word only the erased texts
    had; "" when nothing is left."""
    erased_norm = [_norm(t) for t in erased]
    kept_words = {t for text in kept for t in content_tokens(text)}
    distinctive = {t for text in erased for t in content_tokens(text)} - kept_words
    out = []
    for frag in _fragments(content):
        f = _norm(frag).rstrip(".!?… ")
        quotes = bool(f) and any(f in e or (e and e in f) for e in erased_norm)
        if quotes or distinctive & set(content_tokens(frag)):
            continue
        out.append(frag.strip())
    return " ".join(out)


def erase_memories(
    ctx: JobContext, user_id: str, ids: Sequence[str], *, forget_texts: ForgetTexts | None = None
) -> EraseReport:
    """Erase these memories of `user_id` and what derives from them (see the module docstring)."""
    store = ctx.store
    owner = validate_owner(user_id)
    wanted = list(dict.fromkeys(check_id(i, "memory id") for i in ids))
    report = EraseReport(user_id=owner, applied=True)
    found = {m.id: m for m in store.get_memories(owner, wanted)}
    report.not_found = [i for i in wanted if i not in found]
    if not found:
        report.finished_at = utcnow()
        return report
    ctx.tick("planning", 0, 1)
    everyone = {m.id: m for m in load_all(store, owner)}
    doomed = set(found)
    # merged copies: near-duplicates of an erased memory's text
    while True:
        more = {i for i, m in everyone.items() if i not in doomed and m.metadata.get("merged_into") in doomed}
        if not more:
            break
        report.merged_copies += len(more)
        doomed |= more
    derived = store.get_links(owner, None, relations=[Relation.DERIVED_FROM])
    evidence: dict[str, set[str]] = {}
    for link in derived:
        evidence.setdefault(link.src, set()).add(link.dst)
    # derived memories with nothing left, repeatedly (a summary of summaries)
    while True:
        orphans = {d for d, ev in evidence.items() if d not in doomed and ev and ev <= doomed}
        if not orphans:
            break
        report.summaries_erased += len(orphans)
        doomed |= orphans
    touched = [d for d, ev in evidence.items() if d not in doomed and ev & doomed]
    batch = WriteBatch()
    forget: list[str] = [everyone[i].content for i in doomed if i in everyone]
    rewritten: list[tuple[Memory, str]] = []
    unchanged: list[Memory] = []
    uncompress: set[str] = set()
    for d in touched:
        mem, left = everyone[d], evidence[d] - doomed
        text = scrub_derived(mem.content, [everyone[i].content for i in evidence[d] & doomed],
                             [everyone[i].content for i in left])
        if text == mem.content:  # it quoted nothing of them: only its evidence list changes (the edges)
            unchanged.append(mem)
        elif text and ctx.embed is not None:
            rewritten.append((mem, text))
        else:
            report.summaries_erased += 1
            doomed.add(d)
            forget.append(mem.content)
            uncompress |= left
    # summaries' new texts, embedded in one batch (no embedder: they are erased instead)
    vectors: np.ndarray | None = None
    if rewritten and ctx.embed is not None:
        try:
            vectors = ctx.embed([text for _, text in rewritten])
        except EmbedderUnavailableError:
            for mem, _ in rewritten:
                report.summaries_erased += 1
                doomed.add(mem.id)
                forget.append(mem.content)
                uncompress |= evidence[mem.id] - doomed
            rewritten = []
    for mem, text in [*rewritten, *((m, m.content) for m in unchanged)]:
        gone = evidence[mem.id] & doomed
        dropped = {t for i in gone for t in everyone[i].tags} - {
            t for i in evidence[mem.id] - doomed for t in everyone[i].tags
        }
        meta = dict(mem.metadata)
        if isinstance(meta.get("sources"), int):
            meta["sources"] = len(evidence[mem.id] - doomed)
        batch.remove_tags += [HasTag(memory_id=mem.id, tag=t) for t in mem.tags if t in dropped]
        report.summaries_rewritten += 1
        if text == mem.content:
            batch.updates.append(MemoryUpdate(id=mem.id, set={"metadata": meta, "updated_at": utcnow()}))
            continue
        new = mem.model_copy(update={"content": text, "metadata": meta, "updated_at": utcnow(),
                                     "tags": [t for t in mem.tags if t not in dropped]})
        batch.memories.append(new)
        forget.append(mem.content)
    if vectors is not None and rewritten:
        batch.embeddings = np.asarray(vectors, dtype=np.float32)[: len(rewritten)]
    uncompress -= doomed
    served = [MemoryUpdate(id=i, set={"compressed": False}) for i in sorted(uncompress) if everyone[i].compressed]
    batch.updates += served
    report.evidence_uncompressed = len(served)
    batch.links += _bridges(store, owner, doomed)
    report.supersede_bridges = len(batch.links)
    for i, m in everyone.items():
        if i in doomed:
            continue
        cleaned = _clean_ids(m.metadata, doomed)
        if cleaned is not None:
            batch.updates.append(MemoryUpdate(id=i, set={"metadata": cleaned}))
            report.metadata_cleaned += 1
    # Rewrites first, then the erase: a crash in between leaves nothing derived from an erased text, and running
    # the same erase again finishes it.
    if not batch.is_empty():
        store.write(owner, batch)
    ctx.tick("erasing", 0, 1)
    counts = store.erase_memories(owner, sorted(doomed))
    report.memories = counts.get("memories", 0)
    report.tags, report.clusters = counts.get("tags", 0), counts.get("clusters", 0)
    _finish(ctx, report, owner, sorted(doomed), forget, forget_texts)
    return report


def erase_user(ctx: JobContext, user_id: str, *, forget_texts: ForgetTexts | None = None) -> EraseReport:
    """Erase everything stored under `user_id` (see the module docstring)."""
    store = ctx.store
    owner = validate_owner(user_id)
    report = EraseReport(user_id=owner, applied=True)
    ctx.tick("planning", 0, 1)
    texts = [m.content for m in load_all(store, owner)]
    texts += [g.query for g in store.list_gaps(owner)]
    ctx.tick("erasing", 0, 1)
    counts = store.erase_user(owner)
    report.memories = counts.get("memories", 0)
    report.tags, report.clusters = counts.get("tags", 0), counts.get("clusters", 0)
    report.gaps, report.job_runs = counts.get("gaps", 0), counts.get("job_runs", 0)
    from memgraph.agent.buffer import forget_user  # late: the agent's session buffers live in the store's meta

    buffers = forget_user(store, owner)
    if buffers:
        report.other["agent_buffers"] = buffers
    _finish(ctx, report, owner, None, texts, forget_texts)
    return report


def _finish(
    ctx: JobContext,
    report: EraseReport,
    owner: str,
    ids: list[str] | None,
    texts: list[str],
    forget_texts: ForgetTexts | None,
) -> None:
    for hook in ERASE_HOOKS:
        for key, n in hook(ctx.store, owner, ids).items():
            report.other[key] = report.other.get(key, 0) + n
    if forget_texts is not None and texts:
        report.cache_entries = forget_texts(texts)
    ctx.tick("purging", 0, 1)
    report.warnings += ctx.store.purge()
    report.purged = True
    report.finished_at = utcnow()


def _bridges(store: GraphStore, owner: str, doomed: set[str]) -> list[Link]:
    """`newer -Supersedes-> erased -Supersedes-> older` becomes `newer -Supersedes-> older`, over any run of
    erased memories, for the pairs that survive."""
    links = store.get_links(owner, sorted(doomed), relations=[Relation.SUPERSEDES])
    newer: dict[str, set[str]] = {}
    older: dict[str, set[str]] = {}
    for ln in links:
        older.setdefault(ln.src, set()).add(ln.dst)
        newer.setdefault(ln.dst, set()).add(ln.src)

    def reach(start: str, step: dict[str, set[str]]) -> set[str]:
        out, todo, seen = set(), [start], {start}
        while todo:
            for nxt in step.get(todo.pop(), set()):
                if nxt in seen:
                    continue
                seen.add(nxt)
                if nxt in doomed:
                    todo.append(nxt)
                else:
                    out.add(nxt)
        return out

    now = utcnow()
    out: dict[tuple[str, str], Link] = {}
    for e in sorted(doomed):
        for n in reach(e, newer):
            for o in reach(e, older):
                if n != o:
                    out[(n, o)] = Link(src=n, dst=o, relation=Relation.SUPERSEDES, source=LinkSource.EXPLICIT,
                                       reason="supersede chain joined over an erased memory", created_at=now,
                                       updated_at=now)
    return list(out.values())


def _clean_ids(meta: dict[str, Any], doomed: set[str]) -> dict[str, Any] | None:
    """`meta` without erased ids in its id lists, or None when it names none."""
    changed = False
    out = dict(meta)
    for key in _ID_LISTS:
        value = meta.get(key)
        if isinstance(value, list) and any(v in doomed for v in value):
            out[key] = [v for v in value if v not in doomed]
            changed = True
    if changed and starts.REPLACED_BY in out and not out[starts.REPLACED_BY]:
        # the change that was to replace it is erased: it holds on, with no last day
        del out[starts.REPLACED_BY]
        out.pop(starts.VALID_UNTIL, None)
    return out if changed else None
