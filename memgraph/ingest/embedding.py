"""Texts -> vectors for everything that writes them (the write path, the engine's `embed`, the jobs): one batch
through the embedder, float32, and the shape checked against the store's dimension, because another model's
vectors are not comparable with the stored ones and must never reach the store."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from memgraph.embed import Embedder
from memgraph.errors import ModelMismatchError


def encode(embedder: Embedder, texts: Sequence[str], dim: int) -> np.ndarray:
    """(len(texts), dim) float32 vectors of `texts`; ModelMismatchError when the embedder's dimension differs."""
    vecs = np.asarray(embedder.encode(list(texts)), dtype=np.float32)
    if vecs.shape != (len(texts), dim):
        raise ModelMismatchError(f"embedder returns {vecs.shape[1:]} vectors, the store uses ({dim},)")
    return vecs
