"""Snapshots of a user's read structures (store/sqlite/snapshot.py): a new process opens them from the file
beside the store, catches up from their change-log position and then answers exactly as a process that built
them from SQL; erasure deletes them (also one renamed into place just after the erasure), and anything stale,
damaged or foreign is ignored and replaced."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from memgraph.config import Settings
from memgraph.models import Link, LinkSource, Relation
from memgraph.store import MemoryFilter, MemoryUpdate, WriteBatch
from memgraph.store.sqlite import SQLiteStore, snapshot
from tests.conformance.helpers import mem, unit_vectors

WEIGHTS = Settings().relation_weights()
QUERIES = ("memory", "memory 7 blue", "green memory 12", "nothing here")


def _seed(store: SQLiteStore, n: int = 60) -> tuple[list[str], np.ndarray]:
    colours = ("blue", "green", "red")
    mems = [
        mem("ada", f"memory {i} {colours[i % 3]}", minutes=i, tags=[f"t{i % 4}", "hub"], importance=0.1 + i / 100)
        for i in range(n)
    ]
    vecs = unit_vectors(n, seed=1)
    links = [
        Link(
            src=mems[i].id,
            dst=mems[i + 1].id,
            relation=Relation.RELATES_TO,
            weight=0.6,
            source=LinkSource.SEQUENCE if i % 3 else LinkSource.EXPLICIT,  # the graph's previous turns too
        )
        for i in range(n - 1)
    ]
    store.write("ada", WriteBatch(memories=mems, embeddings=vecs, links=links))
    return [m.id for m in mems], vecs


def _without_snapshots(path: Path) -> SQLiteStore:
    store = SQLiteStore(path)
    store._mirror.directory = store._text.directory = None  # built from SQL, as before snapshots
    return store


def _answers(store: SQLiteStore, ids: list[str], query: np.ndarray) -> list[Any]:
    out: list[Any] = []
    for cap in (2, 5, 50):
        got = store.expand("ada", [ids[0], ids[9]], max_depth=2, fanout_cap=cap, weights=WEIGHTS)
        out.append(sorted((e.seed_id, e.memory_id, e.depth, [s.via for s in e.path]) for e in got))
    for flt in (None, MemoryFilter.everything(), MemoryFilter(tag="t1")):
        out.append(store.vector_search("ada", query, 25, flt=flt))
    out += [store.text_search("ada", q, 10) for q in QUERIES]
    out.append(store.text_search("ada", "memory", 10, flt=MemoryFilter(tag="t2")))
    out.append(store.sequence_pairs("ada", ids))
    out.append(store.similarities("ada", ids, query))
    return out


def _loaded(path: Path, ids: list[str], vecs: np.ndarray) -> None:
    """A process that reads the user (and so saves the snapshots), then ends."""
    store = SQLiteStore(path)
    try:
        _answers(store, ids, vecs[0])
    finally:
        store.close()


def _files(path: Path) -> list[str]:
    return sorted(p.name.split("-")[0] for p in path.glob("*-*.npz"))


def test_a_new_process_opens_the_snapshots_and_catches_up(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(snapshot, "REFRESH_FRACTION", 0.5)  # a dozen changes to 60 memories are caught up
    writer = SQLiteStore(tmp_path)
    try:
        ids, vecs = _seed(writer)
        _loaded(tmp_path, ids, vecs)
        assert _files(tmp_path) == ["read", "text"]
        # changes after the snapshots: a new tagged memory, a new vector, re-ranked and hidden memories,
        # a deleted one, a new link, a new text
        new = mem("ada", "a new purple memory", tags=["t1", "fresh"], importance=0.95)
        writer.write("ada", WriteBatch(memories=[new], embeddings=unit_vectors(1, seed=7)))
        writer.set_embeddings("ada", [ids[3]], unit_vectors(1, seed=8), "all-MiniLM-L6-v2")
        writer.update_memories("ada", [MemoryUpdate(id=ids[5], set={"importance": 1.0})])
        writer.update_memories("ada", [MemoryUpdate(id=ids[6], set={"active": False})])
        writer.update_memories("ada", [MemoryUpdate(id=ids[8], set={"content": "memory 8 now purple"})])
        writer.delete_memories("ada", [ids[7]])
        writer.upsert_links("ada", [Link(src=ids[0], dst=ids[30], relation=Relation.CONTRADICTS)])

        reader, plain = SQLiteStore(tmp_path), _without_snapshots(tmp_path)
        try:
            for query in (vecs[0], unit_vectors(1, seed=7)[0], unit_vectors(1, seed=8)[0]):
                assert _answers(reader, ids, query) == _answers(plain, ids, query)
            assert reader.text_search("ada", "purple", 5) == plain.text_search("ada", "purple", 5)
            assert (reader._mirror.snapshot_loads, reader._mirror.loads, reader._mirror.graph_loads) == (1, 0, 0)
            assert reader._text.snapshot_loads == 1
            assert (plain._mirror.snapshot_loads, plain._mirror.loads) == (0, 1)
            # and it keeps catching up afterwards as any reader does
            writer.delete_memories("ada", [ids[9]])
            assert _answers(reader, ids, vecs[9]) == _answers(plain, ids, vecs[9])
        finally:
            reader.close()
            plain.close()
    finally:
        writer.close()


def test_erasure_deletes_the_snapshots(tmp_path: Path) -> None:
    writer = SQLiteStore(tmp_path)
    try:
        ids, vecs = _seed(writer)
        _loaded(tmp_path, ids, vecs)
        assert _files(tmp_path) == ["read", "text"]
        writer.erase_memories("ada", [ids[0]])
        assert _files(tmp_path) == []
        _loaded(tmp_path, ids, vecs)  # saved again, without the erased memory
        assert _files(tmp_path) == ["read", "text"]
        reader = SQLiteStore(tmp_path)
        try:
            assert ids[0] not in [m for m, _ in reader.vector_search("ada", vecs[0], 60)]
            assert reader.text_search("ada", "memory 0", 60)[0][0] != ids[0]
            assert ids[0] not in reader._mirror._users["ada"].columns.ids
            assert ids[0] not in reader._text._users["ada"].ids
            assert reader._mirror.snapshot_loads == 1
        finally:
            reader.close()
        writer.erase_user("ada")
        assert _files(tmp_path) == []
    finally:
        writer.close()


@pytest.mark.parametrize("kind", ["read", "text"])
def test_a_snapshot_renamed_after_an_erasure_is_deleted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    """The erasure commits (and deletes the user's files) while a process builds its snapshot from a read that
    began before it: the file renamed into place afterwards holds the erased memory, and must go."""
    writer = SQLiteStore(tmp_path)
    try:
        ids, vecs = _seed(writer)
        name = "save" if kind == "read" else "save_text"
        real = getattr(snapshot, name)

        def erase_first(*args: Any) -> None:
            writer.erase_memories("ada", [ids[0]])
            real(*args)
            assert _files(tmp_path) == [kind]  # renamed into place after the erasure deleted the files

        monkeypatch.setattr(snapshot, name, erase_first)
        reader = SQLiteStore(tmp_path)
        try:
            if kind == "read":
                reader.expand("ada", [ids[1]], max_depth=1, fanout_cap=3, weights=WEIGHTS)
            else:
                reader.text_search("ada", "memory", 3)
            assert _files(tmp_path) == []
        finally:
            reader.close()
    finally:
        writer.close()


def test_many_changes_since_the_snapshot_load_from_sql_and_save_anew(tmp_path: Path) -> None:
    writer = SQLiteStore(tmp_path)
    try:
        ids, vecs = _seed(writer)
        _loaded(tmp_path, ids, vecs)
        path = snapshot.path_for(tmp_path, "ada")
        before = snapshot.load(path, "ada", 384)
        assert before is not None
        touched = int(snapshot.REFRESH_FRACTION * len(ids)) + 1
        writer.update_memories("ada", [MemoryUpdate(id=i, set={"importance": 0.9}) for i in ids[:touched]])
        reader, plain = SQLiteStore(tmp_path), _without_snapshots(tmp_path)
        try:
            assert _answers(reader, ids, vecs[1]) == _answers(plain, ids, vecs[1])
            assert (reader._mirror.snapshot_loads, reader._mirror.loads) == (0, 1)
            assert reader._text.snapshot_loads == 1  # no text changed
        finally:
            reader.close()
            plain.close()
        after = snapshot.load(path, "ada", 384)
        assert after is not None and after[0]["pos"] > before[0]["pos"]
    finally:
        writer.close()


def test_damaged_foreign_or_outdated_snapshots_are_ignored(tmp_path: Path) -> None:
    writer = SQLiteStore(tmp_path)
    try:
        ids, vecs = _seed(writer)
        other = [mem("bob", f"bob's memory {i}") for i in range(5)]
        writer.write("bob", WriteBatch(memories=other, embeddings=unit_vectors(5, seed=3)))
        _loaded(tmp_path, ids, vecs)
        bob = SQLiteStore(tmp_path)
        bob.text_search("bob", "memory", 3)
        bob.expand("bob", [other[0].id], max_depth=1, fanout_cap=2, weights=WEIGHTS)
        bob.close()
        # bob's file under ada's name, a damaged text file
        snapshot.path_for(tmp_path, "bob").replace(snapshot.path_for(tmp_path, "ada"))
        snapshot.path_for(tmp_path, "ada", "text").write_bytes(b"not a snapshot")
        reader, plain = SQLiteStore(tmp_path), _without_snapshots(tmp_path)
        try:
            assert _answers(reader, ids, vecs[2]) == _answers(plain, ids, vecs[2])
            assert (reader._mirror.snapshot_loads, reader._mirror.loads, reader._text.snapshot_loads) == (0, 1, 0)
        finally:
            reader.close()
            plain.close()
        assert snapshot.load(snapshot.path_for(tmp_path, "ada"), "ada", 384) is not None  # written anew
        # erasing another user bumps the epoch every reader's structures (and snapshots) are checked against
        writer.erase_user("bob")
        reader = SQLiteStore(tmp_path)
        try:
            reader.vector_search("ada", vecs[0], 3)
            assert (reader._mirror.snapshot_loads, reader._mirror.loads) == (0, 1)
            assert not snapshot.path_for(tmp_path, "ada").exists()  # deleted on sight, not saved again yet
        finally:
            reader.close()
    finally:
        writer.close()


def test_an_in_memory_store_writes_no_snapshot(tmp_path: Path) -> None:
    store = SQLiteStore(":memory:")
    try:
        ids, vecs = _seed(store)
        _answers(store, ids, vecs[0])
        assert store._mirror.directory is None and store._text.directory is None
    finally:
        store.close()


def test_erasure_overwrites_a_derived_file_before_deleting_it(tmp_path: Path) -> None:
    """`wipe` zeroes the bytes, not just the name: a second link to the file (standing in for the disk blocks an
    unlink leaves behind) reads zeros afterwards."""
    from memgraph.store.sqlite.files import wipe

    path = tmp_path / "read-0123.npz"
    secret = b"vectors and words of an erased memory " * 100_000  # several blocks
    path.write_bytes(secret)
    other = tmp_path / "other-name"
    os.link(path, other)
    wipe(path)
    assert not path.exists()
    assert other.read_bytes() == bytes(len(secret))
    wipe(path)  # gone already: fine
