"""Recall latency at scale on realistic stores: one user with N memories stored as conversations.

The store: sessions of 16-24 turns between two speakers, each session dated, stored through the public API
with its `session:`, `speaker:`, `date:`, `month:` and topic tags and `RelatesTo {sequence}` links between
neighbouring turns. The first sessions are the LoCoMo dev conversations verbatim (shared/data/locomo_dev.json,
~3k turns); the rest are built from the Multi-Session Chat persona sentences (shared/data/msc_personas.json,
~31k first-person sentences): each turn one to three of them. Speakers come from a pool of first names.

Embeddings: every distinct text unit (a LoCoMo turn, an MSC sentence; ~34k) is embedded once with the real
model and cached under bench/.cache/recall_scale/ (never committed); a turn of several sentences gets the
normalised mean of its sentences' vectors (embedding 100k+ distinct turns would take hours here). Stores of up to
100k memories are written with `remember_conversation` (reconciliation on, as a user's writes are); larger
ones (`--bulk-above`, default 200k) in batches of sessions through `remember_linked` with the same episode plan
and `reconcile=False` (marked in the table). Built stores are cached under bench/.cache keyed by the code's
schema version and the generator; each run works on a copy (recall writes: access counts, co-recall links).

Measured per size, in one run (`--queries` questions each, LoCoMo dev questions of categories 1-4):
- e2e: `engine.recall(question, top_k=10)` with the real model embedding the question (no embedding cache:
  what an agent's new question costs), for `hybrid` and `cascade`;
- pipeline: the same recalls with the question vectors looked up (the pipeline alone);
- query embedding: the model alone on the question;
- floor: numpy exact top-10 over the user's float32 matrix (one product, argpartition, sort of 10);
- CPU: the process's CPU time per recall (all its threads), p50, for pipeline and end to end: on a shared
  machine the wall clock waits for other work, the CPU time much less.
Post-recall maintenance runs as configured by default (on); the bench waits for it (`flush()`) between recalls,
outside the timed call. `--profile` writes a cProfile of 100 cascade recalls (the pipeline alone, thread CPU time:
on a shared machine wall-clock figures are mostly waiting) at the largest size, or at `--profile-size`, to
bench/results/recall_scale_profile.txt (with `--no-json`: bench/.cache/recall_scale_profile.txt).

    python bench/recall_scale.py --sizes 1000,10000
    python bench/recall_scale.py --sizes 100000 --profile
    python bench/recall_scale.py --sizes 1000,10000,100000 --profile --profile-size 1000 --no-json
    python bench/recall_scale.py --sizes 1000,10000,100000,1000000 --append-results
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import io
import json
import os
import platform
import pstats
import random
import shutil
import statistics
import sys
import tempfile
import time
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from bench.bench_results import write_rows  # noqa: E402
from memgraph import Link, LinkSource, MemoryEngine, Relation, Settings  # noqa: E402
from memgraph.ingest.episodes import plan_episode  # noqa: E402
from memgraph.store import open_store  # noqa: E402
from memgraph.store.sqlite import SCHEMA_VERSION  # noqa: E402

DATA = ROOT.parent / "shared" / "data"  # --data overrides (a worktree has no ../shared)
CACHE = ROOT / "bench" / ".cache" / "recall_scale"
USER = "scale"
#: Bump when the generated conversations change: cached stores are keyed by it.
GENERATOR = 1
NAMES = (
    "Ada Ben Carla Dev Elena Farid Grace Hiro Ines Jon Kemal Lena Marco Nadia Omar Priya Quinn Rosa Sam Tomas "
    "Uma Victor Wen Xavier Yara Zoe Amir Bea Chen Dana Emil Fatima Goran Hana Ivan Julia Kofi Lucia Mateo Nora"
).split()


def _norm(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).split())


@dataclass
class Session:
    id: str
    date: datetime
    turns: list[tuple[str, list[str]]]  # (speaker, text units)


def load_corpus() -> tuple[list[Session], list[str], list[str]]:
    """(LoCoMo sessions verbatim, MSC sentences, LoCoMo questions of categories 1-4)."""
    from bench.locomo import parse_session_date, session_numbers

    locomo = json.loads((DATA / "locomo_dev.json").read_text())
    sessions: list[Session] = []
    questions: list[str] = []
    for sample in locomo:
        conv = sample["conversation"]
        for n in session_numbers(conv):
            turns = [(t["speaker"], [_norm(t["text"])]) for t in conv[f"session_{n}"] if _norm(t["text"])]
            when = parse_session_date(conv[f"session_{n}_date_time"])
            sessions.append(Session(f"{sample['sample_id']}-s{n}", when, turns))
        questions += [q["question"] for q in sample["qa"] if q.get("category") in (1, 2, 3, 4)]
    msc = json.loads((DATA / "msc_personas.json").read_text())
    sentences = list(
        dict.fromkeys(
            _norm(s)
            for split in ("train", "valid", "test")
            for d in msc[split]
            for k in ("Speaker 1", "Speaker 2")
            for s in d.get(k, [])
            if _norm(s)
        )
    )
    return sessions, sentences, list(dict.fromkeys(questions))


def sessions_for(n: int, locomo: list[Session], sentences: list[str], seed: int = 7) -> Iterator[Session]:
    """Sessions whose turns add up to n: LoCoMo's first, then MSC-built ones."""
    rng = random.Random(seed)
    left = n
    for s in locomo:
        if left <= 0:
            return
        turns = s.turns[:left]
        left -= len(turns)
        yield Session(s.id, s.date, turns)
    day = datetime(2024, 1, 1, 9, tzinfo=UTC)
    i = 0
    while left > 0:
        a, b = rng.sample(NAMES, 2)
        size = min(left, rng.randint(16, 24))
        turns = [((a, b)[t % 2], rng.sample(sentences, rng.choice((1, 1, 2, 2, 3)))) for t in range(size)]
        day += timedelta(hours=rng.randint(6, 60))
        yield Session(f"msc-s{i}", day, turns)
        left -= size
        i += 1


