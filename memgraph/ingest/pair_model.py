"""A learned duplicate gate: how likely a new statement repeats a stored one, for the pairs the rules leave open.

The rules of `reconcile.py` reinforce a paraphrase only when one of their shapes fits (a cosine, a Jaccard, the
same values about the same subject); on parts of labelled pairs they had not seen they found a third of the
duplicates (bench/RESULTS.md). A logistic regression over what the rules read in a pair (the cosine, the
`Comparison`, both statements' cues and sizes, the slot verdict; never the rules' own verdicts) found twice as many
at the same precision where the rules decided nothing and its probability was >= 0.9 (scored once on the blind
held-out 7: duplicate 1.000 / 0.633 against the rules' 1.000 / 0.333). For supersedes and contradicts the same gate
fell below the precision goals, so only the duplicate probability is used. In a bulk load of real text that
gate merged ~100 writes, half of them no repeats: it now runs behind vetoes (`pairing.gate_veto`, `repeats.py`)
and its weights are fitted with 300 labelled pairs drawn from such a load's real neighbours as well
(tests/data/decisions/pairs_neighbours.jsonl), which leaves it nearly silent on real text (bench/RESULTS.md).

`pair_features` is the one definition of the features (bench/decisions_model.py imports it to train);
`duplicate_probability` applies the weights of memgraph/data/duplicate_model.json (written by
`bench/decisions_model.py --export`) with numpy only (`memgraph/learned.py`).
"""

from __future__ import annotations

from functools import lru_cache

from memgraph.ingest import signals, slots
from memgraph.ingest.comparison import _WHEN, Comparison, _names_denied, _same_subject
from memgraph.ingest.statement import Statement, denied_values
from memgraph.learned import LinearModel, read_model

#: The statement parts read as features: a flag, a size, or (a string) its length.
STATEMENT_PARTS = ("correction", "update", "additive", "episode", "question", "negated", "identity", "clause",
                   "tokens", "frame", "subject", "complement", "entity_words", "ordinals", "replaced", "preference",
                   "flat_values")
#: The `Comparison` parts read as features.
COMPARISON_PARTS = ("jaccard", "frame_jaccard", "shared", "only_new", "only_old", "same_values", "changed",
                    "polarity", "replaced", "identity", "subject_changed", "entities_differ", "value_swap",
                    "preference_swapped", "same_frame")
MODEL_FILE = "duplicate_model.json"


def _number(value: object) -> float:
    """A flag or a number as itself, a collection as its size, anything else as whether it is set."""
    if callable(value):
        value = value()
    if isinstance(value, bool | int | float):
        return float(value)
    try:
        return float(len(value))  # type: ignore[arg-type]
    except TypeError:
        return float(value is not None)


def pair_features(new: Statement, old: Statement, comparison: Comparison, cosine: float) -> dict[str, float]:
    """What the rules read in a (new, old) pair, as numbers; `comparison` is the pair's (`comparison.compare`)."""
    f: dict[str, float] = {"cosine": cosine}
    for name in COMPARISON_PARTS:
        f[f"c_{name}"] = _number(getattr(comparison, name))
    for side, st in (("n", new), ("o", old)):
        for name in STATEMENT_PARTS:
            f[f"{side}_{name}"] = _number(getattr(st, name))
        f[f"{side}_chars"] = float(len(st.text))
    f["values_shared"] = float(len(new.flat_values & old.flat_values))
    f["values_only_new"] = float(len(new.flat_values - old.flat_values))
    f["values_only_old"] = float(len(old.flat_values - new.flat_values))
    changed = comparison.changed
    f["changed_when"] = float(any(k in _WHEN for k in changed))
    f["changed_other"] = float(any(k not in _WHEN for k in changed))
    f["same_subject"] = float(_same_subject(new, old))
    f["names_denied"] = float(_names_denied(denied_values(new.text), old))
    f["sig_correction"] = float(signals.has_correction(new.text))
    f["sig_update"] = float(signals.has_update_cue(new.text))
    f["sig_negated_new"] = float(signals.is_negated(new.text))
    f["sig_negated_old"] = float(signals.is_negated(old.text))
    moved = slots.verdict(new.text, old.text)
    f["slot_move"] = float(moved is not None and moved[0])
    f["slot_other"] = float(moved is not None and not moved[0])
    return f


@lru_cache(maxsize=1)
def load_model() -> LinearModel:
    """The weights shipped in memgraph/data/duplicate_model.json, read once."""
    return read_model(MODEL_FILE)


def duplicate_probability(new: Statement, old: Statement, comparison: Comparison, cosine: float) -> float:
    """The model's probability that `new` repeats `old`."""
    return load_model().probabilities(pair_features(new, old, comparison, cosine))["duplicate"]
