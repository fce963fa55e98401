"""gaps: where the memory is thin. A read-only report (nothing is changed, so there is no --apply).

- recall misses: the user's Gap nodes (recorded by recall when nothing relevant was found), each marked
  answered when a memory written after the miss is at least `gap_covered_cosine` similar to it;
- repeated, unanswered topics: misses seen at least `gap_repeat_min` times that are still unanswered;
- tiny clusters (at most `gap_tiny_cluster` members) and sparse ones (mean member-to-centroid cosine below
  `gap_sparse_cohesion`);
- orphan tags: Tag nodes no memory points at (count 0);
- unconnected memories: recallable memories with no tag, no cluster and no memory edge, which the cascade can
  only reach as a direct hit.
"""

from __future__ import annotations

from datetime import datetime

import numpy as np
from pydantic import BaseModel, Field

from memgraph.errors import UnknownUserError
from memgraph.jobs.base import JobContext, JobReport, load_all, load_matrix
from memgraph.models import utcnow, validate_owner
from memgraph.store.base import MemoryFilter


class GapInfo(BaseModel):
    id: str
    query: str
    count: int
    first_seen: datetime
    last_seen: datetime
    answered_by: str | None = None
    answered_similarity: float | None = None


class ClusterHealth(BaseModel):
    id: str
    label: str
    size: int
    cohesion: float | None = None


class GapsReport(JobReport):
    job: str = "gaps"
    memories: int = 0
    misses: list[GapInfo] = Field(default_factory=list)
    repeated_unanswered: list[GapInfo] = Field(default_factory=list)
    tiny_clusters: list[ClusterHealth] = Field(default_factory=list)
    sparse_clusters: list[ClusterHealth] = Field(default_factory=list)
    orphan_tags: list[str] = Field(default_factory=list)
    unconnected: list[str] = Field(default_factory=list)
    unconnected_total: int = 0


def gaps_user(ctx: JobContext, user_id: str) -> GapsReport:
    store, s = ctx.store, ctx.settings
    owner = validate_owner(user_id)
    gaps = store.list_gaps(owner)
    if not gaps and store.count_memories(owner, MemoryFilter.everything()) == 0:
        # names no other user: see jobs.base.check_user
        raise UnknownUserError(
            f"user {owner!r} has no memories and no recall misses in this store (check the spelling and --store)"
        )
    report = GapsReport(user_id=owner)
    ctx.tick("loading", 0, 1)
    memories = load_all(store, owner, MemoryFilter())
    report.memories = len(memories)
    created = {m.id: m.created_at for m in memories}
    limit = s.gap_list_limit

    for gap in gaps:
        info = GapInfo(
            id=gap.id, query=gap.query, count=gap.count, first_seen=gap.first_seen, last_seen=gap.last_seen
        )
        if gap.embedding is not None and memories:
            vec = np.asarray(gap.embedding, dtype=np.float32)
            if vec.shape == (store.embedding_dim,) and np.all(np.isfinite(vec)):
                for mid, sim in store.vector_search(owner, vec, 20, min_similarity=s.gap_covered_cosine):
                    if mid in created and created[mid] > gap.first_seen:
                        info.answered_by, info.answered_similarity = mid, round(sim, 4)
                        break
        report.misses.append(info)
        if info.answered_by is None and gap.count >= s.gap_repeat_min:
            report.repeated_unanswered.append(info)
    report.misses = report.misses[:limit]
    report.repeated_unanswered = report.repeated_unanswered[:limit]

    ctx.tick("clusters", 0, 1)
    clusters = store.list_clusters(owner)
    members: dict[str, list[str]] = {}
    for m in store.cluster_members(owner):
        members.setdefault(m.cluster_id, []).append(m.memory_id)
    ids, matrix, bad = load_matrix(store, owner, MemoryFilter())
    report.invalid_embeddings = bad
    row = {mid: i for i, mid in enumerate(ids)}
    for c in clusters:
        health = ClusterHealth(id=c.id, label=c.label, size=c.size)
        rows = [row[mid] for mid in members.get(c.id, []) if mid in row]
        if rows and c.centroid is not None:
            cent = np.asarray(c.centroid, dtype=np.float32)
            cent /= max(float(np.linalg.norm(cent)), 1e-12)
            health.cohesion = round(float(np.mean(matrix[rows] @ cent)), 4)
        if c.size <= s.gap_tiny_cluster:
            report.tiny_clusters.append(health)
        if health.cohesion is not None and health.cohesion < s.gap_sparse_cohesion:
            report.sparse_clusters.append(health)

    report.orphan_tags = [t.name for t in store.list_tags(owner) if t.count == 0][:limit]
    linked = {x for ln in store.get_links(owner) for x in (ln.src, ln.dst)}
    in_cluster = {mid for ms in members.values() for mid in ms}
    lonely = [m.id for m in memories if not m.tags and m.id not in linked and m.id not in in_cluster]
    report.unconnected_total = len(lonely)
    report.unconnected = lonely[:limit]
    report.finished_at = utcnow()
    return report