def embed_units(units: list[str]) -> dict[str, np.ndarray]:
    """Each distinct text unit embedded once with the real model, cached by the units' hash."""
    digest = hashlib.sha256("\n".join(units).encode()).hexdigest()[:16]
    path = CACHE / f"units-{digest}.npy"
    if path.exists():
        matrix = np.load(path)
    else:
        from memgraph.embed import AutoEmbedder

        model = AutoEmbedder()
        print(f"embedding {len(units):,} distinct text units once (cached in {path.name})", flush=True)
        t0 = time.perf_counter()
        order = sorted(range(len(units)), key=lambda i: len(units[i]))  # batches of similar length pad less
        matrix = np.zeros((len(units), 384), dtype=np.float32)
        for start in range(0, len(units), 1024):
            part = order[start : start + 1024]
            matrix[part] = model.encode([units[i] for i in part])
            print(f"  {start + len(part):,}/{len(units):,} {time.perf_counter() - t0:.0f} s", end="\r", flush=True)
        CACHE.mkdir(parents=True, exist_ok=True)
        np.save(path, matrix)
        print()
    return dict(zip(units, matrix, strict=True))


def turn_vector(units: list[str], table: dict[str, np.ndarray]) -> np.ndarray:
    v = np.mean([table[u] for u in units], axis=0) if len(units) > 1 else table[units[0]]
    out: np.ndarray = (v / np.linalg.norm(v)).astype(np.float32)
    return out


def text_seed(text: str) -> int:
    """A random generator's seed from a text, the same in every process (unlike `hash`, salted per process)."""
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")


class LookupEmbedder:
    """Vectors of known texts (turn contents `"speaker: text"`, questions and their cue-stripped forms);
    anything else is a miss, counted, and answered by `fallback` (the real model) when one is given, else by a
    random vector seeded from the text's digest. Not from `hash(text)`: Python salts string hashes per process
    (PYTHONHASHSEED), so a miss's vector, and the neighbours and decisions it reaches, changed from run to run
    (bulk_decisions.py: one created memory's best-neighbour cosine 0.6103 or 0.6026; bench/RESULTS.md)."""

    model_name = "all-MiniLM-L6-v2"
    dim = 384

    def __init__(self, table: dict[str, np.ndarray], fallback: Any = None) -> None:
        self.table = table
        self.fallback = fallback
        self.misses = 0

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        out = []
        for t in texts:
            v = self.table.get(_norm(t))
            if v is None and ": " in t:
                v = self.table.get(_norm(t.split(": ", 1)[1]))
            if v is None:
                self.misses += 1
                if self.fallback is None:
                    v = np.random.default_rng(text_seed(t)).standard_normal(self.dim).astype(np.float32)
                else:
                    v = self.fallback.encode([t])[0]
                self.table[_norm(t)] = v
            out.append(v / np.linalg.norm(v))
        return np.stack(out).astype(np.float32)

    def count_tokens(self, text: str) -> int:
        return max(1, round(len(text.split()) * 1.3))


