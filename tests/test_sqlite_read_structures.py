"""The SQLite store's in-memory read structures (vectors, filter columns, graph arrays) stay exactly in step
with the file across connections and processes, through the change log, without reloading the user; they
reload when the log was trimmed past them or when erasure bumps the epoch."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from memgraph.config import Settings
from memgraph.errors import ValidationError
from memgraph.models import HasTag, Link, Relation
from memgraph.store import MemoryFilter, MemoryUpdate, WriteBatch
from memgraph.store.sqlite import SQLiteStore, changelog, csr
from memgraph.store.sqlite.mirror import Mirror
from tests.conformance.helpers import mem, unit_vectors

WEIGHTS = Settings().relation_weights()


def _expand(store: SQLiteStore, seeds: list[str], cap: int = 4) -> list[tuple[str, str, int, list[str]]]:
    got = store.expand("ada", seeds, max_depth=2, fanout_cap=cap, weights=WEIGHTS)
    return sorted((e.seed_id, e.memory_id, e.depth, [s.via for s in e.path]) for e in got)


def _same_as_a_fresh_reader(path: Path, reader: SQLiteStore, seeds: list[str], query: np.ndarray) -> None:
    fresh = SQLiteStore(path)
    fresh._mirror.directory = fresh._text.directory = None  # built from SQL, not opened from a snapshot
    try:
        for cap in (2, 4, 50):
            assert _expand(reader, seeds, cap) == _expand(fresh, seeds, cap)
        for flt in (None, MemoryFilter.everything(), MemoryFilter(tag="t1")):
            assert reader.vector_search("ada", query, 20, flt=flt) == fresh.vector_search("ada", query, 20, flt=flt)
    finally:
        fresh.close()


@pytest.fixture
def pair(tmp_path: Path):  # type: ignore[no-untyped-def]
    writer, reader = SQLiteStore(tmp_path), SQLiteStore(tmp_path)
    yield writer, reader
    writer.close()
    reader.close()


def _seed_graph(writer: SQLiteStore) -> tuple[list[str], np.ndarray]:
    mems = [
        mem("ada", f"memory {i}", minutes=i, tags=[f"t{i % 3}", "hub"], importance=round(0.1 + i * 0.02, 2))
        for i in range(30)
    ]
    vecs = unit_vectors(30, seed=1)
    links = [Link(src=mems[i].id, dst=mems[i + 1].id, relation=Relation.RELATES_TO, weight=0.7) for i in range(29)]
    writer.write("ada", WriteBatch(memories=mems, embeddings=vecs, links=links))
    return [m.id for m in mems], vecs


def test_another_connection_catches_up_without_reloading(pair, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    writer, reader = pair
    ids, vecs = _seed_graph(writer)
    assert reader.vector_search("ada", vecs[3], 1)[0][0] == ids[3]
    assert reader._mirror.loads == 1
    seeds = [ids[0], ids[10]]

    new = mem("ada", "a new memory", tags=["t1"], importance=0.99)
    v = unit_vectors(1, seed=9)[0]
    writer.write("ada", WriteBatch(memories=[new], embeddings=v[None]))
    assert reader.vector_search("ada", v, 1)[0][0] == new.id
    assert new.id in {e[1] for e in _expand(reader, [ids[1]], cap=3)}  # most important member of t1

    w = unit_vectors(1, seed=11)[0]
    writer.set_embeddings("ada", [ids[0]], w[None], "all-MiniLM-L6-v2")
    assert reader.vector_search("ada", w, 1)[0][0] == ids[0]

    writer.update_memories("ada", [MemoryUpdate(id=ids[5], set={"importance": 1.0})])  # reorders a tag's members
    writer.update_memories("ada", [MemoryUpdate(id=ids[3], set={"active": False})])  # filtered out now
    assert ids[3] not in [m for m, _ in reader.vector_search("ada", vecs[3], 5)]
    writer.delete_memories("ada", [ids[7]])
    writer.upsert_links("ada", [Link(src=ids[0], dst=ids[20], relation=Relation.SUPERSEDES)])
    writer.delete_links("ada", [(ids[10], ids[11], Relation.RELATES_TO)])
    writer.remove_tags("ada", [HasTag(memory_id=ids[12], tag="hub")])
    writer.delete_tags("ada", ["t2"])
    _same_as_a_fresh_reader(tmp_path, reader, seeds, vecs[8])
    assert ids[7] not in {e[1] for e in _expand(reader, seeds, cap=50)}
    assert reader._mirror.loads == 1  # every change above was caught up, none reloaded the user


def test_a_writer_in_another_process_is_caught_up(pair, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    writer, reader = pair
    ids, vecs = _seed_graph(writer)
    reader.expand("ada", [ids[0]], max_depth=2, fanout_cap=4, weights=WEIGHTS)
    script = (
        "import sys; sys.path.insert(0, sys.argv[2]);"
        "from memgraph.store.sqlite import SQLiteStore; from memgraph.store import WriteBatch;"
        "from memgraph.models import Link, Relation; from tests.conformance.helpers import mem, unit_vectors;"
        "s = SQLiteStore(sys.argv[1]); m = mem('ada', 'from another process', tags=['t0']);"
        "s.write('ada', WriteBatch(memories=[m], embeddings=unit_vectors(1, seed=5),"
        " links=[Link(src=m.id, dst=sys.argv[3], relation=Relation.CONTRADICTS)])); print(m.id); s.close()"
    )
    out = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path), str(Path(__file__).parents[1]), ids[0]],
        capture_output=True,
        text=True,
        check=True,
    )
    new_id = out.stdout.strip()
    assert reader.vector_search("ada", unit_vectors(1, seed=5)[0], 1)[0][0] == new_id
    got = reader.expand("ada", [ids[0]], max_depth=1, fanout_cap=10, weights=WEIGHTS)
    assert ("Contradicts", new_id) in {(e.path[0].relation, e.memory_id) for e in got}
    assert reader._mirror.loads == 1
    _same_as_a_fresh_reader(tmp_path, reader, [ids[0], new_id], vecs[2])


def test_a_reader_behind_a_trimmed_log_reloads(tmp_path: Path) -> None:
    writer, reader = SQLiteStore(tmp_path, change_log_keep=5), SQLiteStore(tmp_path)
    try:
        ids, vecs = _seed_graph(writer)
        reader.vector_search("ada", vecs[0], 1)
        for i in range(8):  # 8 writes x 2 touched memories: past 2 x keep, so the log is trimmed
            writer.upsert_links("ada", [Link(src=ids[i], dst=ids[i + 15], relation=Relation.DERIVED_FROM)])
        last, floor = changelog.position(writer._conn)
        assert floor > 0 and last - floor <= 10
        _same_as_a_fresh_reader(tmp_path, reader, [ids[0], ids[3]], vecs[4])
        assert reader._mirror.loads == 2
    finally:
        writer.close()
        reader.close()


def test_erasure_signal_drops_every_readers_structures(pair, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    writer, reader = pair
    ids, vecs = _seed_graph(writer)
    reader.vector_search("ada", vecs[0], 1)
    with writer._tx() as conn:  # what erasure does besides deleting the rows
        Mirror.mark_rewritten(conn)
        changelog.forget_user(conn, "ada")
    assert writer._conn.execute("SELECT COUNT(*) FROM changelog WHERE user_id = 'ada'").fetchone()[0] == 0
    reader.vector_search("ada", vecs[0], 1)
    assert reader._mirror.loads == 2


def test_the_log_is_written_with_the_change_and_only_then(pair) -> None:  # type: ignore[no-untyped-def]
    writer, _ = pair
    ids, _ = _seed_graph(writer)
    count = lambda: writer._conn.execute("SELECT COUNT(*) FROM changelog").fetchone()[0]  # noqa: E731
    before = count()
    with pytest.raises(ValidationError):
        writer.write(
            "ada",
            WriteBatch(
                memories=[mem("ada", "fine")], links=[Link(src=ids[0], dst="nope", relation=Relation.RELATES_TO)]
            ),
        )
    assert count() == before
    writer.update_memories("ada", [MemoryUpdate(id=ids[0], inc={"access_count": 1})])
    assert count() == before + 1


def _dump(store: SQLiteStore, ids: list[str]) -> list[dict[str, object]]:
    return [m.model_dump() for m in store.get_memories("ada", ids)]


def test_memories_read_by_id_come_from_the_row_cache_and_stay_in_step(pair, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Once a user's structures are loaded, reads by id are served from cached rows (memo.py): equal to what
    SQL returns after writes by this store and by another connection, and a caller mutating what it got
    changes nothing that the next read returns."""
    writer, reader = pair
    ids, vecs = _seed_graph(writer)
    reader.vector_search("ada", vecs[0], 5)  # loads the structures
    assert reader._mirror.memory_rows("ada", ids[:3]) is not None
    fresh = SQLiteStore(tmp_path)  # its structures are never loaded: plain SQL
    try:
        wanted = [ids[3], "missing", ids[1], ids[3], ids[0]]
        assert _dump(reader, wanted) == _dump(fresh, wanted)
        assert [m.id for m in reader.get_memories("ada", wanted)] == [ids[3], ids[1], ids[0]]
        got = reader.get_memories("ada", [ids[1]])[0]
        got.tags.append("mutated")
        got.metadata["x"] = 1
        assert _dump(reader, [ids[1]]) == _dump(fresh, [ids[1]])
        writer.update_memories("ada", [MemoryUpdate(id=ids[5], set={"metadata": {"a": [1, {"b": 2}], "c": "d"}})])
        nested = reader.get_memories("ada", [ids[5]])[0]
        nested.metadata["a"].append(3)
        nested.metadata["a"][1]["b"] = 5
        assert _dump(reader, [ids[5]]) == _dump(fresh, [ids[5]])
        assert reader.get_memories("ada", [ids[5]])[0].metadata == {"a": [1, {"b": 2}], "c": "d"}
        writer.update_memories("ada", [MemoryUpdate(id=ids[1], set={"importance": 0.99}, inc={"access_count": 2})])
        writer.add_tags("ada", [HasTag(memory_id=ids[0], tag="new-tag")])
        writer.remove_tags("ada", [HasTag(memory_id=ids[3], tag="hub")])
        writer.delete_memories("ada", [ids[2]])
        wanted = ids[:5]
        assert _dump(reader, wanted) == _dump(fresh, wanted)
        assert reader.get_memories("ada", [ids[1]])[0].importance == 0.99
        assert "new-tag" in reader.get_memories("ada", [ids[0]])[0].tags
        assert "hub" not in reader.get_memories("ada", [ids[3]])[0].tags
        assert reader._mirror.memory_rows("ada", [ids[2]]) == {}
    finally:
        fresh.close()


