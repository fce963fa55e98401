"""reindex, export/import (lossless round trip, bad files), GraphML."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import networkx as nx
import numpy as np
import pytest

from memgraph import MemoryEngine, Settings
from memgraph.errors import ExportFormatError, ModelMismatchError
from memgraph.models import Gap, Memory, Tag, utcnow
from memgraph.store import open_store
from memgraph.store.base import MemoryFilter, WriteBatch
from memgraph.store.sqlite import SQLiteStore
from tests.conformance.conftest import falkordb_available
from tests.jobs.conftest import checksum, plant_nan_vector


def _rich_store(engine: MemoryEngine) -> None:
    """Memories with every kind of field, tags (one orphan with a description), links, clusters, gaps."""
    from tests.jobs.corpus import generate

    items = generate(["coffee", "python", "hiking"], 12)
    engine.remember_many([{"content": i.content, "tags": [i.topic]} for i in items], user_id="ada", reconcile=False)
    engine.remember(
        "I prefer tabs.",
        user_id="ada",
        kind="preference",
        pinned=True,
        metadata={"x": [1, 2.5]},
        session_id="s1",
        tags=["style"],
    )
    engine.remember("Bob's memory", user_id="bob", metadata={"n": None, "ü": "ß"})
    engine.store.upsert_tags("ada", [Tag(name="orphan", user_id="ada", description="no memory yet")])
    engine.jobs.cluster("ada", apply=True)
    engine.jobs.links("ada", apply=True)
    engine.jobs.decay("ada", apply=True, now=utcnow() + timedelta(days=3))
    engine.store.upsert_gap(
        Gap(
            id="g1",
            user_id="ada",
            query="passport renewal?",
            count=2,
            embedding=engine.embed(["passport renewal?"])[0].tolist(),
        )
    )
    nan = Memory(id="m_nan", user_id="ada", content="a memory with a broken vector")
    engine.store.write("ada", WriteBatch(memories=[nan]))  # no embedding at all


def _snapshot(store) -> dict:
    out = {}
    for user in store.users():
        ids = sorted(m.id for m in store.list_memories(user, MemoryFilter.everything(), limit=10**6))
        mems = store.get_memories(user, ids, with_embeddings=True)
        out[user] = {
            "memories": [m.model_dump(exclude={"embedding"}) for m in mems],
            "embeddings": {
                m.id: None if m.embedding is None else np.asarray(m.embedding, np.float32).tobytes() for m in mems
            },
            "links": sorted(
                (ln.model_dump() for ln in store.get_links(user)),
                key=lambda d: (d["src"], d["dst"], d["relation"]),
            ),
            # sorted here: stores need not return these in the same order
            "tags": sorted((t.model_dump() for t in store.list_tags(user)), key=lambda d: d["name"]),
            "clusters": sorted((c.model_dump() for c in store.list_clusters(user)), key=lambda d: d["id"]),
            "members": sorted(
                (m.model_dump() for m in store.cluster_members(user)),
                key=lambda d: (d["cluster_id"], d["memory_id"]),
            ),
            "gaps": sorted((g.model_dump() for g in store.list_gaps(user)), key=lambda d: d["id"]),
        }
    return out


def _digits15(value):
    if isinstance(value, float):
        return float(f"{value:.15g}")
    if isinstance(value, dict):
        return {k: _digits15(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_digits15(v) for v in value)
    return value


def _open_target(kind: str, tmp_path: Path, embedder, request: pytest.FixtureRequest) -> MemoryEngine:
    """The import target: SQLite, embedded FalkorDB, or the test session's Neo4j (emptied first)."""
    if kind == "sqlite":
        target = str(tmp_path / "target")
        return MemoryEngine(SQLiteStore(target), Settings(store=target), embedder)
    if kind == "falkordb":
        reason = falkordb_available()
        if reason:
            pytest.skip(reason)
        target = f"falkordb+dir://{tmp_path / 'falkordb'}"
        store = open_store(target, Settings(store=target))
    else:
        server = request.getfixturevalue("neo4j_server")
        server.wipe()
        target = server.uri
        store = open_store(target, server.settings())
    return MemoryEngine(store, Settings(store=target), embedder)