def walk_kind(settings: Settings) -> str:
    """Wait for the compiled walk an engine warms in the background (so every measured walk is of one kind) and
    say which walk runs; a checkout before it (`--code`) walks with numpy."""
    try:
        from memgraph.store.sqlite import compiled_walk
    except ImportError:
        return "numpy (this code has no compiled walk)"
    if not settings.compiled_walk:
        return "numpy (compiled_walk off)"
    return "compiled" if compiled_walk.warm() is not None else "numpy (numba unavailable)"


def build_store(n: int, bulk: bool, locomo: list[Session], sentences: list[str], table: dict[str, np.ndarray]) -> Path:
    """The store of n memories, built once per schema version and generator (cached)."""
    path = CACHE / f"store-schema{SCHEMA_VERSION}-gen{GENERATOR}-{n}-{'bulk' if bulk else 'reconciled'}"
    if (path / "complete").exists():
        return path
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    settings = Settings(store=str(path))
    turn_table: dict[str, np.ndarray] = {}
    engine = MemoryEngine(open_store(str(path), settings), settings, LookupEmbedder(turn_table))
    t0 = time.perf_counter()
    written = 0
    pending: list[dict[str, Any]] = []
    pairs: list[tuple[int, int]] = []

    def flush() -> None:
        def links(ids: list[str]) -> list[Link]:
            return [
                Link(
                    src=ids[a],
                    dst=ids[b],
                    relation=Relation.RELATES_TO,
                    weight=settings.sequence_link_weight,
                    source=LinkSource.SEQUENCE,
                )
                for a, b in pairs
            ]

        engine.remember_linked(pending, user_id=USER, links=links, reconcile=False, source="conversation")
        pending.clear()
        pairs.clear()

    for s in sessions_for(n, locomo, sentences):
        turns = [{"speaker": sp, "text": " ".join(units)} for sp, units in s.turns]
        for _, units in s.turns:
            turn_table[_norm(" ".join(units))] = turn_vector(units, table)
        if bulk:
            plan = plan_episode(
                turns, session_id=s.id, session_date=s.date, max_topic_tags=settings.structure_max_topic_tags
            )
            base = len(pending)
            pending += [
                {**item, "embedding": turn_table[_norm(item["content"].split(": ", 1)[1])]} for item in plan.items
            ]
            pairs += [(a + base, b + base) for a, b in plan.sequence]
            if len(pending) >= 2000:
                flush()
        else:
            engine.remember_conversation(turns, user_id=USER, session_id=s.id, session_date=s.date)
        written += len(turns)
        if written % 5000 < len(turns):
            print(f"  building {n:,}: {written:,} turns, {time.perf_counter() - t0:.0f} s", end="\r", flush=True)
    if pending:
        flush()
    stored = engine.store.count_memories(USER)
    engine.close()
    (path / "complete").write_text(
        json.dumps({"turns": written, "memories": stored, "seconds": time.perf_counter() - t0})
    )
    print(f"  built {n:,}: {stored:,} memories in {time.perf_counter() - t0:.0f} s" + " " * 20, flush=True)
    return path


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def timed(fn: Any, items: Sequence[Any], after: Any = None, cpu: list[float] | None = None) -> list[float]:
    """Wall ms per call; `cpu` collects the process's CPU ms per call too (every thread of it: the question's
    embedding runs beside the pipeline), which a shared machine's load inflates far less than the wall clock."""
    out = []
    for item in items:
        c = time.process_time()
        t = time.perf_counter()
        fn(item)
        out.append((time.perf_counter() - t) * 1000)
        if cpu is not None:
            cpu.append((time.process_time() - c) * 1000)
        if after is not None:
            after()
    return out


def cached_store(n: int, bulk: bool, corpus: tuple[list[Session], list[str], list[str]]) -> Path:
    """The store of n memories built from the corpus (its text units embedded once; both cached): what every
    bench on these stores opens a copy of (cold_start.py and maintenance.py too)."""
    locomo, sentences, _ = corpus
    units = list(dict.fromkeys([u for s in locomo for _, us in s.turns for u in us] + sentences))
    return build_store(n, bulk, locomo, sentences, embed_units(units))


def add_store_options(ap: argparse.ArgumentParser, bench: str) -> None:
    """The options of a bench that opens a copy of one cached store (cold_start.py, maintenance.py)."""
    ap.add_argument("--size", type=int, default=10_000, help="memories in the store")
    ap.add_argument("--data", default=None, help="folder of locomo_dev.json and msc_personas.json")
    ap.add_argument("--no-json", action="store_true", help=f"do not write bench/results/{bench}.json")


