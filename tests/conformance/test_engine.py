"""`MemoryEngine` over every store, with the real embedding model: what a user of the API sees."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, date, datetime, timedelta

import pytest

from memgraph import MemoryEngine, Settings
from memgraph.embed import CachedEmbedder
from memgraph.errors import MissingOwnerError, NotFoundError, ValidationError
from memgraph.ingest.tags import infer_tags
from memgraph.models import Relation
from memgraph.store import GraphStore, MemoryFilter

from .helpers import NASTY


@pytest.fixture
def mem_engine(store_factory: Callable[..., GraphStore], embedder: CachedEmbedder) -> Iterator[MemoryEngine]:
    store = store_factory()
    engine = MemoryEngine(store, Settings(), embedder)
    yield engine
    # a recall's maintenance writes through the store from a thread of its own: done before `store_factory` closes
    # the store (the Neo4j driver, closed under a write, raised BufferError in the teardown). Not `engine.close()`:
    # that would close the shared embedder too.
    engine.flush()


def test_remember_then_search_finds_it(mem_engine: MemoryEngine) -> None:
    facts = [
        "I prefer tabs over spaces when writing Python",
        "The production database is PostgreSQL 16 on a dedicated host",
        "Deployments happen on Tuesdays after the standup",
        "My cat is called Miso and she likes tuna",
    ]
    stored = mem_engine.remember_many([{"content": f} for f in facts], user_id="ada")
    assert [m.content for m in stored] == facts
    hits = mem_engine.search("how should I indent my Python code?", user_id="ada", k=2)
    assert hits[0].memory.content == facts[0]
    assert hits[0].vector_score is not None and hits[0].vector_score > 0.3
    hits = mem_engine.search("which database runs in production? postgresql", user_id="ada", k=1)
    assert hits[0].memory.content == facts[1] and hits[0].text_score is not None
    assert mem_engine.search("what is my cat's name?", user_id="ada", k=1)[0].memory.content == facts[3]
    assert mem_engine.search("cat", user_id="bob") == []


def test_metadata_and_tags_with_cypher_fragments_are_data(mem_engine: MemoryEngine) -> None:
    mem_engine.remember("an innocent bystander", user_id="ada")
    mem_engine.remember("bob's memory", user_id="bob")
    metadata = {f"k{i}": text for i, text in enumerate(NASTY)}
    metadata['"}) DETACH DELETE n //'] = {"nested": ["`x`", "'y'", {"$user_id": "other"}]}
    tags = ['"}) DETACH DELETE n //', "`Tag`", "x' OR '1'='1", "$user_id"]
    m = mem_engine.remember(NASTY[0], user_id="ada", metadata=metadata, tags=tags)
    got = mem_engine.get(m.id, user_id="ada")
    assert got.content == NASTY[0]
    assert got.metadata == metadata
    explicit = {'"}) detach delete n //'.strip("#.,;:!?\"'`"), "tag", "x' or '1'='1", "$user_id"}
    # the explicit tags, then those every write infers from the content (entity tags: ingest/tags.py)
    inferred = set(infer_tags(NASTY[0], mem_engine.settings, explicit=tags).inferred)
    assert set(got.tags) == explicit | inferred
    assert mem_engine.stats(user_id="ada").memories == 2
    assert mem_engine.stats(user_id="bob").memories == 1
    assert [t.name for t in mem_engine.tags(user_id="bob")] == []
    tagged = mem_engine.list(user_id="ada", tag="x' OR '1'='1")
    assert [x.id for x in tagged] == [m.id]


def test_forget_restore_link_and_errors(mem_engine: MemoryEngine) -> None:
    a = mem_engine.remember("Use uv to manage Python environments", user_id="ada")
    b = mem_engine.remember("Use pip-tools to manage Python environments", user_id="ada")
    mem_engine.link(a.id, b.id, "supersedes", user_id="ada", reason="switched tools")
    assert not mem_engine.get(b.id, user_id="ada").active  # superseded becomes inactive, never deleted
    assert [x.memory.id for x in mem_engine.search("manage python environments", user_id="ada")] == [a.id]
    links = mem_engine.store.get_links("ada", [a.id])
    assert [(ln.relation, ln.reason) for ln in links] == [(Relation.SUPERSEDES, "switched tools")]
    mem_engine.restore(b.id, user_id="ada")
    assert mem_engine.store.count_memories("ada") == 2
    mem_engine.forget(a.id, user_id="ada")
    assert mem_engine.store.count_memories("ada", MemoryFilter(active=False)) == 1
    with pytest.raises(NotFoundError):
        mem_engine.get(a.id, user_id="bob")
    with pytest.raises(NotFoundError):
        mem_engine.link(a.id, "m_missing", user_id="ada")
    with pytest.raises(MissingOwnerError):
        mem_engine.remember("x", user_id="  ")
    with pytest.raises(ValidationError):
        mem_engine.remember("   ", user_id="ada")
    with pytest.raises(ValidationError):
        mem_engine.remember_many(
            [{"content": "ok"}, {"content": "bad vector", "embedding": [0.1] * 3}], user_id="ada"
        )
    assert mem_engine.store.count_memories("ada", MemoryFilter.everything()) == 2


def test_a_change_that_starts_later_holds_the_old_memory_until_its_day(mem_engine: MemoryEngine) -> None:
    """ingest/starts.py: the day and which memory replaces which are metadata, which every store keeps; the decay
    job (`memory_fields` with `active`) retires the old memory on that day."""
    old = mem_engine.remember("The allotment gate opens at 8am.", user_id="ada")
    new = mem_engine.remember("From next week the allotment gate opens at 7am.", user_id="ada")
    kept = mem_engine.get(old.id, user_id="ada")
    day = kept.metadata["valid_until"]
    assert kept.active and kept.metadata["replaced_by"] == [new.id]
    assert mem_engine.get(new.id, user_id="ada").metadata["valid_from"] == day
    assert f"[FACT, until {day}] The allotment gate opens at 8am." in mem_engine.recall(
        "when does the allotment gate open?", user_id="ada", top_k=3).to_prompt()
    on_the_day = datetime.fromisoformat(day).replace(hour=9, tzinfo=UTC)
    assert mem_engine.jobs.decay("ada", apply=True, now=on_the_day).retired == 1
    assert not mem_engine.get(old.id, user_id="ada").active


def test_a_plan_moved_or_called_off_before_its_day_rewrites_the_old_memorys_day(mem_engine: MemoryEngine) -> None:
    """ingest/plans.py: a change that starts later, moved before its day, moves the old memory's day (the keys are
    rewritten in one metadata update); called off, the keys are removed and the old memory simply holds."""
    old = mem_engine.remember("The allotment gate opens at 8am.", user_id="ada")
    plan = mem_engine.remember("From next week the allotment gate opens at 7am.", user_id="ada")
    week = date.fromisoformat(mem_engine.get(old.id, user_id="ada").metadata["valid_until"])
    later = week + timedelta(days=7)
    moved = mem_engine.remember(f"Actually the 7am opening starts on {later.day} {later:%B}.", user_id="ada")
    kept = mem_engine.get(old.id, user_id="ada")
    assert not mem_engine.get(plan.id, user_id="ada").active
    assert kept.active and kept.metadata["valid_until"] == later.isoformat()
    assert kept.metadata["replaced_by"] == [moved.id]
    on_the_old_day = datetime(week.year, week.month, week.day, 9, tzinfo=UTC)
    assert f"[FACT, until {later.isoformat()}] The allotment gate opens at 8am." in mem_engine.recall(
        "when does the allotment gate open?", user_id="ada", top_k=3, now=on_the_old_day).to_prompt()
    mem_engine.remember("Scrap that, the allotment gate is keeping its 8am opening.", user_id="ada")
    kept = mem_engine.get(old.id, user_id="ada")
    assert kept.active and not {"valid_until", "replaced_by"} & set(kept.metadata)
    assert not mem_engine.get(moved.id, user_id="ada").active
    on_the_new_day = datetime(later.year, later.month, later.day, 9, tzinfo=UTC)
    assert mem_engine.jobs.decay("ada", apply=True, now=on_the_new_day).retired == 0


def test_two_conflicting_memories_are_marked_newer_and_older(mem_engine: MemoryEngine) -> None:
    """retrieve/disputes.py reads the conflict from the served memories' metadata, which every store keeps."""
    old = mem_engine.remember("Theo is 7 years old.", user_id="ada")
    new = mem_engine.remember("Theo is 8 years old.", user_id="ada")
    assert [lk.dst for lk in mem_engine.store.get_links("ada", [new.id], relations=[Relation.CONTRADICTS],
                                                        direction="out")] == [old.id]
    res = mem_engine.recall("how old is Theo?", user_id="ada", top_k=3)
    prompt = res.to_prompt()
    assert "[FACT, conflicting: newer] Theo is 8 years old." in prompt
    assert "[FACT, conflicting: older] Theo is 7 years old." in prompt
