"""The learned duplicate gate (memgraph/ingest/pair_model.py): real model, real store, the shipped weights."""

from __future__ import annotations

import numpy as np
import pytest

from memgraph import MemoryEngine, Settings
from memgraph.ingest import pair_model
from memgraph.ingest.classify import classify
from memgraph.ingest.reconcile import Neighbour, ReconcileAction, ReconcileDecision, RuleReconciler, compare
from memgraph.ingest.statement import statement
from memgraph.models import Memory, memory_id_for

ON = Settings(store=":memory:", dedup_model=True)
OFF = Settings(store=":memory:")  # the default: the rules alone
#: a paraphrase no rule reinforces (no typed value to anchor it, words replaced: cosine 0.89), which the gate finds
#: at p 0.94 (a learned merge of the real bulk load, judged a repeat: bench/RESULTS.md)
OLD, NEW = "I work at a bar on the weekends.", "I have a weekend job in a bar."


def _mem(text: str, speaker: str | None = None) -> Memory:
    meta = {"speaker": speaker} if speaker else {}
    return Memory(id=memory_id_for("u", text), user_id="u", content=text, kind=classify(text).kind, metadata=meta)


def _decide(embedder, old: Memory, new: Memory, settings: Settings) -> ReconcileDecision:  # type: ignore[no-untyped-def]
    va, vb = embedder.encode([old.content, new.content])
    return RuleReconciler(settings).decide(new, [Neighbour(old, float(va @ vb))])


def test_gate_reinforces_a_paraphrase_the_rules_miss_and_is_off_by_default(embedder) -> None:  # type: ignore[no-untyped-def]
    on = _decide(embedder, _mem(OLD), _mem(NEW), ON)
    assert on.action is ReconcileAction.REINFORCE
    assert on.target_id == _mem(OLD).id
    assert on.reason.startswith("learned duplicate (p=0.9")
    assert on.scores["p_duplicate"] >= ON.dedup_model_min_probability
    assert _decide(embedder, _mem(OLD), _mem(NEW), OFF).action is ReconcileAction.CREATE
    assert not Settings(store=":memory:").dedup_model


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("My favourite colour is green.", "My favourite food is green curry."),
        ("I like hiking in the mountains.", "I like hiking along the coast."),
        ("My favourite colour is green.", "My favourite colour used to be blue."),
        ("Green is the colour I like best.", "My favourite colour is green, and my partner's is red."),
        ("The standup is at 9:15.", "The standup is in room 4B."),
        # the same values of another subject (tests/ingest/test_reconcile.py), a question after a statement
        ("The gym closes at 22:00 on weekdays.", "The pharmacy closes at 22:00 on weekdays."),
        ("Wow, that's awesome! What do you love most about camping with your fam?", "I love camping."),
    ],
)
def test_gate_leaves_compatible_and_changed_statements(embedder, old: str, new: str) -> None:  # type: ignore[no-untyped-def]
    assert _decide(embedder, _mem(old), _mem(new), ON).action is ReconcileAction.CREATE


@pytest.mark.parametrize(("old_speaker", "new_speaker"), [("caroline", "caroline"), ("mel", "caroline"),
                                                          (None, "caroline"), ("caroline", None)])
def test_gate_never_joins_turns_or_speakers(embedder, old_speaker: str | None, new_speaker: str | None) -> None:  # type: ignore[no-untyped-def]
    """Two turns said in other words are two turns; one speaker's statement repeats no one else's."""
    decided = _decide(embedder, _mem(OLD, old_speaker), _mem(NEW, new_speaker), ON)
    assert decided.action is ReconcileAction.CREATE


def test_gate_through_remember(embedder) -> None:  # type: ignore[no-untyped-def]
    """Through the public write path and a real store: the paraphrase strengthens the stored memory."""
    for settings, same in ((ON, True), (OFF, False)):
        with MemoryEngine.open(":memory:", embedder=embedder, settings=settings) as engine:
            first = engine.remember(OLD, user_id="u")
            second = engine.remember(NEW, user_id="u")
            assert (second.id == first.id) is same
            assert len(engine.list(user_id="u")) == (1 if same else 2)
            assert engine.get(first.id, user_id="u").strength == (2 if same else 1)


