"""A reconciled write holds back the collector's full collections, and only while it runs (ingest/collector.py)."""

from __future__ import annotations

import gc
import threading
from collections.abc import Sequence

import numpy as np

from memgraph import MemoryEngine
from memgraph.ingest.collector import HELD_THRESHOLD, full_collections_held
from memgraph.ingest.reconcile import Neighbour, ReconcileDecision, RuleReconciler


class _Watching(RuleReconciler):
    """The rule reconciler, noting the collector's third threshold at each decision."""

    seen: list[int]

    def decide(self, new: object, neighbours: Sequence[Neighbour]) -> ReconcileDecision:
        self.seen.append(gc.get_threshold()[2])
        return super().decide(new, neighbours)  # type: ignore[arg-type]


def _items(n: int) -> list[dict[str, object]]:
    rng = np.random.default_rng(0)
    base = rng.normal(size=384).astype(np.float32)
    return [
        {"content": f"The {w} build of project {i} runs on Tuesdays.", "embedding": base + 0.3 * rng.normal(size=384)}
        for i, w in enumerate(["nightly", "weekly", "release", "debug"] * (n // 4))
    ]


def test_reconciled_write_holds_full_collections(engine: MemoryEngine) -> None:
    before = gc.get_threshold()
    watch = _Watching(engine.settings)
    watch.seen = []
    engine.pipeline.reconciler = watch
    engine.remember_many(_items(8), user_id="u")
    assert watch.seen and all(t >= HELD_THRESHOLD for t in watch.seen)  # held while it decided
    assert gc.get_threshold() == before  # and put back after


def test_unreconciled_or_switched_off_writes_leave_it(engine: MemoryEngine) -> None:
    before = gc.get_threshold()
    watch = _Watching(engine.settings)
    watch.seen = []
    engine.pipeline.reconciler = watch
    engine.settings.reconcile_hold_full_collections = False
    engine.remember_many(_items(8), user_id="u")
    assert watch.seen and all(t == before[2] for t in watch.seen)
    assert gc.get_threshold() == before


def test_nested_and_threaded_holds_restore_once() -> None:
    before = gc.get_threshold()
    inside = threading.Event()
    leave = threading.Event()

    def other() -> None:
        with full_collections_held():
            inside.set()
            leave.wait(5)

    t = threading.Thread(target=other)
    with full_collections_held():
        t.start()
        assert inside.wait(5)
        with full_collections_held():
            assert gc.get_threshold()[2] >= HELD_THRESHOLD
    assert gc.get_threshold()[2] >= HELD_THRESHOLD  # the other thread's write is still in flight
    leave.set()
    t.join(5)
    assert gc.get_threshold() == before


def test_a_threshold_the_application_sets_meanwhile_is_kept() -> None:
    before = gc.get_threshold()
    try:
        with full_collections_held():
            gc.set_threshold(before[0], before[1], 25)
        assert gc.get_threshold()[2] == 25
    finally:
        gc.set_threshold(*before)
