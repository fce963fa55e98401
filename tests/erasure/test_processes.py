"""Another process drops an erased memory from its in-memory read structures before its next read (its
searches would not return it anyway: every hit is checked against the file; the vectors must leave its RAM).

A second process opens the same SQLite store, loads the user's vectors into memory (its first search), and
waits; this process erases one memory; the other process searches again and must not return it, nor find it
by text. (SQLite's readers catch up through the store's change log, which the erase transaction writes to.) The
weak point stays: a process that never reads again keeps the vectors in RAM until it exits."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from memgraph import MemoryEngine, Settings

CHILD = r"""
import json, sys, time
from pathlib import Path
import numpy as np
from memgraph.store.sqlite import SQLiteStore

store = SQLiteStore(sys.argv[1])
query = np.asarray(json.loads(sys.argv[2]), dtype=np.float32)
flag = Path(sys.argv[3])

def read():
    out = {"vector": [i for i, _ in store.vector_search("ada", query, 10)],
           "text": [i for i, _ in store.text_search("ada", "quokkafeather marmalade", 10)]}
    with store._mirror.user("ada") as state:  # what this process holds in memory after the reads
        cols = state.columns
        out["in_memory"] = [m for m, row in cols.index.items() if cols.alive[row] and cols.vectors[row].any()]
    return out

print(json.dumps(read()), flush=True)
deadline = time.time() + 120
while not flag.exists() and time.time() < deadline:
    time.sleep(0.05)
print(json.dumps(read()), flush=True)
store.close()
"""


def test_another_process_forgets_erased_vectors(tmp_path: Path, embedder: Any) -> None:  # noqa: ANN401
    target = str(tmp_path / "data")
    eng = MemoryEngine.open(target, settings=Settings(store=target), embedder=embedder)
    gone = eng.remember("The quokkafeather marmalade recipe is Ada's secret.", user_id="ada")
    kept = eng.remember("Ada buys marmalade at the Saturday market.", user_id="ada")
    query = eng.embed([gone.content])[0].tolist()
    flag = tmp_path / "erased"
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, target, json.dumps(query), str(flag)],
        stdout=subprocess.PIPE, text=True,
    )
    try:
        assert child.stdout is not None
        first = json.loads(child.stdout.readline())
        assert gone.id in first["vector"] and gone.id in first["text"] and gone.id in first["in_memory"], first
        eng.erase([gone.id], user_id="ada")
        flag.touch()
        second = json.loads(child.stdout.readline())
        assert gone.id not in second["vector"] and gone.id not in second["text"], second
        assert gone.id not in second["in_memory"] and kept.id in second["in_memory"], second
    finally:
        flag.touch()
        child.wait(timeout=120)
        eng.close()
    assert child.returncode == 0
