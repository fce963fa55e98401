"""The per-user rule cap (ingest/rules.py): archive the least useful rule when a new one passes the cap, never a
pinned one, never delete; import respects the cap; consolidate reports near-duplicate rules."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from memgraph import MemoryEngine, MemoryKind, Settings
from memgraph.embed import CachedEmbedder
from memgraph.ingest.rules import plan
from memgraph.models import Memory, utcnow
from memgraph.store import MemoryFilter, MemoryUpdate
from memgraph.store.sqlite import SQLiteStore


def _rule(name: str, **fields: object) -> Memory:
    return Memory(id=name, user_id="u", content=name, kind=MemoryKind.PROCEDURE, **fields)  # type: ignore[arg-type]


def test_least_useful_first_and_never_pinned() -> None:
    now = utcnow()
    old, new = now - timedelta(days=90), now - timedelta(days=1)
    rules = [
        _rule("used", access_count=9, confidence=0.3, last_accessed=old, created_at=old),
        _rule("confident", access_count=0, confidence=0.9, last_accessed=old, created_at=old),
        _rule("doubtful", access_count=0, confidence=0.2, last_accessed=new, created_at=new),
        _rule("stale", access_count=0, confidence=0.9, last_accessed=old - timedelta(days=9), created_at=old),
        _rule("pinned", access_count=0, confidence=0.1, last_accessed=old, created_at=old, pinned=True),
    ]
    # fewest accesses, then lowest confidence, then least recently used; pinned never
    assert [m.id for m in plan(rules, 1, cap=5)] == ["doubtful"]
    assert [m.id for m in plan(rules, 3, cap=5)] == ["doubtful", "stale", "confident"]
    assert [m.id for m in plan(rules, 9, cap=5)] == ["doubtful", "stale", "confident", "used"]  # never "pinned"
    assert plan(rules, 0, cap=5) == []


def _engine(embedder: CachedEmbedder, target: str = ":memory:", **overrides: object) -> MemoryEngine:
    settings = Settings(store=target, recall_maintenance=False, **overrides)  # type: ignore[arg-type]
    return MemoryEngine(SQLiteStore(target if target != ":memory:" else ":memory:"), settings, embedder)


PROCEDURES = [
    "To release Atlas: bump the version, run make release, then announce it in the channel.",
    "To rotate the API keys: create new keys, deploy them, then revoke the old ones.",
    "To onboard a new engineer: create accounts, pair for a week, then assign a starter ticket.",
    "To restore a backup: stop the writers, load the snapshot, then replay the WAL.",
]


def test_a_new_rule_past_the_cap_archives_the_least_useful(embedder: CachedEmbedder) -> None:
    eng = _engine(embedder, max_active_procedures=3)
    first = [eng.remember(t, user_id="u", kind="procedure") for t in PROCEDURES[:3]]
    eng.store.update_memories("u", [MemoryUpdate(id=first[0].id, inc={"access_count": 5}),
                                    MemoryUpdate(id=first[2].id, set={"pinned": True})])
    report = eng.ingest(PROCEDURES[3], user_id="u", session_id="s", kind_hint="procedure")
    victim = first[1]  # never accessed, not pinned
    assert report.archived == [victim.id] and "archived 1 rule" in report.summary()
    archived = eng.get(victim.id, user_id="u")
    assert archived.archived and archived.active  # archived, not deleted
    assert "rule cap" in archived.metadata["archived_reason"]
    assert archived.metadata["history"][-1]["event"] == "archived"
    active = eng.store.list_memories("u", MemoryFilter(kinds=[MemoryKind.PROCEDURE]))
    assert len(active) == 3 and victim.id not in {m.id for m in active}
    assert eng.stats(user_id="u").memories == 4  # nothing deleted
    eng.close()


def test_pinned_rules_are_never_archived(embedder: CachedEmbedder) -> None:
    eng = _engine(embedder, max_active_constraints=2)
    for text in ("Never deploy on Fridays.", "Never commit secrets to the repo."):
        eng.remember(text, user_id="u", kind="constraint", pinned=True)
    eng.remember("Never run migrations without a backup.", user_id="u", kind="constraint")
    everything = eng.store.list_memories("u", MemoryFilter.everything())
    assert not any(m.archived for m in everything)  # all the older ones are pinned: over the cap, nothing lost
    eng.remember("Never force-push to a shared branch.", user_id="u", kind="constraint")
    archived = [m.content for m in eng.store.list_memories("u", MemoryFilter.everything()) if m.archived]
    assert archived == ["Never run migrations without a backup."]
    eng.close()


def test_import_respects_the_cap(embedder: CachedEmbedder, tmp_path: Path) -> None:
    src = _engine(embedder)
    for text in PROCEDURES:
        src.remember(text, user_id="u", kind="procedure")
    src.jobs.export(tmp_path / "u.jsonl", user_id="u")
    src.store.close()
    dst = _engine(embedder, max_active_procedures=2)
    report = dst.jobs.import_(tmp_path / "u.jsonl")
    assert any("archived to keep" in w for w in report.warnings)
    everything = dst.store.list_memories("u", MemoryFilter.everything())
    assert len(everything) == 4 and sum(m.archived for m in everything) == 2
    assert all("import" in m.metadata["archived_reason"] for m in everything if m.archived)
    dst.store.close()


def test_consolidate_reports_near_duplicate_rules(embedder: CachedEmbedder) -> None:
    eng = _engine(embedder)
    a = eng.remember("Never deploy the billing service on Fridays.", user_id="u", kind="constraint")
    b = eng.remember("Do not deploy the billing service on a Friday.", user_id="u", kind="constraint", reconcile=False)
    eng.remember("Never commit secrets to the repo.", user_id="u", kind="constraint")
    eng.remember("The billing service is deployed on Fridays.", user_id="u", kind="fact", reconcile=False)
    report = eng.jobs.consolidate("u")
    pairs = [(p.kind, {p.a, p.b}) for p in report.near_duplicate_rules]
    assert pairs == [("constraint", {a.id, b.id})]
    assert report.near_duplicate_rules[0].similarity >= eng.settings.consolidate_rule_cosine
    eng.close()
