"""Which backend serves: ONNX for the models it reproduces (a user's own directory included), sentence-
transformers with a logged reason for the others, never a silently different vector."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import numpy as np
import pytest

from memgraph.config import Settings
from memgraph.embed import (
    AutoEmbedder,
    CachedEmbedder,
    OnnxEmbedder,
    OnnxUnsupportedError,
    SentenceTransformerEmbedder,
    default_embedder,
)
from memgraph.embed.model import read_model_spec
from memgraph.errors import EmbedderUnavailableError
from tests.embed.conftest import copy_model
from tests.embed.test_equivalence import TEXTS

SAMPLE = [TEXTS[1], TEXTS[4], TEXTS[8], TEXTS[-2]]


def _edit_json(file: Path, **changes: object) -> None:
    data = json.loads(file.read_text()) if file.exists() else {}
    data.update(changes)
    file.write_text(json.dumps(data))


def test_shipped_model_spec() -> None:
    spec = read_model_spec(OnnxEmbedder().model_path)
    assert spec.unsupported is None
    assert (spec.max_length, spec.pooling, spec.normalize, spec.dim) == (256, "mean", True, 384)


def test_sentence_transformers_6_layout_is_read_alike(tmp_path: Path) -> None:
    """A directory saved by sentence-transformers 6: new module names, `pooling_mode`, the window in
    tokenizer_config.json instead of sentence_bert_config.json."""
    model = copy_model(tmp_path / "m")
    modules = json.loads((model / "modules.json").read_text())
    new_types = [
        "sentence_transformers.base.modules.transformer.Transformer",
        "sentence_transformers.sentence_transformer.modules.pooling.Pooling",
        "sentence_transformers.base.modules.normalize.Normalize",
    ]
    for module, new in zip(modules, new_types, strict=True):
        module["type"] = new
    (model / "modules.json").write_text(json.dumps(modules))
    (model / "sentence_bert_config.json").write_text(
        json.dumps({"transformer_task": "feature-extraction", "module_output_name": "token_embeddings"})
    )
    (model / "1_Pooling" / "config.json").write_text(
        json.dumps({"embedding_dimension": 384, "pooling_mode": "mean", "include_prompt": True})
    )
    _edit_json(model / "tokenizer_config.json", model_max_length=256)
    spec = read_model_spec(model)
    assert spec.unsupported is None
    assert (spec.max_length, spec.pooling, spec.normalize, spec.dim) == (256, "mean", True, 384)
    # without any window in the files: the model's position embeddings (512) bound it
    _edit_json(model / "tokenizer_config.json", model_max_length=None)
    assert read_model_spec(model).max_length == 512


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"pooling_mode": "weightedmean"}, "pooling"),
        ({"pooling_mode": ["cls", "mean"]}, "pooling"),
    ],
)
def test_unsupported_pooling_is_named(tmp_path: Path, change: dict[str, object], reason: str) -> None:
    model = copy_model(tmp_path / "m")
    (model / "1_Pooling" / "config.json").write_text(json.dumps({"embedding_dimension": 384, **change}))
    assert reason in (read_model_spec(model).unsupported or "")


def test_extra_module_prompt_or_left_truncation_is_unsupported(tmp_path: Path) -> None:
    model = copy_model(tmp_path / "m")
    modules = json.loads((model / "modules.json").read_text())
    (model / "modules.json").write_text(
        json.dumps([*modules, {"idx": 3, "name": "3", "path": "3_Dense", "type": "sentence_transformers.models.Dense"}])
    )
    assert "Dense" in (read_model_spec(model).unsupported or "")
    (model / "modules.json").write_text(json.dumps(modules))
    _edit_json(model / "config_sentence_transformers.json", prompts={"query": "query: "}, default_prompt_name="query")
    assert "prompt" in (read_model_spec(model).unsupported or "")
    _edit_json(model / "config_sentence_transformers.json", default_prompt_name=None)
    _edit_json(model / "tokenizer_config.json", truncation_side="left")
    assert "truncation_side" in (read_model_spec(model).unsupported or "")


def test_unreproducible_model_falls_back_with_a_logged_reason(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """weightedmean pooling: the ONNX path says no before any export; sentence-transformers embeds instead, and
    its vectors are that model's (not the mean-pooled ones of the shipped model)."""
    model = copy_model(tmp_path / "m")
    (model / "1_Pooling" / "config.json").write_text(
        json.dumps({"embedding_dimension": 384, "pooling_mode": "weightedmean"})
    )
    auto = AutoEmbedder(model, cache_dir=tmp_path / "cache")
    with caplog.at_level(logging.WARNING, logger="memgraph.embed"):
        got = auto.encode(SAMPLE)
    assert auto.serving == "sentence-transformers"
    assert "weightedmean" in (auto.fallback_reason or "")
    assert any("weightedmean" in r.getMessage() and r.levelno == logging.WARNING for r in caplog.records)
    ref = SentenceTransformerEmbedder(model, device="cpu").encode(SAMPLE)
    assert ((got * ref).sum(axis=1) >= 0.9999).all()
    mean_pooled = SentenceTransformerEmbedder(device="cpu").encode(SAMPLE)
    assert ((got * mean_pooled).sum(axis=1) < 0.9999).any()  # the fallback did embed with that model

    strict = AutoEmbedder(model, backend="onnx", cache_dir=tmp_path / "cache")
    with pytest.raises(OnnxUnsupportedError, match="weightedmean"):
        strict.encode(["x"])
    assert isinstance(OnnxUnsupportedError("x"), EmbedderUnavailableError)


