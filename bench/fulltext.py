"""Full-text search on the embedded (SQLite) store at 10k and 100k memories of one user: the postings the
store keeps in memory (memgraph/store/sqlite/fulltext.py) against FTS5 ranked the same way, with FTS5's own
ranking as a floor.

    python bench/fulltext.py                      # 10k and 100k, 200 queries
    python bench/fulltext.py --sizes 10000 --queries 50 --no-json

Data: real sentences, the LoCoMo dev turns ("Speaker: text", /work/shared/data/locomo_dev.json) and the MSC
persona sentences (/work/shared/data/msc_personas.json), cycled to the size (100k repeats each ~3 times: real
words, real lengths, document frequencies ~3x those of 34k distinct sentences); a second user holds 2,000 of
them. Queries: the LoCoMo dev questions (categories 1-4), as recall sends them. Each method returns the top 10
with the default filter (active, not archived).

Methods (same BM25, same hits, same top 10, checked on every query, except the floor):
- `postings`: SQLiteStore.text_search, the store's path: per-user postings in memory, numpy BM25 on the
  user's statistics, the filter asked of SQL for the best few hundred hits.
- `fts5+bm25`: FTS5 over the same terms finds the user's hits (joined to `memories` by rowid, filtered by
  user), their term fields are read and ranked by store/bm25.py on the user's statistics (kept in a table):
  what keeping FTS5 would cost.
- `fts5 own bm25 (floor)`: FTS5's `bm25()` ORDER BY ... LIMIT 10 with index-wide statistics (every user):
  the schema-1 ranking, a floor for what an FTS5 query costs; it ranks differently.
Also: the first search of a process (it builds the user's postings from the file: a one-time cost per
process and user) and a search right after another process's write (the change log replayed).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_results import write_rows

from memgraph.models import Memory
from memgraph.store import WriteBatch, bm25
from memgraph.store.bm25 import Okapi
from memgraph.store.sqlite import SQLiteStore
from memgraph.text import fts_document, query_terms

DATA = Path("/work/shared/data")
USER = "bench"


def sentences() -> list[str]:
    locomo = json.loads((DATA / "locomo_dev.json").read_text(encoding="utf-8"))
    out: list[str] = []
    for conv in locomo:
        c = conv["conversation"]
        for key, turns in c.items():
            if key.startswith("session_") and isinstance(turns, list):
                out += [f"{t['speaker']}: {t['text']}" for t in turns]
    personas = json.loads((DATA / "msc_personas.json").read_text(encoding="utf-8"))
    seen: set[str] = set()
    for split in personas.values():
        for dialog in split:
            for lines in dialog.values():
                if isinstance(lines, list):
                    for line in lines:
                        if line not in seen:
                            seen.add(line)
                            out.append(line)
    return out


def questions(limit: int) -> list[str]:
    locomo = json.loads((DATA / "locomo_dev.json").read_text(encoding="utf-8"))
    qs = [q["question"] for conv in locomo for q in conv["qa"] if q.get("category") in (1, 2, 3, 4)]
    step = max(1, len(qs) // limit)
    return qs[::step][:limit]


def build(directory: Path, n: int, texts: list[str]) -> float | None:
    store = SQLiteStore(directory)
    t0 = time.perf_counter()
    batch = 5000
    for start in range(0, n, batch):
        mems = [
            Memory(id=f"m{i:07d}", user_id=USER, content=texts[i % len(texts)])
            for i in range(start, min(n, start + batch))
        ]
        store.write(USER, WriteBatch(memories=mems))
    store.write("other", WriteBatch(memories=[
        Memory(id=f"o{i:05d}", user_id="other", content=texts[(i * 7) % len(texts)]) for i in range(2000)
    ]))
    secs = time.perf_counter() - t0
    store.close()
    return secs


def fts5_table(db: Path) -> tuple[float | None, float | None]:
    """A scratch FTS5 table over the same terms (rowid = memories.rid) and a per-user statistics table:
    (seconds to build, MB the FTS5 index takes)."""
    conn = sqlite3.connect(db)
    t0 = time.perf_counter()
    conn.execute(
        "CREATE VIRTUAL TABLE bench_fts USING fts5(doc, tokenize = \"unicode61 remove_diacritics 0 tokenchars ''''\")"
    )
    rows = conn.execute("SELECT rid, content FROM memories").fetchall()
    conn.executemany("INSERT INTO bench_fts(rowid, doc) VALUES (?, ?)", [(r, fts_document(c)) for r, c in rows])
    conn.execute("CREATE TABLE bench_stats (user_id TEXT PRIMARY KEY, n INTEGER, total INTEGER)")
    for user, n, total in conn.execute(
        "SELECT m.user_id, COUNT(*), SUM(length(f.doc) - length(replace(f.doc, ' ', '')) + (f.doc <> '')) "
        "FROM memories m JOIN bench_fts f ON f.rowid = m.rid GROUP BY m.user_id"
    ).fetchall():
        conn.execute("INSERT INTO bench_stats VALUES (?, ?, ?)", (user, n, total))
    conn.commit()
    secs = time.perf_counter() - t0
    pages = conn.execute("SELECT SUM(pgsize) FROM dbstat WHERE name LIKE 'bench_fts%'").fetchone()[0] or 0
    conn.close()
    return secs, pages / 1e6


def fts5_ranked(conn: sqlite3.Connection, query: str, okapi: Okapi) -> list[tuple[str, float]]:
    words = query_terms(query, okapi.max_query_terms)
    if not words:
        return []
    match = " OR ".join('"' + w.replace('"', '""') + '"' for w in words)
    rows = conn.execute(
        "SELECT m.id, f.doc, m.active, m.archived FROM bench_fts f CROSS JOIN memories m ON m.rid = f.rowid "
        "WHERE bench_fts MATCH ? AND m.user_id = ?",
        (match, USER),
    ).fetchall()
    if not rows:
        return []
    n, total = conn.execute("SELECT n, total FROM bench_stats WHERE user_id = ?", (USER,)).fetchone()
    ids, tf, lengths, dfs = bm25.term_counts(words, [(r[0], r[1]) for r in rows])
    values = bm25.scores([bm25.idf(n, df) for df in dfs], tf, lengths, n, total, okapi)
    ok = {r[0] for r in rows if r[2] and not r[3]}
    return bm25.top_passing(ids, values, 10, lambda positions: {i for i in positions if ids[i] in ok})


def fts5_own(conn: sqlite3.Connection, query: str) -> list[str]:
    words = query_terms(query, 64)
    if not words:
        return []
    match = " OR ".join('"' + w.replace('"', '""') + '"' for w in words)
    return [r[0] for r in conn.execute(
        "SELECT m.id FROM bench_fts f JOIN memories m ON m.rid = f.rowid WHERE bench_fts MATCH ? "
        "AND m.user_id = ? AND m.active = 1 AND m.archived = 0 ORDER BY bm25(bench_fts) LIMIT 10",
        (match, USER),
    )]


def pct(values: list[float], q: float) -> float:
    return float(np.percentile(np.array(values), q))


CPU: list[float] = []  # the process CPU ms of each timed call: steadier than wall time on a shared machine


def timed(fn: Any) -> tuple[float, Any]:
    t0, c0 = time.perf_counter(), time.process_time()
    out = fn()
    CPU.append((time.process_time() - c0) * 1000.0)
    return (time.perf_counter() - t0) * 1000.0, out


def cpu_since(mark: int) -> list[float]:
    return CPU[mark:]


def run(n: int, texts: list[str], qs: list[str], workdir: Path) -> list[dict[str, Any]]:
    directory = workdir / f"store-{n}"
    db = directory / "memgraph.sqlite3"
    if db.exists():  # a store this bench built before (--cache): the writes below are repeated on a copy
        build_s = None
        conn = sqlite3.connect(db)
        conn.execute("DELETE FROM memories WHERE id LIKE 'w%'")
        conn.commit()
        conn.close()
    else:
        build_s = build(directory, n, texts)
    conn = sqlite3.connect(db)
    fresh_fts = conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'bench_fts'").fetchone() is None
    conn.close()
    fts_s, fts_mb = fts5_table(db) if fresh_fts else (None, None)
    okapi = Okapi()
    store = SQLiteStore(directory, okapi=okapi)
    mark = len(CPU)
    first_ms, _ = timed(lambda: store.text_search(USER, qs[0], 10))
    first_cpu = cpu_since(mark)[0]
    ours: list[float] = []
    answers = []
    mark = len(CPU)
    for q in qs:
        ms, hits = timed(lambda q=q: store.text_search(USER, q, 10))
        ours.append(ms)
        answers.append(hits)
    ours_cpu = cpu_since(mark)
    conn = sqlite3.connect(db)
    fts: list[float] = []
    mark = len(CPU)
    for q, want in zip(qs, answers, strict=True):
        ms, hits = timed(lambda q=q: fts5_ranked(conn, q, okapi))
        fts.append(ms)
        assert [h[0] for h in hits] == [h[0] for h in want], f"the two paths rank {q!r} differently"
    fts_cpu = cpu_since(mark)
    mark = len(CPU)
    floor = [timed(lambda q=q: fts5_own(conn, q))[0] for q in qs]
    floor_cpu = cpu_since(mark)
    conn.close()
    # a search right after another connection's write: the change log is replayed first
    writer = SQLiteStore(directory)
    after: list[float] = []
    for i, q in enumerate(qs[:50]):
        writer.write(USER, WriteBatch(memories=[Memory(id=f"w{i:05d}", user_id=USER, content=texts[i])]))
        after.append(timed(lambda q=q: store.text_search(USER, q, 10))[0])
    writer.close()
    store.close()
    load = os.getloadavg()[0]
    rows = [
        {"store": "sqlite", "size": n, "method": "postings", "p50_ms": pct(ours, 50), "p95_ms": pct(ours, 95),
         "cpu_p50_ms": pct(ours_cpu, 50), "cpu_p95_ms": pct(ours_cpu, 95),
         "first_search_ms": first_ms, "first_search_cpu_ms": first_cpu,
         "after_write_p50_ms": pct(after, 50), "after_write_p95_ms": pct(after, 95)},
        {"store": "sqlite", "size": n, "method": "fts5+bm25", "p50_ms": pct(fts, 50), "p95_ms": pct(fts, 95),
         "cpu_p50_ms": pct(fts_cpu, 50), "cpu_p95_ms": pct(fts_cpu, 95),
         "fts5_build_s": fts_s, "fts5_index_mb": fts_mb},
        {"store": "sqlite", "size": n, "method": "fts5 own bm25 (floor)", "p50_ms": pct(floor, 50),
         "p95_ms": pct(floor, 95), "cpu_p50_ms": pct(floor_cpu, 50), "cpu_p95_ms": pct(floor_cpu, 95)},
    ]
    for r in rows:
        r.update({"queries": len(qs), "load_average": load, "build_s": build_s})
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="10000,100000", help="Comma-separated memory counts of the user.")
    ap.add_argument("--queries", type=int, default=200, help="LoCoMo dev questions asked.")
    ap.add_argument("--no-json", action="store_true", help="Do not write bench/results/fulltext.json.")
    ap.add_argument(
        "--cache", default=None, help="Keep the built stores in this folder and reuse them (bench/.cache/fulltext)."
    )
    args = ap.parse_args()
    texts = sentences()
    qs = questions(args.queries)
    print(f"{len(texts)} distinct sentences, {len(qs)} queries; {platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}, SQLite {sqlite3.sqlite_version}", flush=True)
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="memgraph-bench-fulltext-") as tmp:
        for n in (int(x) for x in args.sizes.split(",")):
            before = os.getloadavg()[0]
            got = run(n, texts, qs, Path(args.cache) if args.cache else Path(tmp))
            for r in got:
                extra = ""
                if "first_search_ms" in r:
                    extra = (f"  first search {r['first_search_ms']:.0f} ms, after a write p50/p95 "
                             f"{r['after_write_p50_ms']:.2f}/{r['after_write_p95_ms']:.2f} ms")
                if r.get("fts5_build_s") is not None:
                    extra = f"  (FTS5 index {r['fts5_index_mb']:.1f} MB, built in {r['fts5_build_s']:.1f} s)"
                if "first_search_cpu_ms" in r:
                    extra += f" (cpu {r['first_search_cpu_ms']:.0f} ms)"
                print(f"{n:>7} {r['method']:<24} p50 {r['p50_ms']:7.2f} ms  p95 {r['p95_ms']:7.2f} ms  "
                      f"cpu p50/p95 {r['cpu_p50_ms']:6.2f}/{r['cpu_p95_ms']:6.2f} ms{extra}  "
                      f"load {before:.1f}->{r['load_average']:.1f}", flush=True)
            rows += got
    if not args.no_json:
        path = write_rows("fulltext", rows, keys=("store", "size", "method"))
        print(f"rows in {path}")


if __name__ == "__main__":
    main()