@pytest.mark.parametrize("target", ["sqlite", "falkordb", "neo4j"])
def test_round_trip_is_lossless(engine, embedder, tmp_path, target, request):
    _rich_store(engine)
    path = tmp_path / "export.jsonl"
    report = engine.jobs.export(path, all_users=True)
    assert report.records["memory"] == 39 and report.records["cluster"] >= 1
    header = json.loads(path.read_text().splitlines()[0])
    assert header["format"] == "memgraph-export" and header["version"] == 1
    assert header["embedding_model"] == "all-MiniLM-L6-v2" and header["embedding_dim"] == 384
    other = _open_target(target, tmp_path, embedder, request)
    imported = other.jobs.import_(path)
    assert imported.records == report.records
    got, want = _snapshot(other.store), _snapshot(engine.store)
    if target != "sqlite":
        # FalkorDB replies with doubles at 15 significant digits (it stores them exactly; `RETURN 0.1234...`
        # comes back as '%.15g' text), so floats are compared at that precision; all else must be equal
        got, want = _digits15(got), _digits15(want)
    assert sorted(got) == sorted(want)
    for user in want:
        for part in want[user]:
            if part == "memories":  # field by field: a readable message when one differs
                for g, w in zip(got[user][part], want[user][part], strict=True):
                    assert {k: (v, w[k]) for k, v in g.items() if w[k] != v} == {}, (user, w["id"])
            assert got[user][part] == want[user][part], (user, part)
    # importing again changes nothing but the history
    before = _snapshot(other.store)
    other.jobs.import_(path)
    assert _snapshot(other.store) == before
    other.close()


