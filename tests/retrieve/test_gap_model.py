"""The learned gap decision (`retrieve/gap_model.py`): the shipped weights with numpy, cases the rules got wrong,
and the setting that falls back to the rules; real model, real store."""

from __future__ import annotations

import numpy as np
import pytest

from memgraph import MemoryEngine, Settings
from memgraph.embed import CachedEmbedder
from memgraph.retrieve import gap_model, gaps
from memgraph.retrieve.gaps import FocusTest, ServedHit
from tests.retrieve.conftest import make_engine


def _hits(embedder: CachedEmbedder, query: str, texts: list[str]) -> list[ServedHit]:
    vecs = np.asarray(embedder.encode([query, *texts]), dtype=np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    return [ServedHit(t, float(v @ vecs[0])) for t, v in zip(texts, vecs[1:], strict=True)]


def _verdicts(embedder: CachedEmbedder, query: str, texts: list[str]) -> tuple[gaps.GapVerdict, gaps.GapVerdict]:
    """The rules' verdict and the learned one on the same served memories, as maintenance asks them."""
    s = Settings(store=":memory:")
    focus = FocusTest(embedder.encode, s.gap_focus_word_cosine, s.gap_focus_drop, s.gap_weak_cosine,
                      s.gap_weak_word_cosine)
    hits = _hits(embedder, query, texts)
    rules = gaps.judge(query, hits, answer_cosine=s.gap_answer_cosine, answer_margin=s.gap_answer_margin,
                       need=True, focus=focus)
    learned = gap_model.judge(query, hits, focus=focus, answer_cosine=s.gap_answer_cosine,
                              weak_cosine=s.gap_weak_cosine, threshold=s.gap_model_threshold)
    return rules, learned


def _p(verdict: gaps.GapVerdict) -> float:
    """The probability a learned verdict's reason states ("learned: p=0.79 < 0.80; ...")."""
    return float(verdict.reason.split("p=", 1)[1].split(" ", 1)[0])


def test_numpy_probability_equals_sklearn(embedder: CachedEmbedder) -> None:
    """The shipped weights applied with numpy give sklearn's predict_proba for the same weights to 1e-9."""
    sklearn_lm = pytest.importorskip("sklearn.linear_model")
    preprocessing = pytest.importorskip("sklearn.preprocessing")
    model = gap_model.load_model()
    assert model.classes == ("none", "miss")
    scaler = preprocessing.StandardScaler()
    scaler.mean_, scaler.scale_ = model.mean, model.scale
    scaler.var_, scaler.n_features_in_ = model.scale**2, len(model.features)
    lr = sklearn_lm.LogisticRegression()
    lr.coef_, lr.intercept_ = model.coef, model.intercept
    lr.classes_, lr.n_features_in_ = np.arange(2), len(model.features)
    s = Settings(store=":memory:")
    focus = FocusTest(embedder.encode, s.gap_focus_word_cosine, s.gap_focus_drop, s.gap_weak_cosine,
                      s.gap_weak_word_cosine)
    cases = [
        ("how does code get to staging?", ["The staging site deploys automatically from the develop branch."]),
        ("What time does Sam's football practice finish?",
         ["Sam's football practice is on Thursday evenings at the Riverside pitch.", "Sam's shoe size is 34."]),
        ("What is the airspeed velocity of an unladen swallow?", []),
    ]
    for query, texts in cases:
        f = gap_model.gap_features(query, _hits(embedder, query, texts), focus=focus,
                                   answer_cosine=s.gap_answer_cosine, weak_cosine=s.gap_weak_cosine)
        assert set(model.features) <= set(f)  # every weight has its feature
        x = np.array([[f[k] for k in model.features]])
        expected = lr.predict_proba(scaler.transform(x))[0][1]
        assert gap_model.miss_probability(f) == pytest.approx(float(expected), abs=1e-9)


def test_answered_questions_the_rules_logged_as_misses(embedder: CachedEmbedder) -> None:
    """Read parts' answered questions the rules logged as misses (held-out 6 dj08, held-out 9 hk08): the word the
    rules want ("code", "uni") is said otherwise; the model weighs a close memory holding the asked value higher."""
    rules, learned = _verdicts(embedder, "how does code get to staging?",
                               ["The staging site deploys automatically from the develop branch."])
    assert rules.miss and not learned.miss
    assert learned.reason.startswith("learned: p=0.") and "best cosine 0.6" in learned.reason
    rules, learned = _verdicts(embedder, "How much is it to join if you're at uni?",
                               ["Membership is £18 a year, £10 for students; guests may come on two walks first."])
    assert rules.miss and not learned.miss


RENO = ["Plumbing: Nowak & Sons do the first fix; our contact there is Tomasz Nowak (07700 900123).",
        "Worktops: we picked oak, 40 mm, from the Leeds supplier.",
        "The electrician is booked for the second fix on 12 May."]


def test_a_phone_number_the_memory_holds_is_no_miss(embedder: CachedEmbedder) -> None:
    """The lead's newcomer case (a renovation notes file): the number asked is served, under a longer sentence
    (cosine 0.43). The read parts' phone questions are nearly all misses (26 of 27, how they were written), so a
    model that saw the kind asked logged it (p 0.94 with main f6abf0a's weights); the kind asked is no feature now
    (bench/gaps_model.py PRIORS). A phone number nobody served is far likelier a miss: refitted on twenty-two parts
    it sits at p 0.79, just under the threshold 0.8 (0.78 refitted with held-out 19 and none of `gaps16`'s readings;
    0.80 on twenty-one parts), so the test asks the order the model must keep, not the side of 0.8."""
    _, learned = _verdicts(embedder, "what's the phone number for Tomasz?", RENO)
    assert not learned.miss, learned.reason
    _, unserved = _verdicts(embedder, "what's the phone number for the electrician?", RENO)
    assert _p(unserved) >= _p(learned) + 0.15, (learned.reason, unserved.reason)
    _, learned = _verdicts(embedder, "what's the email for the Leeds supplier?", RENO)
    assert learned.miss, learned.reason


def test_a_statement_is_never_a_miss_and_an_empty_recall_is(embedder: CachedEmbedder) -> None:
    _, learned = _verdicts(embedder, "I prefer short answers with code first.", [])
    assert not learned.miss and not learned.need
    _, learned = _verdicts(embedder, "What is the airspeed velocity of an unladen swallow?", [])
    assert learned.miss and learned.reason == "nothing was served"


def _gaps(mem: MemoryEngine, user: str) -> int:
    mem.flush()
    return sum(g.count for g in mem.store.list_gaps(user))


@pytest.mark.parametrize("learned", [True, False])
def test_maintenance_uses_the_setting(embedder: CachedEmbedder, learned: bool) -> None:
    """`gap_model` on (the default) logs what the model says, off what the rules say: the answered question the
    rules logged is a Gap only with the rules."""
    eng = make_engine(embedder, gap_model=learned)
    try:
        eng.remember("The staging site deploys automatically from the develop branch.", user_id="u")
        eng.recall("how does code get to staging?", user_id="u")
        assert _gaps(eng, "u") == (0 if learned else 1)
        eng.recall("What is the airspeed velocity of an unladen swallow?", user_id="u")
        assert _gaps(eng, "u") == (1 if learned else 2)
    finally:
        eng.flush()
        eng._maintainer.close()
        eng.close()


def test_the_default_is_the_learned_decision() -> None:
    s = Settings(store=":memory:")
    assert s.gap_model and 0.5 <= s.gap_model_threshold < 1.0
