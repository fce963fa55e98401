"""The cheap prechecks in front of the parse's patterns are exact: every match of a gated pattern holds what its
gate looks for, so skipping the pattern where the gate fails never loses a match (bench/RESULTS.md, "Bulk writes,
twelfth round"). Checked on every text of the labelled pairs and on texts made to match each pattern."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from memgraph.ingest import signals, statement, statement_words, values

DATA = Path(__file__).resolve().parents[1] / "data" / "decisions"
MADE = [
    "The shuttle leaves at 7:40 and comes back at 9.15pm; on 12/03/2024 it ran 2 to 5pm.",
    "Meet me at noon, or at midnight on 14 June 2023, or the 2024-05-01 release.",
    "The rent went up from 1,450 euros to £1,600 a month; we raised it to 12 twice a year.",
    "She cut the budget to 3,000. HMRC set my payment on account to £1,200.",
    "He is set to 21. The pool is heated to 27. Moved the call TO 9 AM.",
    "Nobody merges until two reviewers approve; you mustn't deploy before 10 unless told.",
    "Not May but June, at 7:30 instead of 8:00, three coffees, five-a-side, twenty-one days.",
    "Every Monday morning at 10 we meet; on Tuesday nights and weekends, fortnightly.",
    "I mistyped: it's 3.20 each, sells for 4.50 at 7.40 in the evening, 1st of Sept.",
    # (a range whose first hour takes the end's am / pm is rewritten before `values` reads it: spoken.py)
    "Lunch is served 12 to 2pm.",
]


def _texts() -> list[str]:
    out = list(MADE)
    # the parts already read (a blind part is not opened here)
    for name in ("dev", "heldout", "heldout3", "heldout4", "heldout5", "heldout6", "heldout7"):
        for line in (DATA / f"pairs_{name}.jsonl").read_text().splitlines():
            row = json.loads(line)
            out += [row["old"], row["new"]]
    out += [t.upper() for t in MADE] + [t.lower() for t in MADE]
    return out


TEXTS = _texts()


def test_the_corpus_reaches_every_gated_pattern() -> None:
    prepared = [values._prepared(t) for t in TEXTS]
    for pattern in (values._TIME_RANGE, values._TIME, values._SLASH_DATE, values._DATE, values._YEAR,
                    values._MONTH, values._WEEKDAY, values._PERIOD, values._FREQUENCY):
        assert any(pattern.search(t) for t in prepared), pattern.pattern[:40]
    assert any(m.group("w") for t in prepared for m in values._NUMBER.finditer(t))
    assert any(signals.UPDATE_TO_VALUE.search(t) for t in TEXTS)


@pytest.mark.parametrize("text", TEXTS)
def test_every_value_match_holds_its_gate(text: str) -> None:
    t = values._prepared(text)
    low = t.lower()
    for m in values._TIME_RANGE.finditer(t):
        assert values._AM_PM.search(m.group(0))
    for m in values._TIME.finditer(t):
        assert values._AM_PM.search(m.group(0)) or values._CLOCK.search(m.group(0)) or m.group("word")
    for m in values._SLASH_DATE.finditer(t):
        assert "/" in m.group(0)
    for m in values._DATE.finditer(t):
        assert "-" in m.group(0) or any(s in m.group(0).lower() for s in values._MONTH_STEMS)
    for m in values._YEAR.finditer(t):
        assert "19" in m.group(0) or "20" in m.group(0)
    for pattern, gate in ((values._MONTH, values._MONTH_GATE), (values._WEEKDAY, values._WEEKDAY_GATE),
                          (values._PERIOD, values._PERIOD_GATE), (values._FREQUENCY, values._FREQUENCY_GATE)):
        for m in pattern.finditer(t):
            said = m.group(0).lower()
            if t.isascii():
                assert any(w in said for w in gate[0])
    # without a number word, `_NUMBER_DIGITS` finds exactly `_NUMBER`'s matches
    if not any(w in low for w in values._NUMBER_WORDS):
        full = [(m.span(), m.groupdict()) for m in values._NUMBER.finditer(t)]
        assert [(m.span(), m.groupdict()) for m in values._NUMBER_DIGITS.finditer(t)] == full


@pytest.mark.parametrize("text", TEXTS)
def test_update_cue_and_negation_gates(text: str) -> None:
    whole = re.compile(signals.UPDATE.pattern + "|" + signals.UPDATE_TO_VALUE.pattern.removeprefix("(?i)"))
    # a named supplier dropped is read apart from UPDATE (its capital matters), behind a plain "dropped" gate
    ungated_cue = bool(whole.search(text)) or signals._DROPPED_NAME.search(text) is not None
    assert signals.has_update_cue(text) == ungated_cue
    for m in signals.UPDATE_TO_VALUE.finditer(text):
        assert signals._TO_VALUE.search(m.group(0))
    ungated = signals.is_negated(statement._CONDITION.sub(" ", text))
    assert statement._negated(text) == ungated


FOLDED = [signals.UPDATE, signals.UPDATE_TO_VALUE, signals.ADDITIVE, signals.EPISODE, signals.NEGATION,
          statement_words._REPLACED]


@pytest.mark.parametrize("text", TEXTS + ["Straße: Kelvin’s café closed", "ſtop — İstanbul moved to 9"])
def test_folded_patterns_find_the_same_matches(text: str) -> None:
    for pattern in FOLDED:
        folded = signals.Folded(pattern)
        assert [m.span() for m in folded.finditer(text)] == [m.span() for m in pattern.finditer(text)]
        got, want = folded.search(text), pattern.search(text)
        assert (got and got.span()) == (want and want.span())


def test_folded_refuses_a_pattern_it_cannot_lower() -> None:
    with pytest.raises(ValueError):
        signals.Folded(re.compile(r"(?i)\bWe\b"))
    with pytest.raises(ValueError):
        signals.Folded(re.compile(r"\bwe\b"))  # case-sensitive already
