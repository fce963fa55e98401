"""The learned gap decision: how likely a served recall was a miss, from what the gap rules read in it.

The rules of `gaps.judge` reached precision 0.80-0.87 on the parts of labelled cases they were written from, but
0.43-0.50 on each new persona part scored blind: every persona brings paraphrases a rule on words does not foresee,
and each rule's verdict is all or nothing. A logistic regression over the same readings, never the rules' verdicts
(the query's shape, the served cosines, per served memory whether it holds the kind of value asked, the values the
question names, speaks of another time, covers the key terms, states a rule, how many focus words it leaves
uncovered), weighs the evidence instead. Scored the way each part was blind (`bench/gaps_model.py --frozen`: the
rules of a commit at which the part was unseen, the model fitted on the parts read by then), on four parts
(held-out 7-10, 135 misses) it made precision / recall 0.767 / 0.585 where the rules made 0.545 / 0.630
(bench/RESULTS.md, "Gap detection, the learned decision shipped"); on five (held-out 7-11, 169 misses), with
`gap_structure`'s readings of whose value a memory holds (a sibling subject's value is no answer), 0.730 / 0.592 at
threshold 0.70 where the rules made 0.531 / 0.609 ("Gap detection, held-out 11's causes"); on six (held-out 7-12, 202
misses) 0.762 / 0.554 at threshold 0.75, chosen there by the highest F0.5, where the rules made 0.530 / 0.619
("Gap detection, held-out 12's causes"). It is short of the goal (0.9 / 0.6): no threshold reaches precision 0.9
on unseen parts with recall above 0.3.

A plain statement is still never a miss: the information-need test of `gap_question` runs first, as it did for
the rules; and a need with nothing served is a miss (no labelled case has one, so the model never learnt it).
`gap_features` is the one definition of the features (bench/gaps_model.py imports it to train); `judge` applies
the weights of memgraph/data/gap_model.json (written by `bench/gaps_model.py --export`) with numpy only
(`memgraph/learned.py`). `gap_model = False` in the settings falls back to the rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from memgraph.learned import LinearModel, read_model
from memgraph.retrieve.gap_focus import (
    FOCUS_ENOUGH,
    FocusTest,
    ServedHit,
    asks_case,
    covers,
    focus_words,
    key_terms,
    possessors,
    states_rule,
    subject_names,
    uncovered,
)
from memgraph.retrieve.gap_question import asked, information_need, is_question, plain_spelling, scene, unwrap
from memgraph.retrieve.gap_structure import structure_features
from memgraph.retrieve.gap_values import expected_answer, holds_answer, holds_asked_values, tense_clash
from memgraph.retrieve.gap_voice import restore_case, spell_served
from memgraph.retrieve.gaps import GapVerdict

MODEL_FILE = "gap_model.json"
#: The kinds of value `expected_answer` names, one feature each.
EXPECTS = ("time", "when", "duration", "number", "money", "name", "place", "address", "email", "phone", "code", "age")
#: What is read of each served memory, summarised over them (the most similar one, any of them).
_PER_HIT = ("typed", "named", "other_time", "covers", "rule")


def gap_features(
    query: str, served: Sequence[ServedHit], *, focus: FocusTest, answer_cosine: float, weak_cosine: float
) -> dict[str, float]:
    """What the gap rules read in one served recall, as numbers. `answer_cosine` and `weak_cosine` are the rules'
    (`gap_answer_cosine`, `gap_weak_cosine`): a memory's focus words are tested from `weak_cosine` up, as `judge`
    tests them. A query with no capital at all is read with the capitals the served memories give its words
    (`gap_voice.restore_case`: chat's lower case must not hide the question's subjects), and a pasted message
    without its greeting and sign-off (`gap_question.unwrap`: "Hi Sam," and "Thanks, Noor" are no subjects), chat's
    spellings of question words written out (`gap_question.plain_spelling`: "wats the gate code"); a memory's
    pictographs as the things they picture (`gap_voice.spell_pictographs`: "🎂 Priya 14/6" says a birthday)."""
    served = spell_served(served)
    query = restore_case(plain_spelling(unwrap(query)), served)
    setting, question = scene(query)
    expects = expected_answer(question)
    focus_n = len(focus_words(asked(query)))
    terms = key_terms(query)
    f: dict[str, float] = {
        # a relayed question is a question ("my wife asks when the car insurance renews": `asked` drops the relay)
        "need": float(information_need(query)), "question": float(is_question(query) or is_question(asked(query))),
        "scene": float(bool(setting)),
        "focus_n": float(focus_n), "focus_typed_n": float(len(focus_words(asked(query), typed=True))),
        "terms_n": float(len(terms)), "query_words": float(len(query.split())),
        "asks_case": float(asks_case(question)), "possessors": float(len(possessors(query))),
        "subject_names": float(len(subject_names(query))),
    }
    for e in EXPECTS:
        f[f"expects_{e}"] = float(expects == e)
    f["expects_none"] = float(expects is None)
    sims = sorted((h.similarity for h in served if h.similarity is not None), reverse=True)
    f["served_n"] = float(len(served))
    f["best"] = sims[0] if sims else 0.0
    f["second"] = sims[1] if len(sims) > 1 else 0.0
    f["margin"] = f["best"] - f["second"]
    f["mean"] = float(np.mean(sims)) if sims else 0.0
    f["above_answer"] = float(sum(s >= answer_cosine for s in sims))
    f["above_weak"] = float(sum(s >= weak_cosine for s in sims))
    per = []
    for h in served:
        sim = h.similarity if h.similarity is not None else 0.0
        left = float(len(uncovered(query, h.content, focus))) if sim >= weak_cosine else float(focus_n)
        per.append({
            "sim": sim, "typed": float(holds_answer(h.content, expects, query)),
            "named": float(holds_asked_values(h.content, question)),
            "other_time": float(tense_clash(h.content, question)), "covers": float(covers(h.content, terms)),
            "rule": float(states_rule(h.content)), "left": left, "left_frac": left / focus_n if focus_n else 0.0,
        })
    top = max(per, key=lambda p: p["sim"]) if per else None
    for k in (*_PER_HIT, "left", "left_frac"):
        f[f"best_{k}"] = top[k] if top else 0.0
    for k in _PER_HIT:
        f[f"any_{k}"] = float(any(p[k] for p in per))
    f["any_covered"] = float(any(p["left"] == 0 and p["sim"] >= weak_cosine for p in per))
    good = [p for p in per if p["typed"] and p["named"] and not p["other_time"]]
    f["good_n"] = float(len(good))
    f["good_best_sim"] = max((p["sim"] for p in good), default=0.0)
    f["good_min_left"] = min((p["left"] for p in good), default=float(focus_n))
    f["good_min_left_frac"] = min((p["left_frac"] for p in good), default=1.0)
    f["covered_best_sim"] = max((p["sim"] for p in good if p["left"] == 0), default=0.0)
    # the rules forgive a long question one uncovered word ("which command installs frontend packages?" / "The
    # frontend uses pnpm; ..."): what they count as covered, where the linear model cannot combine the two itself
    long_question = f["focus_typed_n"] - 1 >= FOCUS_ENOUGH
    f["long_question"] = float(long_question)
    nearly = [p for p in good if p["left"] == 0 or (p["left"] == 1 and long_question)]
    f["nearly_covered_best_sim"] = max((p["sim"] for p in nearly), default=0.0)
    f["any_nearly_covered"] = float(any(p["sim"] >= weak_cosine for p in nearly))
    f.update(structure_features(query, served, weak_cosine=weak_cosine))  # a sibling subject's value is no answer
    return f


@lru_cache(maxsize=1)
def load_model() -> LinearModel:
    """The weights shipped in memgraph/data/gap_model.json, read once."""
    return read_model(MODEL_FILE)


def miss_probability(features: dict[str, float]) -> float:
    """The model's probability that the recall these features describe was a miss."""
    return load_model().probabilities(features)["miss"]


