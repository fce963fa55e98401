"""Retrieval quality on LoCoMo (dev: five conversations) as users get it: evidence Recall@5/@10 and hit@10.

Protocol: each conversation is one user, each turn one memory (`"speaker: text"`, metadata keeps dia_id and the
session, created_at = the session's date-time), stored through the public API in one of two ways:
- `conversation`: `MemoryEngine.remember_conversation`, one call per session;
- `generic`: what most agents do, `remember_many` of the session's turns (one memory each, the speaker in the
  text, `session_id`, `created_at` = the session date), no conversation API.
Every category 1-4 question is one `recall(question, top_k=10)`; a question's recall@k is the share of its
evidence dia_ids among the top k memories. Two configurations:
- `maintenance_off`: post-recall maintenance switched off, so that questions cannot influence each other; every
  mode on one store;
- `default`: the default settings (post-recall maintenance on, in the background): the question set is asked
  twice on a fresh store per mode, background maintenance drained between the passes; `default_pass1` and
  `default_pass2` are both scored (pass 2 is what a store that has been used looks like).

    python bench/locomo.py                        # both ingest paths, both configurations; prints the tables
    python bench/locomo.py --append-results       # ... and appends them to bench/RESULTS.md and results/locomo.json
    python bench/locomo.py --ingests generic --configs maintenance_off --modes lexical,hybrid,cascade
    python bench/locomo.py --store neo4j          # the same on Neo4j (MEMGRAPH_NEO4J_URI, or one started here)

Rows of bench/results/locomo.json: `{store, ingest, config, mode, r5, r10, hit10, ...}` (config is
maintenance_off, default_pass1 or default_pass2). Turn embeddings are cached by content hash in --cache-dir
(default bench/.cache, not committed), so a rerun embeds nothing.
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
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_neo4j import HEAP, PAGECACHE, neo4j_server  # noqa: E402
from bench_results import write_rows  # noqa: E402
from dateutil import parser as dateparser  # noqa: E402
from rich.progress import Progress  # noqa: E402

from memgraph import MemoryEngine, Settings  # noqa: E402
from memgraph.models import memory_id_for  # noqa: E402

MODES = ("lexical", "semantic", "hybrid", "cascade")
DEFAULT_MODES = ("hybrid", "cascade")
INGESTS = ("conversation", "generic")
CONFIGS = ("maintenance_off", "default")
#: cascade again after `cluster` and `links` have run (--after-jobs, maintenance_off only).
AFTER_JOBS = "cascade after jobs"
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
#: Where the dev split is looked for when --data is not given (the repository's parent, then its grandparent).
DATA_NAME = Path("shared") / "data" / "locomo_dev.json"

Question = tuple[str, str, list[str], int]  # user, question, evidence dia_ids, category
MemDias = dict[str, set[str]]  # memory id -> dia_ids (identical turns share one memory)


def default_data() -> str:
    for base in (ROOT.parent, ROOT.parent.parent):
        if (base / DATA_NAME).exists():
            return str(base / DATA_NAME)
    return str(ROOT.parent / DATA_NAME)


def session_numbers(conv: dict[str, Any]) -> list[int]:
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


def turn_text(turn: dict[str, Any]) -> str:
    return unicodedata.normalize("NFC", f"{turn['speaker']}: {turn['text'].strip()}").strip()


def ingest_conversation(engine: MemoryEngine, sample: dict[str, Any]) -> MemDias:
    """Store one conversation with `remember_conversation` (one call per session)."""
    user = sample["sample_id"]
    conv = sample["conversation"]
    mem_dias: MemDias = defaultdict(set)
    for n in session_numbers(conv):
        turns = conv[f"session_{n}"]
        engine.remember_conversation(
            [{"speaker": t["speaker"], "text": t["text"], "metadata": {"dia_id": t["dia_id"], "session": n}}
             for t in turns],
            user_id=user,
            session_id=f"{user}-s{n}",
            session_date=parse_session_date(conv[f"session_{n}_date_time"]),
        )
        for t in turns:
            mem_dias[memory_id_for(user, turn_text(t))].add(t["dia_id"])
    return mem_dias


def ingest_generic(engine: MemoryEngine, sample: dict[str, Any]) -> MemDias:
    """Store one conversation the ordinary way: `remember_many` of each session's turns, one memory per turn
    (speaker in the text, `session_id`, `created_at` = the session date; no conversation API)."""
    user = sample["sample_id"]
    conv = sample["conversation"]
    mem_dias: MemDias = defaultdict(set)
    for n in session_numbers(conv):
        turns = conv[f"session_{n}"]
        when = parse_session_date(conv[f"session_{n}_date_time"])
        engine.remember_many(
            [{"content": turn_text(t), "session_id": f"{user}-s{n}", "created_at": when,
              "metadata": {"dia_id": t["dia_id"]}} for t in turns if t["text"].strip()],
            user_id=user,
        )
        for t in turns:
            mem_dias[memory_id_for(user, turn_text(t))].add(t["dia_id"])
    return mem_dias


INGEST: dict[str, Callable[[MemoryEngine, dict[str, Any]], MemDias]] = {
    "conversation": ingest_conversation,
    "generic": ingest_generic,
}


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    idx = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[idx]


def load(engine: MemoryEngine, data: list[dict[str, Any]], how: str) -> tuple[dict[str, MemDias], list[Question], int]:
    """Ingest every conversation; returns the memory -> dia_id maps, the scored questions and how many were dropped."""
    maps: dict[str, MemDias] = {}
    questions: list[Question] = []
    dropped = 0
    with Progress(transient=True) as progress:
        task = progress.add_task(f"ingesting ({how})", total=len(data))
        for sample in data:
            maps[sample["sample_id"]] = INGEST[how](engine, sample)
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
    return maps, questions, dropped


def ask(
    engine: MemoryEngine, maps: dict[str, MemDias], questions: list[Question], mode: str, label: str
) -> dict[str, Any]:
    """Every question once in `mode`; R@5, R@10, hit@10 (overall and per category) and latency percentiles."""
    per_cat: dict[int, list[float]] = defaultdict(list)
    per_user: dict[str, list[float]] = defaultdict(list)
    r5: list[float] = []
    r10: list[float] = []
    h10: list[float] = []
    lat: list[float] = []
    with Progress(transient=True) as progress:
        task = progress.add_task(f"recall ({label})", total=len(questions))
        for user, question, ev, cat in questions:
            start = time.perf_counter()
            res = engine.recall(question, user_id=user, top_k=10, token_budget=100_000, mode=mode)
            lat.append((time.perf_counter() - start) * 1000)
            found5: set[str] = set()
            found10: set[str] = set()
            for i, mem in enumerate(res.memories[:10]):
                dias = maps[user].get(mem.id, set())
                found10 |= dias
                if i < 5:
                    found5 |= dias
            a10 = len(found10 & set(ev)) / len(ev)
            r5.append(len(found5 & set(ev)) / len(ev))
            r10.append(a10)
            h10.append(1.0 if a10 > 0 else 0.0)
            per_cat[cat].append(a10)
            per_user[user].append(a10)
            progress.advance(task)
    return {
        "r5": statistics.fmean(r5),
        "r10": statistics.fmean(r10),
        "hit10": statistics.fmean(h10),
        "per_category_r10": {CATEGORIES[c]: statistics.fmean(v) for c, v in sorted(per_cat.items())},
        # a rule that helps on average but on one or two conversations only is a fit to them, not a rule
        "per_conversation_r10": {u: statistics.fmean(v) for u, v in per_user.items()},
        "p50_ms": percentile(lat, 0.5),
        "p95_ms": percentile(lat, 0.95),
    }


@contextmanager
def opened(args: argparse.Namespace, work: Path, server: Any, **overrides: Any) -> Iterator[MemoryEngine]:
    """A fresh, empty store of the measured kind (Neo4j: `server`, wiped), default settings plus `overrides`."""
    common: dict[str, Any] = {"embed_cache_dir": str(Path(args.cache_dir)), **overrides}
    work.mkdir(parents=True, exist_ok=True)
    if server is not None:
        server.wipe()
        target, settings = server.uri, server.settings(**common)
    else:
        target = str(work) if args.store == "sqlite" else f"falkordb+dir://{work}/falkordb"
        settings = Settings(store=target, **common)
    engine = MemoryEngine.open(target, settings=settings)
    try:
        yield engine
    finally:
        engine.close()


def run(args: argparse.Namespace) -> dict[str, Any]:
    path = Path(args.data)
    if path.is_dir():  # the data folder given, as the other benches take it
        path = path / "locomo_dev.json"
    if not path.is_file():
        raise SystemExit(f"--data: no LoCoMo JSON at {path}")
    data = json.loads(path.read_text())[: args.conversations]
    Path(args.cache_dir).mkdir(parents=True, exist_ok=True)
    rows: list[dict[str, Any]] = []
    facts: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        server = None
        if args.store == "neo4j":
            server = stack.enter_context(
                neo4j_server(Path(tmp), heap=args.neo4j_heap, pagecache=args.neo4j_pagecache)
            )
        n_store = 0
        for how in args.ingests.split(","):
            if "maintenance_off" in args.configs.split(","):
                n_store += 1
                with opened(args, Path(tmp) / f"s{n_store}", server, recall_maintenance=False) as engine:
                    t0 = time.perf_counter()
                    maps, questions, dropped = load(engine, data, how)
                    facts[how] = {
                        "questions": len(questions),
                        "dropped_questions": dropped,
                        "memories": sum(len(m) for m in maps.values()),
                        "ingest_s": time.perf_counter() - t0,
                        "graph": engine.stats().model_dump(include={"tags", "edges"}),
                    }
                    engine.recall("warm up", user_id=data[0]["sample_id"], top_k=10)  # model load is no recall
                    for mode in args.modes.split(","):
                        rows.append({"ingest": how, "config": "maintenance_off", "mode": mode,
                                     **ask(engine, maps, questions, mode, f"{how}, maintenance off, {mode}")})
                    if args.after_jobs:
                        for sample in data:
                            engine.jobs.cluster(sample["sample_id"], apply=True)
                            engine.jobs.links(sample["sample_id"], apply=True)
                        rows.append({"ingest": how, "config": "maintenance_off", "mode": AFTER_JOBS,
                                     **ask(engine, maps, questions, "cascade", f"{how}, after jobs")})
            if "default" in args.configs.split(","):
                for mode in args.default_modes.split(","):
                    n_store += 1
                    with opened(args, Path(tmp) / f"s{n_store}", server) as engine:
                        maps, questions, _ = load(engine, data, how)
                        engine.recall("warm up", user_id=data[0]["sample_id"], top_k=10, mode=mode)
                        engine.flush()
                        for p in (1, 2):
                            rows.append({"ingest": how, "config": f"default_pass{p}", "mode": mode,
                                         **ask(engine, maps, questions, mode, f"{how}, default, pass {p}, {mode}")})
                            engine.flush()  # background maintenance drained between the passes
    return {"conversations": len(data), "store": args.store, "ingests": facts, "rows": rows}


def table(report: dict[str, Any]) -> str:
    cats = list(CATEGORIES.values())
    head = ("| ingest | config | mode | R@5 | R@10 | hit@10 | " + " | ".join(f"R@10 {c}" for c in cats)
            + " | p50 ms | p95 ms |")
    lines = [head, "|" + "---|" * (8 + len(cats))]
    for r in report["rows"]:
        per = r["per_category_r10"]
        lines.append(
            f"| {r['ingest']} | {r['config']} | {r['mode']} | {r['r5']:.3f} | {r['r10']:.3f} | {r['hit10']:.3f} | "
            + " | ".join(f"{per.get(c, float('nan')):.3f}" for c in cats)
            + f" | {r['p50_ms']:.1f} | {r['p95_ms']:.1f} |"
        )
    return "\n".join(lines)


def conversation_table(report: dict[str, Any]) -> str:
    """R@10 per conversation (each conversation is one user), one row per measured row."""
    users = list(dict.fromkeys(u for r in report["rows"] for u in r.get("per_conversation_r10", {})))
    lines = ["| ingest | config | mode | " + " | ".join(users) + " |", "|" + "---|" * (3 + len(users))]
    for r in report["rows"]:
        per = r.get("per_conversation_r10", {})
        lines.append(
            f"| {r['ingest']} | {r['config']} | {r['mode']} | "
            + " | ".join(f"{per.get(u, float('nan')):.3f}" for u in users)
            + " |"
        )
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--data", default=default_data(), help="LoCoMo JSON, or its folder (default: ../shared/data/locomo_dev.json)"
    )
    ap.add_argument("--ingests", default=",".join(INGESTS), help="conversation, generic (comma-separated)")
    ap.add_argument("--configs", default=",".join(CONFIGS), help="maintenance_off, default (comma-separated)")
    ap.add_argument("--modes", default=",".join(MODES), help="recall modes measured with maintenance off")
    ap.add_argument(
        "--default-modes", default=",".join(DEFAULT_MODES), help="modes measured in the default configuration"
    )
    ap.add_argument("--store", choices=("sqlite", "falkordb", "neo4j"), default="sqlite", help="the store measured")
    ap.add_argument("--conversations", type=int, default=None, help="only the first N conversations (a quick run)")
    ap.add_argument("--neo4j-heap", default=HEAP, help="Heap of the Neo4j started for the run.")
    ap.add_argument("--neo4j-pagecache", default=PAGECACHE, help="Page cache of the Neo4j started for the run.")
    ap.add_argument("--json-dir", default=None, help="Where locomo.json goes (default: bench/results).")
    ap.add_argument(
        "--after-jobs",
        action=argparse.BooleanOptionalAction,
        default=False,
        help="with maintenance off, finish with a cascade row after the cluster and links jobs have run",
    )
    ap.add_argument("--cache-dir", default=str(ROOT / "bench" / ".cache"), help="embedding cache directory")
    ap.add_argument("--json", dest="json_out", help="also write the whole report as JSON to this file")
    ap.add_argument(
        "--append-results", action="store_true", help="append the table to bench/RESULTS.md (and results/locomo.json)"
    )
    ap.add_argument("--results", default=str(ROOT / "bench" / "RESULTS.md"), help="Markdown file to append.")
    args = ap.parse_args()
    load_before = os.getloadavg()
    report = run(args)
    report["load_average"] = {"before": [round(x, 2) for x in load_before],
                              "after": [round(x, 2) for x in os.getloadavg()]}
    text = table(report) + "\n\nR@10 per conversation:\n\n" + conversation_table(report)
    print(text)
    for how, f in report["ingests"].items():
        print(
            f"{how}: {f['questions']} questions (categories 1-4; {f['dropped_questions']} without a valid evidence "
            f"id dropped), {f['memories']} memories, ingest {f['ingest_s']:.1f} s, graph {f['graph']}"
        )
    print(f"load average before {report['load_average']['before']}, after {report['load_average']['after']}")
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(report, indent=2))
    if args.append_results:
        stamp = datetime.now(UTC).strftime("%Y-%m-%d")
        machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
        with open(args.results, "a", encoding="utf-8") as fh:
            fh.write(f"\n### LoCoMo dev ({stamp}, {machine}, {args.store}, load {report['load_average']})\n\n"
                     f"{text}\n\n")
        rows = [{"store": args.store, "conversations": report["conversations"], **r} for r in report["rows"]]
        path = write_rows("locomo", rows, keys=("store", "ingest", "config", "mode"), directory=args.json_dir)
        print(f"appended to {args.results}; rows in {path}")


if __name__ == "__main__":
    main()
