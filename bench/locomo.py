"""Retrieval quality on LoCoMo (dev: five conversations): evidence Recall@5/@10 and hit@10 per mode.

Protocol (issue 4): each conversation is one user, each turn one memory (`"speaker: text"`, metadata keeps
dia_id, session and date, created_at = the session's date-time), stored through the public API
(`MemoryEngine.remember_conversation`, which also adds the conversation's structure: sequence links and
session/speaker/date tags). Every category 1-4 question is one `recall(question, top_k=10)`; a question's
recall@k is the share of its evidence dia_ids among the top k memories. All four modes run on the same store
in the same run, then cascade once more after the `cluster` and `links` jobs have run (the graph users have
once they maintain their store). Post-recall maintenance is switched off so that questions cannot influence
each other.

    python bench/locomo.py                       # all four modes (+ cascade after the jobs), prints the table
    python bench/locomo.py --append-results      # ... and appends it to bench/RESULTS.md and results/locomo.json
    python bench/locomo.py --store neo4j         # the same on Neo4j (MEMGRAPH_NEO4J_URI, or one started here)

Turn embeddings are cached by content hash in --cache-dir (default bench/.cache), so a rerun embeds nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
import unicodedata
from collections import defaultdict
from contextlib import ExitStack
from datetime import UTC, datetime
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_neo4j import HEAP, PAGECACHE, neo4j_server  # noqa: E402
from bench_results import write_rows  # noqa: E402
from dateutil import parser as dateparser  # noqa: E402
from rich.progress import Progress  # noqa: E402

from memgraph import MemoryEngine, Settings  # noqa: E402
from memgraph.models import memory_id_for  # noqa: E402

MODES = ("lexical", "semantic", "hybrid", "cascade")
#: The last row: cascade again after `cluster` and `links` have run (--no-after-jobs leaves it out).
AFTER_JOBS = "cascade after jobs"
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}


def session_numbers(conv: dict) -> list[int]:
    nums = [int(k.split("_")[1]) for k in conv if k.startswith("session_") and not k.endswith("date_time")]
    return sorted(nums)


def parse_session_date(text: str) -> datetime:
    """LoCoMo writes '1:56 pm on 8 May, 2023'."""
    return dateparser.parse(text.replace(" on ", " ")).replace(tzinfo=UTC)


def evidence_ids(raw: list[str], known: set[str]) -> list[str]:
    """Evidence entries are dia_ids; a few hold several ('D8:6; D9:17') or are malformed (dropped)."""
    out: list[str] = []
    for entry in raw:
        for part in str(entry).replace(",", ";").split(";"):
            part = part.strip()
            if part in known and part not in out:
                out.append(part)
    return out


def ingest(engine: MemoryEngine, sample: dict) -> dict[str, set[str]]:
    """Store one conversation; returns memory id -> dia_ids (identical turns share one memory)."""
    user = sample["sample_id"]
    conv = sample["conversation"]
    mem_dias: dict[str, set[str]] = defaultdict(set)
    for n in session_numbers(conv):
        turns = conv[f"session_{n}"]
        when = parse_session_date(conv[f"session_{n}_date_time"])
        engine.remember_conversation(
            [
                {
                    "speaker": t["speaker"],
                    "text": t["text"],
                    "metadata": {"dia_id": t["dia_id"], "session": n},
                }
                for t in turns
            ],
            user_id=user,
            session_id=f"{user}-s{n}",
            session_date=when,
        )
        for t in turns:
            content = unicodedata.normalize("NFC", f"{t['speaker']}: {t['text'].strip()}").strip()
            mem_dias[memory_id_for(user, content)].add(t["dia_id"])
    return mem_dias


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    idx = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[idx]


def run(args: argparse.Namespace) -> dict:
    data = json.loads(Path(args.data).read_text())[: args.conversations]
    cache_dir = Path(args.cache_dir)
    cache_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        common = {"embed_cache_dir": str(cache_dir), "recall_maintenance": False}
        if args.store == "neo4j":
            server = stack.enter_context(neo4j_server(Path(tmp), heap=args.neo4j_heap, pagecache=args.neo4j_pagecache))
            server.wipe()
            target, settings = server.uri, server.settings(**common)
        else:
            target = tmp if args.store == "sqlite" else f"falkordb+dir://{tmp}/falkordb"
            settings = Settings(store=target, **common)
        engine = MemoryEngine.open(target, settings=settings)
        t0 = time.perf_counter()
        maps: dict[str, dict[str, set[str]]] = {}
        questions: list[tuple[str, str, list[str], int]] = []
        dropped = 0
        with Progress(transient=True) as progress:
            task = progress.add_task("ingesting conversations", total=len(data))
            for sample in data:
                maps[sample["sample_id"]] = ingest(engine, sample)
                known = set().union(*maps[sample["sample_id"]].values())
                for qa in sample["qa"]:
                    if qa.get("category") not in CATEGORIES:
                        continue
                    ev = evidence_ids(qa.get("evidence", []), known)
                    if not ev:
                        dropped += 1
                        continue
                    questions.append((sample["sample_id"], qa["question"], ev, qa["category"]))
                progress.advance(task)
        ingest_s = time.perf_counter() - t0
        engine.recall("warm up", user_id=data[0]["sample_id"], top_k=10)  # model load is not a recall
        results: dict[str, dict] = {}
        modes = args.modes.split(",")
        if args.after_jobs:
            modes.append(AFTER_JOBS)
        with Progress(transient=True) as progress:
            for mode in modes:
                if mode == AFTER_JOBS:
                    # what users get once the maintenance jobs have run: clusters (InCluster) and discovered
                    # similarity links (RelatesTo) join the graph the cascade walks
                    for sample in data:
                        engine.jobs.cluster(sample["sample_id"], apply=True)
                        engine.jobs.links(sample["sample_id"], apply=True)
                task = progress.add_task(f"recall ({mode})", total=len(questions))
                per_cat: dict[int, list[float]] = defaultdict(list)
                r5, r10, h10, lat = [], [], [], []
                for user, question, ev, cat in questions:
                    start = time.perf_counter()
                    res = engine.recall(
                        question,
                        user_id=user,
                        top_k=10,
                        token_budget=100_000,
                        mode="cascade" if mode == AFTER_JOBS else mode,
                    )
                    lat.append((time.perf_counter() - start) * 1000)
                    found5: set[str] = set()
                    found10: set[str] = set()
                    for i, mem in enumerate(res.memories[:10]):
                        dias = maps[user].get(mem.id, set())
                        found10 |= dias
                        if i < 5:
                            found5 |= dias
                    a5 = len(found5 & set(ev)) / len(ev)
                    a10 = len(found10 & set(ev)) / len(ev)
                    r5.append(a5)
                    r10.append(a10)
                    h10.append(1.0 if a10 > 0 else 0.0)
                    per_cat[cat].append(a10)
                    progress.advance(task)
                results[mode] = {
                    "R@5": statistics.fmean(r5),
                    "R@10": statistics.fmean(r10),
                    "hit@10": statistics.fmean(h10),
                    "per_category_R@10": {
                        CATEGORIES[c]: statistics.fmean(v) for c, v in sorted(per_cat.items())
                    },
                    "p50_ms": percentile(lat, 0.5),
                    "p95_ms": percentile(lat, 0.95),
                }
        engine.close()
    return {
        "conversations": len(data),
        "questions": len(questions),
        "dropped_questions": dropped,
        "memories": sum(len(m) for m in maps.values()),
        "ingest_s": ingest_s,
        "modes": results,
    }


def table(report: dict) -> str:
    cats = list(CATEGORIES.values())
    head = "| mode | R@5 | R@10 | hit@10 | " + " | ".join(f"R@10 {c}" for c in cats) + " | p50 ms | p95 ms |"
    lines = [head, "|" + "---|" * (6 + len(cats))]
    for mode, r in report["modes"].items():
        per = r["per_category_R@10"]
        lines.append(
            f"| {mode} | {r['R@5']:.3f} | {r['R@10']:.3f} | {r['hit@10']:.3f} | "
            + " | ".join(f"{per.get(c, float('nan')):.3f}" for c in cats)
            + f" | {r['p50_ms']:.1f} | {r['p95_ms']:.1f} |"
        )
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=str(ROOT.parent / "shared" / "data" / "locomo_dev.json"))
    ap.add_argument("--modes", default=",".join(MODES), help="comma-separated recall modes")
    ap.add_argument("--store", choices=("sqlite", "falkordb", "neo4j"), default="sqlite", help="the store measured")
    ap.add_argument("--conversations", type=int, default=None, help="only the first N conversations (a quick run)")
    ap.add_argument("--neo4j-heap", default=HEAP, help="Heap of the Neo4j started for the run.")
    ap.add_argument("--neo4j-pagecache", default=PAGECACHE, help="Page cache of the Neo4j started for the run.")
    ap.add_argument("--json-dir", default=None, help="Where locomo.json goes (default: bench/results).")
    ap.add_argument(
        "--after-jobs",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="finish with a cascade row after the cluster and links jobs have run (default: on)",
    )
    ap.add_argument("--cache-dir", default=str(ROOT / "bench" / ".cache"), help="embedding cache directory")
    ap.add_argument("--json", dest="json_out", help="also write the report as JSON to this file")
    ap.add_argument(
        "--append-results", action="store_true", help="append the table to bench/RESULTS.md (and results/locomo.json)"
    )
    ap.add_argument("--results", default=str(ROOT / "bench" / "RESULTS.md"), help="Markdown file to append.")
    args = ap.parse_args()
    report = run(args)
    text = table(report)
    print(text)
    print(
        f"{report['questions']} questions (categories 1-4; {report['dropped_questions']} without a valid "
        f"evidence id dropped), {report['memories']} memories, ingest {report['ingest_s']:.1f} s"
    )
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(report, indent=2))
    if args.append_results:
        stamp = datetime.now(UTC).strftime("%Y-%m-%d")
        machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
        with open(args.results, "a", encoding="utf-8") as fh:
            fh.write(f"\n### LoCoMo dev ({stamp}, {machine}, {args.store})\n\n{text}\n\n")
        # one row per store and size (the number of conversations)
        row = {"store": args.store, "size": report["conversations"], **report}
        path = write_rows("locomo", [row], directory=args.json_dir)
        print(f"appended to {args.results}; row in {path}")


if __name__ == "__main__":
    main()