def test_list_memories_answers_an_empty_filter_from_the_masks(pair) -> None:  # type: ignore[no-untyped-def]
    """Recall's constraint and pinned scans: nothing passes on most stores, and the masks say so without SQL;
    once a memory passes, SQL lists it (after another connection wrote it)."""
    writer, reader = pair
    ids, vecs = _seed_graph(writer)
    reader.vector_search("ada", vecs[0], 5)
    pinned = MemoryFilter(pinned=True)
    assert reader.list_memories("ada", pinned) == []
    writer.update_memories("ada", [MemoryUpdate(id=ids[4], set={"pinned": True})])
    assert [m.id for m in reader.list_memories("ada", pinned)] == [ids[4]]


def test_text_search_filters_from_the_masks_as_sql_does(pair, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Full-text hits filtered by the masks (structures loaded) equal those filtered by SQL (a store whose
    structures are not loaded), for each filter and after another connection changed what passes."""
    writer, reader = pair
    ids, vecs = _seed_graph(writer)
    reader.vector_search("ada", vecs[0], 5)
    filters = [None, MemoryFilter.everything(), MemoryFilter(tag="t1"), MemoryFilter(min_importance=0.4)]

    def same() -> None:
        fresh = SQLiteStore(tmp_path)
        try:
            for flt in filters:
                got = reader.text_search("ada", "memory", 12, flt=flt)
                assert got == fresh.text_search("ada", "memory", 12, flt=flt)
                assert got
        finally:
            fresh.close()

    same()
    writer.update_memories("ada", [MemoryUpdate(id=mid, set={"active": False}) for mid in ids[::3]])
    writer.remove_tags("ada", [HasTag(memory_id=ids[1], tag="t1")])
    same()


def test_tags_in_use_from_the_graph_equal_find_tags_by_sql(pair) -> None:  # type: ignore[no-untyped-def]
    """Recall's cue lookup reads tag names and member counts from the graph in memory; they equal the SQL
    `find_tags` (less the tags no memory carries) after another connection adds, removes and deletes tags and
    memories."""
    writer, reader = pair
    mems = [
        mem("ada", f"turn {i}", minutes=i, tags=[f"speaker:{'ada' if i % 2 else 'bob'}", f"date:2024-01-0{i % 3 + 1}"])
        for i in range(12)
    ]
    writer.write("ada", WriteBatch(memories=mems, embeddings=unit_vectors(12, seed=3)))
    names = ["ada", "bob", "2024-01-01", "2024-01-02", "speaker:ada", "plain", "nothing", ""]

    def same() -> list[tuple[str, int]]:
        by_sql = [(t.name, t.count) for t in reader.find_tags("ada", names) if t.count > 0]
        in_memory = [(t.name, t.count) for t in reader.find_tags_in_use("ada", names)]
        assert in_memory == by_sql
        return in_memory

    assert same() == [("date:2024-01-01", 4), ("date:2024-01-02", 4), ("speaker:ada", 6), ("speaker:bob", 6)]
    writer.add_tags("ada", [HasTag(memory_id=mems[0].id, tag="plain"), HasTag(memory_id=mems[1].id, tag="plain")])
    writer.remove_tags("ada", [HasTag(memory_id=mems[1].id, tag="speaker:ada")])
    writer.delete_memories("ada", [mems[3].id, mems[4].id])
    assert ("plain", 2) in same()
    writer.delete_tags("ada", ["speaker:bob"])
    writer.remove_tags("ada", [HasTag(memory_id=mems[0].id, tag="plain"), HasTag(memory_id=mems[1].id, tag="plain")])
    got = same()
    assert "speaker:bob" not in dict(got) and "plain" not in dict(got) and dict(got)["speaker:ada"] == 4


def test_a_tags_ranked_members_follow_importance_recency_and_membership(pair, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The walk reads a tag's members ranked once and kept (adjacency.UserGraph.member_order); a member's new
    importance or last_accessed, a new member and a member leaving re-rank it: the walk equals a fresh reader's."""
    writer, reader = pair
    ids, vecs = _seed_graph(writer)
    seeds = [ids[0]]
    assert _expand(reader, seeds, cap=2) == _expand_fresh(tmp_path, seeds)
    least = ids[1]  # the least important member of `hub` after the seed
    writer.update_memories("ada", [MemoryUpdate(id=least, set={"importance": 1.0})])
    got = _expand(reader, seeds, cap=2)
    assert least in {e[1] for e in got} and got == _expand_fresh(tmp_path, seeds)
    writer.update_memories("ada", [MemoryUpdate(id=ids[28], set={"importance": 0.1, "last_accessed": ids_time(2)})])
    writer.update_memories("ada", [MemoryUpdate(id=ids[2], set={"importance": 1.0, "last_accessed": ids_time(1)})])
    assert _expand(reader, seeds, cap=2) == _expand_fresh(tmp_path, seeds)
    writer.update_memories("ada", [MemoryUpdate(id=ids[2], set={"last_accessed": ids_time(3)})])  # ties on importance
    assert _expand(reader, seeds, cap=2) == _expand_fresh(tmp_path, seeds)
    new = mem("ada", "a newcomer", tags=["hub"], importance=1.0)
    writer.write("ada", WriteBatch(memories=[new], embeddings=unit_vectors(1, seed=5)))
    assert _expand(reader, seeds, cap=2) == _expand_fresh(tmp_path, seeds)
    writer.update_memories("ada", [MemoryUpdate(id=new.id, set={"last_accessed": ids_time(4)})])
    got = _expand(reader, seeds, cap=2)
    assert new.id in {e[1] for e in got} and got == _expand_fresh(tmp_path, seeds)
    writer.remove_tags("ada", [HasTag(memory_id=new.id, tag="hub")])
    writer.delete_memories("ada", [least])
    got = _expand(reader, seeds, cap=2)
    assert {new.id, least}.isdisjoint({e[1] for e in got}) and got == _expand_fresh(tmp_path, seeds)
    # the head of the ranked list filtered out: the walk reads on (csr._first_passing)
    writer.update_memories("ada", [MemoryUpdate(id=mid, set={"active": False}) for mid in [ids[2], *ids[20:]]])
    got = _expand(reader, seeds, cap=2)
    assert got and got == _expand_fresh(tmp_path, seeds)


def ids_time(day: int) -> object:
    from datetime import UTC, datetime

    return datetime(2030, 1, day, tzinfo=UTC)


def _expand_fresh(path: Path, seeds: list[str]) -> list[tuple[str, str, int, list[str]]]:
    """A fresh reader's walk, and the same from its arrays ranking every hop's members anew (no cache)."""
    fresh = SQLiteStore(path)
    try:
        got = _expand(fresh, seeds, cap=2)
        with fresh._mirror.user("ada") as state:
            cols = state.columns
            table = csr.expand_table(
                state.graph, cols.ids, cols.index, cols.importance, cols.last_accessed,
                cols.mask(MemoryFilter()), seeds, max_depth=2, fanout_cap=2, weights=WEIGHTS,
            )  # fmt: skip
        assert got == sorted((e.seed_id, e.memory_id, e.depth, [s.via for s in e.path]) for e in table.expansions())
        return got
    finally:
        fresh.close()


def test_ranked_members_stay_exact_through_random_changes(pair, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Random importance, recency, tag and memory changes by another connection, a walk after each: the kept
    ranked lists (patched in place: adjacency.UserGraph.member_order) give the walk a fresh reader ranks anew."""
    import random

    rng = random.Random(5)
    writer, reader = pair
    mems = [
        mem("ada", f"m {i}", minutes=i, tags=[f"g{i % 4}", "hub"], importance=rng.choice([0.5, 0.5, 0.6, 0.9]))
        for i in range(60)
    ]
    writer.write("ada", WriteBatch(memories=mems, embeddings=unit_vectors(60, seed=2)))
    alive = [m.id for m in mems]
    seeds = alive[:3]
    for step in range(25):
        assert _expand(reader, seeds, cap=2) == _expand_fresh(tmp_path, seeds), step
        some = rng.sample(alive[3:], 4)
        writer.update_memories(
            "ada",
            [MemoryUpdate(id=some[0], set={"importance": rng.choice([0.5, 0.6, 0.95])})]
            + [MemoryUpdate(id=some[1], set={"last_accessed": ids_time(rng.randint(1, 3))})],
        )
        writer.add_tags("ada", [HasTag(memory_id=some[2], tag=f"g{rng.randint(0, 5)}")])
        writer.remove_tags("ada", [HasTag(memory_id=some[3], tag="hub")])
        if step % 5 == 4:
            writer.delete_memories("ada", [some[3]])
            alive.remove(some[3])
            new = mem("ada", f"new {step}", tags=["hub", "g1"], importance=rng.choice([0.5, 0.9]))
            writer.write("ada", WriteBatch(memories=[new], embeddings=unit_vectors(1, seed=step)))
            alive.append(new.id)



def test_previous_turns_stay_exact_through_random_link_changes(pair) -> None:  # type: ignore[no-untyped-def]
    """Sequence links written, re-weighted, deleted and turned into other links, memories deleted and written
    after their previous turn, by another connection: the graph's previous turns (adjacency.py `earlier`, caught
    up link by link and compacted) give `sequence_pairs` what SQL says after every step."""
    import random

    from memgraph.models import LinkSource

    rng = random.Random(11)
    writer, reader = pair
    mems = [mem("ada", f"turn {i}", minutes=i) for i in range(40)]
    writer.write("ada", WriteBatch(memories=mems, embeddings=unit_vectors(40, seed=4)))
    alive = [m.id for m in mems]

    def link(src: str, dst: str, source: LinkSource) -> Link:
        return Link(src=src, dst=dst, relation=Relation.RELATES_TO, weight=rng.choice([0.3, 0.5]), source=source)

    def by_sql() -> list[tuple[str, str]]:
        rows = writer._db.conn.execute(
            "SELECT src, dst FROM edges WHERE user_id = 'ada' AND type = 'RelatesTo' AND source = 'sequence'"
        ).fetchall()
        return sorted((r[0], r[1]) for r in rows if r[0] in alive and r[1] in alive)

    for step in range(40):
        assert reader.sequence_pairs("ada", alive) == by_sql(), step
        a, b, c, d = rng.sample(alive, 4)
        writer.upsert_links("ada", [link(a, b, LinkSource.SEQUENCE), link(c, b, rng.choice(list(LinkSource)))])
        if step % 3 == 0:
            writer.delete_links("ada", [(c, b, Relation.RELATES_TO), (d, a, Relation.RELATES_TO)])
        if step % 7 == 6:
            writer.delete_memories("ada", [d])
            alive.remove(d)
            new = mem("ada", f"turn after {step}", minutes=100 + step)
            writer.write(
                "ada",
                WriteBatch(
                    memories=[new], embeddings=unit_vectors(1, seed=step), links=[link(a, new.id, LinkSource.SEQUENCE)]
                ),
            )
            alive.append(new.id)
    assert reader.sequence_pairs("ada", alive) == by_sql()
    with reader._mirror.user("ada") as state:
        state.graph.earlier.compact(state.graph.n_rows)
    assert reader.sequence_pairs("ada", alive) == by_sql()

def _reference_graph(store: SQLiteStore, user: str) -> object:
    """The user's graph built the plain way: every edge row read one by one, each group interned on first use
    in (src, dst) order (what `Mirror._load` did before it read memberships grouped per memory)."""
    from memgraph.store.sqlite.adjacency import CLUSTER, REL_CODE, TAG, UserGraph

    conn = store._db.conn
    with store._mirror.user(user) as state:
        index, n = state.columns.index, state.columns.n
    graph = UserGraph()
    rows = conn.execute(
        "SELECT src, dst, type, weight FROM edges WHERE user_id = ? AND type IN ('HasTag', 'InCluster') "
        "ORDER BY type, src, dst",
        (user,),
    ).fetchall()
    m = [(index[s], graph.group(TAG if t == "HasTag" else CLUSTER, d), 1.0 if t == "HasTag" else w)
         for s, d, t, w in rows if s in index]
    links = conn.execute(
        "SELECT type, src, dst, weight, source = 'discovered' FROM edges WHERE user_id = ? "
        "AND type NOT IN ('HasTag', 'InCluster') ORDER BY type, src, dst",
        (user,),
    ).fetchall()
    lk = [(index[s], index[d], REL_CODE[t], w, bool(disc)) for t, s, d, w, disc in links if s in index and d in index]
    m_types = (np.int64, np.int64, np.float64)
    l_types = (np.int64, np.int64, np.int8, np.float64, bool)
    graph.load(
        n,
        tuple(np.array(c, dtype=dt) for c, dt in zip(zip(*m, strict=True), m_types, strict=True)),
        tuple(np.array(c, dtype=dt) for c, dt in zip(zip(*lk, strict=True), l_types, strict=True)),
    )
    return graph


@pytest.mark.parametrize("odd_name", [False, True])
def test_a_users_load_builds_the_graph_of_the_plain_row_by_row_read(tmp_path: Path, odd_name: bool) -> None:
    """The load reads memberships one row per memory (names concatenated by SQLite); the arrays, group numbers
    and tag lookups equal those of reading every edge row; a name holding the separator takes the plain read."""
    store = SQLiteStore(tmp_path)
    try:
        odd = "odd\x1fname" if odd_name else "odd-name"
        mems = [
            mem("ada", f"memory {i}", minutes=i, tags=[f"t{(7 * i) % 5}", f"z{i % 2}", "hub", "kind:x"]
                + ([odd] if i % 4 == 0 else []))
            for i in range(24)
        ]
        links = [Link(src=mems[i].id, dst=mems[(i * 5) % 24].id, relation=Relation.RELATES_TO, weight=0.5)
                 for i in range(23) if (i * 5) % 24 != i]
        store.write("ada", WriteBatch(memories=mems, embeddings=unit_vectors(24, seed=2), links=links))
        store._db.conn.execute(
            "INSERT INTO edges(user_id, type, src, dst, weight) VALUES ('ada', 'InCluster', ?, 'c1', 0.25)",
            (mems[3].id,),
        )
        store._mirror.drop()
        with store._mirror.user("ada") as state:
            got = state.graph
        want = _reference_graph(store, "ada")
        assert got.group_names == want.group_names
        assert got.group_index == want.group_index and got.tag_lookup == want.tag_lookup
        g = len(want.group_names)
        assert np.array_equal(got.group_kind[:g], want.group_kind[:g])
        assert np.array_equal(got.group_key[:g], want.group_key[:g])
        for adj in ("to_groups", "members", "links"):
            a, b = getattr(got, adj), getattr(want, adj)
            assert np.array_equal(a.ptr, b.ptr)
            for x, y in zip(a.cols, b.cols, strict=True):
                assert x.dtype == y.dtype and np.array_equal(x, y)
        assert odd in want.group_names
    finally:
        store.close()


def test_the_graph_loads_with_the_first_read_that_walks_it(pair, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A vector search (what a cold `remember` reconciles with) loads the columns only; writes meanwhile catch
    up the columns; the first walk then loads the graph in step with them: a fresh reader's answers."""
    writer, reader = pair
    ids, vecs = _seed_graph(writer)
    mirror = reader._mirror
    assert reader.vector_search("ada", vecs[3], 1)[0][0] == ids[3]
    assert (mirror.loads, mirror.graph_loads) == (1, 0)
    new = mem("ada", "a new memory", tags=["t1", "fresh"], importance=0.99)
    writer.write(
        "ada",
        WriteBatch(
            memories=[new],
            embeddings=unit_vectors(1, seed=9),
            links=[Link(src=new.id, dst=ids[4], relation=Relation.RELATES_TO, weight=0.9)],
        ),
    )
    writer.delete_memories("ada", [ids[7]])
    writer.update_memories("ada", [MemoryUpdate(id=ids[5], set={"importance": 1.0})])
    writer.remove_tags("ada", [HasTag(memory_id=ids[12], tag="hub")])
    assert reader.vector_search("ada", vecs[3], 1)[0][0] == ids[3]  # caught up, still no graph
    assert (mirror.loads, mirror.graph_loads) == (1, 0) and mirror.caught_up >= 1
    assert [m for m, _ in reader.vector_search("ada", vecs[3], 30, flt=MemoryFilter(tag="t1"))]  # a tag: graph
    assert mirror.graph_loads == 1
    _same_as_a_fresh_reader(tmp_path, reader, [ids[0], ids[4], new.id], vecs[8])
    assert ids[7] not in {e[1] for e in _expand(reader, [ids[6], ids[8]], cap=50)}
    assert (mirror.loads, mirror.graph_loads) == (1, 1)


def test_closing_after_a_vector_search_reads_no_graph(tmp_path: Path) -> None:
    """A cold write's process (one vector search, then close: the ANN builds are finished at close) never
    reads the user's edges."""
    store = SQLiteStore(tmp_path)
    ids, vecs = _seed_graph(store)
    store._mirror.drop()
    assert store.vector_search("ada", vecs[2], 1)[0][0] == ids[2]
    store.close()
    assert (store._mirror.loads, store._mirror.graph_loads) == (1, 0)


def test_a_write_that_changes_no_column_keeps_the_masks_and_the_graph_lists(pair) -> None:  # type: ignore[no-untyped-def]
    """A recall's maintenance adds to the access counts of what it served: the columns and the graph lists do
    not change, so the filters' masks stay cached and no list is replaced; a real change bumps the version."""
    writer, reader = pair
    ids, vecs = _seed_graph(writer)
    reader.expand("ada", ids[:2], max_depth=2, fanout_cap=4, weights=WEIGHTS)
    with reader._mirror.user("ada") as state:
        version = state.columns.version
        mask = reader._mask(state, MemoryFilter())
    writer.update_memories("ada", [MemoryUpdate(id=mid, inc={"access_count": 1}) for mid in ids[:3]])
    with reader._mirror.user("ada") as state:
        assert state.columns.version == version
        assert reader._mask(state, MemoryFilter()) is mask
        assert not state.graph.links.over and not state.graph.to_groups.over
    writer.update_memories("ada", [MemoryUpdate(id=ids[0], set={"importance": 0.9})])
    with reader._mirror.user("ada") as state:
        assert state.columns.version > version
        assert reader._mask(state, MemoryFilter()) is not mask


def test_a_tag_filters_mask_follows_the_tags_members(pair) -> None:  # type: ignore[no-untyped-def]
    """Tagging a memory changes no column: the mask of a tag filter is still made anew (the graph's members
    version), and the searches inside the tag see the new member."""
    writer, reader = pair
    ids, vecs = _seed_graph(writer)
    flt = MemoryFilter(tag="late")
    reader.vector_search("ada", vecs[0], 5)  # loads the structures: the filters are answered from masks
    assert reader.list_memories("ada", flt) == []
    assert reader.vector_search("ada", vecs[3], 5, flt=flt) == []
    writer.add_tags("ada", [HasTag(memory_id=ids[3], tag="late")])
    assert [m.id for m in reader.list_memories("ada", flt)] == [ids[3]]
    assert [mid for mid, _ in reader.vector_search("ada", vecs[3], 5, flt=flt)] == [ids[3]]
    assert [mid for mid, _ in reader.text_search("ada", "memory", 5, flt=flt)] == [ids[3]]


def test_the_heads_of_ranked_lists_give_the_first_passing_rows() -> None:
    """csr._heads_passing (groups x head array) equals csr._first_passing (the whole ranked lists): lists
    shorter than the head, lists whose first rows fail the filter, and None where a head holds too few."""
    rng = np.random.default_rng(7)
    for trial in range(300):
        cap = int(rng.integers(1, 6))
        width = csr._HEAD * cap
        n = 200
        passing = rng.random(n) < (1.0 if trial % 3 == 0 else rng.uniform(0.05, 1.0))
        orders = [rng.permutation(n)[: int(rng.integers(0, 3 * width))] for _ in range(int(rng.integers(1, 12)))]
        heads = np.full((len(orders), width), -1, dtype=np.int32)
        for i, o in enumerate(orders):
            heads[i, : min(width, len(o))] = o[:width]
        lens = np.array([len(o) for o in orders], dtype=np.int64)
        want = csr._first_passing(orders, passing, cap)
        got = csr._heads_passing(heads, lens, passing, cap)
        if got is None:
            short = [(passing[o[:width]].sum() < cap) and len(o) > width for o in orders]
            assert any(short)
            continue
        assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])