def judge(
    query: str,
    served: Sequence[ServedHit],
    *,
    focus: FocusTest,
    answer_cosine: float,
    weak_cosine: float,
    threshold: float,
) -> GapVerdict:
    """Is this recall a miss? A plain statement never is, an information need with nothing served always is;
    otherwise a miss when the model's probability is at least `threshold` (`gap_model_threshold`). The reason says
    the probability and what weighed most in a person's terms."""
    sims = [h.similarity for h in served if h.similarity is not None]
    best = max(sims) if sims else None
    if not information_need(query):
        return GapVerdict(False, False, None, "not an information need (a statement)", best)
    expects = expected_answer(scene(query)[1])
    if not served:  # no labelled case asked with nothing served (a recall serves weak hits too): by definition
        return GapVerdict(True, True, expects, "nothing was served", None)
    f = gap_features(query, served, focus=focus, answer_cosine=answer_cosine, weak_cosine=weak_cosine)
    p = miss_probability(f)
    held = f"best one holding the {expects} asked" if expects else "best one holding the values asked"
    reason = (
        f"learned: p={p:.2f} {'>=' if p >= threshold else '<'} {threshold:.2f}; best cosine {f['best']:.2f}, "
        f"{held} {f['good_best_sim']:.2f}; focus words the best leaves uncovered: {f['best_left']:.0f} of "
        f"{f['focus_n']:.0f}"
    )
    return GapVerdict(p >= threshold, True, expects, reason, best)
