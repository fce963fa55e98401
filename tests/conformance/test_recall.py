"""`MemoryEngine.recall` (the cascade: seeds, graph expansion, ranking, layers) gives the same memories in
the same order on every store as on the SQLite reference, with the real embedding model."""

from __future__ import annotations

from pathlib import Path

from memgraph import MemoryEngine, Settings
from memgraph.embed import CachedEmbedder
from memgraph.models import Link, MemoryKind, Relation
from memgraph.store import GraphStore, WriteBatch
from memgraph.store.sqlite import SQLiteStore

from .helpers import mem

FACTS = [
    ("I prefer tabs over spaces when writing Python", ["python", "style"], MemoryKind.PREFERENCE, 0.7),
    ("Our Python services run on 3.12 with uv for packaging", ["python", "tooling"], MemoryKind.FACT, 0.5),
    ("The production database is PostgreSQL 16 on a dedicated host", ["database", "prod"], MemoryKind.FACT, 0.8),
    ("Migrations are written with Alembic and reviewed by Lena", ["database", "python"], MemoryKind.PROCEDURE, 0.6),
    ("Deployments happen on Tuesdays after the standup", ["prod", "process"], MemoryKind.FACT, 0.4),
    ("Never deploy on Fridays", ["prod", "process"], MemoryKind.CONSTRAINT, 0.9),
    ("My cat is called Miso and she likes tuna", ["speaker:ada", "pets"], MemoryKind.FACT, 0.3),
    ("Lena owns the billing service", ["people", "billing"], MemoryKind.FACT, 0.5),
    ("Billing talks to PostgreSQL through pgbouncer", ["billing", "database"], MemoryKind.FACT, 0.5),
    ("Run the test suite with pytest -x before pushing", ["python", "process"], MemoryKind.PROCEDURE, 0.6),
    ("Ada is learning Rust on weekends", ["speaker:ada", "rust"], MemoryKind.EVENT, 0.2),
    ("The staging database is refreshed from production every night", ["database"], MemoryKind.FACT, 0.4),
]
QUERIES = [
    "how do I deploy to production?",
    "what database does billing use?",
    "python style and tooling",
    "ada",
]


def _fill(engine: MemoryEngine) -> list[str]:
    mems = [
        mem("ada", text, minutes=i * 90, tags=tags, kind=kind, importance=imp)
        for i, (text, tags, kind, imp) in enumerate(FACTS)
    ]
    ids = [m.id for m in mems]
    links = [
        Link(src=ids[5], dst=ids[4], relation=Relation.RELATES_TO, weight=0.8),
        Link(src=ids[8], dst=ids[7], relation=Relation.RELATES_TO, weight=0.6),
        Link(src=ids[11], dst=ids[2], relation=Relation.DERIVED_FROM),
        Link(src=ids[3], dst=ids[2], relation=Relation.RELATES_TO, weight=0.5),
        Link(src=ids[9], dst=ids[1], relation=Relation.RELATES_TO, weight=0.4),
    ]
    vectors = engine.embed([m.content for m in mems])
    engine.store.write("ada", WriteBatch(memories=mems, embeddings=vectors, links=links))
    return ids


def _recalls(engine: MemoryEngine) -> list[list[str]]:
    out = []
    for _ in range(2):  # the second round sees the first round's access counts and co-recall links
        for q in QUERIES:
            out.append([m.id for m in engine.recall(q, user_id="ada", top_k=6).memories])
            engine.flush()
    return out


def test_recall_matches_sqlite(store: GraphStore, embedder: CachedEmbedder, tmp_path: Path) -> None:
    reference = MemoryEngine(SQLiteStore(tmp_path / "reference"), Settings(), embedder)
    engine = MemoryEngine(store, Settings(), embedder)
    try:
        assert _fill(engine) == _fill(reference)
        want = _recalls(reference)
        assert all(want) and len({tuple(w) for w in want}) > 2  # a real, varied answer
        assert _recalls(engine) == want
    finally:
        reference.close()
