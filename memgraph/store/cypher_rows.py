"""Rows: the parameter rows the Cypher statements take and the rows they return, as memgraph's models.

Pure functions, no client: which statement runs when is `memgraph.store.cypher`'s concern, the value of a
single property (timestamps, metadata JSON, vectors) is `memgraph.store.cypher_values`'. Split from the store
so each file holds one concern (the store was 811 lines).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any, TypeVar

from memgraph.errors import ValidationError
from memgraph.models import MEMORY_RELATIONS, Cluster, Gap, InCluster, Link, LinkSource, Relation, Tag
from memgraph.store.base import INCREMENTABLE_FIELDS, UPDATABLE_FIELDS, JobRun, MemoryUpdate, WriteBatch, applied_key
from memgraph.store.cypher_values import iso_ts, memory_properties, parse_ts, to_property
from memgraph.text import terms

T = TypeVar("T")

_INT_INC = ("access_count", "strength")
_FLOAT_INC = ("confidence", "importance")

#: Ids per statement for reads and erasures that take a list: keeps one request's parameters and the
#: server's per-query memory bounded.
CHUNK = 1000


def merge_updates(updates: Sequence[MemoryUpdate]) -> list[MemoryUpdate]:
    """One update per memory, with the effect of applying them in order: increments add up, a later `set`
    of a field replaces it and the increments before it (a clamped field clamps once, on the sum).
    write_batch.cypher marks each memory with the batch id it applied, so a second row for the same memory in
    one batch would otherwise be skipped."""
    merged: dict[str, MemoryUpdate] = {}
    for upd in updates:
        prev = merged.get(upd.id)
        if prev is None:
            merged[upd.id] = MemoryUpdate(id=upd.id, set=dict(upd.set), inc=dict(upd.inc))
            continue
        for f, v in upd.set.items():
            prev.set[f] = v
            prev.inc.pop(f, None)
        for f, v in upd.inc.items():
            prev.inc[f] = prev.inc.get(f, 0) + v
    return list(merged.values())


def link_row(link: Link) -> dict[str, Any]:
    if link.relation not in MEMORY_RELATIONS:
        raise ValidationError(f"{link.relation.value} does not join two memories")
    return {
        "src": link.src,
        "dst": link.dst,
        "relation": link.relation.value,
        "weight": float(link.weight),
        "source": link.source.value,
        "reason": link.reason,
        "created_at": iso_ts(link.created_at),
        "updated_at": iso_ts(link.updated_at),
    }


def to_link(r: dict[str, Any]) -> Link:
    return Link(
        src=r["src"],
        dst=r["dst"],
        relation=Relation(r["relation"]),
        weight=float(r["weight"] if r["weight"] is not None else 1.0),
        source=LinkSource(r["source"] or "explicit"),
        reason=r["reason"],
        created_at=parse_ts(r["created_at"]),
        updated_at=parse_ts(r["updated_at"]),
    )


def update_row(upd: MemoryUpdate) -> dict[str, Any]:
    """A memory update as write_batch's row: the properties to set (the full-text terms follow `content`)
    and every increment, zero where none was asked (the statement adds them all)."""
    bad = (set(upd.set) - UPDATABLE_FIELDS) | (set(upd.inc) - INCREMENTABLE_FIELDS)
    if bad:
        raise ValidationError(f"cannot update field(s): {', '.join(sorted(bad))}")
    props = {f: to_property(f, v) for f, v in upd.set.items()}
    if "content" in upd.set:
        words = terms(str(upd.set["content"]))
        props["fts"], props["fts_len"] = " ".join(words), len(words)
    inc: dict[str, Any] = {}
    for f in _INT_INC:
        v = float(upd.inc.get(f, 0))
        inc[f] = int(v) if v.is_integer() else v
    for f in _FLOAT_INC:
        inc[f] = float(upd.inc.get(f, 0.0))
    return {"id": upd.id, "set": props, "inc": inc}


def pair_rows(pairs: Sequence[Any]) -> list[dict[str, str]]:
    """(memory, tag) pairs, each once, in first-seen order."""
    return list({(p.memory_id, p.tag): {"memory_id": p.memory_id, "tag": p.tag} for p in pairs}.values())


def batch_params(user_id: str, batch: WriteBatch, vector_row: Callable[[str, Any], dict[str, Any]]) -> dict[str, Any]:
    """write_batch.cypher's parameters for one batch (`vector_row` makes a vector's row for this store)."""
    if batch.embeddings is not None and len(batch.embeddings) != len(batch.memories):
        raise ValidationError("embeddings rows must align with memories")
    memories: list[dict[str, Any]] = []
    vectors: list[dict[str, Any]] = []
    tags: dict[tuple[str, str], dict[str, str]] = {}
    for i, mem in enumerate(batch.memories):
        if mem.user_id != user_id:
            raise ValidationError("a batch may only hold memories of its own user")
        memories.append({"id": mem.id, "props": memory_properties(mem)})
        if batch.embeddings is not None:
            vectors.append(vector_row(mem.id, batch.embeddings[i]))
        for t in mem.tags:
            tags.setdefault((mem.id, t), {"memory_id": mem.id, "tag": t})
    for pair in batch.tags:
        tags.setdefault((pair.memory_id, pair.tag), {"memory_id": pair.memory_id, "tag": pair.tag})
    # rows that only set fields are idempotent as they are: they skip the resend bookkeeping ($sets)
    updates: list[dict[str, Any]] = []
    sets: list[dict[str, Any]] = []
    for upd in merge_updates(batch.updates):
        row = update_row(upd)
        if any(row["inc"].values()):
            updates.append(row)
        else:
            sets.append({"id": row["id"], "set": row["set"]})
    return {
        "user_id": user_id,
        "memories": memories,
        "vectors": vectors,
        "tags": list(tags.values()),
        "links": [link_row(link) for link in batch.links],
        "updates": updates,
        "sets": sets,
        # one id per write, sent again by every retry: an update row already applied under it is skipped;
        # a batch with its own id (the outbox's) is applied at most once, marked by a Meta node
        "batch": batch.batch_id or uuid.uuid4().hex,
        "once": None if batch.batch_id is None else applied_key(batch.batch_id),
        "remove_tags": pair_rows(batch.remove_tags),
        "delete_links": [
            {"src": src, "dst": dst, "relation": Relation.parse(rel).value} for src, dst, rel in batch.delete_links
        ],
        "now": iso_ts(datetime.now(UTC)),
    }


def to_tag(user_id: str, r: dict[str, Any]) -> Tag:
    return Tag(name=r["name"], user_id=user_id, description=r["description"], count=int(r["count"]))


def cluster_row(c: Cluster) -> dict[str, Any]:
    return {
        "id": c.id,
        "size": int(c.size),
        "label": c.label,
        "centroid": None if c.centroid is None else [float(x) for x in c.centroid],
        "updated_at": iso_ts(c.updated_at),
    }


def to_cluster(c: dict[str, Any]) -> Cluster:
    return Cluster(
        id=c["id"],
        user_id=c["user_id"],
        size=int(c.get("size") or 0),
        label=c.get("label") or "",
        centroid=None if c.get("centroid") is None else [float(x) for x in c["centroid"]],
        updated_at=parse_ts(c["updated_at"]),
    )


def member_row(m: InCluster) -> dict[str, Any]:
    return {"memory_id": m.memory_id, "cluster_id": m.cluster_id, "probability": float(m.probability)}


def gap_row(gap: Gap) -> dict[str, Any]:
    return {
        "id": gap.id,
        "user_id": gap.user_id,
        "query": gap.query,
        "count": int(gap.count),
        "first_seen": iso_ts(gap.first_seen),
        "last_seen": iso_ts(gap.last_seen),
        "embedding": None if gap.embedding is None else [float(x) for x in gap.embedding],
    }


def to_gap(g: dict[str, Any]) -> Gap:
    return Gap(
        id=g["id"],
        user_id=g["user_id"],
        query=g["query"],
        count=int(g["count"]),
        first_seen=parse_ts(g["first_seen"]),
        last_seen=parse_ts(g["last_seen"]),
        embedding=None if g.get("embedding") is None else [float(x) for x in g["embedding"]],
    )


def job_row(run: JobRun) -> dict[str, Any]:
    return {
        "id": run.id,
        "job": run.job,
        "user_id": run.user_id,
        "started_at": iso_ts(run.started_at),
        "finished_at": None if run.finished_at is None else iso_ts(run.finished_at),
        "applied": bool(run.applied),
        "counts": json.dumps(run.counts, sort_keys=True, default=str),
    }


def to_job(j: dict[str, Any]) -> JobRun:
    return JobRun(
        id=j["id"],
        job=j["job"],
        user_id=j.get("user_id"),
        started_at=parse_ts(j["started_at"]),
        finished_at=None if j.get("finished_at") is None else parse_ts(j["finished_at"]),
        applied=bool(j["applied"]),
        counts=json.loads(j.get("counts") or "{}"),
    )
