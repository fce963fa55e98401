"""Subprocess for the outbox kill tests (tests/outbox/test_outbox_kills.py).

    write:  two (--threads) sessions write notes --start..--count-1 each with `remember`, one call per note, and
            print `ack <session> <note> <id> <queued>` once the call returned (the parent kills it at will)
    replay: apply the outbox in the foreground, printing `applied <entry id> <outcome>` per entry; with
            --pause-after K it stops after the K-th entry reached the server and before the outbox recorded
            it (the parent kills it there: the worst moment for exactly-once)

A note's text is a pure function of (session, note), so a rerun after a kill writes the same text again.
"""

from __future__ import annotations

import argparse
import sys
import threading
import time

from memgraph import MemoryEngine, Settings

ANIMALS = ["fox", "heron", "otter", "lynx", "badger", "crane", "marten", "ibex", "wren", "seal"]
PLACES = ["the mill", "the old bridge", "the orchard", "the quarry", "the ferry", "the chapel", "the dunes"]
THINGS = ["a brass key", "three apples", "a torn map", "a red kite", "a lantern", "two letters", "a compass"]


def note(session: int, i: int) -> str:
    """Distinct, natural sentences (they go through the real model at replay)."""
    return (f"Session {session} note {i}: the {ANIMALS[(i + session) % len(ANIMALS)]} left "
            f"{THINGS[(i * 3 + session) % len(THINGS)]} near {PLACES[(i * 5 + session) % len(PLACES)]} "
            f"at {6 + i % 12}:{(i * 7) % 60:02d} on day {i + 1}")


def _settings(args: argparse.Namespace, **extra: object) -> Settings:
    return Settings(store=args.store, outbox_dir=args.outbox_dir, store_retry_attempts=2,
                    store_retry_base_delay=0.05, outbox_retry_s=0.2, outbox_retry_max_s=1.0, **extra)


def write(args: argparse.Namespace) -> None:
    engine = MemoryEngine.open(args.store, settings=_settings(args))
    starts = [int(x) for x in args.start.split(",")] if args.start else [0] * args.threads
    out = threading.Lock()
    print("ready", flush=True)

    def session(t: int) -> None:
        for i in range(starts[t], args.count):
            mem = engine.remember(note(t, i), user_id=args.user, session_id=f"s{t}", reconcile=False)
            with out:
                print(f"ack {t} {i} {mem.id} {int(mem.queued)}", flush=True)

    threads = [threading.Thread(target=session, args=(t,)) for t in range(args.threads)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    engine.close()
    print("done", flush=True)


def replay(args: argparse.Namespace) -> None:
    engine = MemoryEngine.open(args.store, settings=_settings(args, outbox_background=False))
    box = engine.outbox
    assert box is not None
    seen = 0
    print("ready", flush=True)

    def progress(entry: object, outcome: str) -> None:
        nonlocal seen
        seen += 1
        print(f"applied {getattr(entry, 'id', '?')} {outcome.replace(' ', '_')}", flush=True)
        if args.pause_after and seen >= args.pause_after:
            print("paused", flush=True)
            time.sleep(3600)  # the parent kills this process here

    report = box.replay(progress)
    print(f"report {report.model_dump_json()}", flush=True)
    engine.close()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["write", "replay"])
    ap.add_argument("--store", required=True)
    ap.add_argument("--outbox-dir", required=True)
    ap.add_argument("--user", default="kill")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--start", default="")
    ap.add_argument("--pause-after", type=int, default=0)
    args = ap.parse_args()
    write(args) if args.mode == "write" else replay(args)
    sys.exit(0)


if __name__ == "__main__":
    main()
