"""Write-path throughput: `MemoryEngine.ingest_many` end to end beside the raw embedder, same texts, same run.

    python bench/ingest.py                       # every LoCoMo dev turn (2,760), CPU or GPU as available
    python bench/ingest.py --limit 500 --batch 64 --data ../shared/data/locomo_dev.json

The texts are LoCoMo conversation turns ("Speaker: text", one user per conversation). The baseline is the
model alone (`SentenceTransformerEmbedder.encode` over the same texts in batches of the pipeline's size); the
pipeline runs on a fresh file-backed SQLite store with a fresh persistent embedding cache, so it embeds every
text too. Pipeline overhead = (pipeline time - time inside the model during the pipeline) / time inside the
model. Goal (issue 3): under 10 %. Results are appended to bench/RESULTS.md under "## Ingest".
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
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

from memgraph import MemoryEngine, Settings  # noqa: E402
from memgraph.embed import CachedEmbedder, SentenceTransformerEmbedder  # noqa: E402


class TimedEmbedder:
    """Delegates to the real model and adds up the seconds spent inside `encode` (bench instrumentation)."""

    def __init__(self, inner: SentenceTransformerEmbedder) -> None:
        self.inner = inner
        self.model_name = inner.model_name
        self.dim = inner.dim
        self.seconds = 0.0
        self.texts = 0

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        t0 = time.perf_counter()
        out = self.inner.encode(texts)
        self.seconds += time.perf_counter() - t0
        self.texts += len(texts)
        return out

    def count_tokens(self, text: str) -> int:
        return self.inner.count_tokens(text)


def load_turns(path: Path, limit: int | None) -> list[tuple[str, dict]]:
    """(user, ingest item) for every turn, in conversation order."""
    data = json.loads(path.read_text())
    out: list[tuple[str, dict]] = []
    for conv in data:
        c = conv["conversation"]
        sessions = sorted(int(k.split("_")[1]) for k in c if k.startswith("session_") and not k.endswith("time"))
        for s in sessions:
            for turn in c[f"session_{s}"]:
                item = {
                    "text": f"{turn['speaker']}: {turn['text']}",
                    "session_id": f"session_{s}",
                    "metadata": {"speaker": turn["speaker"], "dia_id": turn["dia_id"]},
                }
                out.append((conv["sample_id"], item))
    return out[:limit] if limit else out


def raw_embed(model: SentenceTransformerEmbedder, texts: list[str], batch: int) -> float:
    t0 = time.perf_counter()
    for i in range(0, len(texts), batch):
        model.encode(texts[i : i + batch])
    return time.perf_counter() - t0


def machine(device: str) -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    gpu = ""
    if device.startswith("cuda"):
        import torch

        gpu = f", GPU {torch.cuda.get_device_name(0)}"
    return f"{cpu}, {os.cpu_count()} cores{gpu}, Python {platform.python_version()}, device {device}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--data",
        default=str(ROOT.parent / "shared" / "data" / "locomo_dev.json"),
        help="LoCoMo JSON (default: ../shared/data/locomo_dev.json from the repo root)",
    )
    ap.add_argument("--limit", type=int, default=None, help="Use only the first N turns.")
    ap.add_argument("--batch", type=int, default=None, help="Turns per ingest call (default: Settings).")
    ap.add_argument("--device", default=None, help="torch device (default: cuda if present, else cpu)")
    ap.add_argument("--no-write", action="store_true", help="Do not append to bench/RESULTS.md.")
    args = ap.parse_args()

    settings = Settings()
    batch = args.batch or settings.ingest_batch_items
    turns = load_turns(Path(args.data), args.limit)
    texts = [item["text"] for _, item in turns]
    model = SentenceTransformerEmbedder(batch_size=settings.embed_batch_size, device=args.device)
    model.encode(["warm up the model", "and its kernels"] * 16)
    device = str(model._load().device)  # noqa: SLF001 - report where it ran
    print(
        f"{len(texts)} turns of {args.data}, ingest batch {batch}, embed batch {settings.embed_batch_size}, "
        f"device {device}"
    )

    raw_before = raw_embed(model, texts, batch)

    timed = TimedEmbedder(model)
    per_call: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        store_dir = Path(tmp) / "store"
        cached = CachedEmbedder(timed, path=store_dir / "embedding_cache.sqlite3")  # type: ignore[arg-type]
        engine = MemoryEngine.open(str(store_dir), embedder=cached)
        groups: list[tuple[str, list[dict]]] = []
        for user, item in turns:
            if groups and groups[-1][0] == user and len(groups[-1][1]) < batch:
                groups[-1][1].append(item)
            else:
                groups.append((user, [item]))
        created = dropped = 0
        t0 = time.perf_counter()
        for user, items in groups:
            c0 = time.perf_counter()
            report = engine.ingest_many(items, user_id=user)
            per_call.append(time.perf_counter() - c0)
            created += len(report.created)
            dropped += len(report.dropped)
        pipeline = time.perf_counter() - t0
        engine.close()

    raw_after = raw_embed(model, texts, batch)
    raw = (raw_before + raw_after) / 2
    inside = timed.seconds
    overhead = (pipeline - inside) / inside
    vs_raw = (pipeline - raw) / raw
    n = len(texts)
    lines = [
        f"texts {n}, embedded in the pipeline {timed.texts}, created {created}, dropped {dropped}",
        f"raw embedder: {n / raw:.1f} sentences/s (before {n / raw_before:.1f}, after {n / raw_after:.1f})",
        f"pipeline end to end: {n / pipeline:.1f} memories/s (texts in per second), {created / pipeline:.1f} created/s",
        f"per ingest call ({batch} turns): median {statistics.median(per_call) * 1000:.0f} ms, "
        f"p95 {np.percentile(per_call, 95) * 1000:.0f} ms",
        f"time inside the model during the pipeline {inside:.2f} s of {pipeline:.2f} s",
        f"pipeline overhead vs its own embedding time: {overhead * 100:.1f} % (goal < 10 %)",
        f"pipeline vs raw embedder (same texts): {vs_raw * 100:+.1f} %, ratio {pipeline / raw:.3f}",
    ]
    print("\n".join(lines))
    if not args.no_write:
        results = ROOT / "bench" / "RESULTS.md"
        text = results.read_text() if results.exists() else "# Benchmark results\n"
        if "## Ingest" not in text:
            text = text.rstrip() + "\n\n## Ingest\n\n`python bench/ingest.py` (LoCoMo dev turns; see the script).\n"
        entry = (
            f"\n### {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {machine(device)}\n\n"
            + "\n".join(f"- {ln}" for ln in lines)
            + "\n"
        )
        head, sep, rest = text.partition("## Ingest")
        nxt = rest.find("\n## ", 1)
        section, tail = (rest, "") if nxt == -1 else (rest[:nxt], rest[nxt:])
        results.write_text(head + sep + section.rstrip() + "\n" + entry + tail)
        print(f"appended to {results}")


if __name__ == "__main__":
    main()
