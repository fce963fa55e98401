"""Stage 2: the cascade's weights, hop decay, hub damping and fan-out cap, supersede resolution."""

from __future__ import annotations

import pytest

from memgraph import MemoryEngine
from memgraph.retrieve.cascade import cascade, hub_damping
from memgraph.retrieve.seeds import Seed
from memgraph.store import MemoryFilter


def _mk(eng: MemoryEngine, *texts: str, **kw: object) -> list[str]:
    return [m.id for m in eng.remember_many([{"content": t, **kw} for t in texts], user_id="u")]


def test_relates_to_weight_and_decay_per_hop(quiet: MemoryEngine) -> None:
    a, b, c = _mk(quiet, "alpha memory", "beta memory", "gamma memory")
    quiet.link(a, b, "RelatesTo", user_id="u", weight=0.5)
    quiet.link(b, c, "RelatesTo", user_id="u", weight=0.4)
    acts = cascade(quiet.store, "u", [Seed(id=a, rank=1, score=0.02)], MemoryFilter(), quiet.settings)
    assert acts[b].total == pytest.approx(0.5 * 0.7)
    assert acts[c].total == pytest.approx(0.5 * 0.7 * 0.4 * 0.7)
    assert acts[c].depth == 2 and [s.via for s in acts[c].path] == [b, c]
    assert a not in acts  # a seed is not reached from itself


def test_tag_and_supersedes_weights(quiet: MemoryEngine) -> None:
    a, d, e = _mk(quiet, "tagged one", "tagged two", "newer statement")
    quiet.tag(a, ["garden"], user_id="u")
    quiet.tag(d, ["garden"], user_id="u")
    quiet.link(a, e, "Contradicts", user_id="u")
    acts = cascade(quiet.store, "u", [Seed(id=a, rank=1, score=1.0)], MemoryFilter(), quiet.settings)
    # Memory -> Tag -> Memory is two hops of HasTag 0.8, each decayed by 0.7
    assert acts[d].total == pytest.approx(0.8 * 0.7 * 0.8 * 0.7)
    assert [s.relation for s in acts[d].path] == ["HasTag", "HasTag"]
    assert acts[d].path[0].via == "tag:garden" and acts[d].path[0].degree == 2
    assert acts[e].total == pytest.approx(0.3 * 0.7)  # "others" weigh 0.3


def test_contributions_scale_with_seed_strength_and_combine_as_noisy_or(quiet: MemoryEngine) -> None:
    a, b, c = _mk(quiet, "first seed", "second seed", "shared neighbour")
    quiet.link(a, c, user_id="u", weight=1.0)
    quiet.link(b, c, user_id="u", weight=1.0)
    seeds = [Seed(id=a, rank=1, score=0.04), Seed(id=b, rank=2, score=0.02)]
    acts = cascade(quiet.store, "u", seeds, MemoryFilter(), quiet.settings)
    # two paths, 0.7 (from the best seed) and 0.5 x 0.7: 1 - (1 - 0.7)(1 - 0.35)
    assert acts[c].total == pytest.approx(1 - (1 - 1.0 * 0.7) * (1 - 0.5 * 0.7))
    assert acts[c].total > 1.0 * 0.7  # a second path adds ...
    assert acts[c].seed_id == a  # the strongest path is the one shown
    assert acts[b].total == pytest.approx(1.0 * 0.7 * 1.0 * 0.7)  # a seed reached from another seed


def test_many_weak_paths_never_outweigh_the_best_seed(quiet: MemoryEngine) -> None:
    """A memory next to twenty seeds gathers activation, but stays below 1, the best seed's own strength:
    volume of paths alone cannot push a cascade-only memory above the strongest direct hit."""
    ids = _mk(quiet, *[f"seed statement number {i}" for i in range(20)], "the neighbour of all of them")
    hub = ids[-1]
    for sid in ids[:-1]:
        quiet.link(sid, hub, user_id="u", weight=1.0)
    seeds = [Seed(id=sid, rank=i + 1, score=1.0 / (60 + i + 1)) for i, sid in enumerate(ids[:-1])]
    acts = cascade(quiet.store, "u", seeds, MemoryFilter(), quiet.settings)
    assert 0.99 < acts[hub].total < 1.0
    summed = sum(s.score / seeds[0].score * 0.7 for s in seeds)
    assert summed > 10  # what a plain sum would have given it


