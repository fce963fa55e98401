"""Subprocess for the kill test: holds two candidates, prints "acknowledged" once the worker has saved them,
then waits to be killed (SIGKILL: no close, no session end, no cleanup of any kind)."""

from __future__ import annotations

import argparse
import time

from memgraph import MemoryEngine, Settings
from memgraph.agent import MemoryAgent

TURNS = [
    "I use Neovim with lazy.nvim as my editor.",
    "We decided to use PostgreSQL for the analytics service.",
]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--store", required=True)
    ap.add_argument("--user", required=True)
    args = ap.parse_args()
    engine = MemoryEngine.open(args.store, settings=Settings(store=args.store))
    agent = MemoryAgent(engine)
    for text in TURNS:
        agent.observe(text, user_id=args.user, session_id="s1")
    assert agent.drain(600)
    assert agent.stats.processed == len(TURNS), agent.stats
    print("acknowledged", flush=True)
    time.sleep(3600)


if __name__ == "__main__":
    main()
