"""A Neo4j user's first minutes: cold CLI commands on a new Neo4j store, beside the same on SQLite.

Each command is a fresh `python -m memgraph` process, as a user types it, on a store that starts empty and grows
with the run (as a new user's does): the first `remember` of a brand-new store (its schema created; on a server
whose JVM each code has warmed first with one untimed pass, `--warmup`), then per repetition a `remember` of a new
text, a `recall` of a new question, a `list`, the first `ingest` of a ~60-line notes file
(bench/neo4j_cold_notes.md) for a user who has nothing yet, and a second `ingest` of the same file (every chunk
already stored). The same commands run on a new SQLite store in the same run (the baseline), and with `--code DIR`
all of it again with another checkout's memgraph (e.g. `git archive main`), each code on its own brand-new Neo4j
database and SQLite folder, so before and after meet the same machine and server.

Neo4j: a 5.26 Community server started here from tools/neo4j-server (heap 1g, page cache 512m: the harness's
defaults), or MEMGRAPH_NEO4J_URI (a throwaway database: the run empties it, schema included). Wall time counts
what the user waits for; CPU is the command's own (user + system); server CPU is the Neo4j JVM's over the
command (a managed server only): planning and running the statements. On a shared machine the wall time is
mostly waiting for a core: read it with the load average printed beside it.

    python bench/neo4j_cold.py --reps 5
    python bench/neo4j_cold.py --reps 5 --code /tmp/main-code --code-label main

Writes bench/results/neo4j_cold.json: rows `{command, store, code, wall_p50_ms, cpu_p50_ms, server_cpu_p50_ms,
runs, load}`.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_neo4j import neo4j_server  # noqa: E402
from bench.bench_results import write_rows  # noqa: E402

NOTES = Path(__file__).resolve().with_name("neo4j_cold_notes.md")
#: Texts a user might remember and ask in their first minutes (a new one each repetition).
TEXTS = [
    "I moved to Lisbon in March.",
    "My manager is Ana Costa.",
    "I drink oat milk in my coffee.",
    "My sister lives in Porto.",
    "I play tennis on Sundays.",
    "My favourite tea is sencha.",
    "The team standup is at 9:30 every weekday.",
    "I am allergic to penicillin.",
    "Our cat is called Miso.",
    "I prefer aisle seats on long flights.",
]
QUESTIONS = [
    "where do I live?",
    "who is my manager?",
    "how do I take my coffee?",
    "where does my sister live?",
    "what sport do I play?",
    "what tea do I like?",
    "when is the standup?",
    "what am I allergic to?",
    "what is the cat's name?",
    "which seat do I like on planes?",
]


def child_env(code: Path, password: str) -> dict[str, str]:
    """The user's environment without memgraph settings, this code first on the path, offline, the outbox in the
    run's folder."""
    out = {k: v for k, v in os.environ.items() if not k.startswith("MEMGRAPH_") and k != "PYTHONDONTWRITEBYTECODE"}
    return {
        **out,
        "PYTHONPATH": str(code),
        "HF_HUB_OFFLINE": "1",
        "TOKENIZERS_PARALLELISM": "false",
        "MEMGRAPH_NEO4J_PASSWORD": password,
    }


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _process_cpu(pid: int | None) -> float:
    if pid is None:
        return 0.0
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def timed(cmd: list[str], env: dict[str, str], cwd: Path, server_pid: int | None) -> tuple[float, float, float]:
    """(wall, CPU, server CPU) seconds of one command; a failure ends the run with its error output."""
    t, c, s = time.perf_counter(), _children_cpu(), _process_cpu(server_pid)
    done = subprocess.run(cmd, env=env, cwd=str(cwd), capture_output=True, text=True, check=False)
    took = time.perf_counter() - t, _children_cpu() - c, _process_cpu(server_pid) - s
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd[2:5])} ... failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return took


def empty_neo4j(uri: str, user: str, password: str) -> None:
    """A brand-new database: no node, no constraint, no index (the token lookup indexes stay)."""
    import neo4j

    with (
        neo4j.GraphDatabase.driver(uri, auth=(user, password), notifications_min_severity="OFF") as driver,
        driver.session() as session,
    ):
        session.run("MATCH (n) CALL { WITH n DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS").consume()
        for row in list(session.run("SHOW CONSTRAINTS YIELD name")):
            session.run(f"DROP CONSTRAINT `{row['name']}`").consume()
        for row in list(session.run("SHOW INDEXES YIELD name, type WHERE type <> 'LOOKUP'")):
            session.run(f"DROP INDEX `{row['name']}`").consume()


#: {command: [(wall, cpu, server cpu) seconds, ...]}
Runs = dict[str, list[tuple[float, float, float]]]


