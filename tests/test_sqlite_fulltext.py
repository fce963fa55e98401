"""The SQLite store's full-text postings (memgraph/store/sqlite/fulltext.py) stay exactly in step with the file:
writes of another process (inserts, changed text, deletes) are seen by the next search, a process that missed
trimmed log rows reloads, and compaction changes nothing a search returns."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from memgraph.models import Memory
from memgraph.store import MemoryFilter, WriteBatch
from memgraph.store.base import MemoryUpdate
from memgraph.store.sqlite import SQLiteStore
from memgraph.store.sqlite.fulltext import TEXT_LOG_KEEP

EVERYTHING = MemoryFilter.everything()


def _mem(i: int, text: str, user: str = "ada") -> Memory:
    return Memory(id=f"{user}-{i}", user_id=user, content=text)


def _fresh(directory: Path, query: str, k: int = 20) -> list[tuple[str, float]]:
    """What a process that just opened the store finds: its postings are built from the file."""
    store = SQLiteStore(directory)
    try:
        return store.text_search("ada", query, k, flt=EVERYTHING)
    finally:
        store.close()


def _other_process(directory: Path, code: str) -> None:
    script = textwrap.dedent(
        f"""
        from memgraph.models import Memory
        from memgraph.store import WriteBatch
        from memgraph.store.base import MemoryUpdate
        from memgraph.store.sqlite import SQLiteStore
        store = SQLiteStore({str(directory)!r})
        """
    ) + textwrap.dedent(code) + "\nstore.close()\n"
    subprocess.run([sys.executable, "-c", script], check=True, timeout=120)


def test_another_processs_writes_are_seen_by_the_next_search(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path)
    store.write("ada", WriteBatch(memories=[_mem(i, f"marathon training week {i}") for i in range(5)]))
    store.write("bob", WriteBatch(memories=[_mem(0, "marathon marathon", "bob")]))
    assert len(store.text_search("ada", "marathon", 20)) == 5  # postings loaded
    _other_process(
        tmp_path,
        """
        store.write("ada", WriteBatch(memories=[Memory(id="ada-9", user_id="ada", content="marathon marathon day")]))
        store.update_memories("ada", [MemoryUpdate(id="ada-1", set={"content": "a swimming week"})])
        store.delete_memories("ada", ["ada-2"])
        store.write("bob", WriteBatch(memories=[Memory(id="bob-1", user_id="bob", content="marathon")]))
        """,
    )
    got = store.text_search("ada", "marathon", 20, flt=EVERYTHING)
    assert {m for m, _ in got} == {"ada-0", "ada-3", "ada-4", "ada-9"}
    assert got[0][0] == "ada-9"
    assert got == _fresh(tmp_path, "marathon")
    assert store.text_search("ada", "swimming", 5) == _fresh(tmp_path, "swimming") != []
    store.close()


def test_a_bulk_write_after_loading_rebuilds_the_users_postings(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path)
    store.write("ada", WriteBatch(memories=[_mem(i, "tea") for i in range(10)]))
    assert len(store.text_search("ada", "tea", 50)) == 10
    before = store._text._users["ada"]
    store.write("ada", WriteBatch(memories=[_mem(i, f"green tea {i}") for i in range(10, 1200)]))
    got = store.text_search("ada", "green tea", 2000)
    assert store._text._users["ada"] is not before and len(got) == 1200
    assert got == _fresh(tmp_path, "green tea", 2000)
    store.close()


def test_this_processs_own_writes_and_an_in_memory_store(tmp_path: Path) -> None:
    for target in (tmp_path, ":memory:"):
        store = SQLiteStore(target)
        store.write("ada", WriteBatch(memories=[_mem(0, "tea"), _mem(1, "coffee")]))
        assert [m for m, _ in store.text_search("ada", "tea", 5)] == ["ada-0"]
        store.update_memories("ada", [MemoryUpdate(id="ada-1", set={"content": "green tea"})])
        store.delete_memories("ada", ["ada-0"])
        assert [m for m, _ in store.text_search("ada", "tea", 5)] == ["ada-1"]
        store.close()


def test_a_process_that_missed_trimmed_log_rows_reloads(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path)
    store.write("ada", WriteBatch(memories=[_mem(i, f"note {i} about tea") for i in range(10)]))
    assert len(store.text_search("ada", "tea", 20)) == 10
    _other_process(tmp_path, 'store.delete_memories("ada", ["ada-3", "ada-4"])')
    # the trim trigger removes old rows once the log passes TEXT_LOG_KEEP; here the rows this process has not
    # applied yet are removed by hand, as if it had been idle that long
    with sqlite3.connect(tmp_path / "memgraph.sqlite3") as conn:
        conn.execute("DELETE FROM text_changes")
    _other_process(
        tmp_path, 'store.write("ada", WriteBatch(memories=[Memory(id="ada-x", user_id="ada", content="tea")]))'
    )
    got = store.text_search("ada", "tea", 20)
    assert {m for m, _ in got} == {f"ada-{i}" for i in range(10) if i not in (3, 4)} | {"ada-x"}
    assert got == _fresh(tmp_path, "tea")
    store.close()


def test_the_log_trims_itself() -> None:
    store = SQLiteStore(":memory:")
    conn = store._conn
    conn.execute("UPDATE sqlite_sequence SET seq = ? WHERE name = 'text_changes'", (3 * TEXT_LOG_KEEP,))
    if conn.execute("SELECT changes()").fetchone()[0] == 0:
        conn.execute("INSERT INTO sqlite_sequence(name, seq) VALUES ('text_changes', ?)", (3 * TEXT_LOG_KEEP,))
    conn.executemany(
        "INSERT INTO text_changes(seq, user_id, rid) VALUES (?, 'ada', 1)",
        [(s,) for s in range(3 * TEXT_LOG_KEEP - 2000, 3 * TEXT_LOG_KEEP)],
    )
    store.write("ada", WriteBatch(memories=[_mem(i, "tea") for i in range(1100)]))
    low = conn.execute("SELECT MIN(seq), MAX(seq) FROM text_changes").fetchone()
    assert low[1] - low[0] < TEXT_LOG_KEEP + 1024 and low[1] == 3 * TEXT_LOG_KEEP + 1100
    assert len(store.text_search("ada", "tea", 5000)) == 1100
    store.close()


def test_compaction_changes_nothing_a_search_returns(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path)
    words = ["tea", "coffee", "marathon", "café", "北京"]
    store.write("ada", WriteBatch(memories=[
        _mem(i, f"{words[i % 5]} {words[(i * 7) % 5]} note {i}") for i in range(4000)
    ]))
    assert store.text_search("ada", "tea", 3)
    idx = store._text._users["ada"]
    gone = [f"ada-{i}" for i in range(4000) if i % 3 != 2]
    for start in range(0, len(gone), 300):  # applied one by one at each search (a bulk change reloads)
        store.delete_memories("ada", gone[start : start + 300])
        assert store.text_search("ada", "tea", 3)
    assert store._text._users["ada"] is idx, "caught up in place"
    assert len(idx.ids) < 4000, "compacted"
    for query in words + ["note 5", "marathon café"]:
        assert store.text_search("ada", query, 50, flt=EVERYTHING) == _fresh(tmp_path, query, 50)
    store.close()


@pytest.mark.parametrize("query", ["", "the and of", "*", '"', "AND OR NOT"])
def test_queries_without_terms_find_nothing(query: str) -> None:
    store = SQLiteStore(":memory:")
    store.write("ada", WriteBatch(memories=[_mem(0, "the and of * AND OR NOT")]))
    assert store.text_search("ada", query, 5) == ([] if query != "AND OR NOT" else store.text_search("ada", "not", 5))
    store.close()


def test_a_query_of_the_last_ones_terms_is_answered_as_a_fresh_search() -> None:
    """`UserText.hits` answers a query whose terms are all among the last query's from that query's hits (a
    cascade searches the question, then the question less a tag's naming words): the same arrays as a search
    of the sub-query alone, and nothing stale once the index changes."""
    import numpy as np

    from memgraph.store.sqlite.fulltext import UserText

    texts = [
        "Ada painted a lake at sunrise",
        "Ben went hiking by the lake",
        "Ada adopted a puppy named Rex",
        "the puppy likes the lake and painting",
        "Carla bakes bread on Sundays",
    ]
    idx, fresh = UserText(), UserText()
    for i, t in enumerate(texts):
        for u in (idx, fresh):
            u.add(i + 1, f"m{i}", t)

    def same(a: tuple, b: tuple) -> None:  # type: ignore[type-arg]
        assert list(a[0]) == list(b[0])
        for x, y in zip(a[1:], b[1:], strict=True):
            assert np.array_equal(np.asarray(x), np.asarray(y))
            assert np.asarray(x).dtype == np.asarray(y).dtype

    full = ["ada", "lake", "puppi", "paint"]
    same(idx.hits(full), fresh.hits(full))
    for sub in (["lake"], ["paint", "puppi"], ["puppi", "lake", "ada"], ["bread"]):
        same(idx.hits(sub), fresh._hits(sub))
    idx.hits(full)
    idx.add(9, "m9", "Ada paints the lake again")
    fresh.add(9, "m9", "Ada paints the lake again")
    same(idx.hits(["lake"]), fresh._hits(["lake"]))
    assert len(idx.hits(["lake"])[0]) == 4
