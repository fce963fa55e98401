"""Reciprocal rank fusion (seed 004, k = 60): merge rankings whose scores are not comparable.

Hand-written because it is four lines and must be identical for `search` and `recall`.
"""

from __future__ import annotations

from collections.abc import Sequence


def rrf_fuse(
    rankings: Sequence[Sequence[tuple[str, float]]], k: int, weights: Sequence[float] | None = None
) -> list[tuple[str, float]]:
    """score(d) = sum over rankings of weight / (k + rank(d)); best first, ties broken by id (stable)."""
    if weights is not None and len(weights) != len(rankings):
        raise ValueError("one weight per ranking")
    scores: dict[str, float] = {}
    for i, ranking in enumerate(rankings):
        w = 1.0 if weights is None else float(weights[i])
        for rank, (mid, _) in enumerate(ranking, start=1):
            scores[mid] = scores.get(mid, 0.0) + w / (k + rank)
    return sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