def test_a_tags_gathered_vectors_follow_every_change_and_leave_with_an_erasure(pair, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A search inside a tag reads the tag's vectors gathered by an earlier search (mirror.TagVectors): a new
    vector, a new member and an erased memory are all seen, and no copy of an erased vector stays held."""
    writer, reader = pair
    ids, vecs = _seed_graph(writer)
    flt = MemoryFilter(tag="t1")  # memories 1, 4, 7, ...

    def fresh(query: np.ndarray) -> list[tuple[str, float]]:
        other = SQLiteStore(tmp_path)
        other._mirror.directory = other._text.directory = None
        try:
            return other.vector_search("ada", query, 12, flt=flt)
        finally:
            other.close()

    first = reader.vector_search("ada", vecs[4], 12, flt=flt)
    assert first[0] == (ids[4], pytest.approx(1.0)) and len(first) == 10
    assert reader.vector_search("ada", vecs[4], 12, flt=flt) == first == fresh(vecs[4])  # gathered once
    writer.set_embeddings("ada", [ids[4]], vecs[5:6], "m")
    assert reader.vector_search("ada", vecs[4], 12, flt=flt) == fresh(vecs[4]) != first
    writer.add_tags("ada", [HasTag(memory_id=ids[5], tag="t1")])
    assert len(reader.vector_search("ada", vecs[5], 12, flt=flt)) == 11
    reader.vector_search("ada", vecs[7], 12, flt=flt)
    writer.erase_memories("ada", [ids[7]])
    assert ids[7] not in [mid for mid, _ in reader.vector_search("ada", vecs[7], 12, flt=flt)]
    held = [v for s in reader._mirror._users.values() for v in s.tag_vectors._entries.values()]
    assert held and not any(np.any(np.all(np.isclose(h, vecs[7]), axis=1)) for h in held)


def test_the_walks_first_unvisited_and_distinct_nodes_equal_their_sorting_definitions() -> None:
    """csr._first_unvisited (read off a mask) gives the ascending positions of each key's first occurrence among
    the keys not visited, and csr._distinct equals np.unique: on random keys with repeats, visited keys among
    them, and empty inputs."""
    rng = np.random.default_rng(11)
    for trial in range(300):
        visited = np.unique(rng.integers(0, 500, int(rng.integers(0, 60))))
        rng.shuffle(visited)
        keys = np.concatenate([rng.integers(0, 500, int(rng.integers(0, 200))), visited[: int(rng.integers(0, 20))]])
        rng.shuffle(keys)
        seen = set(visited.tolist())
        want = []
        for i, k in enumerate(keys.tolist()):
            if k not in seen:
                seen.add(k)
                want.append(i)
        assert csr._first_unvisited(visited, keys).tolist() == want
        nodes = keys[: int(rng.integers(0, len(keys) + 1))]
        assert np.array_equal(csr._distinct(nodes, 500 if trial % 2 else 0), np.unique(nodes))


def test_a_read_with_nothing_committed_since_runs_one_statement(pair) -> None:  # type: ignore[no-untyped-def]
    """The structures' freshness check reads the log's position alone (no BEGIN ... COMMIT) when nothing changed;
    a commit by another connection is still caught up at the next read (and its rows read in a transaction)."""
    writer, reader = pair
    ids, vecs = _seed_graph(writer)
    reader.vector_search("ada", vecs[3], 1)
    reader.read_memories("ada", ids[:3])  # loads the structures and the row cache
    seen: list[str] = []
    conn = reader._db.reader()
    conn.set_trace_callback(seen.append)
    try:
        assert reader.vector_search("ada", vecs[3], 1)[0][0] == ids[3]
        assert [m.id for m in reader.read_memories("ada", ids[:3])] == ids[:3]
        assert len(seen) == 2 and all(s.startswith("SELECT (SELECT seq FROM sqlite_sequence") for s in seen)
        seen.clear()
        new = mem("ada", "written meanwhile", importance=0.9)
        v = unit_vectors(1, seed=21)[0]
        writer.write("ada", WriteBatch(memories=[new], embeddings=v[None]))
        assert reader.vector_search("ada", v, 1)[0][0] == new.id
        assert "BEGIN" in seen and "COMMIT" in seen
        assert [m.content for m in reader.read_memories("ada", [new.id])] == ["written meanwhile"]
    finally:
        conn.set_trace_callback(None)
    assert reader._mirror.loads == 1
