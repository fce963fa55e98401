"""Memory agent: how long `observe` takes the caller, and how many turns per second the worker processes.

Data: LoCoMo conv-26 (shared/data/locomo_dev.json). Its first half (sessions 1..k) is stored as memories
through `remember_conversation`; the agent then watches the turns of the later sessions (user = the first
speaker, assistant = the second), with the real all-MiniLM-L6-v2 model on CPU and a SQLite store on disk.

1. observe latency: `--turns` observes (default 2,000) fed as fast as possible while the worker runs, so the
   queue (default size) fills and the drop-oldest path is exercised too. p50/p99/p99.9/max in microseconds.
   Baseline, measured in the same run: doing the worker's job inline (embed + recall + write policy + buffer
   save) per turn, which is what a caller would wait for without the agent.
2. worker throughput: `--throughput-turns` distinct turns (default 300) queued at once on a fresh agent with
   a queue large enough to drop nothing; turns/s = turns / time until the queue is drained. Embeddings of
   the turns are not cached beforehand (the model runs for each turn).

    python bench/agent.py                   # prints the results
    python bench/agent.py --append-results  # ... and appends them to bench/RESULTS.md under "## Agent"
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

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from memgraph import MemoryEngine, Settings  # noqa: E402
from memgraph.agent import MemoryAgent  # noqa: E402
from memgraph.embed import CachedEmbedder, SentenceTransformerEmbedder  # noqa: E402

DATA = Path("/work/shared/data/locomo_dev.json")
USER = "caroline"


def sessions(conv: dict) -> list[list[dict]]:
    nums = sorted(int(k.split("_")[1]) for k in conv if k.startswith("session_") and not k.endswith("date_time"))
    return [conv[f"session_{n}"] for n in nums]


def load(path: Path) -> tuple[list[list[dict]], str]:
    conv = json.loads(path.read_text())[0]["conversation"]
    return sessions(conv), conv["speaker_a"]


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def machine() -> str:
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout
        model = next(line.split(":", 1)[1].strip() for line in out.splitlines() if line.startswith("Model name"))
    except (OSError, subprocess.CalledProcessError, StopIteration):
        model = platform.processor() or "unknown CPU"
    load = f", load average {os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else ""
    return f"{model}, {os.cpu_count()} cores{load}, Python {platform.python_version()}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--turns", type=int, default=2000, help="observes timed for the latency figures")
    ap.add_argument("--throughput-turns", type=int, default=300, help="distinct turns for the worker's rate")
    ap.add_argument("--baseline-turns", type=int, default=60, help="turns done inline for the baseline")
    ap.add_argument("--append-results", action="store_true")
    args = ap.parse_args()

    convo, speaker_a = load(args.data)
    half = len(convo) // 2
    stream = [(("user" if t["speaker"] == speaker_a else "assistant"), t["text"]) for s in convo[half:] for t in s]
    embedder = CachedEmbedder(SentenceTransformerEmbedder())
    embedder.encode(["warm up"])
    lines: list[str] = []

    def say(line: str) -> None:
        print(line, flush=True)
        lines.append(line)

    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(store=tmp)
        engine = MemoryEngine.open(tmp, settings=settings, embedder=embedder)
        for i, s in enumerate(convo[:half]):
            engine.remember_conversation([{"speaker": t["speaker"], "text": t["text"]} for t in s],
                                         user_id=USER, session_id=f"past-{i}")
        stored = engine.stats(user_id=USER).memories
        say(f"store: {stored} memories (LoCoMo conv-26 sessions 1-{half}); stream: {len(stream)} later turns")

        # -- baseline: the worker's job done inline ----------------------------------------------------------
        agent = MemoryAgent(engine, queue_size=10_000)
        inline: list[float] = []
        for role, text in stream[: args.baseline_turns]:
            t0 = time.perf_counter()
            agent.observe(text, user_id=USER, session_id="inline", role=role)
            agent.drain()  # the caller waits for the worker: the cost it would pay inline
            inline.append(time.perf_counter() - t0)
        agent.close(end_sessions=False)

        # -- 1. observe latency while the worker runs ---------------------------------------------------------
        agent = MemoryAgent(engine)
        times: list[float] = []
        for i in range(args.turns):
            role, text = stream[i % len(stream)]
            t0 = time.perf_counter()
            agent.observe(text, user_id=USER, session_id="latency", role=role)
            times.append(time.perf_counter() - t0)
            if i % 50 == 49:
                time.sleep(0.005)  # a caller does other work between turns; the worker keeps going
        st = agent.stats
        agent.close(end_sessions=False)
        us = [t * 1e6 for t in times]
        p50, p99, p999 = pct(us, 0.5), pct(us, 0.99), pct(us, 0.999)
        base = statistics.median(inline) * 1e6
        say(f"observe latency over {args.turns} calls (queue {settings.agent_queue_size}, worker running): "
            f"p50 {p50:.1f} us, p99 {p99:.1f} us, p99.9 {p999:.1f} us, max {max(us):.0f} us; "
            f"{st.queue_dropped} oldest turns dropped at a full queue")
        say(f"baseline, the same work inline per turn: median {base / 1000:.1f} ms, p99 "
            f"{pct(inline, 0.99) * 1000:.1f} ms over {len(inline)} turns -> observe p50 is "
            f"{base / p50:,.0f}x faster, p99 {pct(inline, 0.99) * 1e6 / p99:,.0f}x")

        # -- 2. worker throughput ------------------------------------------------------------------------------
        fresh = [(r, f"{text} (take {k})") for k in range(1 + args.throughput_turns // len(stream))
                 for r, text in stream][: args.throughput_turns]
        agent = MemoryAgent(engine, queue_size=len(fresh) + 1)
        misses0 = embedder.misses
        t0 = time.perf_counter()
        for role, text in fresh:
            agent.observe(text, user_id=USER, session_id="throughput", role=role)
        agent.drain()
        dt = time.perf_counter() - t0
        st = agent.stats
        report = agent.end_session(USER, "throughput")
        agent.close(end_sessions=False)
        say(f"worker: {st.processed} turns in {dt:.1f} s = {st.processed / dt:.1f} turns/s "
            f"({(embedder.misses - misses0)} texts embedded by the model; {st.committed} committed, {st.held} held, "
            f"{st.repeated} repeats, {st.prepared} turns with memories prepared, {st.topic_changes} topic changes, "
            f"{st.errors} errors); session end: {len(report.promoted)} promoted, "
            f"{len(report.dropped)} dropped, summary {'yes' if report.summary_id else 'no'}")
        engine.close()

    if args.append_results:
        path = ROOT / "bench" / "RESULTS.md"
        text = path.read_text() if path.exists() else "# Benchmark results\n"
        entry = [f"\n### {datetime.now(UTC):%Y-%m-%d} — {machine()}, `python bench/agent.py`\n"]
        entry += [f"- {line}" for line in lines]
        if "## Agent" not in text:
            text = text.rstrip("\n") + "\n\n## Agent\n"
        entry[0] = entry[0].lstrip("\n") if text.endswith("## Agent\n") else entry[0]
        head, sep, rest = text.partition("## Agent\n")
        nxt = rest.find("\n## ")
        section, tail = (rest, "") if nxt < 0 else (rest[:nxt + 1], rest[nxt + 1:])
        text = head + sep + section.rstrip("\n") + "\n" + "\n".join(entry) + "\n" + ("\n" + tail if tail else "")
        path.write_text(text)
        print(f"appended to {path}")


if __name__ == "__main__":
    main()
