"""A command loads the user's read structures on a background thread while the model loads: only the parts
its first reads need (a remember: the columns; a cascade recall: the graph and the full text too)."""

from __future__ import annotations

from pathlib import Path

from memgraph import MemoryEngine
from memgraph.cli.common import load_in_background
from memgraph.store import WriteBatch
from tests.conformance.helpers import mem, unit_vectors


def test_the_background_load_reads_what_the_command_needs(tmp_path: Path) -> None:
    with MemoryEngine.open(tmp_path / "store") as engine:
        store = engine.store
        mems = [mem("ada", f"note {i} about kayaks", tags=["boats"]) for i in range(6)]
        store.write("ada", WriteBatch(memories=mems, embeddings=unit_vectors(6, seed=3)))
        store._mirror.drop()
        store._text._users.clear()
        mirror = store._mirror
        before = (mirror.loads, mirror.graph_loads)

        thread = load_in_background(engine, "ada", graph=False, text=False)  # what `remember` asks for
        assert thread is not None
        thread.join(timeout=60)
        assert mirror.loaded("ada") and (mirror.loads, mirror.graph_loads) == (before[0] + 1, before[1])
        assert "ada" not in store._text._users

        thread = load_in_background(engine, "ada")  # a cascade recall: the rest, without loading again
        assert thread is not None
        thread.join(timeout=60)
        assert (mirror.loads, mirror.graph_loads) == (before[0] + 1, before[1] + 1)
        assert "ada" in store._text._users
        assert [m for m, _ in store.vector_search("ada", unit_vectors(6, seed=3)[2], 1)] == [mems[2].id]
