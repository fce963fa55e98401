"""How vector and full-text lists should fuse: each variant measured through `recall` on LoCoMo dev.

One store (LoCoMo dev, ingested as in bench/locomo.py), post-recall maintenance off; for every fusion variant the
store is reopened with those settings and every category 1-4 question is asked in `hybrid` mode (and in
`cascade` with --cascade, since the cascade's seeds are fused the same way). Variants: reciprocal rank fusion
(k = 60) with equal weights and with the text list weighted; a convex combination of normalised scores with
min-max, fixed-floor and max normalisation, for several text weights. The chosen default is the one config.py
names (`fusion`, `fusion_normalise`, `fusion_text_weight`); RESULTS.md "Fusion" says why.

    python bench/fusion.py                          # hybrid, conversation ingest
    python bench/fusion.py --cascade --append-results
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

import locomo  # noqa: E402
from bench_results import write_rows  # noqa: E402

from memgraph import MemoryEngine, Settings  # noqa: E402

VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("rrf, equal weights", {"fusion": "rrf"}),
    ("rrf, text 0.6", {"fusion": "rrf_weighted", "fusion_text_weight": 0.6}),
    ("rrf, text 0.7", {"fusion": "rrf_weighted", "fusion_text_weight": 0.7}),
    *[
        (f"convex {norm}, text {w}", {"fusion": "convex", "fusion_normalise": norm, "fusion_text_weight": w})
        for norm in ("minmax", "floor", "max")
        for w in (0.5, 0.6, 0.7)
    ],
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=locomo.default_data(), help="LoCoMo JSON, or its folder")
    ap.add_argument("--ingest", choices=locomo.INGESTS, default="conversation")
    ap.add_argument("--cascade", action="store_true", help="also measure cascade for every variant")
    ap.add_argument("--conversations", type=int, default=None)
    ap.add_argument("--cache-dir", default=str(ROOT / "bench" / ".cache"))
    ap.add_argument("--append-results", action="store_true", help="append to bench/RESULTS.md, results/fusion.json")
    args = ap.parse_args()
    path = Path(args.data)
    data = json.loads((path / "locomo_dev.json" if path.is_dir() else path).read_text())[: args.conversations]
    modes = ["hybrid", "cascade"] if args.cascade else ["hybrid"]
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        common: dict[str, Any] = {"store": tmp, "embed_cache_dir": args.cache_dir, "recall_maintenance": False}
        with MemoryEngine.open(tmp, settings=Settings(**common)) as engine:
            maps, questions, _ = locomo.load(engine, data, args.ingest)
            base = {m: locomo.ask(engine, maps, questions, m, m)["r10"] for m in ("lexical", "semantic")}
        for name, variant in VARIANTS:
            with MemoryEngine.open(tmp, settings=Settings(**common, **variant)) as engine:
                for mode in modes:
                    r = locomo.ask(engine, maps, questions, mode, f"{name}: {mode}")
                    rows.append({"ingest": args.ingest, "variant": name, "mode": mode, **variant,
                                 "r5": r["r5"], "r10": r["r10"], "hit10": r["hit10"]})
                    print(f"{name:28s} {mode:8s} R@5 {r['r5']:.3f} R@10 {r['r10']:.3f} hit@10 {r['hit10']:.3f}",
                          flush=True)
    lines = [f"lexical R@10 {base['lexical']:.3f}, semantic {base['semantic']:.3f} ({args.ingest} ingest, "
             f"{len(questions)} questions, load average {os.getloadavg()[0]:.1f})", "",
             "| variant | mode | R@5 | R@10 | hit@10 |", "|---|---|---|---|---|"]
    lines += [f"| {r['variant']} | {r['mode']} | {r['r5']:.3f} | {r['r10']:.3f} | {r['hit10']:.3f} |" for r in rows]
    text = "\n".join(lines)
    print(text)
    if args.append_results:
        with open(ROOT / "bench" / "RESULTS.md", "a", encoding="utf-8") as fh:
            fh.write(f"\n### Fusion variants (`python bench/fusion.py {' '.join(sys.argv[1:])}`)\n\n{text}\n")
        write_rows("fusion", [{"store": "sqlite", **r} for r in rows], keys=("store", "ingest", "variant", "mode"))


if __name__ == "__main__":
    main()