def test_bad_files_write_nothing(engine, embedder, tmp_path):
    _rich_store(engine)
    path = tmp_path / "export.jsonl"
    engine.jobs.export(path, all_users=True)
    lines = path.read_text().splitlines(keepends=True)
    target = MemoryEngine(SQLiteStore(":memory:"), Settings(store=":memory:"), embedder)
    cases = {
        "truncated-mid-line": "".join(lines)[: len("".join(lines)) // 2],
        "truncated-at-line": "".join(lines[: len(lines) // 2]),
        "no-end": "".join(lines[:-1]),
        "newer": json.dumps({**json.loads(lines[0]), "version": 2}) + "\n" + "".join(lines[1:]),
        "garbage": "".join(lines[:3]) + "{not json\n" + "".join(lines[3:]),
        "not-export": '{"hello": 1}\n',
        "bad-embedding": "".join(lines).replace('"embedding":"', '"embedding":"AAAA', 1),
    }
    for name, text in cases.items():
        bad = tmp_path / f"{name}.jsonl"
        bad.write_text(text)
        with pytest.raises(ExportFormatError) as err:
            target.jobs.import_(bad)
        assert target.store.users() == [] and target.store.list_tags("ada") == [], name
        assert target.store.list_gaps("ada") == [] and target.store.get_meta("jobs.lock") is None
        if name == "newer":
            assert "newer" in str(err.value)
    # the history records the failed runs, nothing else was written
    assert all(r.counts["status"] == "failed" for r in target.jobs.history())
    target.close()


def test_other_model_is_refused_unless_reembed(engine, embedder, tmp_path):
    engine.remember("Coffee with oat milk.", user_id="ada", tags=["coffee"])
    path = tmp_path / "e.jsonl"
    engine.jobs.export(path, user_id="ada")
    text = path.read_text().replace('"embedding_model":"all-MiniLM-L6-v2"', '"embedding_model":"other-model"', 1)
    text = text.replace('"embedding_model": "all-MiniLM-L6-v2"', '"embedding_model": "other-model"', 1)
    path.write_text(text)
    target = MemoryEngine(SQLiteStore(":memory:"), Settings(store=":memory:"), embedder)
    with pytest.raises(ModelMismatchError):
        target.jobs.import_(path)
    assert target.store.users() == []
    report = target.jobs.import_(path, reembed=True)
    assert report.reembedded
    m = target.list(user_id="ada")[0]
    got = target.get(m.id, user_id="ada", with_embedding=True)
    want = embedder.encode([m.content])[0]
    assert np.allclose(got.embedding, want, atol=1e-6) and got.embedding_model == "all-MiniLM-L6-v2"
    target.close()


def test_reindex_missing_nan_and_other_model(engine):
    good = engine.remember("Tea is better than coffee.", user_id="u")
    engine.store.write("u", WriteBatch(memories=[Memory(id="m_missing", user_id="u", content="no vector yet")]))
    plant_nan_vector(engine.store, "u", Memory(id="m_nan", user_id="u", content="broken vector"))
    old = Memory(id="m_old", user_id="u", content="embedded by an old model", embedding_model="old-model")
    engine.store.write("u", WriteBatch(memories=[old], embeddings=np.ones((1, 384), dtype=np.float32)))
    before = checksum(engine.store)
    plan = engine.jobs.reindex("u")
    assert checksum(engine.store) == before
    assert (plan.missing, plan.invalid, plan.other_model, plan.to_reembed) == (1, 1, {"old-model": 1}, 3)
    done = engine.jobs.reindex("u", apply=True)
    assert done.reembedded == 3
    for mid in ("m_missing", "m_nan", "m_old"):
        m = engine.get(mid, user_id="u", with_embedding=True)
        assert m.embedding_model == "all-MiniLM-L6-v2" and np.all(np.isfinite(m.embedding))
    assert engine.jobs.reindex("u").to_reembed == 0
    assert engine.get(good.id, user_id="u").embedding_model == "all-MiniLM-L6-v2"


def test_reindex_opens_a_store_of_another_model(embedder, tmp_path):
    target = str(tmp_path / "s")
    with MemoryEngine(SQLiteStore(target), Settings(store=target), embedder) as eng:
        eng.remember("hello world", user_id="u")
        eng.store.set_meta("embedding_model", "old-model")
    with pytest.raises(ModelMismatchError):
        MemoryEngine(SQLiteStore(target), Settings(store=target), embedder)
    eng = MemoryEngine(SQLiteStore(target), Settings(store=target), embedder, check_model=False)
    report = eng.jobs.reindex("u", apply=True, force=True)
    assert report.reembedded == 1 and report.store_model_updated
    eng.close()
    MemoryEngine(SQLiteStore(target), Settings(store=target), embedder).close()  # opens cleanly now


def test_graphml_export(engine, tmp_path):
    _rich_store(engine)
    path = tmp_path / "g.graphml"
    report = engine.jobs.export(path, all_users=True, format="graphml")
    g = nx.read_graphml(path)
    labels = nx.get_node_attributes(g, "type")
    assert sum(v == "Memory" for v in labels.values()) == report.records["memory"] == 39
    assert any(v == "Tag" for v in labels.values()) and any(v == "Cluster" for v in labels.values())
    types = {d["type"] for _, _, d in g.edges(data=True)}
    assert {"HasTag", "InCluster", "RelatesTo"} <= types
    assert all("embedding" not in d and "centroid" not in d for _, d in g.nodes(data=True))


def test_import_scans_again_a_line_that_changed_after_validation(engine, embedder, tmp_path, monkeypatch):
    """Pass 2 skips the secret scan only for lines pass 1 found clean *and* that are still the same text: a
    file rewritten between the passes (here: a secret put into a memory's content) is still redacted."""
    from memgraph.jobs import transfer

    engine.remember_many(
        [{"content": f"note {i} about the garden and its tomatoes"} for i in range(5)], user_id="ada", reconcile=False
    )
    path = tmp_path / "export.jsonl"
    engine.jobs.export(path, user_id="ada")
    secret = "AKIAIOSFODNN7EXAMPLE"
    validate = transfer._validate

    def validate_then_tamper(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        parsed = validate(*args, **kwargs)
        text = path.read_text()
        path.write_text(text.replace("note 3 about", f"note 3 {secret} about", 1))
        return parsed

    monkeypatch.setattr(transfer, "_validate", validate_then_tamper)
    target = MemoryEngine(SQLiteStore(":memory:"), Settings(store=":memory:"), embedder)
    report = target.jobs.import_(path)
    contents = [m.content for m in target.store.list_memories("ada", MemoryFilter.everything(), limit=100)]
    assert len(contents) == 5 and any("note 3" in c for c in contents)
    assert not any(secret in c for c in contents)
    assert any("redacted" in w for w in report.warnings)
    target.close()
