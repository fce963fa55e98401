"""What the cascade loses on LoCoMo dev without the cue-stripped question's own embedding (issue 14).

A cascade recall whose question names a cue tag (a speaker, a date) embeds the question and its cue-stripped form
as a batch of two; the stripped vector is searched inside each cue tag (`vector@<tag>`). One text would save ~3.7 ms
of CPU per recall (`bench/query_embedding.py`). This script stores LoCoMo dev once (maintenance off) and asks every
question in cascade mode with the scoped vector replaced by an approximation made from vectors a recall could have
without a second sequence, printing R@5, R@10, hit@10 and the approximation's cosine to the true stripped vector:

- `main`: the true stripped vector (what recall does);
- `qvec`: the question's own vector;
- `none`: no vector list inside the cue tags (their full-text lists stay);
- `sub:A`: normalise(q - A x v) for each cue tag that is a name (speaker, project), v = the embedding of the tag's
  value ("caroline"), which a recall could cache per name; date tags are left alone (their phrase is per question);
- `proj`: q with each such v projected out;
- `rerank:B`: the question's vector inside the tag, each hit's cosine plus B x its stripped-query BM25 inside the
  tag (normalised by the best), re-sorted;
- `sizes`: main, and prints the largest cue tag's member count per cue-bearing question (a size rule's reach).

The vectors are made by patching the recaller (nothing here changes memgraph): the true pair is still embedded, so
the timings printed are not the approximation's.

    python bench/cue_vector.py --ingest conversation --variants main,qvec,none,proj,sub:0.5 --data ../shared/data
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import numpy as np

os.environ.setdefault("HF_HUB_OFFLINE", "1")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import locomo  # noqa: E402

import memgraph.retrieve.pipeline as pipeline  # noqa: E402
from memgraph.retrieve import seeds  # noqa: E402
from memgraph.retrieve.cues import QueryCues, find_cues  # noqa: E402

STATE: dict[str, Any] = {"cues": None, "variant": "main", "seen": []}
NAMES: dict[str, np.ndarray] = {}
_embed = pipeline.Recaller._embed
_search_lists = seeds.search_lists


def _cues(*args: Any, **kwargs: Any) -> QueryCues:
    cues = find_cues(*args, **kwargs)
    STATE["cues"] = cues
    return cues


def _unit(v: np.ndarray) -> np.ndarray:
    return np.asarray(v / max(float(np.linalg.norm(v)), 1e-12), dtype=np.float32)


def _approx(recaller: pipeline.Recaller, q: np.ndarray, cues: QueryCues, variant: str) -> np.ndarray:
    kind, _, arg = variant.partition(":")
    if kind in ("qvec", "rerank"):
        return q
    v = q.astype(np.float64)
    for tag in cues.tags:
        facet, _, value = tag.name.partition(":")
        if facet in ("date", "month"):
            continue
        if value not in NAMES:
            NAMES[value] = _embed(recaller, [value])[0]
        name = NAMES[value].astype(np.float64)
        v = v - (float(arg) if kind == "sub" else float(v @ name)) * name
    return _unit(v)


def _embed_async(self: pipeline.Recaller, texts: Any) -> Future[np.ndarray]:
    done: Future[np.ndarray] = Future()
    texts = list(texts)
    out = _embed(self, texts)
    variant = STATE["variant"]
    if len(texts) == 2 and variant not in ("main", "sizes", "none"):
        approx = _approx(self, out[0], STATE["cues"], variant)
        STATE["seen"].append(float(approx @ out[1]))
        out = np.vstack([out[0], approx])
    done.set_result(out)
    return done


def _lists(*args: Any, **kwargs: Any) -> dict[str, list[tuple[str, float]]]:
    variant = STATE["variant"]
    if variant == "none" and kwargs.get("scoped"):
        kwargs["scoped"] = [(tag, text, None) for tag, text, _ in kwargs["scoped"]]
    lists = _search_lists(*args, **kwargs)
    if variant.startswith("rerank:"):
        weight = float(variant.split(":")[1])
        for name in [n for n in lists if n.startswith("vector@")]:
            text = lists.get("text@" + name.split("@", 1)[1], [])
            best = max((s for _, s in text), default=0.0) or 1.0
            bm25 = {mid: s / best for mid, s in text}
            lists[name] = sorted(((m, s + weight * bm25.get(m, 0.0)) for m, s in lists[name]), key=lambda x: -x[1])
    cues = STATE["cues"]
    if variant == "sizes" and cues is not None and cues.tags:
        STATE["seen"].append(max(t.count for t in cues.tags))
    return lists


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ingest", default="conversation", choices=locomo.INGESTS)
    ap.add_argument("--variants", default="main,qvec,none,proj,sub:0.5,sub:0.7,rerank:0.2")
    ap.add_argument("--data", default=locomo.default_data(), help="LoCoMo JSON, or its folder")
    ap.add_argument("--cache-dir", default=str(ROOT / "bench" / ".cache"), help="embedding cache directory")
    args = ap.parse_args()
    setattr(pipeline, "find_cues", _cues)  # noqa: B010 (the recaller's own name, patched)
    pipeline.Recaller._embed_async = _embed_async  # type: ignore[method-assign]
    setattr(pipeline, "search_lists", _lists)  # noqa: B010
    path = Path(args.data)
    data = json.loads((path / "locomo_dev.json" if path.is_dir() else path).read_text())
    opts = argparse.Namespace(cache_dir=args.cache_dir, store="sqlite")
    with (
        tempfile.TemporaryDirectory() as tmp,
        locomo.opened(opts, Path(tmp) / "s", None, recall_maintenance=False) as engine,
    ):
        maps, questions, _ = locomo.load(engine, data, args.ingest)
        engine.recall("warm up", user_id=data[0]["sample_id"], top_k=10)
        for variant in args.variants.split(","):
            STATE["variant"], STATE["seen"] = variant, []
            start = time.perf_counter()
            r = locomo.ask(engine, maps, questions, "cascade", variant)
            seen = STATE["seen"]
            row: dict[str, Any] = {
                "ingest": args.ingest, "variant": variant, "r5": round(r["r5"], 4), "r10": round(r["r10"], 4),
                "hit10": round(r["hit10"], 4),
                "r10_by_category": {k: round(v, 3) for k, v in r["per_category_r10"].items()},
                "s": round(time.perf_counter() - start), "load": round(os.getloadavg()[0], 1),
            }  # fmt: skip
            if variant == "sizes" and seen:
                row["cue_bearing"] = len(seen)
                row["largest_cue_tag_p50"] = float(np.median(seen))
                row["largest_cue_tag_min"] = int(min(seen))
            elif seen:
                row["cosine_to_stripped_p50"] = round(float(np.median(seen)), 4)
                row["cosine_to_stripped_mean"] = round(float(np.mean(seen)), 4)
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