def test_discovered_similarity_links_pass_on_a_fraction(quiet: MemoryEngine) -> None:
    """Similarity links repeat what vector seeding found; explicit and sequence links keep their weight, and
    the lighter discovered links are followed after them when the fan-out cap bites."""
    from memgraph.models import Link, LinkSource, Relation
    from memgraph.store.base import WriteBatch

    a, b, c = _mk(quiet, "seed memory", "explicitly related memory", "merely similar memory")
    quiet.link(a, b, user_id="u", weight=0.6)
    similar = Link(src=a, dst=c, relation=Relation.RELATES_TO, weight=0.9, source=LinkSource.DISCOVERED)
    quiet.store.write("u", WriteBatch(links=[similar]))
    acts = cascade(quiet.store, "u", [Seed(id=a, rank=1, score=1.0)], MemoryFilter(), quiet.settings)
    factor = quiet.settings.discovered_link_factor
    assert acts[c].total == pytest.approx(0.9 * factor * 0.7)
    assert acts[b].total == pytest.approx(0.6 * 0.7)
    capped = quiet.settings.model_copy(update={"fanout_cap": 1})
    acts1 = cascade(quiet.store, "u", [Seed(id=a, rank=1, score=1.0)], MemoryFilter(), capped)
    assert b in acts1 and c not in acts1


def test_hub_tag_is_capped_and_damped(embedder) -> None:
    from tests.retrieve.conftest import make_engine

    eng = make_engine(embedder, recall_maintenance=False, fanout_cap=10, hub_damping_size=5)
    try:
        ids = _mk(eng, *[f"hub member number {i}" for i in range(60)], tags=["everything"])
        acts = cascade(eng.store, "u", [Seed(id=ids[0], rank=1, score=1.0)], MemoryFilter(), eng.settings)
        reached = [mid for mid, a in acts.items() if a.path and a.path[0].via == "tag:everything"]
        assert 0 < len(reached) <= 10  # fan-out cap
        one = acts[reached[0]]
        assert one.path[0].degree == 60
        assert one.total == pytest.approx(0.8 * 0.7 * (5 / 60) * 0.8 * 0.7)
    finally:
        eng.close()
    assert (
        hub_damping(None, 5) == 1.0 and hub_damping(4, 5) == 1.0 and hub_damping(50, 5) == pytest.approx(0.1)
    )


def test_expand_respects_the_filter(quiet: MemoryEngine) -> None:
    a, b, c = _mk(quiet, "root note", "forgotten neighbour", "live neighbour")
    quiet.link(a, b, user_id="u")
    quiet.link(a, c, user_id="u")
    quiet.forget(b, user_id="u")
    acts = cascade(quiet.store, "u", [Seed(id=a, rank=1, score=1.0)], MemoryFilter(), quiet.settings)
    assert c in acts and b not in acts


def test_superseded_hit_resolves_to_its_successor(quiet: MemoryEngine) -> None:
    old = quiet.remember("My editor is vim with the solarized theme", user_id="u", kind="preference")
    new = quiet.remember("I switched to helix this spring", user_id="u", kind="preference")
    quiet.link(new.id, old.id, "Supersedes", user_id="u")
    res = quiet.recall("vim solarized theme editor", user_id="u", top_k=3, mode="hybrid")
    assert old.id not in [m.id for m in res.memories]
    assert res.memories[0].id == new.id
    assert any(f"resolved from superseded memory {old.id}" in n for n in res.trace[0].notes)


def test_cascade_finds_the_answer_next_to_the_question(quiet: MemoryEngine) -> None:
    turns = [
        {"speaker": "Ada", "text": "So what did you end up researching for the trip?"},
        {"speaker": "Bob", "text": "Mostly ferry timetables and cheap hostels."},
        {"speaker": "Ada", "text": "Nice. I repainted the kitchen yesterday."},
    ]
    mems = quiet.remember_conversation(turns, user_id="u", session_id="s1")
    hybrid = quiet.recall("what did Bob research for the trip", user_id="u", top_k=1, mode="hybrid")
    casc = quiet.recall("what did Bob research for the trip", user_id="u", top_k=1, mode="cascade")
    assert casc.memories[0].id == mems[1].id
    assert casc.trace[0].matched_tags == ["speaker:bob"]
    assert casc.trace[0].cascade_score > 0
    assert hybrid.memories[0].id == mems[0].id  # without the graph the question wins