def questions_and_store(args: argparse.Namespace) -> tuple[list[str], Path]:
    """For `add_store_options`' benches: the corpus's questions and the cached store of `--size` memories."""
    if args.data:
        global DATA
        DATA = Path(args.data)
    corpus = load_corpus()
    return corpus[2], cached_store(args.size, False, corpus)


def measure(n: int, bulk: bool, args: argparse.Namespace, corpus: Any, model: Any) -> list[dict[str, Any]]:
    questions = corpus[2]
    built = cached_store(n, bulk, corpus)
    info = json.loads((built / "complete").read_text())
    rng = random.Random(n)
    queries = rng.sample(questions, min(args.queries, len(questions)))
    with tempfile.TemporaryDirectory(prefix="memgraph-recall-scale-") as tmp:
        work = Path(tmp) / "store"
        shutil.copytree(built, work)
        settings = Settings(store=str(work))
        qtable: dict[str, np.ndarray] = {}
        lookup = LookupEmbedder(qtable, fallback=model)
        engine = MemoryEngine(open_store(str(work), settings), settings, lookup)
        # warm-up: loads the user's structures; the question vectors (and cue-stripped forms) get embedded
        for q in queries:
            engine.recall(q, user_id=USER, top_k=10, mode="cascade")
        engine.flush()
        print(f"  walk: {walk_kind(settings)}")
        lookup.misses = 0
        rows = []
        matrix = engine.store.embeddings(USER)[1]
        qvecs = model.encode(queries)
        floor = timed(lambda v: _knn(matrix, v), list(qvecs))
        embed = timed(lambda q: model.encode([q]), queries)
        e2e_engine = MemoryEngine(engine.store, settings, model)
        for mode in args.modes.split(","):
            pipe_cpu: list[float] = []
            e2e_cpu: list[float] = []
            pipe = timed(
                lambda q, m=mode: engine.recall(q, user_id=USER, top_k=10, mode=m), queries, engine.flush, pipe_cpu
            )
            e2e = timed(
                lambda q, m=mode: e2e_engine.recall(q, user_id=USER, top_k=10, mode=m),
                queries,
                e2e_engine.flush,
                e2e_cpu,
            )
            rows.append(
                {
                    "n": n,
                    "mode": mode,
                    "pipeline_p50_ms": round(statistics.median(pipe), 2),
                    "pipeline_p95_ms": round(pct(pipe, 0.95), 2),
                    "e2e_p50_ms": round(statistics.median(e2e), 2),
                    "e2e_p95_ms": round(pct(e2e, 0.95), 2),
                    "floor_knn_p50_ms": round(statistics.median(floor), 2),
                    "pipeline_cpu_p50_ms": round(statistics.median(pipe_cpu), 2),
                    "e2e_cpu_p50_ms": round(statistics.median(e2e_cpu), 2),
                }
            )
            print(
                f"{n:>9,} {mode:<8} pipeline {rows[-1]['pipeline_p50_ms']:7.1f} / {rows[-1]['pipeline_p95_ms']:7.1f}"
                f"   e2e {rows[-1]['e2e_p50_ms']:7.1f} / {rows[-1]['e2e_p95_ms']:7.1f}   "
                f"query embedding {statistics.median(embed):5.1f} / {pct(embed, 0.95):5.1f}   "
                f"floor {rows[-1]['floor_knn_p50_ms']:5.1f}   CPU p50: pipeline {rows[-1]['pipeline_cpu_p50_ms']:5.1f}"
                f" e2e {rows[-1]['e2e_cpu_p50_ms']:5.1f}   load {os.getloadavg()[0]:.1f}",
                flush=True,
            )
        for r in rows:
            r["_embed"] = (round(statistics.median(embed), 2), round(pct(embed, 0.95), 2))
            r["_memories"] = info["memories"]
            r["_bulk"] = bulk
        if lookup.misses:
            print(
                f"  note: the engine embedded {lookup.misses} texts the warm-up had not (post-recall gap detection "
                "compares question words on the maintenance thread, outside the timed call)",
                flush=True,
            )
        if args.profile and n == (args.profile_size or max(int(x) for x in args.sizes.split(","))):
            profile(engine, queries, args.no_json)
        e2e_engine._maintainer.close()
        engine.close()
    return rows


