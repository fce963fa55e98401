"""Write `v1/memgraph.sqlite3`, a SQLite store as the schema-1 release of memgraph writes it, and
`v1/expected.json`, what that release reads back from it. tests/test_sqlite_migrations.py opens a copy with
the current code and checks that it reads back the same and is upgraded to the latest schema.

The committed files were written by commit 557e840 (the last commit with schema version 1, before the
store was split into a package). To regenerate them, run this script from a checkout of that commit (the
store must be written by the old code, not by the code under test):

    git worktree add /tmp/mg-v1 557e840 && cp tests/data/stores/make_v1_store.py /tmp/mg-v1/
    cd /tmp/mg-v1 && HF_HUB_OFFLINE=1 PYTHONPATH=$PWD python make_v1_store.py --out <repo>/tests/data/stores/v1

The store holds two users' memories with real embeddings (all-MiniLM-L6-v2), tags, every edge type (HasTag,
InCluster, RelatesTo explicit/sequence/discovered/co_recall, Supersedes, Contradicts, DerivedFrom), clusters,
gaps, job runs, meta keys, FTS rows, a superseded, a pinned, an archived, a compressed, a forgotten and a hard
deleted memory. `snapshot()` is what both sides read: only the public store protocol and engine API, so it
runs unchanged on the old and the new code.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from unittest import mock

import numpy as np

from memgraph import MemoryEngine, Settings
from memgraph.embed import CachedEmbedder, SentenceTransformerEmbedder
from memgraph.models import Cluster, InCluster, Link, Memory, MemoryKind, Relation
from memgraph.store import MemoryFilter, MemoryUpdate, WriteBatch

DB_FILE = "memgraph.sqlite3"
USERS = ("ada", "bob")
#: The instant recall ranks at (recency and confidence decay depend on it), the same on both sides.
NOW_OFFSET = timedelta(days=3)
META_KEYS = ("schema_version", "embedding_dim", "embedding_model", "vectors_epoch", "fixture.note", "jobs.lock")
RECALL_QUERIES = (
    ("ada", "what coffee does Ada drink in the morning?", "cascade"),
    ("ada", "where does Ada live now?", "cascade"),
    ("ada", "how do we lint the python code?", "hybrid"),
    ("bob", "what did Bob say about the sourdough starter?", "cascade"),
    ("bob", "lattice gauge theory of quarks", "cascade"),  # nothing close: a gap
)


def _settings(directory: Path) -> Settings:
    return Settings(store=str(directory), embed_cache_dir=str(directory / "embed-cache"))


def build(directory: Path, embedder: CachedEmbedder) -> str:
    """Write the store through the public API as a user would; returns the instant recall ranks at."""
    eng = MemoryEngine.open(directory, settings=_settings(directory), embedder=embedder)
    try:
        ada = "ada"
        coffee = eng.remember(
            "Ada drinks a dark roast coffee every morning before stand-up",
            user_id=ada, kind="preference", tags=["coffee", "morning"],
        )
        lisbon = eng.remember("Ada lives in Lisbon, near the river", user_id=ada, tags=["home"])
        berlin = eng.remember(
            "Ada moved from Lisbon to Berlin in March", user_id=ada, tags=["home"], reconcile=False
        )
        eng.link(berlin.id, lisbon.id, Relation.SUPERSEDES, user_id=ada, reason="moved")  # lisbon: superseded
        eng.remember(
            "Always answer Ada in British English", user_id=ada, kind="constraint", pinned=True,
            trigger_patterns=["*english*", "*spelling*"],
        )
        eng.remember(
            "The memgraph repository is linted with ruff at a line length of 120",
            user_id=ada, kind="procedure", scope="project", file_paths=["src/**/*.py", "tests/*.py"],
            metadata={"source": "code review", "pr": 42},
        )
        allergy = eng.remember("Ada is allergic to peanuts", user_id=ada, tags=["food", "health"])
        butter = eng.remember("Ada eats peanut butter toast every day", user_id=ada, tags=["food"], reconcile=False)
        eng.link(butter.id, allergy.id, Relation.CONTRADICTS, user_id=ada, weight=0.8, reason="peanuts")
        eng.link(coffee.id, butter.id, Relation.RELATES_TO, user_id=ada, weight=0.6, reason="breakfast")
        cello = eng.remember("Ada played the cello in the school orchestra", user_id=ada, tags=["music"])
        eng.store.update_memories(ada, [MemoryUpdate(id=cello.id, set={"archived": True})])
        gym = eng.remember("Ada goes to the climbing gym on Thursdays", user_id=ada, tags=["sport"])
        eng.forget(gym.id, user_id=ada)
        typo = eng.remember("Ada's favourite colour is teal", user_id=ada)
        eng.store.delete_memories(ada, [typo.id])  # a hard delete: bumps vectors_epoch
        turns = eng.remember_conversation(
            [
                {"speaker": "Ada", "text": "I started learning Portuguese on Duolingo last week."},
                {"speaker": "Sam", "text": "Nice! Are you doing the streak thing?"},
                {"speaker": "Ada", "text": "Yes, twelve days so far, mostly on the tram to work."},
                {"speaker": "Sam", "text": "You should try the podcast Portuguese With Carla."},
            ],
            user_id=ada, session_id="ada-s1", session_date=datetime(2024, 5, 3, 18, 30, tzinfo=UTC),
        )
        summary = Memory(
            id="ada-summary-s1", user_id=ada, kind=MemoryKind.SUMMARY, layer="semantic",
            content="Ada is learning Portuguese with Duolingo, practising on the tram; Sam suggested a podcast.",
            tags=["language"],
        )
        eng.store.write(
            ada,
            WriteBatch(
                memories=[summary],
                embeddings=eng.embed([summary.content]),
                links=[Link(src=summary.id, dst=t.id, relation=Relation.DERIVED_FROM) for t in turns],
            ),
        )
        eng.store.update_memories(ada, [MemoryUpdate(id=turns[1].id, set={"compressed": True})])
        eng.feedback(coffee.id, True, user_id=ada)

        bob = "bob"
        eng.remember("Bob bakes sourdough bread every Saturday", user_id=bob, tags=["baking", "coffee"])
        eng.remember("Bob's sourdough starter is called Clint", user_id=bob, tags=["baking"])
        eng.remember("Bob prefers oat milk in his coffee", user_id=bob, kind="preference", tags=["coffee"])
        eng.remember("Bob is a vegetarian", user_id=bob, kind="fact", tags=["food"])
        eng.remember_conversation(
            [
                {"speaker": "Bob", "text": "The starter doubled overnight, it smells like green apples."},
                {"speaker": "Lee", "text": "Feed it twice a day while the kitchen is warm."},
                {"speaker": "Bob", "text": "I will, and I will bake a rye loaf on Sunday."},
            ],
            user_id=bob, session_id="bob-s1", session_date=datetime(2024, 6, 1, 9, 0, tzinfo=UTC),
        )
        for user in USERS:
            eng.jobs.links(user, apply=True)
            report = eng.jobs.cluster(user, apply=True, force=True)
            if not eng.store.list_clusters(user):  # too few memories for HDBSCAN: one cluster by hand
                ids, matrix = eng.store.embeddings(user)
                members = ids[:3]
                centroid = matrix[:3].mean(axis=0).tolist()
                eng.store.replace_clusters(
                    user,
                    [Cluster(id=f"{user}-c1", user_id=user, size=len(members), label="by hand", centroid=centroid)],
                    [InCluster(memory_id=m, cluster_id=f"{user}-c1", probability=0.9) for m in members],
                )
            del report
        eng.store.set_meta("fixture.note", "written by tests/data/stores/make_v1_store.py")
        # Recalls before the snapshot: access counts, co-recall links and a gap, as a used store has them.
        for user, query, mode in RECALL_QUERIES:
            eng.recall(query, user_id=user, mode=mode)
            eng.flush()
        stamps = [m.last_accessed for u in USERS for m in eng.store.list_memories(u, MemoryFilter.everything())]
        return (max(stamps) + NOW_OFFSET).isoformat()
    finally:
        eng.close()


def _digest(value: Any) -> str | None:
    """sha256 of float32 bytes (embeddings, centroids) or of a base64 string: compact and exact."""
    if value is None:
        return None
    if isinstance(value, str):
        raw = base64.b64decode(value)
    else:
        raw = np.asarray(value, dtype=np.float32).tobytes()
    return hashlib.sha256(raw).hexdigest()[:16]


def _round(value: Any) -> Any:
    if isinstance(value, float):
        return round(value, 6)
    if isinstance(value, dict):
        return {k: _round(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_round(v) for v in value]
    return value


def _memory(m: Memory) -> dict[str, Any]:
    data = m.model_dump(mode="json", exclude={"embedding"})
    data["embedding"] = _digest(m.embedding)
    return data


@contextlib.contextmanager
def frozen_now(now: datetime) -> Iterator[None]:
    """Recall ranks at `now` (recency, confidence decay) and maintenance stamps it, on both sides."""
    with contextlib.ExitStack() as stack:
        for target in ("memgraph.retrieve.pipeline.utcnow", "memgraph.retrieve.maintenance.utcnow"):
            stack.enter_context(mock.patch(target, lambda: now))
        yield


def _store_reads(eng: MemoryEngine, user: str) -> dict[str, Any]:
    store = eng.store
    every = MemoryFilter.everything()
    ids = [m.id for m in store.list_memories(user, every, limit=10**6)]
    mems = store.get_memories(user, ids, with_embeddings=True)
    filters = {
        "default": MemoryFilter(),
        "everything": every,
        "pinned": MemoryFilter(pinned=True),
        "tag_coffee": MemoryFilter(tag="coffee"),
        "events": MemoryFilter(kinds=[MemoryKind.EVENT], include_compressed=True),
        "inactive_too": MemoryFilter(active=None),
        "files": MemoryFilter(files=["src/memgraph/store.py"]),
        "important": MemoryFilter(min_importance=0.6),
    }
    out: dict[str, Any] = {
        "memories": [_memory(m) for m in mems],
        "lists": {name: [m.id for m in store.list_memories(user, f, limit=1000)] for name, f in filters.items()},
        "page": [m.id for m in store.list_memories(user, every, limit=3, offset=2)],
        "counts": {name: store.count_memories(user, f) for name, f in filters.items()},
        "fields": store.memory_fields(user, ["kind", "created_at", "metadata", "pinned", "scope"], every),
        "links": [ln.model_dump(mode="json") for ln in store.get_links(user)],
        "links_of": {
            d: [ln.model_dump(mode="json") for ln in store.get_links(user, ids[:4], direction=d)]
            for d in ("out", "in", "both")
        },
        "tags": [t.model_dump() for t in store.list_tags(user)],
        "find_tags": [t.model_dump() for t in store.find_tags(user, ["coffee", "ada", "bob", "nothing"])],
        "clusters": [
            {**c.model_dump(mode="json", exclude={"centroid"}), "centroid": _digest(c.centroid)}
            for c in store.list_clusters(user)
        ],
        "members": [m.model_dump() for m in store.cluster_members(user)],
        "gaps": [
            {**g.model_dump(mode="json", exclude={"embedding"}), "embedding": _digest(g.embedding)}
            for g in store.list_gaps(user)
        ],
    }
    emb_ids, matrix = store.embeddings(user, every)
    out["embeddings"] = [emb_ids, _digest(matrix)]
    by_id = {m.id: m for m in mems}
    queries = [np.asarray(by_id[i].embedding, dtype=np.float32) for i in emb_ids[:3]]
    out["vector_search"] = [
        store.vector_search(user, q, 5, flt=f) for q in queries for f in (MemoryFilter(), every)
    ]
    out["vector_search_many"] = store.vector_search_many(user, np.stack(queries), 4, min_similarity=0.1)
    out["text_search"] = [
        store.text_search(user, q, 5, flt=f)
        for q in ("coffee morning", "Portuguese tram", "sourdough starter", "peanut")
        for f in (MemoryFilter(), every)
    ]
    weights = eng.settings.relation_weights()
    out["expand"] = [
        [x.model_dump() for x in store.expand(user, ids[i : i + 2], max_depth=2, fanout_cap=5, weights=weights)]
        for i in (0, 3)
    ]
    out["search"] = [
        [(h.memory.id, h.score, h.vector_score, h.text_score) for h in eng.search(q, user_id=user, k=5)]
        for q in ("coffee", "where does Ada live", "bread")
    ]
    return out


def _export(eng: MemoryEngine) -> list[dict[str, Any]]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "export.jsonl"
        eng.jobs.export(path, all_users=True)
        records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    for rec in records:
        for key in ("exported_at", "generator"):
            rec.pop(key, None)
        for key in ("embedding", "centroid"):
            if key in rec:
                rec[key] = _digest(rec[key])
    return records


def snapshot(eng: MemoryEngine, now: datetime) -> dict[str, Any]:
    """Everything the store answers, then recall's results and the store after recall's maintenance."""
    store = eng.store
    out: dict[str, Any] = {
        "users": store.users(),
        "meta": {k: store.get_meta(k) for k in META_KEYS if k != "schema_version"},
        "stats": {str(u): store.stats(u).model_dump() for u in (None, *USERS)},
        "jobs": [r.model_dump(mode="json", exclude={"id"}) for r in store.list_jobs(100)],
        "reads": {u: _store_reads(eng, u) for u in USERS},
        "export": _export(eng),
    }
    recalls = []
    with frozen_now(now):
        for user, query, mode in RECALL_QUERIES:
            res = eng.recall(query, user_id=user, mode=mode, top_k=5)
            eng.flush()  # the next recall sees this one's maintenance, not a race with it
            recalls.append(
                {
                    "ids": [m.id for m in res.memories],
                    "tokens": res.total_tokens,
                    "warnings": res.warnings,
                    "cue_tags": res.cue_tags,
                    "trace": [t.model_dump() for t in res.trace],
                }
            )
    out["recall"] = recalls
    out["after_recall"] = {
        u: {
            "memories": [_memory(m) for m in store.get_memories(u, [m.id for m in store.list_memories(
                u, MemoryFilter.everything(), limit=10**6)])],
            "links": [ln.model_dump(mode="json") for ln in store.get_links(u)],
            "gaps": [g.model_dump(mode="json", exclude={"embedding"}) for g in store.list_gaps(u)],
        }
        for u in USERS
    }
    out["stats_after_recall"] = store.stats().model_dump()
    return json.loads(json.dumps(_round(out), default=str))


def read_snapshot(directory: Path, embedder: CachedEmbedder, now: datetime) -> dict[str, Any]:
    eng = MemoryEngine.open(directory, settings=_settings(directory), embedder=embedder)
    try:
        return snapshot(eng, now)
    finally:
        eng.close()


def _commit() -> str:
    root = Path(__file__).resolve().parent
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, check=True)
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--", "memgraph"], cwd=root, capture_output=True, text=True, check=True
    )
    return head.stdout.strip() + ("-dirty" if dirty.stdout.strip() else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="directory for memgraph.sqlite3 + expected.json")
    args = parser.parse_args()
    embedder = CachedEmbedder(SentenceTransformerEmbedder())
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "store"
        now = build(work, embedder)
        args.out.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(work / DB_FILE, args.out / DB_FILE)  # closed: the WAL is checkpointed into the file
        view = Path(tmp) / "view"
        view.mkdir()
        shutil.copyfile(args.out / DB_FILE, view / DB_FILE)
        expected = read_snapshot(view, embedder, datetime.fromisoformat(now))
    expected = {"written_by": _commit(), "now": now, **expected}
    (args.out / "expected.json").write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    size = (args.out / DB_FILE).stat().st_size
    print(f"wrote {args.out / DB_FILE} ({size} bytes) and expected.json", file=sys.stderr)


if __name__ == "__main__":
    main()
