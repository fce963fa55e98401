"""Transient faults on the Cypher stores: a FalkorDB server and a real Neo4j server are stopped and restarted
(same port, same data) while an engine writes and reads through them.

Inside the retry window every call succeeds after retries, every acknowledged write is there exactly once
(writes MERGE by id, so a retry after a lost reply writes nothing twice) and the retries are visible as WARNING
records on `memgraph.store`. Past the window a call fails with a typed `TransientStoreError` (never a raw
driver error), nothing is half-written, and the same engine works again once the server is back. These tests
run with the outbox off: they test the retry layer itself; tests/outbox/ covers what the outbox does past it.

The servers come from tests/fault_servers.py. The Neo4j server is the test session's own
(tests/neo4j_server.py): it is stopped with SIGTERM (a clean shutdown) or SIGKILL (a crash) and started again
on the same home and port. A Neo4j start takes ~15 s here
(the JVM and the database), so its retry window is wider and it goes through fewer outages than FalkorDB.
"""

from __future__ import annotations

import logging
import signal
import threading
import time
from dataclasses import dataclass, field

import pytest

from memgraph import MemoryEngine
from memgraph.errors import MemgraphError, TransientStoreError
from memgraph.store import MemoryFilter
from tests.fault_servers import Server

from . import scale
from .crash_worker import batch_items

USER = "tf"
SIZE = 20
RETRY_LOG = "transient store error"


@pytest.fixture
def server(restartable_server: Server) -> Server:
    """FalkorDB and Neo4j, stoppable (tests/fault_servers.py)."""
    return restartable_server


def _retries(caplog: pytest.LogCaptureFixture) -> int:
    return sum(1 for r in caplog.records if r.name == "memgraph.store" and RETRY_LOG in r.getMessage())


def _no_duplicates(eng: MemoryEngine) -> int:
    """Count the user's memories, asserting each id and each content occurs once, one vector each."""
    rows = eng.store.query(
        "MATCH (m:Memory {user_id: $u}) RETURN count(m) AS n, count(DISTINCT m.id) AS ids, "
        "count(DISTINCT m.content) AS contents", {"u": USER},
    )[0]
    assert rows["n"] == rows["ids"] == rows["contents"], f"duplicates: {rows}"
    vectors = eng.store.query("MATCH (v:MemoryVector {user_id: $u}) RETURN count(v) AS n, "
                              "count(DISTINCT v.id) AS ids", {"u": USER})[0]
    assert vectors["n"] == vectors["ids"] == rows["n"], f"vectors disagree: {vectors} vs {rows}"
    return int(rows["n"])


def _check_store(eng: MemoryEngine, acked_batches: set[int], notes: set[str], n_batches: int) -> None:
    """Every acked write present once; no half batch; nodes, edges and tag counts agree."""
    s = eng.store
    counts = {b: s.count_memories(USER, MemoryFilter(tag=f"batch-{b}")) for b in range(n_batches)}
    assert all(n in (0, SIZE) for n in counts.values()), f"half-written batch: {counts}"
    complete = {b for b, n in counts.items() if n == SIZE}
    assert acked_batches <= complete, f"acknowledged batches lost: {sorted(acked_batches - complete)}"
    assert len(s.get_memories(USER, sorted(notes))) == len(notes), "an acknowledged remember() was lost"
    # A note whose reply was lost when the server died may be there without having been acknowledged.
    stored_notes = s.count_memories(USER, MemoryFilter(tag="note"))
    assert stored_notes >= len(notes)
    total = _no_duplicates(eng)
    assert total == SIZE * len(complete) + stored_notes
    st = s.stats(USER)
    assert st.memories == total
    assert st.edges.get("HasTag", 0) == 2 * total  # batch items: batch-b + crash; notes: note + crash
    tags = {t.name: t.count for t in s.list_tags(USER)}
    assert tags.get("crash", 0) == total
    assert tags.get("note", 0) == stored_notes
    assert all(tags.get(f"batch-{b}") == SIZE for b in complete)


