"""Optional cross-encoder reranking: only when the user points `reranker_model_path` at a
local sentence-transformers CrossEncoder directory. None is shipped; without one, recall uses the weighted
blend of rank.py and says so in each trace's notes. A model that fails to load is reported, never raised.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

_CACHE: dict[str, Any] = {}
_LOCK = threading.Lock()


class RerankerUnavailable(Exception):
    """The configured cross-encoder could not be loaded."""


def _load(path: str) -> Any:
    with _LOCK:
        if path not in _CACHE:
            if not Path(path).expanduser().is_dir():
                raise RerankerUnavailable(f"reranker model directory not found: {path}")
            try:
                from sentence_transformers import CrossEncoder

                _CACHE[path] = CrossEncoder(str(Path(path).expanduser()))
            except Exception as exc:
                raise RerankerUnavailable(f"could not load reranker {path}: {exc}") from exc
        return _CACHE[path]


def rerank_scores(path: str, query: str, texts: Sequence[str]) -> list[float]:
    """Relevance in (0, 1) for each text (sigmoid of the cross-encoder logit)."""
    model = _load(path)
    raw = model.predict([(query, t) for t in texts], show_progress_bar=False)
    return [1.0 / (1.0 + math.exp(-float(x))) for x in raw]
