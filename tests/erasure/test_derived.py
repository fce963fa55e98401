"""What derives from an erased memory, on every store: summaries (their evidence list drops it; one built only
from erased memories is erased too), supersede chains, merged copies, tags, clusters, metadata id lists, the job
history; the report; idempotence; the identifier rule."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from memgraph import MemoryEngine
from memgraph.errors import InvalidIdentifierError, MemgraphError
from memgraph.models import Cluster, InCluster, Link, MemoryKind, Relation
from memgraph.store import MemoryFilter

OLD = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
EVENTS = [
    "We hiked from Llanberis to the summit of Snowdon in thick fog.",
    "Ada lost her Vexmorran compass near the Glyderau ridge.",
    "At the summit cafe we drank tea and dried our socks.",
    "The train back down was cancelled so we walked again.",
]


def _session(eng: MemoryEngine, user: str = "ada") -> list[str]:
    items = [{"content": t, "kind": "event", "session_id": "trip", "created_at": OLD + timedelta(minutes=i)}
             for i, t in enumerate(EVENTS)]
    return [m.id for m in eng.remember_many(items, user_id=user, reconcile=False)]


def _evidence(eng: MemoryEngine, summary_id: str) -> set[str]:
    return {ln.dst for ln in eng.store.get_links("ada", [summary_id], relations=[Relation.DERIVED_FROM],
                                                  direction="out")}


def _summary(eng: MemoryEngine) -> str:
    """The session's extractive summary, quoting every event (compress_sentences above their number)."""
    eng.jobs.settings = eng.jobs.settings.model_copy(update={"compress_sentences": 10})
    report = eng.jobs.compress("ada", apply=True, now=OLD + timedelta(days=90))
    assert report.summaries_written == 1, report
    [summary] = eng.list(user_id="ada", kind="summary", include_inactive=True)
    return summary.id


def test_a_summary_drops_erased_evidence_and_what_it_quoted(make_engine: Callable[..., MemoryEngine]) -> None:
    eng = make_engine()
    ids = _session(eng)
    sid = _summary(eng)
    assert _evidence(eng, sid) == set(ids)
    before = eng.get(sid, user_id="ada", with_embedding=True)
    assert "Vexmorran" in before.content
    report = eng.erase([ids[1]], user_id="ada")
    assert report.memories == 1 and report.summaries_rewritten == 1 and report.summaries_erased == 0, report
    after = eng.get(sid, user_id="ada", with_embedding=True)
    assert _evidence(eng, sid) == set(ids) - {ids[1]}
    assert "Vexmorran" not in after.content and "Glyderau" not in after.content
    assert after.metadata.get("sources") == 3
    assert after.embedding is not None and not np.allclose(after.embedding, before.embedding or [])
    # a summary whose evidence is all erased goes too, and nothing of its session is left
    report = eng.erase([i for i in ids if i != ids[1]], user_id="ada")
    assert report.summaries_erased == 1 and report.memories == 4, report
    assert eng.list(user_id="ada", include_inactive=True, include_archived=True) == []


def test_a_summary_quoting_only_erased_text_is_erased_and_its_evidence_served_again(
    make_engine: Callable[..., MemoryEngine],
) -> None:
    """A session summary quoting turns ("Remembered: a | b"): when every fragment quotes an erased memory, the
    summary is erased and its remaining evidence is no longer hidden as compressed."""
    eng = make_engine()
    secret = eng.remember("Ada's locker code is kept at the Pemberly front desk.", user_id="ada")
    other = eng.remember("Ada swims on Wednesday mornings.", user_id="ada")
    eng.store.update_memories("ada", [_compressed(other.id)])
    [sid] = eng.remember_linked(
        [{"content": f"Remembered: {secret.content} | Pemberly desk staff keep it", "kind": "summary"}],
        user_id="ada",
        links=lambda new: [Link(src=new[0], dst=m, relation=Relation.DERIVED_FROM) for m in (secret.id, other.id)],
    )
    report = eng.erase([secret.id], user_id="ada")
    assert report.summaries_erased == 1 and report.evidence_uncompressed == 1, report
    assert not eng.store.get_memories("ada", [sid])
    assert not eng.get(other.id, user_id="ada").compressed


def _compressed(mid: str):  # noqa: ANN202 - a MemoryUpdate
    from memgraph.store import MemoryUpdate

    return MemoryUpdate(id=mid, set={"compressed": True})


