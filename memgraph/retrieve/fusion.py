"""Fusing ranked lists (vector kNN, BM25 full text, and the lists searched inside query-named tags) into one.

`search`, hybrid recall and the cascade's seeds all fuse through `fuse_lists`, so they rank alike.

The default is a convex combination of min-max normalised scores, full text weighted `fusion_text_weight`
(0.6), vector 0.4: score(d) = sum over lists of weight(list) x (s - worst) / (best - worst), a memory missing
from a list getting 0 from it. The cascade's lists searched inside a query-named tag weigh
`fusion_scoped_text_weight` (0.45) instead: there the full-text list repeats the global one's terms (config.py).
Measured on LoCoMo dev through `recall` (`python bench/fusion.py`, R@10; lexical 0.586, semantic 0.502;
bench/RESULTS.md "Fusion"):

    hybrid:  RRF equal weights 0.585 (ties BM25) | RRF text 0.6: 0.598 | convex min-max text 0.5 / 0.6 / 0.7:
             0.631 / 0.636 / 0.640 | fixed floor 0.611 / 0.618 / 0.624 | max 0.592 / 0.609 / 0.611
    cascade (remember_many ingest): min-max text 0.6 / 0.7: 0.773 / 0.769 | floor 0.6: 0.770

RRF keeps only ranks, so the weaker dense list's third hit counts as much as the stronger text list's and
dilutes it; a convex combination keeps how far apart the scores are. Min-max with text 0.6 is the best cascade
and within 0.004 of the best hybrid. Its one oddity: the last hit of a list scores 0 from that list (a store
with two memories ranks the second at 0 although it was found); ranks stay right. Written here (a few lines)
because it must be identical for every caller and store; the BM25 scores it reads are computed the same way
on every store (store/bm25.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from memgraph.config import Settings

Ranking = Sequence[tuple[str, float]]

#: List-name prefixes (seeds.py names lists `vector`, `text`, `vector@<tag>`, `text@<tag>`).
TEXT_LISTS = "text"
VECTOR_LISTS = "vector"


def rrf_fuse(
    rankings: Sequence[Ranking], k: int, weights: Sequence[float] | None = None
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


def minmax(ranking: Ranking) -> dict[str, float]:
    """Scores mapped to [0, 1]: the best 1, the worst 0; a list whose scores are all equal maps them to 1."""
    if not ranking:
        return {}
    values = [float(s) for _, s in ranking]
    lo, hi = min(values), max(values)
    if hi - lo <= 1e-12:
        return {mid: 1.0 for mid, _ in ranking}
    return {mid: (float(s) - lo) / (hi - lo) for mid, s in ranking}


def floored(ranking: Ranking, floor: float) -> dict[str, float]:
    """Scores mapped to (0, 1] from a fixed floor: (s - floor) / (best - floor). Unlike min-max, the last hit of
    a short list is not 0 just for being last, and the scale does not depend on how many hits were asked for."""
    if not ranking:
        return {}
    hi = max(float(s) for _, s in ranking)
    if hi - floor <= 1e-12:
        return {mid: 1.0 for mid, _ in ranking}
    return {mid: max(0.0, (float(s) - floor) / (hi - floor)) for mid, s in ranking}


def convex_fuse(
    rankings: Sequence[Ranking], weights: Sequence[float], floors: Sequence[float | None] | None = None
) -> list[tuple[str, float]]:
    """score(d) = sum over rankings of weight x normalised score (min-max, or from a fixed floor where `floors`
    gives one); best first, ties by id."""
    if len(weights) != len(rankings) or (floors is not None and len(floors) != len(rankings)):
        raise ValueError("one weight (and floor) per ranking")
    scores: dict[str, float] = {}
    for i, (ranking, w) in enumerate(zip(rankings, weights, strict=True)):
        floor = floors[i] if floors is not None else None
        norm = minmax(ranking) if floor is None else floored(ranking, floor)
        for mid, value in norm.items():
            scores[mid] = scores.get(mid, 0.0) + float(w) * value
    return sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))


def list_weight(name: str, settings: Settings) -> float:
    """Full-text lists weigh `fusion_text_weight`, vector lists the rest; lists searched inside a tag
    (`<kind>@<tag>`) use `fusion_scoped_text_weight` instead: the scoped full-text list repeats the global one's
    terms, the scoped vector list brings a vector of its own (the cue-stripped query)."""
    kind, _, tag = name.partition("@")
    w = settings.fusion_scoped_text_weight if tag else settings.fusion_text_weight
    return w if kind == TEXT_LISTS else 1.0 - w


def fuse_lists(lists: Mapping[str, Ranking], settings: Settings) -> list[tuple[str, float]]:
    """The named lists fused by the configured method (`fusion`); best first, ties by id."""
    names = [n for n in lists if lists[n]]
    if settings.fusion == "rrf":
        return rrf_fuse([lists[n] for n in names], settings.rrf_k)
    if settings.fusion == "rrf_weighted":
        return rrf_fuse([lists[n] for n in names], settings.rrf_k, [list_weight(n, settings) for n in names])
    weights = [list_weight(n, settings) for n in names]
    if settings.fusion_normalise == "minmax":
        return convex_fuse([lists[n] for n in names], weights)
    return convex_fuse([lists[n] for n in names], weights, [list_floor(n, settings) for n in names])


def list_floor(name: str, settings: Settings) -> float:
    """The score a list's hits are measured from: 0 for BM25 (and for cosine under `max`), the similarity
    threshold for vector lists under `floor` (every vector hit passed it)."""
    if name.split("@", 1)[0] == TEXT_LISTS or settings.fusion_normalise == "max":
        return 0.0
    return settings.cue_similarity_threshold if "@" in name else settings.similarity_threshold
