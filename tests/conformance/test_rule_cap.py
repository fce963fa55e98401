"""The rule cap's write (ingest/rules.py) on every store: a new rule and the archiving of the least useful one
in one batch; the archived rule keeps its row and says why."""

from __future__ import annotations

from memgraph.config import Settings
from memgraph.ingest.rules import cap_batch
from memgraph.models import MemoryKind, utcnow
from memgraph.store import GraphStore, MemoryFilter, MemoryUpdate, WriteBatch

from .helpers import mem, unit_vectors


def test_cap_batch_archives_in_the_same_write(store: GraphStore) -> None:
    rules = [mem("ada", f"rule {i}", minutes=i, kind=MemoryKind.CONSTRAINT) for i in range(3)]
    store.write("ada", WriteBatch(memories=rules, embeddings=unit_vectors(3)))
    store.update_memories("ada", [MemoryUpdate(id=rules[0].id, inc={"access_count": 2})])
    new = mem("ada", "rule new", minutes=9, kind=MemoryKind.CONSTRAINT)
    batch = WriteBatch(memories=[new], embeddings=unit_vectors(1, seed=1))
    archived = cap_batch(store, Settings(max_active_constraints=3), "ada", batch, utcnow())
    assert [a.memory.id for a in archived] == [rules[1].id]  # never accessed, and older than rules[2]
    store.write("ada", batch)
    active = {m.id for m in store.list_memories("ada", MemoryFilter(kinds=[MemoryKind.CONSTRAINT]))}
    assert active == {rules[0].id, rules[2].id, new.id}
    (gone,) = store.get_memories("ada", [rules[1].id])
    assert gone.archived and "rule cap" in gone.metadata["archived_reason"]
    assert gone.metadata["history"][0]["event"] == "archived"
