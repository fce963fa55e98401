"""Fixtures for the embedder tests: the ONNX embedder on the default graph cache (exported once per machine, as
in production) and the sentence-transformers reference, both on the shipped all-MiniLM-L6-v2."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from memgraph.embed import OnnxEmbedder, SentenceTransformerEmbedder, default_model_path


@pytest.fixture(scope="session")
def onnx_embedder() -> OnnxEmbedder:
    emb = OnnxEmbedder()
    emb.load()
    return emb


@pytest.fixture(scope="session")
def st_embedder() -> SentenceTransformerEmbedder:
    return SentenceTransformerEmbedder(device="cpu")


def copy_model(dest: Path) -> Path:
    """A user's own model directory: the shipped files copied (the weights linked, they are not changed)."""
    src = default_model_path()
    for file in src.rglob("*"):
        if file.is_file():
            target = dest / file.relative_to(src)
            target.parent.mkdir(parents=True, exist_ok=True)
            if file.name == "model.safetensors":
                target.symlink_to(file)
            else:
                shutil.copy2(file, target)
    return dest
