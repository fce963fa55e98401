"""Every reconciliation decision of a bulk load of real conversation turns, written out to compare two versions.

A speed-up of the write path must not change what it decides. This loads the first `--turns` turns of
bench/recall_scale.py's corpus (LoCoMo dev conversations verbatim, then Multi-Session Chat persona sentences)
through `remember_linked(..., reconcile=True)` in batches into a fresh SQLite store, twice:
- `turns`: as conversation turns (`"speaker: text"`, speaker metadata, session tags), what
  `remember_conversation` writes;
- `plain`: the same texts without a speaker, so every rule runs (a turn never supersedes or contradicts
  another speaker's, and two turns of one speaker are read more strictly).
Embeddings are recall_scale's cached vectors of the real model (no model runs). It writes one JSON line per
decision (variant, batch, outcome, memory id, target id, reason, scores) and then the store's Supersedes and
Contradicts edges. `--code` imports memgraph from another checkout, so one script runs both versions:

    python bench/bulk_decisions.py --out /tmp/new.jsonl
    git -C . archive main memgraph | tar -x -C /tmp/main-code
    python bench/bulk_decisions.py --code /tmp/main-code --out /tmp/main.jsonl
    python bench/bulk_decisions.py --compare /tmp/main.jsonl /tmp/new.jsonl

`--compare` prints the outcome counts of each file and every decision or edge that differs (scores are
compared apart: a cosine's last float bits may differ between two matrix products without changing a decision).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _load(args: argparse.Namespace, out: Any) -> None:
    if args.code:
        sys.path.insert(0, str(Path(args.code).resolve()))
    import memgraph  # the version under test, before recall_scale puts this checkout on the path
    from memgraph import MemoryEngine, Settings
    from memgraph.ingest import pipeline
    from memgraph.ingest.episodes import plan_episode
    from memgraph.models import Relation
    from memgraph.store import open_store

    sys.path.insert(0, str(ROOT))  # this checkout's bench/, the memgraph above already imported
    from bench import recall_scale as rs

    if args.data:
        rs.DATA = Path(args.data)
    if args.units_cache:
        rs.CACHE = Path(args.units_cache)
    print(f"memgraph from {memgraph.__file__}", file=sys.stderr)
    locomo, sentences, _ = rs.load_corpus()
    units = list(dict.fromkeys([u for s in locomo for _, us in s.turns for u in us] + sentences))
    table = rs.embed_units(units)
    sessions = list(rs.sessions_for(args.turns, locomo, sentences))

    captured: list[Any] = []
    original = pipeline.record

    def record(resolutions: Any, report: Any, item_ids: Any) -> None:
        captured.extend(resolutions)
        original(resolutions, report, item_ids)

    pipeline.record = record  # type: ignore[assignment]
    gate_pairs = None
    if args.pairs:
        # every (write, neighbour) pair the learned duplicate gate scores, with its probability: the candidate
        # pairs it meets in real use (tests/data/decisions/pairs_neighbours.jsonl was sampled from these)
        from memgraph.ingest import pair_model

        gate_pairs = open(args.pairs, "w", encoding="utf-8")  # noqa: SIM115 - closed below
        scored = pair_model.duplicate_probability

        def probability(new: Any, old: Any, comparison: Any, cosine: float) -> float:
            p = scored(new, old, comparison, cosine)
            row = {"new": new.text, "old": old.text, "cosine": round(cosine, 4), "p": round(p, 4)}
            gate_pairs.write(json.dumps(row) + "\n")  # type: ignore[union-attr]
            return p

        pair_model.duplicate_probability = probability  # type: ignore[assignment]
    for variant in args.variants.split(","):
        items: list[dict[str, Any]] = []
        for s in sessions:
            turns = [{"speaker": sp, "text": " ".join(us)} for sp, us in s.turns]
            vectors = [rs.turn_vector(us, table) for _, us in s.turns]
            if variant == "turns":
                plan = plan_episode(turns, session_id=s.id, session_date=s.date, max_topic_tags=16)
                items += [{**item, "embedding": v} for item, v in zip(plan.items, vectors, strict=True)]
            else:
                items += [
                    {"content": t["text"], "embedding": v, "created_at": s.date}
                    for t, v in zip(turns, vectors, strict=True)
                ]
        with tempfile.TemporaryDirectory(prefix="memgraph-bulk-decisions-") as tmp:
            settings = Settings(store=tmp + "/store")
            engine = MemoryEngine(open_store(tmp + "/store", settings), settings, rs.LookupEmbedder({}))
            t0 = time.perf_counter()
            for b, start in enumerate(range(0, len(items), args.batch)):
                captured.clear()
                engine.remember_linked(items[start : start + args.batch], user_id="u", reconcile=True)
                for r in captured:
                    target = r.target.memory.id if r.target is not None else None
                    row = {"variant": variant, "batch": b, "outcome": r.outcome.value, "id": r.memory.id,
                           "target": target, "reason": r.reason, "scores": r.scores}
                    out.write(json.dumps(row) + "\n")
            print(f"{variant}: {len(items)} items in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
            links = engine.store.get_links("u", relations=[Relation.SUPERSEDES, Relation.CONTRADICTS])
            for rel_name, src, dst in sorted({(lk.relation.value, lk.src, lk.dst) for lk in links}):
                out.write(json.dumps({"variant": variant, "edge": rel_name, "src": src, "dst": dst}) + "\n")
            engine.close()
    if gate_pairs is not None:
        gate_pairs.close()


def _compare(a: Path, b: Path) -> int:
    rows = [[json.loads(x) for x in p.read_text().splitlines()] for p in (a, b)]
    for p, rs_ in zip((a, b), rows, strict=True):
        counts = Counter((r["variant"], r.get("outcome") or r["edge"]) for r in rs_)
        print(p.name, dict(sorted(counts.items())))
    keyed = [
        [(r["variant"], r.get("outcome"), r.get("id"), r.get("target"), r.get("reason"), r.get("edge"),
          r.get("src"), r.get("dst")) for r in rs_]
        for rs_ in rows
    ]
    differ = 0
    for i, (x, y) in enumerate(zip(*keyed, strict=False)):
        if x != y:
            differ += 1
            if differ <= 20:
                print(f"line {i + 1}:\n  {x}\n  {y}")
    differ += abs(len(keyed[0]) - len(keyed[1]))
    scores = sum(
        1 for x, y in zip(*rows, strict=False) if x.get("scores") != y.get("scores")
    )
    print(f"{len(keyed[0])} / {len(keyed[1])} lines; decisions or edges that differ: {differ}; "
          f"score dicts that differ: {scores}")
    return 1 if differ else 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--turns", type=int, default=8000, help="Turns to load (LoCoMo dev first, then MSC).")
    ap.add_argument("--batch", type=int, default=1000, help="Items per remember_linked call.")
    ap.add_argument("--variants", default="turns,plain", help="Comma-separated, of turns, plain.")
    ap.add_argument("--code", default=None, help="A checkout whose memgraph/ to import instead of this one's.")
    ap.add_argument("--data", default=None, help="Folder of locomo_dev.json and msc_personas.json.")
    ap.add_argument("--units-cache", default=None, help="Folder of recall_scale's cached unit vectors.")
    ap.add_argument("--out", default=None, help="Where to write the decisions (JSON lines; default stdout).")
    ap.add_argument("--pairs", default=None, help="Also write every pair the learned duplicate gate scores "
                    "(new, old, cosine, p) to this file (JSON lines).")
    ap.add_argument("--compare", nargs=2, metavar=("A", "B"), help="Diff two files this script wrote.")
    args = ap.parse_args()
    if args.compare:
        sys.exit(_compare(Path(args.compare[0]), Path(args.compare[1])))
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            _load(args, fh)
    else:
        _load(args, sys.stdout)


if __name__ == "__main__":
    main()
