"""The outbox through kill -9, on a real FalkorDB server and the real Neo4j server (tests/fault_servers.py).

The server is stopped; a writer process opens its engine anyway (the store opens deferred) and writes notes
from two threads, one session each, one `remember` per note; it is killed with SIGKILL mid-way, and a new
writer finishes the notes (it writes again the note whose acknowledgement the kill swallowed). Then the server
starts; a replayer process is killed with SIGKILL after an entry reached the server and before the outbox
recorded it; a second replay finishes. Every acknowledged note is then stored exactly once (one memory and one
vector per text, strength 1: no write or reinforcement applied twice), each session's notes in the order they
were written, and the outbox is empty. CI: 2 x 100 notes, one kill of each; `--long`: 2 x 250 notes, four
kills of each, at random points.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from memgraph import MemoryEngine
from tests.fault_servers import Server
from tests.reliability import scale

from .outbox_worker import note

ROOT = Path(__file__).resolve().parents[2]
USER = "kill"
THREADS = 2
COUNT = int(scale(100, 250))  # notes per session
KILLS = int(scale(1, 4))  # writer kills, and replayer kills


def _spawn(*args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
    return subprocess.Popen(
        [sys.executable, "-m", "tests.outbox.outbox_worker", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT,
    )


def _lines_until(proc: subprocess.Popen[str], stop: int, prefix: str) -> list[str]:
    """Read stdout until `stop` lines start with `prefix` (or the process ends); returns the lines read."""
    assert proc.stdout is not None
    lines: list[str] = []
    seen = 0
    while seen < stop:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line.strip())
        seen += line.startswith(prefix)
    return lines


def _kill(proc: subprocess.Popen[str], lines: list[str]) -> list[str]:
    proc.send_signal(signal.SIGKILL)
    out, _ = proc.communicate(timeout=60)
    return lines + [x.strip() for x in out.splitlines()]


def _acks(lines: list[str]) -> dict[tuple[int, int], str]:
    out = {}
    for x in lines:
        if x.startswith("ack "):
            _, t, i, mid, queued = x.split()
            assert queued == "1", f"written while the server was down but not queued: {x}"
            out[(int(t), int(i))] = mid
    return out


@pytest.mark.slow
def test_kill_minus_nine_while_queueing_and_while_replaying_ends_exactly_once(
    restartable_server: Server, embedder, tmp_path: Path  # noqa: ANN001 - fixture
) -> None:
    server = restartable_server
    rng = random.Random(18)
    common = ["--store", server.url, "--outbox-dir", str(tmp_path / "outbox"), "--user", USER]
    settings = server.settings(outbox_dir=str(tmp_path / "outbox"), outbox_background=False)
    MemoryEngine.open(server.url, settings=settings, embedder=embedder).close()  # reached once: the outbox exists
    server.stop(signal.SIGKILL)

    # -- writers: killed KILLS times at random points, then one finishes ------------------------------------
    acked: dict[tuple[int, int], str] = {}
    starts = [0] * THREADS
    for k in range(KILLS + 1):
        proc = _spawn("write", *common, "--threads", str(THREADS), "--count", str(COUNT),
                      "--start", ",".join(map(str, starts)))
        last = k == KILLS
        if last:
            out, err = proc.communicate(timeout=600)
            lines = out.splitlines()
            assert proc.returncode == 0 and "done" in lines, err[-3000:]
        else:
            remaining = sum(COUNT - s for s in starts)
            lines = _kill(proc, _lines_until(proc, rng.randint(5, max(6, remaining // 2)), "ack "))
            assert "done" not in lines, "the writer finished before it was killed"
        acked.update(_acks(lines))
        # the next writer resumes after each session's last acknowledged note (the one whose ack was lost,
        # if it was queued at all, is written again: same text, same session)
        starts = [max([i + 1 for (t, i) in acked if t == s], default=0) for s in range(THREADS)]
    assert len(acked) == THREADS * COUNT

    # -- replayers: killed after an entry reached the server, before the outbox recorded it -----------------
    server.start()
    with MemoryEngine.open(server.url, settings=settings, embedder=embedder) as eng:
        box = eng.outbox
        assert box is not None
        queued_before = box.pending(USER)
        assert queued_before >= THREADS * COUNT
        for _ in range(KILLS):
            proc = _spawn("replay", *common, "--pause-after", str(rng.randint(1, max(1, box.pending() // 3))))
            lines = _lines_until(proc, 1, "paused")
            assert "paused" in lines, (lines, proc.stderr.read() if proc.stderr else "")
            _kill(proc, lines)
        assert box.pending(USER) < queued_before, "the killed replayers applied nothing"
        report = box.replay()
        assert report.remaining == 0 and report.refused == 0, report
        assert report.already_applied >= 1, "the entry the kill interrupted was not found applied"
        assert box.pending() == 0

        # -- every acknowledged note exactly once, in order of writing per session ----------------------------
        rows = eng.store.query(
            "MATCH (m:Memory {user_id: $u}) RETURN m.id AS id, m.content AS content, m.session_id AS session, "
            "m.created_at AS created, m.strength AS strength, m.access_count AS access ORDER BY created",
            {"u": USER},
        )
        vectors = eng.store.query("MATCH (v:MemoryVector {user_id: $u}) RETURN count(v) AS n, "
                                  "count(DISTINCT v.id) AS ids", {"u": USER})[0]
        by_text = {r["content"]: r for r in rows}
        assert len(rows) == len(by_text) == THREADS * COUNT, "a note is missing or stored twice"
        assert vectors["n"] == vectors["ids"] == len(rows)
        for (t, i), mid in acked.items():
            r = by_text[note(t, i)]
            assert (r["id"], r["session"]) == (mid, f"s{t}")
            assert (r["strength"], r["access"]) == (1, 0), f"a write was applied twice: {r}"
        for t in range(THREADS):
            order = [int(r["content"].split(":")[0].split()[-1]) for r in rows if r["session"] == f"s{t}"]
            assert order == list(range(COUNT)), f"session s{t} is out of order: {order[:20]}..."
        history = [j for j in eng.jobs.history(10_000) if j.job == "outbox"]
        assert len({j.id for j in history}) >= THREADS * COUNT
    print(f"\noutbox kills ({server.driver_module}): {THREADS} x {COUNT} notes, {KILLS} writer and {KILLS} "
          f"replayer kill(s), {queued_before} queued calls, {report.already_applied} found applied after a "
          f"kill, 0 lost, 0 twice")
