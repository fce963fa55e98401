"""The warm-up seam: a cold process starts loading the model in the background, does its other work, and the
first `encode` waits for that load instead of starting another; neither path imports torch."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from concurrent.futures import Future
from pathlib import Path

import numpy as np
import pytest

from memgraph.config import Settings
from memgraph.embed import CachedEmbedder, LazyLoad, OnnxEmbedder, default_embedder, warm
from memgraph.embed.onnx_backend import OnnxUnsupportedError
from tests.embed.conftest import copy_model

ROOT = Path(__file__).resolve().parents[2]


class SlowLoad(LazyLoad):
    """A load that takes a while and counts itself: the seam's contract, without a model behind it."""

    def __init__(self, seconds: float, fail: bool = False) -> None:
        super().__init__()
        self.seconds, self.fail, self.loads = seconds, fail, 0
        self.model_name, self.dim = "slow", 2

    def _load_model(self) -> None:
        self.loads += 1
        time.sleep(self.seconds)
        if self.fail:
            raise RuntimeError("model files unreadable")

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        self.load()
        return np.ones((len(texts), 2), dtype=np.float32) / np.sqrt(2)

    def count_tokens(self, text: str) -> int:
        return len(text.split())


def test_warm_loads_once_in_the_background_and_encode_waits_for_it() -> None:
    emb = SlowLoad(0.5)
    t0 = time.perf_counter()
    fut = emb.warm()
    assert time.perf_counter() - t0 < 0.2  # returns at once
    assert emb.warm() is fut  # a second call joins the first
    assert not fut.done()
    results: list[np.ndarray] = []
    threads = [threading.Thread(target=lambda: results.append(emb.encode(["a"]))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    fut.result(timeout=5)
    assert emb.loads == 1 and emb.loaded and len(results) == 4


def test_a_failed_warm_up_is_reported_by_the_future_and_by_encode() -> None:
    emb = SlowLoad(0.0, fail=True)
    fut = emb.warm()
    with pytest.raises(RuntimeError, match="unreadable"):
        fut.result(timeout=5)
    with pytest.raises(RuntimeError, match="unreadable"):  # the next encode tries again and says why
        emb.encode(["a"])


def test_warm_on_the_cache_and_on_any_embedder() -> None:
    emb = SlowLoad(0.1)
    fut = CachedEmbedder(emb).warm()  # type: ignore[arg-type]
    fut.result(timeout=5)
    assert emb.loaded

    class Plain:  # a caller's own embedder with no warm(): nothing to load
        model_name, dim = "plain", 2

    done = warm(Plain())
    assert isinstance(done, Future) and done.done()


def test_real_warm_up_then_query(tmp_path: Path, onnx_embedder: OnnxEmbedder) -> None:
    """The engine's embedder warmed while the caller does other work; the query then finds it loaded."""
    emb = default_embedder(Settings(store=":memory:"))
    fut = warm(emb)
    fut.result(timeout=120)
    assert emb.inner.loaded  # type: ignore[attr-defined]
    assert np.allclose(emb.encode(["warm"]), onnx_embedder.encode(["warm"]), atol=1e-6)


def test_strict_onnx_failure_reaches_the_future(tmp_path: Path) -> None:
    model = copy_model(tmp_path / "m")
    (model / "1_Pooling" / "config.json").write_text(json.dumps({"pooling_mode": ["max", "cls"]}))
    emb = default_embedder(Settings(store=":memory:", embedding_model_path=str(model), embed_backend="onnx"))
    with pytest.raises(OnnxUnsupportedError, match="pooling"):
        warm(emb).result(timeout=60)


def test_a_cold_process_embeds_without_torch(onnx_embedder: OnnxEmbedder) -> None:
    """What `memgraph recall` does in a new process: open, warm, embed; sentence-transformers, torch and
    transformers are never imported, and it takes seconds, not the ~8 s of importing torch alone."""
    code = """
import json, sys, time
t0 = time.process_time()
from memgraph.config import Settings
from memgraph.embed import default_embedder, warm
emb = default_embedder(Settings(store=":memory:"))
fut = warm(emb)
fut.result()
vec = emb.encode(["where did Ada move last spring?"])
heavy = sorted(m for m in ("torch", "sentence_transformers", "transformers") if m in sys.modules)
print(json.dumps({"heavy": heavy, "seconds": time.process_time() - t0, "dim": vec.shape[1]}))
"""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-3000:]
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert report["heavy"] == [] and report["dim"] == 384
    # CPU seconds, not wall: at load 15 the wall time of the same work was 5.2 s; importing torch alone costs ~7 s
    assert report["seconds"] < 5.0, report


def test_will_export_tells_a_first_run(tmp_path: Path, onnx_embedder: OnnxEmbedder) -> None:
    """For the spinner's text: an empty cache means an export first; the default cache holds the graph."""
    from memgraph.embed import AutoEmbedder

    assert AutoEmbedder(cache_dir=tmp_path / "empty").will_export()
    assert not AutoEmbedder().will_export()
    assert not AutoEmbedder(backend="sentence-transformers").will_export()
