"""Tenant isolation: random operation sequences for several users never let one user see, link to, count,
cluster with or merge with another user's memories (hypothesis state machine over the public API)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from memgraph import MemoryEngine, NotFoundError, Settings
from memgraph.store.sqlite import SQLiteStore

from . import scale

USERS = ("alice", "bob", "carol")
TEXTS = (
    "I prefer dark roast coffee in the morning",
    "The project deadline is the 3rd of March",
    "Never deploy on Fridays without a rollback plan",
    "My sister lives in Lisbon and works as a nurse",
    "We use PostgreSQL 16 for the billing service",
    "Actually, the deadline moved to the 10th of March",
    "The cat's name is Miso and she is four years old",
    "To release: tag the commit, build the wheel, upload it",
    "I always write tests before refactoring",
    "The Berlin office opens at 9am",
)
QUERIES = ("coffee", "deadline", "deploy", "where does my sister live", "database", "cat", "release steps")


class IsolationMachine(RuleBasedStateMachine):
    embedder = None  # set by the test from the session fixture

    def __init__(self) -> None:
        super().__init__()
        self.engine = MemoryEngine(SQLiteStore(":memory:"), Settings(store=":memory:"), self.embedder)
        self.owned: dict[str, set[str]] = {u: set() for u in USERS}

    def teardown(self) -> None:
        self.engine.close()

    def _refresh(self, user: str) -> None:
        mems = self.engine.list(user_id=user, include_inactive=True, include_archived=True, limit=10_000)
        self.owned[user] = {m.id for m in mems}

    @rule(user=st.sampled_from(USERS), text=st.sampled_from(TEXTS), tag=st.sampled_from(["x", "shared", "y"]))
    def remember(self, user: str, text: str, tag: str) -> None:
        mem = self.engine.remember(text, user_id=user, tags=[tag])
        assert mem.user_id == user
        self._refresh(user)

    @rule(user=st.sampled_from(USERS), texts=st.lists(st.sampled_from(TEXTS), min_size=1, max_size=3))
    def ingest(self, user: str, texts: list[str]) -> None:
        self.engine.ingest("\n\n".join(texts), user_id=user, session_id=f"s-{user}")
        self._refresh(user)

    @rule(a=st.sampled_from(USERS), b=st.sampled_from(USERS), data=st.data())
    def link(self, a: str, b: str, data: st.DataObject) -> None:
        if not self.owned[a] or not self.owned[b]:
            return
        src = data.draw(st.sampled_from(sorted(self.owned[a])))
        dst = data.draw(st.sampled_from(sorted(self.owned[b])))
        if src == dst:
            return
        if a == b:
            self.engine.link(src, dst, user_id=a, weight=0.5)
        else:
            with pytest.raises(NotFoundError):
                self.engine.link(src, dst, user_id=a)
            with pytest.raises(NotFoundError):
                self.engine.link(dst, src, user_id=a)

    @rule(user=st.sampled_from(USERS), other=st.sampled_from(USERS), data=st.data())
    def tag_or_forget_foreign(self, user: str, other: str, data: st.DataObject) -> None:
        if user == other or not self.owned[other]:
            return
        victim = data.draw(st.sampled_from(sorted(self.owned[other])))
        for call in (
            lambda: self.engine.tag(victim, ["stolen"], user_id=user),
            lambda: self.engine.forget(victim, user_id=user),
            lambda: self.engine.get(victim, user_id=user),
            lambda: self.engine.feedback(victim, True, user_id=user),
        ):
            with pytest.raises(NotFoundError):
                call()

    @rule(user=st.sampled_from(USERS), query=st.sampled_from(QUERIES), mode=st.sampled_from(["cascade", "hybrid"]))
    def recall(self, user: str, query: str, mode: str) -> None:
        res = self.engine.recall(query, user_id=user, top_k=5, mode=mode)
        assert all(m.user_id == user for m in res.memories)
        assert {m.id for m in res.memories} <= self.owned[user]
        hits = self.engine.search(query, user_id=user)
        assert {h.memory.id for h in hits} <= self.owned[user]

    @rule(user=st.sampled_from(USERS), job=st.sampled_from(["cluster", "links", "consolidate", "decay"]))
    def run_job(self, user: str, job: str) -> None:
        if not self.owned[user]:
            return
        jobs = self.engine.jobs
        if job == "cluster":
            jobs.cluster(user, apply=True, force=True)
        else:
            getattr(jobs, job)(user, apply=True)
        self._refresh(user)

    @rule(user=st.sampled_from(USERS))
    def export(self, user: str) -> None:
        import json
        import tempfile
        from pathlib import Path

        if not self.owned[user]:
            return
        path = Path(tempfile.mkdtemp()) / "export.jsonl"
        self.engine.jobs.export(path, user_id=user)
        for line in path.read_text().splitlines():
            record = json.loads(line)
            owner = record.get("user_id") or record.get("data", {}).get("user_id")
            assert owner in (None, user), f"export of {user} holds a record of {owner}"

    @invariant()
    def nothing_crosses_users(self) -> None:
        self.engine.flush()
        store = self.engine.store
        for user in USERS:
            assert store.stats(user).memories == len(self.owned[user])
            for link in store.get_links(user):
                assert link.src in self.owned[user] and link.dst in self.owned[user]
            for mem in store.list_memories(user, limit=10_000):
                assert mem.user_id == user
            for member in store.cluster_members(user):
                assert member.memory_id in self.owned[user]
            for cluster in store.list_clusters(user):
                assert cluster.user_id == user
        all_ids = [self.owned[u] for u in USERS]
        assert sum(len(s) for s in all_ids) == len(set().union(*all_ids))


@pytest.mark.slow
def test_tenant_isolation_state_machine(embedder) -> None:  # noqa: ANN001 - fixture
    from hypothesis.stateful import run_state_machine_as_test

    IsolationMachine.embedder = embedder
    run_state_machine_as_test(
        IsolationMachine,
        settings=settings(max_examples=int(scale(25, 500)), stateful_step_count=12, deadline=None,
                          suppress_health_check=list(HealthCheck)),
    )