def _knn(matrix: np.ndarray, vector: np.ndarray) -> np.ndarray:
    sims = matrix @ vector
    top = np.argpartition(-sims, 10)[:10]
    return top[np.argsort(-sims[top])]


def profile(engine: MemoryEngine, queries: list[str], scratch: bool = False) -> None:
    """cProfile of the cascade pipeline on the recalling thread's CPU time (`time.thread_time`): the embedding
    and maintenance threads are not in it, nor the time this thread waits for a core."""
    prof = cProfile.Profile(time.thread_time)
    for q in queries:
        prof.enable()
        engine.recall(q, user_id=USER, top_k=10, mode="cascade")
        prof.disable()
        engine.flush()
    out = io.StringIO()
    stats = pstats.Stats(prof, stream=out)
    stats.sort_stats("cumulative").print_stats(40)
    stats.sort_stats("tottime").print_stats(25)
    path = ROOT / "bench" / (".cache" if scratch else "results") / "recall_scale_profile.txt"
    path.parent.mkdir(parents=True, exist_ok=True)
    n = engine.store.count_memories(USER)
    path.write_text(
        f"cProfile (thread CPU time) of {len(queries)} cascade recalls (pipeline alone) at {n:,} memories, "
        f"load {os.getloadavg()}\n" + out.getvalue()
    )
    print(f"profile written to {path.relative_to(ROOT)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="1000,10000", help="comma-separated memory counts")
    ap.add_argument("--queries", type=int, default=200, help="questions per size and mode")
    ap.add_argument("--modes", default="hybrid,cascade")
    ap.add_argument("--bulk-above", type=int, default=200_000, help="sizes above this are built with reconcile=False")
    ap.add_argument("--profile", action="store_true", help="cProfile the cascade pipeline at the largest size")
    ap.add_argument("--profile-size", type=int, default=None, help="profile at this size instead (one of --sizes)")
    ap.add_argument("--append-results", action="store_true", help="append the table to bench/RESULTS.md")
    ap.add_argument("--no-json", action="store_true", help="do not write bench/results/recall_scale.json")
    ap.add_argument("--data", default=None, help="folder of locomo_dev.json and msc_personas.json")
    args = ap.parse_args()
    if args.data:
        global DATA
        DATA = Path(args.data)
    from memgraph.embed import AutoEmbedder

    corpus = load_corpus()
    model = AutoEmbedder()
    model.encode(["warm up"])
    load_before = os.getloadavg()
    rows: list[dict[str, Any]] = []
    for n in (int(x) for x in args.sizes.split(",")):
        rows += measure(n, n > args.bulk_above, args, corpus, model)
    load_after = os.getloadavg()
    lines = [
        "| memories | mode | pipeline p50 / p95 ms | end to end p50 / p95 ms | query embedding p50 / p95 ms "
        "| floor: numpy exact top-10 p50 ms | CPU p50 ms: pipeline / end to end |",
        "|---:|---|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        bulk = " (bulk, reconcile=False)" if r["_bulk"] else ""
        lines.append(
            f"| {r['_memories']:,}{bulk} | {r['mode']} | {r['pipeline_p50_ms']:.1f} / {r['pipeline_p95_ms']:.1f} | "
            f"{r['e2e_p50_ms']:.1f} / {r['e2e_p95_ms']:.1f} | {r['_embed'][0]:.1f} / {r['_embed'][1]:.1f} | "
            f"{r['floor_knn_p50_ms']:.1f} | {r['pipeline_cpu_p50_ms']:.1f} / {r['e2e_cpu_p50_ms']:.1f} |"
        )
    load = f"load average {load_before[0]:.1f} before, {load_after[0]:.1f} after"
    print("\n".join(lines))
    print(f"{args.queries} questions per size and mode, top_k=10, {load}")
    clean = [{k: v for k, v in r.items() if not k.startswith("_")} for r in rows]
    if not args.no_json:
        write_rows("recall_scale", clean, keys=("n", "mode"))
    if args.append_results:
        stamp = datetime.now(UTC).strftime("%Y-%m-%d")
        machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
        with open(ROOT / "bench" / "RESULTS.md", "a", encoding="utf-8") as fh:
            fh.write(
                f"\n### Recall latency at scale, conversations ({stamp}, {machine}, SQLite, {load})\n\n"
                f"`python bench/recall_scale.py {' '.join(sys.argv[1:])}`\n\n" + "\n".join(lines) + "\n"
            )


if __name__ == "__main__":
    main()
