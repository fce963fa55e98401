"""The CLI quotes the memories a write acted on (`engine_lookup`): one store read for all of them."""

from __future__ import annotations

from typing import Any

import pytest

from memgraph.cli.explain import engine_lookup
from memgraph.engine import MemoryEngine
from memgraph.errors import TransientStoreError
from memgraph.models import Memory


def _spy(engine: MemoryEngine, monkeypatch: pytest.MonkeyPatch, fail: bool = False) -> list[list[str]]:
    calls: list[list[str]] = []
    read = engine.store.get_memories

    def get_memories(user_id: str, ids: Any, **kw: Any) -> list[Memory]:
        calls.append(list(ids))
        if fail and len(calls) == 1:
            raise TransientStoreError("the server did not answer")
        return read(user_id, ids, **kw)

    monkeypatch.setattr(engine.store, "get_memories", get_memories)
    return calls


def test_one_read_quotes_every_memory_and_leaves_out_what_is_not_there(
    engine: MemoryEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    a = engine.remember("Ada moved to Lisbon in March.", user_id="ada")
    b = engine.remember("Ada's manager is Ana Costa.", user_id="ada")
    other = engine.remember("Bob plays the cello.", user_id="bob")
    calls = _spy(engine, monkeypatch)
    quoted = engine_lookup(engine, "ada")([a.id, b.id, "m_missing", other.id, a.id])
    assert quoted == {a.id: a.content, b.id: b.content}
    assert len(calls) == 1


def test_the_outbox_view_is_laid_over_and_a_failed_read_falls_back_to_one_by_one(
    engine: MemoryEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    a = engine.remember("Ada moved to Lisbon in March.", user_id="ada")

    class Box:  # what the outbox holds: a memory only queued so far, and nothing over `a`
        def overlay(self, user_id: str, memory_id: str, base: Memory | None) -> Memory | None:
            if memory_id == "m_queued":
                return Memory(id=memory_id, user_id=user_id, content="queued text")
            return base

    monkeypatch.setattr(engine, "_outbox", Box())
    calls = _spy(engine, monkeypatch)
    assert engine_lookup(engine, "ada")([a.id, "m_queued"]) == {a.id: a.content, "m_queued": "queued text"}
    assert len(calls) == 1
    monkeypatch.setattr(engine, "_outbox", None)
    calls = _spy(engine, monkeypatch, fail=True)
    assert engine_lookup(engine, "ada")([a.id, "m_missing"]) == {a.id: a.content}
    assert len(calls) == 3  # the failed read, then one per id