@dataclass
class Traffic:
    """A writer and a reader thread against one engine; what each saw."""

    eng: MemoryEngine
    acked_batches: set[int] = field(default_factory=set)
    notes: set[str] = field(default_factory=set)
    write_errors: list[BaseException] = field(default_factory=list)
    reads: list[tuple[float, float, str]] = field(default_factory=list)  # (start, end, "ok" | error type)
    stop: threading.Event = field(default_factory=threading.Event)
    next_batch: int = 0

    def writer(self) -> None:
        while not self.stop.is_set():
            b = self.next_batch
            try:
                self.eng.remember_many(batch_items(b, SIZE), user_id=USER)
                self.acked_batches.add(b)
                self.next_batch += 1
                # One single memory through the real model each batch.
                note = self.eng.remember(f"note {b}: the fox crossed river number {b * 7 + 3} at dawn",
                                         user_id=USER, tags=["note", "crash"])
                self.notes.add(note.id)
            except BaseException as exc:  # noqa: BLE001 - the test asserts on every error
                self.write_errors.append(exc)
                if not isinstance(exc, TransientStoreError):
                    return
                self.next_batch += 1  # a failed batch is abandoned: it must then be absent or whole

    def reader(self) -> None:
        i = 0
        while not self.stop.is_set():
            t0 = time.monotonic()
            try:
                if i % 2:
                    self.eng.recall(f"where did the fox cross river {i}?", user_id=USER, top_k=5)
                else:
                    self.eng.search(f"quick brown fox {i}", user_id=USER, k=5)
                outcome = "ok"
            except MemgraphError as exc:
                outcome = type(exc).__name__
            except BaseException as exc:  # noqa: BLE001 - a raw driver error is the failure this test looks for
                outcome = f"raw {type(exc).__module__}.{type(exc).__name__}: {exc}"
            self.reads.append((t0, time.monotonic(), outcome))
            i += 1
            time.sleep(0.01)

    def run(self) -> list[threading.Thread]:
        threads = [threading.Thread(target=self.writer), threading.Thread(target=self.reader)]
        for t in threads:
            t.start()
        return threads

    def wait_for_progress(self, batches: int, timeout: float = 120) -> None:
        target = len(self.acked_batches) + batches
        deadline = time.monotonic() + timeout
        while len(self.acked_batches) < target and not self.write_errors:
            assert time.monotonic() < deadline, "the writer made no progress"
            time.sleep(0.02)


@pytest.mark.slow
def test_restarts_inside_the_retry_window_lose_and_duplicate_nothing(
    server: Server, embedder, caplog: pytest.LogCaptureFixture  # noqa: ANN001 - fixture
) -> None:
    """Outages inside the retry window: FalkorDB SIGTERM, SIGKILL, SIGTERM (twelve under --long; ~1.5 s down
    each, window ~25 s); Neo4j SIGTERM, SIGKILL (eight under --long; down ~15 s each, window ~100 s)."""
    caplog.set_level(logging.WARNING, logger="memgraph.store")
    settings = server.settings(**server.retry, outbox=False)  # the retry layer alone (tests/outbox: past it)
    eng = MemoryEngine.open(server.url, settings=settings, embedder=embedder)
    traffic = Traffic(eng)
    threads = traffic.run()
    outages: list[tuple[float, float]] = []
    try:
        for sig in server.outages * int(scale(1, 4)):
            traffic.wait_for_progress(3)
            down = time.monotonic()
            server.stop(sig)
            time.sleep(1.5)
            server.start()
            outages.append((down, time.monotonic()))
        traffic.wait_for_progress(3)
    finally:
        traffic.stop.set()
        for t in threads:
            t.join(timeout=120)
    assert not traffic.write_errors, traffic.write_errors[:3]
    raw = [o for *_, o in traffic.reads if o.startswith("raw ")]
    assert not raw, raw[:3]
    assert {o for *_, o in traffic.reads} <= {"ok", "TransientStoreError"}
    straddled = [o for t0, t1, o in traffic.reads if any(t0 < up and t1 > down for down, up in outages)]
    assert straddled and "ok" in straddled, "no read ran across an outage and succeeded"
    retries = _retries(caplog)
    assert retries >= len(outages), f"only {retries} retries logged for {len(outages)} outages"
    eng.flush()
    _check_store(eng, traffic.acked_batches, traffic.notes, traffic.next_batch)
    eng.close()
    # A fresh engine after one more restart sees exactly the same.
    server.stop()
    server.start()
    with MemoryEngine.open(server.url, settings=settings, embedder=embedder) as fresh:
        _check_store(fresh, traffic.acked_batches, traffic.notes, traffic.next_batch)
    print(f"\ntransient faults ({server.driver_module}): {len(outages)} restarts, "
          f"{len(traffic.acked_batches)} batches + {len(traffic.notes)} notes acknowledged, "
          f"{len(traffic.reads)} reads ({len(straddled)} across an outage, all ok or typed), "
          f"{retries} retries, 0 lost, 0 duplicated")