def run_code(
    label: str, code: Path, store: str, target: str, reps: int, env: dict[str, str], server_pid: int | None
) -> Runs:
    """Every command of one code on one new store; {command: [(wall, cpu, server cpu), ...]}."""
    cli = [sys.executable, "-m", "memgraph"]
    at = ["--store", target]
    out: Runs = {}

    def one(name: str, args: list[str], user: str) -> None:
        took = timed([*cli, *args, *at, "--user", user], env, code, server_pid if store == "neo4j" else None)
        out.setdefault(name, []).append(took)
        print(
            f"  {label:8} {store:6} {name:22} wall {took[0]:6.2f} s  cpu {took[1]:5.2f} s  "
            f"server {took[2]:5.2f} s  load {os.getloadavg()[0]:.1f}",
            flush=True,
        )

    one("remember (new store)", ["remember", "I started a new notebook today."], "u0")
    for i in range(reps):
        one("remember", ["remember", TEXTS[i % len(TEXTS)] + f" ({label} {i})"], "u0")
        one("recall", ["recall", QUESTIONS[i % len(QUESTIONS)]], "u0")
        one("list", ["list"], "u0")
        one("ingest (first)", ["ingest", str(NOTES)], f"n{i}")
        one("ingest (second)", ["ingest", str(NOTES)], f"n{i}")
    return out


def rows_of(label: str, store: str, runs: Runs, load: float) -> list[dict[str, Any]]:
    return [
        {
            "command": name,
            "store": store,
            "code": label,
            "wall_p50_ms": round(1000 * statistics.median(t[0] for t in took)),
            "cpu_p50_ms": round(1000 * statistics.median(t[1] for t in took)),
            "server_cpu_p50_ms": round(1000 * statistics.median(t[2] for t in took)) if store == "neo4j" else None,
            "runs": len(took),
            "load": round(load, 1),
        }
        for name, took in runs.items()
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reps", type=int, default=5, help="fresh processes per command and code")
    ap.add_argument("--code", default=None, help="another checkout whose memgraph to run too (e.g. git archive main)")
    ap.add_argument("--code-label", default="other", help="its name in the table")
    ap.add_argument("--label", default="this", help="this checkout's name in the table")
    ap.add_argument("--no-sqlite", action="store_true", help="leave out the SQLite baseline")
    ap.add_argument("--this-first", action="store_true", help="measure this checkout before --code (the load moves)")
    ap.add_argument("--warmup", type=int, default=1, help="untimed repetitions per code first (0: none)")
    args = ap.parse_args()
    # the other code (the baseline) is measured first, this checkout after it; the warm-up goes the other way
    codes = ([(args.code_label, Path(args.code).resolve())] if args.code else []) + [(args.label, ROOT)]
    if args.this_first:
        codes.reverse()
    rows: list[dict[str, Any]] = []
    with (
        tempfile.TemporaryDirectory(prefix="memgraph-neo4j-cold-") as tmp,
        neo4j_server(Path(tmp), heap="1g", pagecache="512m") as server,
    ):
        pid = server.proc.pid if server.proc is not None else None  # `run` execs the JVM: the same process
        os.environ["MEMGRAPH_OUTBOX_DIR"] = str(Path(tmp) / "outbox")
        print(f"load before: {os.getloadavg()[0]:.1f}", flush=True)
        # A JVM just started plans and runs its first statements several times slower (its JIT compiles the
        # planner as it goes): every code warms it first, untimed, so the code measured first is not the loser.
        for label, code in codes[::-1] if args.warmup else []:
            empty_neo4j(server.uri, server.user, server.password)
            env = child_env(code, server.password)
            env["MEMGRAPH_OUTBOX_DIR"] = str(Path(tmp) / "outbox")
            run_code(f"warm:{label}", code, "neo4j", server.uri, args.warmup, env, pid)
        for label, code in codes:
            env = child_env(code, server.password)
            env["MEMGRAPH_OUTBOX_DIR"] = str(Path(tmp) / "outbox")
            empty_neo4j(server.uri, server.user, server.password)
            got = run_code(label, code, "neo4j", server.uri, args.reps, env, pid)
            rows += rows_of(label, "neo4j", got, os.getloadavg()[0])
            if not args.no_sqlite:
                got = run_code(label, code, "sqlite", str(Path(tmp) / f"sqlite-{label}"), args.reps, env, None)
                rows += rows_of(label, "sqlite", got, os.getloadavg()[0])
    print(f"\nload after: {os.getloadavg()[0]:.1f}\n")
    print(f"{'command':22} {'store':7} {'code':8} {'wall p50':>9} {'cpu p50':>8} {'server cpu':>10} runs")
    for r in rows:
        server_cpu = "" if r["server_cpu_p50_ms"] is None else f"{r['server_cpu_p50_ms']} ms"
        print(
            f"{r['command']:22} {r['store']:7} {r['code']:8} {r['wall_p50_ms']:>6} ms {r['cpu_p50_ms']:>5} ms "
            f"{server_cpu:>10} {r['runs']}"
        )
    path = write_rows("neo4j_cold", rows, keys=("command", "store", "code"))
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