def test_numpy_inference_equals_sklearn(embedder) -> None:  # type: ignore[no-untyped-def]
    """The shipped weights applied with numpy give sklearn's predict_proba for the same weights to 1e-9."""
    sklearn_lm = pytest.importorskip("sklearn.linear_model")
    preprocessing = pytest.importorskip("sklearn.preprocessing")
    model = pair_model.load_model()
    scaler = preprocessing.StandardScaler()
    scaler.mean_, scaler.scale_ = model.mean, model.scale
    scaler.var_, scaler.n_features_in_ = model.scale**2, len(model.features)
    lr = sklearn_lm.LogisticRegression()
    lr.coef_, lr.intercept_ = model.coef, model.intercept
    lr.classes_, lr.n_features_in_ = np.arange(len(model.classes)), len(model.features)
    texts = [(OLD, NEW), ("I like hiking in the mountains.", "I like hiking along the coast."),
             ("The rent is £850 a month.", "Actually the rent is £900 a month."),
             ("I drive a blue Toyota Corolla.", "My car is a blue Toyota Corolla.")]
    for old, new in texts:
        va, vb = embedder.encode([old, new])
        cosine = float(va @ vb)
        f = pair_model.pair_features(statement(new), statement(old), compare(new, old, cosine), cosine)
        x = np.array([[f[k] for k in model.features]])
        expected = lr.predict_proba(scaler.transform(x))[0]
        got = model.probabilities(f)
        assert [got[c] for c in model.classes] == pytest.approx(expected.tolist(), abs=1e-9)


#: Every neighbour the gate may score is reinforced at this threshold: what stops a merge is then a veto alone,
#: whatever the shipped weights say.
ANY_P = Settings(store=":memory:", dedup_model=True, dedup_model_min_probability=0.0)


@pytest.mark.parametrize(
    ("old", "new", "why"),
    [
        # one says more: the new sentence would be lost, or a stored memory of two facts is no repeat of one
        ("I do not have a college degree.", "I cannot walk or drive. I do not have a college degree.", "one says more"),
        ("I drive an old truck. Ice cream is my favorite food.", "Ice cream is my favorite food.", "one says more"),
        # another person
        ("My cousin is an interior designer.", "I'm an interior designer.", "another person"),
        ("My parents do not go to church.", "I do not go to church.", "another person"),
        ("My son's football team is the Eagles.", "I play football for the Eagles.", "another person"),
        # another time
        ("I used to be a mechanic.", "I am an airplane mechanic.", "another time"),
        ("I like traveling.", "In the past I liked to travel.", "another time"),
        # a preference between two on one side (a load of 24,000 texts merged three such at p 0.92-0.95)
        ("Surfing is easy for me.", "I prefer cars to surfing.", "a preference over another"),
        ("I like to watch South Park.", "I prefer the old South Park to the new.", "a preference over another"),
    ],
)
def test_gate_vetoes_what_a_bulk_load_merged(embedder, tmp_path, old: str, new: str, why: str) -> None:  # type: ignore[no-untyped-def]
    """Pairs a bulk load of real text merged as repeats (bench/RESULTS.md, the duplicate gate on real neighbours):
    through `remember` on a SQLite file, the gate at any probability leaves each created, and says why."""
    with MemoryEngine.open(str(tmp_path / "store"), embedder=embedder, settings=ANY_P) as engine:
        first = engine.remember(old, user_id="u")
        second = engine.remember(new, user_id="u")
        assert second.id != first.id
        assert engine.get(first.id, user_id="u").strength == 1
    va, vb = embedder.encode([old, new])
    o, n = _mem(old), _mem(new)
    from memgraph.ingest.reconcile import gate_veto  # the reason the write path reads

    assert gate_veto(n, statement(new), o, statement(old), compare(new, old, float(va @ vb)), ANY_P) == why


def test_gate_without_a_veto_still_merges_a_paraphrase(embedder, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The control of the test above: the same store and settings reinforce a plain paraphrase (no veto holds)."""
    with MemoryEngine.open(str(tmp_path / "store"), embedder=embedder, settings=ANY_P) as engine:
        first = engine.remember("I am an Olympic athlete.", user_id="u")
        second = engine.remember("I compete in the Olympics.", user_id="u")
        assert second.id == first.id