@pytest.mark.slow
def test_an_outage_longer_than_the_retry_budget_fails_typed_and_recovers(
    server: Server, embedder, caplog: pytest.LogCaptureFixture  # noqa: ANN001 - fixture
) -> None:
    caplog.set_level(logging.WARNING, logger="memgraph.store")
    attempts, delay = 3, 0.05
    # Without the outbox: a write past the budget fails typed (tests/outbox/ covers the queued path).
    settings = server.settings(store_retry_attempts=attempts, store_retry_base_delay=delay, outbox=False)
    eng = MemoryEngine.open(server.url, settings=settings, embedder=embedder)
    eng.remember_many(batch_items(0, SIZE), user_id=USER)
    # Down between calls: every entry point fails typed, after exactly `attempts` tries and their backoff.
    server.stop()
    calls = {
        "remember_many": lambda: eng.remember_many(batch_items(1, SIZE), user_id=USER),
        "remember": lambda: eng.remember("the fox is asleep", user_id=USER, tags=["note"]),
        "recall": lambda: eng.recall("where is the fox?", user_id=USER),
        "search": lambda: eng.search("fox", user_id=USER),
        "stats": lambda: eng.stats(user_id=USER),
    }
    for name, call in calls.items():
        before = _retries(caplog)
        t0 = time.monotonic()
        with pytest.raises(TransientStoreError, match=f"after {attempts} attempts") as info:
            call()
        elapsed = time.monotonic() - t0
        assert _retries(caplog) - before == attempts - 1, name
        assert elapsed >= delay * (2 ** (attempts - 1) - 1), f"{name} did not back off ({elapsed:.3f}s)"
        assert elapsed < 5, f"{name} took {elapsed:.1f}s: a hidden retry layer is back"
        # the driver's error is the cause, not the error
        assert server.driver_module in type(info.value.__cause__).__module__
    # Down in the middle of a stream of writes: the failing batch is whole or absent, never half.
    traffic = Traffic(eng)
    threads = traffic.run()
    server.start()
    traffic.next_batch = 2
    traffic.wait_for_progress(2)
    server.stop(signal.SIGKILL)
    deadline = time.monotonic() + 60
    while not traffic.write_errors and time.monotonic() < deadline:
        time.sleep(0.02)
    traffic.stop.set()
    for t in threads:
        t.join(timeout=120)
    assert traffic.write_errors and all(isinstance(e, TransientStoreError) for e in traffic.write_errors)
    assert all(o in ("ok", "TransientStoreError") for *_, o in traffic.reads), traffic.reads[-3:]
    server.start()
    # The same engine works again once the server is back, and the store is consistent.
    traffic.acked_batches.add(0)
    _check_store(eng, traffic.acked_batches, traffic.notes, traffic.next_batch)
    assert eng.remember("the fox woke up", user_id=USER, tags=["note", "crash"]).id
    assert eng.recall("the fox woke up", user_id=USER).memories
    eng.close()
