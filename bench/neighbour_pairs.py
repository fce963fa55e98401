"""Sample the candidate pairs the learned duplicate gate meets in a real bulk load, for labelling by hand.

`bench/bulk_decisions.py --variants plain --pairs GATE.jsonl` (gate on) writes every (write, stored neighbour) pair
the gate scores (cosine >= dedup_model_min_cosine, no rule decided). This draws ~300 of them across the
probability range, oversampling p >= 0.5 (where a threshold will be chosen), and writes them without their
probability or cosine, so that the labels are given by reading the texts alone:

    python bench/neighbour_pairs.py GATE.jsonl --out /tmp/unlabelled.jsonl --scores /tmp/scores.jsonl

The labelled result is tests/data/decisions/pairs_neighbours.jsonl (README there).
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

#: (low, high, how many) per probability band: p >= 0.5 oversampled.
BANDS = ((0.9, 1.01, 70), (0.8, 0.9, 40), (0.7, 0.8, 35), (0.6, 0.7, 30), (0.5, 0.6, 30), (0.3, 0.5, 35),
         (0.1, 0.3, 30), (0.0, 0.1, 30))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pairs", type=Path)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--scores", type=Path, required=True, help="ids with their p and cosine (not for labelling)")
    ap.add_argument("--seed", type=int, default=15)
    args = ap.parse_args()
    rows = [json.loads(x) for x in args.pairs.read_text(encoding="utf-8").splitlines()]
    seen: set[tuple[str, str]] = set()
    unique = []
    for r in rows:
        key = (r["new"], r["old"])
        if key not in seen and r["new"] != r["old"]:
            seen.add(key)
            unique.append(r)
    rng = random.Random(args.seed)
    drawn = []
    for low, high, k in BANDS:
        band = [r for r in unique if low <= r["p"] < high]
        drawn += rng.sample(band, min(k, len(band)))
    rng.shuffle(drawn)
    with args.out.open("w", encoding="utf-8") as out, args.scores.open("w", encoding="utf-8") as sc:
        for i, r in enumerate(drawn, 1):
            pid = f"nb{i:03d}"
            out.write(json.dumps({"id": pid, "old": r["old"], "new": r["new"]}, ensure_ascii=False) + "\n")
            sc.write(json.dumps({"id": pid, "p": r["p"], "cosine": r["cosine"]}) + "\n")
    print(f"{len(unique)} distinct pairs, {len(drawn)} drawn")


if __name__ == "__main__":
    main()
