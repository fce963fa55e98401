"""The graph cache: keyed by the model files' content, written atomically, shared safely by processes."""

from __future__ import annotations

import hashlib
import json
import multiprocessing as mp
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from memgraph.embed import OnnxEmbedder, default_model_path
from memgraph.embed.graph_cache import GraphCache
from tests.embed.conftest import copy_model

ROOT = Path(__file__).resolve().parents[2]


def test_key_follows_the_model_files(tmp_path: Path) -> None:
    model = copy_model(tmp_path / "model")
    cache = GraphCache(tmp_path / "cache")
    key = cache.model_key(model)
    assert key == GraphCache(tmp_path / "cache").model_key(model)  # stable (from the recorded hashes)
    assert key == GraphCache(tmp_path / "other").model_key(model)  # and without them (hashed afresh)
    assert key == cache.model_key(default_model_path())  # same files, other place: same graph
    recorded = json.loads((tmp_path / "cache" / "onnx" / "file-hashes.json").read_text())
    weights = str((model / "model.safetensors").resolve())
    with (model / "model.safetensors").open("rb") as fh:
        assert recorded[weights]["sha256"] == hashlib.file_digest(fh, "sha256").hexdigest()

    # a changed file (same size) gives another key, whether or not its mtime moved
    cfg = model / "1_Pooling" / "config.json"
    text = cfg.read_text()
    before = cfg.stat()
    cfg.write_text(text.replace("384", "385"))
    assert cfg.read_text() != text
    os.utime(cfg, ns=(before.st_atime_ns, before.st_mtime_ns + 1_000_000))
    assert cache.model_key(model) != key
    cfg.write_text(text)
    assert cache.model_key(model) == key
    (model / "extra.txt").write_text("a new file is part of the model too")
    assert cache.model_key(model) != key


def _publisher(root: str, key: str, seed: int, rounds: int) -> None:
    cache = GraphCache(root)
    for r in range(rounds):
        body = os.urandom(1 << 20) * 4 + bytes([seed, r])  # 4 MiB, distinct per writer and round
        cache.publish_graph(key, hashlib.sha256(body).digest() + body)


def test_concurrent_publishers_never_expose_a_partial_graph(tmp_path: Path) -> None:
    key = "k" * 32
    ctx = mp.get_context("spawn")
    procs = [ctx.Process(target=_publisher, args=(str(tmp_path), key, s, 8)) for s in range(3)]
    for p in procs:
        p.start()
    path = GraphCache(tmp_path).graph_path(key)
    seen = 0
    deadline = time.monotonic() + 120
    while any(p.is_alive() for p in procs) and time.monotonic() < deadline:
        if path.exists():
            data = path.read_bytes()
            assert hashlib.sha256(data[32:]).digest() == data[:32], "a reader saw a half-written graph"
            seen += 1
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    data = path.read_bytes()
    assert hashlib.sha256(data[32:]).digest() == data[:32]
    assert seen > 0
    assert not list(path.parent.glob(".*.tmp")), "temporary files left behind"


def test_a_read_only_cache_still_embeds(tmp_path: Path, onnx_embedder: OnnxEmbedder) -> None:
    """No writable cache: the graph is exported and kept in memory (slow, but correct)."""
    blocked = tmp_path / "ro"
    blocked.write_text("a file where the cache directory should be")
    emb = OnnxEmbedder(cache_dir=blocked / "sub")
    # the export is the expensive part; reuse the verified graph bytes instead of re-exporting here
    assert onnx_embedder.graph_path is not None
    emb._open(onnx_embedder.graph_path.read_bytes(), onnx_embedder.spec)  # type: ignore[arg-type]
    assert (emb.encode(["hello"]) @ onnx_embedder.encode(["hello"]).T)[0, 0] > 0.99999


@pytest.mark.slow
def test_two_processes_exporting_at_once(tmp_path: Path) -> None:
    """Two cold processes on one empty cache: one exports, the other waits for it; both embed alike."""
    code = (
        "import logging, sys; logging.basicConfig(level=logging.INFO, stream=sys.stderr)\n"
        "from memgraph.embed import OnnxEmbedder\n"
        f"e = OnnxEmbedder(cache_dir={str(tmp_path / 'cache')!r})\n"
        "print(repr(e.encode(['the same text']).round(6).tolist()))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        for _ in range(2)
    ]
    outs = [p.communicate(timeout=540) for p in procs]
    assert all(p.returncode == 0 for p in procs), [o[1][-2000:] for o in outs]
    assert outs[0][0] == outs[1][0]
    exports = sum(o[1].count("memgraph.embed:exporting ") for o in outs)
    assert exports == 1, [o[1] for o in outs]
    graphs = list((tmp_path / "cache" / "onnx").glob("*.onnx"))
    assert len(graphs) == 1
    import onnx

    meta = {p.key: p.value for p in onnx.load(str(graphs[0]), load_external_data=False).metadata_props}
    assert float(meta["memgraph.min_cosine"]) >= 0.9999
    assert meta["memgraph.model_key"] == graphs[0].stem


def test_the_optimised_graph_is_saved_once_and_embeds_alike(tmp_path: Path, onnx_embedder: OnnxEmbedder) -> None:
    """The first session saves ONNX Runtime's optimised graph beside the exported one; later sessions open that
    copy without an optimisation pass and give the very same vectors; a damaged copy is optimised again."""
    import onnxruntime as ort

    assert onnx_embedder.graph_path is not None
    cache = GraphCache(tmp_path)
    key = cache.model_key(onnx_embedder.model_path)
    cache.publish_graph(key, onnx_embedder.graph_path.read_bytes())  # as if exported here (no torch needed)
    optimized = cache.optimized_path(key, ort.__version__)
    texts = ["what does she like to paint", "Caroline felt accepted at the support group on 7 May 2023.", "x"]
    want = onnx_embedder.encode(texts)

    stale = cache.optimized_path(key, "0.0.1")  # a copy an older runtime saved
    stale.write_bytes(b"an old runtime's graph")
    first = OnnxEmbedder(cache_dir=tmp_path)
    first.load()
    assert optimized.is_file() and not list(optimized.parent.glob(".*.tmp"))
    assert not stale.exists()  # replaced by this runtime's copy
    second = OnnxEmbedder(cache_dir=tmp_path)
    second.load()
    assert second._session is not None
    level = second._session.get_session_options().graph_optimization_level
    assert level == ort.GraphOptimizationLevel.ORT_DISABLE_ALL  # opened the saved copy, no optimisation pass
    np.testing.assert_array_equal(first.encode(texts), want)
    np.testing.assert_array_equal(second.encode(texts), want)

    optimized.write_bytes(b"not a graph")
    third = OnnxEmbedder(cache_dir=tmp_path)
    third.load()
    np.testing.assert_array_equal(third.encode(texts), want)
    assert optimized.stat().st_size > 1000  # saved again
