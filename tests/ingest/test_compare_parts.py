"""`comparison.Comparison` works out each part when a rule first asks for it (a bulk write compares ~25k pairs a
batch and decides on few). Every part must be what the whole comparison, worked out at once, gives."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from memgraph import MemoryEngine
from memgraph.ingest.comparison import (
    Comparison,
    _abbreviates,
    _abbreviations_met,
    _align,
    _ordinal_changed,
    _unit_said,
    compare,
    said_number,
)
from memgraph.ingest.statement import Statement, statement

PAIRS = Path(__file__).resolve().parents[1] / "data" / "decisions" / "pairs_dev.jsonl"


def _whole(n: Statement, o: Statement, cosine: float) -> dict[str, Any]:
    """Every part at once, as the comparison was written before it became lazy."""
    names = n.entity_words | o.entity_words
    only_new, only_old = _abbreviations_met(*_align(n.frame, o.frame), names)
    kn, ko = _unit_said(n, o.kinds, n.kinds), _unit_said(o, n.kinds, o.kinds)
    changed = tuple(k for k in sorted(set(kn) & set(ko)) if not (kn[k] <= ko[k] or ko[k] <= kn[k]))
    if n.ordinals and o.ordinals and _ordinal_changed(n.text, o.text):
        changed += ("ordinal",)
    union = n.tokens | o.tokens
    return {
        "cosine": cosine,
        "jaccard": (len(n.tokens & o.tokens) / len(union)) if union else 1.0,
        "shared": n.frame & o.frame,
        "only_new": only_new,
        "only_old": only_old,
        "same_values": n.flat_values == o.flat_values,
        "changed": changed,
        "entities_differ": bool(_abbreviations_met(*_align(n.entity_words, o.stems), names)[0]
                                or _abbreviations_met(*_align(o.entity_words, n.stems), names)[0]),
        "value_swap": bool(only_new and only_old) and only_new <= n.value_words() and only_old <= o.value_words(),
        "subject_changed": bool(only_new & n.subject and only_old & o.subject),
        "identity": n.identity or o.identity,
        "polarity": n.negated != o.negated,
        "replaced": bool(n.replaced & (o.stems | o.entity_words)) or said_number(n, o),
        "preference_swapped": bool(
            n.preference and o.preference and n.preference != o.preference and set(n.preference) == set(o.preference)
        ),
        "same_frame": not only_new and not only_old,
    }


def test_every_part_is_the_whole_comparisons() -> None:
    pairs = [json.loads(line) for line in PAIRS.read_text().splitlines() if line.strip()]
    assert len(pairs) > 100
    kinds: set[str] = set()
    for p in pairs:
        for new, old in ((p["new"], p["old"]), (p["old"], p["new"])):
            c = compare(new, old, 0.75)
            want = _whole(statement(new), statement(old), 0.75)
            assert {k: getattr(c, k) for k in want} == want, (new, old)
            union = len(want["shared"]) + len(want["only_new"]) + len(want["only_old"])
            assert c.scores() == {
                "cosine": 0.75,
                "jaccard": round(want["jaccard"], 4),
                "frame_jaccard": round(len(want["shared"]) / union if union else 1.0, 4),
            }
            kinds.update(k for k, v in want.items() if v and k != "cosine")
    # the pairs exercise every part (a part that is always empty would be checked for nothing)
    parts = {"changed", "entities_differ", "value_swap", "subject_changed", "polarity", "replaced", "same_frame"}
    assert kinds >= parts


def test_parts_asked_in_any_order_agree() -> None:
    """A part read after another (cached) or first (worked out then) is the same value."""
    new, old = "The gym now closes at 20:00, not 22:00.", "The gym closes at 22:00 on weekdays."
    first = compare(new, old, 0.9)
    order = list(_whole(statement(new), statement(old), 0.9))
    forwards = {k: getattr(first, k) for k in order}
    second = compare(new, old, 0.9)
    backwards = {k: getattr(second, k) for k in reversed(order)}
    assert forwards == backwards
    assert isinstance(first, Comparison)


@pytest.mark.parametrize(("short", "full"), [("st", "street"), ("ave", "avenu"), ("mt", "mount"), ("blvd", "boulevard"),
                                             ("rd", "road")])
def test_a_name_word_written_short_is_the_same_word(short: str, full: str) -> None:
    assert _abbreviates(short, full)
    assert _abbreviations_met(frozenset({short}), frozenset({full}), frozenset({short, full})) == (frozenset(),
                                                                                                 frozenset())


def test_common_words_are_not_read_as_abbreviations() -> None:
    assert _abbreviates("car", "cellar")  # the letters follow...
    car, cellar = frozenset({"car"}), frozenset({"cellar"})
    assert _abbreviations_met(car, cellar, frozenset()) == (car, cellar)  # ...but neither is a name's word
    assert not _abbreviates("cat", "coat") and not _abbreviates("st", "sat")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Dentist is Dr. Mbeki on Lark Street, Thursdays only.", "My dentist is Dr. Mbeki, Lark St, only on Thursdays"),
        ("Our cabin is at 14 Elm Avenue, near the lake.", "our cabin is at 14 Elm Ave near the lake"),
    ],
)
def test_a_street_written_short_is_a_restatement_not_a_swap(engine: MemoryEngine, old: str, new: str) -> None:
    """A newcomer's dentist "on Lark Street" and "Lark St" were a contradiction (a swapped street)."""
    u = "abbrev"
    first = engine.remember(old, user_id=u)
    second = engine.remember(new, user_id=u)
    assert second.id == first.id and not second.metadata.get("contradicts")