def test_supersede_chains_are_joined_across_an_erased_memory(make_engine: Callable[..., MemoryEngine]) -> None:
    eng = make_engine()
    c = eng.remember("The standup is at 9:00.", user_id="ada", reconcile=False)
    b = eng.remember("The standup moved to 9:30.", user_id="ada", reconcile=False)
    a = eng.remember("The standup is now at 10:00.", user_id="ada", reconcile=False)
    eng.link(b.id, c.id, "supersedes", user_id="ada")
    eng.link(a.id, b.id, "supersedes", user_id="ada")
    report = eng.erase([b.id], user_id="ada")
    assert report.supersede_bridges == 1
    links = eng.store.get_links("ada", [a.id, c.id], relations=[Relation.SUPERSEDES])
    assert [(ln.src, ln.dst) for ln in links] == [(a.id, c.id)]
    assert eng.get(a.id, user_id="ada").active and not eng.get(c.id, user_id="ada").active


def test_merged_copies_go_with_the_memory_they_were_merged_into(make_engine: Callable[..., MemoryEngine]) -> None:
    eng = make_engine()
    vec = np.ones(384, dtype=np.float32) / np.sqrt(384)
    a = eng.remember("Ada's bike is a blue Gazelle roadster.", user_id="ada", embedding=vec.tolist(), reconcile=False)
    b = eng.remember("Ada rides a blue Gazelle roadster bike.", user_id="ada", embedding=vec.tolist(),
                     reconcile=False)
    eng.jobs.consolidate("ada", apply=True)
    merged = [m for m in eng.list(user_id="ada", include_inactive=True) if m.metadata.get("merged_into")]
    assert len(merged) == 1
    kept = merged[0].metadata["merged_into"]
    report = eng.erase([kept], user_id="ada")
    assert report.merged_copies == 1 and report.memories == 2, report
    assert not eng.store.get_memories("ada", [a.id, b.id])


def test_tags_clusters_and_metadata(make_engine: Callable[..., MemoryEngine]) -> None:
    eng = make_engine()
    gone = eng.remember("Ada keeps her passport in the red drawer.", user_id="ada", tags=["only-this", "home"])
    stays = eng.remember("Ada waters the ferns every Sunday.", user_id="ada", tags=["home"],
                         metadata={"contradicted_by": [gone.id, "m_other"]})
    eng.store.replace_clusters("ada", [Cluster(id="c_1", user_id="ada", size=2, label="home drawer")],
                               [InCluster(memory_id=gone.id, cluster_id="c_1"),
                                InCluster(memory_id=stays.id, cluster_id="c_1")])
    report = eng.erase([gone.id], user_id="ada")
    assert (report.tags, report.clusters, report.metadata_cleaned) == (1, 1, 1), report
    assert {t.name: t.count for t in eng.tags(user_id="ada")} == {"home": 1}
    assert eng.store.list_clusters("ada") == [] and eng.store.cluster_members("ada") == []
    assert eng.get(stays.id, user_id="ada").metadata["contradicted_by"] == ["m_other"]
    runs = [r for r in eng.jobs.history() if r.job == "erase"]
    assert runs and runs[0].user_id == "ada" and runs[0].counts["memories"] == 1


def test_erase_is_idempotent_and_only_touches_the_callers_memories(make_engine: Callable[..., MemoryEngine]) -> None:
    eng = make_engine()
    mine = eng.remember("Ada's dentist is on Harley Street.", user_id="ada")
    theirs = eng.remember("Bob's dentist is in Leeds.", user_id="bob")
    report = eng.erase([mine.id, theirs.id, mine.id], user_id="ada")
    assert report.memories == 1 and report.not_found == [theirs.id]
    again = eng.erase([mine.id], user_id="ada")
    assert again.memories == 0 and again.not_found == [mine.id]
    assert eng.get(theirs.id, user_id="bob").content == "Bob's dentist is in Leeds."
    for bad in ([mine.id + " "], ["m_\u200bx"], [5], None):
        with pytest.raises(MemgraphError):
            eng.erase(bad, user_id="ada")  # type: ignore[arg-type]
    with pytest.raises(InvalidIdentifierError):
        eng.erase_user("ada ")


def test_erase_user_takes_everything_of_one_user_only(make_engine: Callable[..., MemoryEngine]) -> None:
    eng = make_engine()
    _session(eng)
    _summary(eng)
    _session(eng, "bob")
    eng.remember("Ada's gym is the one on Mill Road.", user_id="ada", tags=["gym"])
    eng.jobs.decay("ada", apply=True)
    before_bob = eng.stats(user_id="bob").model_dump()
    report = eng.erase_user("ada")
    assert report.memories == 6 and report.job_runs >= 2, report
    assert eng.stats(user_id="ada").memories == 0 and eng.tags(user_id="ada") == []
    assert eng.store.count_memories("ada", MemoryFilter.everything()) == 0
    assert eng.stats(user_id="bob").model_dump() == before_bob
    assert [r.job for r in eng.jobs.history()][0] == "erase_user" and eng.jobs.history()[0].user_id is None
    assert eng.erase_user("ada").memories == 0  # again: nothing left, no error
    assert eng.list(user_id="bob", kind=MemoryKind.EVENT.value)
