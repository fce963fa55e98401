"""Embedding backends side by side: ONNX Runtime (memgraph's default) against sentence-transformers, same run.

    python bench/embed.py                 # 3 interleaved repetitions, ~6 min on two cores
    python bench/embed.py --reps 1 --turns 128 --chunks 32 --queries 50 --no-export   # a quick look

Each backend runs in its own fresh process per repetition (ONNX and sentence-transformers alternate, so both
see the same machine load), which measures:
- cold start: wall time from spawning `python` to the first query vector (interpreter, imports, model or
  session load, one query), the path of a new `memgraph recall`;
- throughput: sentences/s over LoCoMo dev turns (short, ~25 tokens) and over ~200-token chunks of
  consecutive turns, in batches of 32 (the ingest batch), after a warm-up batch;
- single-query latency: each LoCoMo dev question embedded alone, p50/p95;
- for ONNX also the same with ONNX Runtime's thread spinning on (its default; memgraph turns it off), and
  "embed + exact top-10 over 10k x 384" per query, where spinning threads compete with the search after it.
The one-time export (torch import, export, verification against sentence-transformers, publish) is timed once
on an empty cache directory. Ratios are against sentence-transformers measured in the same run. Prints the
load average; writes bench/results/embed.json. Figures: bench/RESULTS.md, "Embedding".
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "locomo_dev.json"
RESULTS = ROOT / "bench" / "results" / "embed.json"
BATCH = 32


def corpus(path: Path, turns: int, chunks: int, queries: int) -> dict[str, list[str]]:
    """Distinct LoCoMo dev turns, ~200-token chunks of consecutive turns, and the QA questions."""
    data = json.loads(path.read_text())
    all_turns: list[str] = []
    for sample in data:
        conv = sample["conversation"]
        n = 1
        while f"session_{n}" in conv:
            all_turns += [f"{t['speaker']}: {t['text']}" for t in conv[f"session_{n}"]]
            n += 1
    distinct = list(dict.fromkeys(all_turns))
    long_texts: list[str] = []
    buf: list[str] = []
    for t in distinct:
        buf.append(t)
        if sum(len(x.split()) for x in buf) >= 150:  # ~200 word pieces
            long_texts.append(" ".join(buf))
            buf = []
    questions = list(dict.fromkeys(q["question"] for s in data for q in s["qa"] if q.get("question")))
    return {"turns": distinct[:turns], "chunks": long_texts[:chunks], "queries": questions[:queries]}


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


# -- worker (one fresh process per backend and repetition) ------------------------------------------------------


def worker(backend: str, texts_file: Path, spawned_at: float) -> dict[str, Any]:
    t0 = time.perf_counter()
    texts = json.loads(texts_file.read_text())
    import numpy as np

    if backend == "onnx":
        from memgraph.embed import OnnxEmbedder

        emb: Any = OnnxEmbedder(batch_size=BATCH)
    else:
        from memgraph.embed import SentenceTransformerEmbedder

        emb = SentenceTransformerEmbedder(batch_size=BATCH, device="cpu")
    t_import = time.perf_counter()
    emb.load()
    t_load = time.perf_counter()
    emb.encode([texts["queries"][0]])
    first_vector_at = time.time()
    t_first = time.perf_counter()
    out: dict[str, Any] = {
        "cold_start_s": first_vector_at - spawned_at,
        "import_s": t_import - t0,
        "load_s": t_load - t_import,
        "first_query_s": t_first - t_load,
    }

    def throughput(items: list[str]) -> float:
        emb.encode(items[:BATCH])  # warm-up at this length
        start = time.perf_counter()
        for i in range(0, len(items), BATCH):
            emb.encode(items[i : i + BATCH])
        return len(items) / (time.perf_counter() - start)

    def latencies() -> list[float]:
        emb.encode(texts["queries"][:5])
        ms = []
        for q in texts["queries"]:
            start = time.perf_counter()
            emb.encode([q])
            ms.append((time.perf_counter() - start) * 1000)
        return ms

    def with_search() -> list[float]:
        """Embed, then an exact top-10 over 10k x 384 (the recall floor): spinning threads compete with it."""
        rng = np.random.default_rng(0)
        matrix = rng.standard_normal((10_000, 384)).astype(np.float32)
        ms = []
        for q in texts["queries"]:
            start = time.perf_counter()
            v = emb.encode([q])[0]
            np.argpartition(-(matrix @ v), 10)[:10]
            ms.append((time.perf_counter() - start) * 1000)
        return ms

    out["turns_per_s"] = throughput(texts["turns"])
    out["chunks_per_s"] = throughput(texts["chunks"])
    out["query_ms"] = latencies()
    out["query_search_ms"] = with_search()
    if backend == "onnx":
        import onnxruntime as ort

        opts = ort.SessionOptions()
        opts.add_session_config_entry("session.intra_op.allow_spinning", "1")
        opts.log_severity_level = 3
        emb._session = ort.InferenceSession(str(emb.graph_path), opts, providers=["CPUExecutionProvider"])
        out["spin_turns_per_s"] = throughput(texts["turns"])
        out["spin_query_ms"] = latencies()
        out["spin_query_search_ms"] = with_search()
    return out


def export_worker() -> dict[str, Any]:
    """The first run on a machine: import torch, export, verify against sentence-transformers, publish."""
    t0 = time.perf_counter()
    from memgraph.embed import OnnxEmbedder
    from memgraph.embed.graph_cache import GraphCache
    from memgraph.embed.model import read_model_spec

    with tempfile.TemporaryDirectory() as tmp:
        emb = OnnxEmbedder(cache_dir=tmp)
        spec = read_model_spec(emb.model_path)
        key = GraphCache(tmp).model_key(emb.model_path)
        t_key = time.perf_counter()
        import torch  # noqa: F401
        import transformers  # noqa: F401

        t_torch = time.perf_counter()
        from memgraph.embed import onnx_export

        data = onnx_export.export_encoder(spec)
        t_export = time.perf_counter()
        worst = onnx_export.verify(spec, data)
        t_verify = time.perf_counter()
        GraphCache(tmp).publish_graph(key, data)
        t_publish = time.perf_counter()
        return {
            "hash_model_files_s": t_key - t0,
            "import_torch_s": t_torch - t_key,
            "export_s": t_export - t_torch,
            "verify_s": t_verify - t_export,
            "publish_s": t_publish - t_verify,
            "total_s": t_publish - t0,
            "worst_cosine": worst,
            "graph_mb": len(data) / 1e6,
        }


def run_worker(args: list[str]) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}
    spawned = time.time()
    proc = subprocess.run(
        [sys.executable, __file__, *args, "--spawned-at", repr(spawned)],
        env=env, capture_output=True, text=True, check=False,
    )
    if proc.returncode != 0:
        raise SystemExit(f"worker {args} failed:\n{proc.stderr[-4000:]}")
    return dict(json.loads(proc.stdout.strip().splitlines()[-1]))


# -- report --------------------------------------------------------------------------------------------------------


def summarise(runs: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    def med(backend: str, key: str) -> float:
        return statistics.median(r[key] for r in runs[backend])

    def pooled(backend: str, key: str) -> list[float]:
        return [x for r in runs[backend] for x in r[key]]

    out: dict[str, Any] = {}
    for b in runs:
        row: dict[str, Any] = {
            k: med(b, k) for k in ("cold_start_s", "import_s", "load_s", "first_query_s", "turns_per_s", "chunks_per_s")
        }
        for key in ("query_ms", "query_search_ms"):
            values = pooled(b, key)
            row[f"{key[:-3]}_p50_ms"] = pct(values, 0.5)
            row[f"{key[:-3]}_p95_ms"] = pct(values, 0.95)
        if b == "onnx":
            row["spin_turns_per_s"] = med(b, "spin_turns_per_s")
            for key in ("spin_query_ms", "spin_query_search_ms"):
                values = pooled(b, key)
                row[f"{key[:-3]}_p50_ms"] = pct(values, 0.5)
                row[f"{key[:-3]}_p95_ms"] = pct(values, 0.95)
        out[b] = row
    o, s = out["onnx"], out["sentence-transformers"]
    # each repetition ran ONNX then sentence-transformers back to back: their ratio within a pair is the least
    # disturbed by a shared machine's changing load
    pairs = list(zip(runs["onnx"], runs["sentence-transformers"], strict=True))
    out["paired_ratio_medians"] = {
        "turns_per_s": statistics.median(a["turns_per_s"] / b["turns_per_s"] for a, b in pairs),
        "chunks_per_s": statistics.median(a["chunks_per_s"] / b["chunks_per_s"] for a, b in pairs),
        "query_p50_speedup": statistics.median(pct(b["query_ms"], 0.5) / pct(a["query_ms"], 0.5) for a, b in pairs),
        "cold_start_speedup": statistics.median(b["cold_start_s"] / a["cold_start_s"] for a, b in pairs),
    }
    out["ratios_onnx_vs_st"] = {
        "turns_per_s": o["turns_per_s"] / s["turns_per_s"],
        "chunks_per_s": o["chunks_per_s"] / s["chunks_per_s"],
        "query_p50_speedup": s["query_p50_ms"] / o["query_p50_ms"],
        "query_p95_speedup": s["query_p95_ms"] / o["query_p95_ms"],
        "cold_start_speedup": s["cold_start_s"] / o["cold_start_s"],
    }
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--reps", type=int, default=3, help="fresh processes per backend (interleaved)")
    ap.add_argument("--turns", type=int, default=320, help="short texts for the throughput run")
    ap.add_argument("--chunks", type=int, default=96, help="~200-token texts for the throughput run")
    ap.add_argument("--queries", type=int, default=100, help="questions for single-query latency")
    ap.add_argument("--no-export", action="store_true", help="skip timing the one-time export")
    ap.add_argument("--out", type=Path, default=RESULTS)
    ap.add_argument("--worker", choices=["onnx", "sentence-transformers", "export"], help=argparse.SUPPRESS)
    ap.add_argument("--texts", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--spawned-at", type=float, default=0.0, help=argparse.SUPPRESS)
    args = ap.parse_args()

    if args.worker == "export":
        print(json.dumps(export_worker()))
        return
    if args.worker:
        print(json.dumps(worker(args.worker, args.texts, args.spawned_at)))
        return

    texts = corpus(args.data, args.turns, args.chunks, args.queries)
    load_before = os.getloadavg()
    print(
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
        f"load average {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}"
    )
    print(f"{len(texts['turns'])} turns, {len(texts['chunks'])} chunks, {len(texts['queries'])} queries, batch {BATCH}")
    runs: dict[str, list[dict[str, Any]]] = {"onnx": [], "sentence-transformers": []}
    loads: list[float] = []
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        json.dump(texts, fh)
        texts_file = fh.name
    try:
        run_worker(["--worker", "onnx", "--texts", texts_file])  # makes sure the graph is exported (not timed)
        for rep in range(args.reps):
            for backend in ("onnx", "sentence-transformers"):
                r = run_worker(["--worker", backend, "--texts", texts_file])
                runs[backend].append(r)
                loads.append(os.getloadavg()[0])
                print(
                    f"  rep {rep + 1} {backend:22s} cold {r['cold_start_s']:.2f} s  turns {r['turns_per_s']:.1f}/s  "
                    f"chunks {r['chunks_per_s']:.1f}/s  query p50 {pct(r['query_ms'], 0.5):.1f} ms  "
                    f"load {loads[-1]:.2f}"
                )
        export = None if args.no_export else run_worker(["--worker", "export"])
    finally:
        os.unlink(texts_file)

    summary = summarise(runs)
    o, s, ratio = summary["onnx"], summary["sentence-transformers"], summary["ratios_onnx_vs_st"]
    print(f"\n{'':34s}{'ONNX':>12s}{'sent-trans':>12s}{'ratio':>10s}")
    rows = [
        ("cold start to first vector, s", "cold_start_s", 1 / ratio["cold_start_speedup"]),
        ("  imports, s", "import_s", None),
        ("  model/session load, s", "load_s", None),
        ("  first query, s", "first_query_s", None),
        ("turns (batch 32), sentences/s", "turns_per_s", ratio["turns_per_s"]),
        ("~200-token chunks, sentences/s", "chunks_per_s", ratio["chunks_per_s"]),
        ("single query p50, ms", "query_p50_ms", 1 / ratio["query_p50_speedup"]),
        ("single query p95, ms", "query_p95_ms", 1 / ratio["query_p95_speedup"]),
        ("query + top-10 of 10k p50, ms", "query_search_p50_ms", None),
        ("query + top-10 of 10k p95, ms", "query_search_p95_ms", None),
    ]
    for label, key, r in rows:
        print(f"{label:34s}{o[key]:12.3f}{s[key]:12.3f}{'' if r is None else f'{r:9.2f}x':>10s}")
    print(
        f"ONNX with thread spinning on: turns {o['spin_turns_per_s']:.1f}/s, query p50/p95 "
        f"{o['spin_query_p50_ms']:.1f}/{o['spin_query_p95_ms']:.1f} ms, query + top-10 p50/p95 "
        f"{o['spin_query_search_p50_ms']:.1f}/{o['spin_query_search_p95_ms']:.1f} ms"
    )
    if export:
        print(
            "one-time export: {total_s:.1f} s (hash {hash_model_files_s:.2f}, import torch {import_torch_s:.1f}, "
            "export {export_s:.1f}, verify {verify_s:.1f}, publish {publish_s:.2f}); worst cosine {worst_cosine:.7f}; "
            "graph {graph_mb:.0f} MB".format(**export)
        )
    paired = summary["paired_ratio_medians"]
    print(
        "paired (same repetition) ratio medians, ONNX vs sentence-transformers: turns {turns_per_s:.2f}x, chunks "
        "{chunks_per_s:.2f}x, query p50 {query_p50_speedup:.1f}x faster, cold start {cold_start_speedup:.1f}x "
        "faster".format(**paired)
    )
    load_after = os.getloadavg()
    print(f"load average during the runs: median {statistics.median(loads):.2f}, after {load_after[0]:.2f}")

    args.out.parent.mkdir(parents=True, exist_ok=True)
    record = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores",
        "python": platform.python_version(),
        "load_average": {"before": load_before, "during_median": statistics.median(loads), "after": load_after},
        "sizes": {k: len(v) for k, v in texts.items()} | {"batch": BATCH, "reps": args.reps},
        "summary": summary,
        "export": export,
        "runs": runs,
    }
    args.out.write_text(json.dumps(record, indent=1) + "\n")
    print(f"wrote {args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out}")


if __name__ == "__main__":
    main()