@pytest.mark.slow
def test_a_users_model_directory_is_exported_and_verified(tmp_path: Path) -> None:
    """A local model with other settings (cls pooling, lower-casing asked by the model, no Normalize module)
    gets its own graph, equal to sentence-transformers on that directory."""
    model = copy_model(tmp_path / "m")
    (model / "1_Pooling" / "config.json").write_text(
        json.dumps({"word_embedding_dimension": 384, "pooling_mode_cls_token": True})
    )
    modules = json.loads((model / "modules.json").read_text())[:2]
    (model / "modules.json").write_text(json.dumps(modules))
    _edit_json(model / "sentence_bert_config.json", do_lower_case=True)
    auto = AutoEmbedder(model, cache_dir=tmp_path / "cache")
    got = auto.encode(SAMPLE)
    assert auto.serving == "onnx", auto.fallback_reason
    ref = SentenceTransformerEmbedder(model, device="cpu").encode(SAMPLE)
    assert ((got * ref).sum(axis=1) >= 0.9999).all()
    assert len(list((tmp_path / "cache" / "onnx").glob("*.onnx"))) == 1


def test_default_embedder_serves_onnx_behind_the_cache(tmp_path: Path, onnx_embedder: OnnxEmbedder) -> None:
    emb = default_embedder(Settings(store=str(tmp_path / "store")))
    assert isinstance(emb, CachedEmbedder) and isinstance(emb.inner, AutoEmbedder)
    assert not emb.inner.loaded  # building it loads nothing
    assert emb.count_tokens("hello world") == 2 and not emb.inner.loaded  # the tokenizer alone
    vec = emb.encode(["hello world"])
    assert emb.inner.serving == "onnx"
    assert np.allclose(vec, onnx_embedder.encode(["hello world"]), atol=1e-6)
    assert (tmp_path / "store" / "embedding_cache.sqlite3").exists()
    emb.close()


def test_sentence_transformers_backend_is_selectable(tmp_path: Path) -> None:
    emb = default_embedder(Settings(store=":memory:", embed_backend="sentence-transformers", embed_device="cpu"))
    assert isinstance(emb.inner, AutoEmbedder)
    emb.encode(["x"])
    assert emb.inner.serving == "sentence-transformers"


def test_bulk_batches_go_to_the_device_backend_and_agree(onnx_embedder: OnnxEmbedder) -> None:
    """With embed_device set, a batch of at least embed_bulk_min texts is embedded by sentence-transformers
    on that device, a smaller one by ONNX; the vectors agree either way (here the device is the CPU)."""
    auto = AutoEmbedder(device="cpu:0", bulk_min=4)
    bulk = auto.encode(SAMPLE)
    assert auto._bulk is not None and auto._bulk.loaded and not auto.loaded
    one = np.vstack([auto.encode([t]) for t in SAMPLE])
    assert auto.serving == "onnx"
    assert ((bulk * one).sum(axis=1) >= 0.9999).all()
