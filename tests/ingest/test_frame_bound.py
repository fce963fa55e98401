"""`statement.frame_bound`: every frame word a parse can give, from the parse's first stage; and the conflict chain's
clause loops, which skip a clause whose bound shares no frame word (or one, reading the old text's clauses)."""

from __future__ import annotations

from unittest import mock

import pytest

from memgraph import Settings
from memgraph.ingest import conflicts
from memgraph.ingest import statement as st
from memgraph.ingest.comparison import _compare
from memgraph.ingest.reconcile import RuleReconciler

TEXTS = [
    "The check-in desk opens at 2 pm; check-out is by 11 am.",
    "dentist appt got pushed to fri 2pm, not thurs",
    "Actually, the standup moved to 9:30, not 9:00.",
    "We have twenty-five rooms, not thirty; the 5pm's slot is gone.",
    "Hi Sam - quick one: the van's MOT is due on 3/10/2027. Thanks, Jo",
    "I got my wires crossed: the A2 group's teacher is Señor Ruiz, and Señora Ibáñez has B1.",
    "Membership costs £30 a year ```no code here``` for adults.",
    "ÇA COÛTE 5 € ; NOT ALLOWED, Ünïcode text.",
    "Kev's gone to the Swindon depot, so Priya is covering the early shift.",
    "",
]


@pytest.mark.parametrize("text", TEXTS)
def test_the_frame_is_within_its_bound(text: str) -> None:
    for part in (text, *conflicts._clause_parts(text)):
        assert st._parse(part).frame <= st.frame_bound(part), part


def _parsed_while(monkeypatch: pytest.MonkeyPatch) -> mock.Mock:
    """The texts the conflict chain parses from now on (a spy on `conflicts.statement`, answers unchanged)."""
    spy = mock.Mock(wraps=st.statement)
    monkeypatch.setattr(conflicts, "statement", spy)
    return spy


def test_a_negated_clause_that_shares_no_frame_word_is_not_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    new = "The kitchen is on the second floor; we don't allow dogs."
    old = st.statement("The office kitchen has a dishwasher.")
    n = st.statement(new)
    parsed = _parsed_while(monkeypatch)
    assert "we don't allow dogs." in conflicts._clause_parts(new) and not old.negated
    assert RuleReconciler(Settings(store=":memory:")).conflict(n, old, _compare(n, old, 0.6), cue=False) is None
    assert not {c.args[0] for c in parsed.call_args_list} & set(conflicts._clause_parts(new))


def test_an_old_clause_that_shares_one_frame_word_is_not_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    old = "The kitchen is on the second floor; we don't allow dogs."
    n = st.statement("Dogs are welcome in the garden.")
    o = st.statement(old)
    parsed = _parsed_while(monkeypatch)
    assert RuleReconciler(Settings(store=":memory:")).conflict(n, o, _compare(n, o, 0.6), cue=False) is None
    assert not {c.args[0] for c in parsed.call_args_list} & set(conflicts._clause_parts(old))


def test_the_chain_reads_each_text_s_parts_once() -> None:
    # both texts of every pair the chain reaches are cut into clauses and read as notes: once per text, not per pair
    from memgraph.ingest import jotted

    text = "Kids' week:\n- Mon: swimming\n- Tue: piano"
    for read in (conflicts._clause_parts, conflicts._joined, jotted.sentence):
        read.cache_clear()
        first = read(text)
        assert read(text) is first and read.cache_info().hits == 1, read
    assert jotted.sentence(text) == "Kids' week; Mon is swimming; Tue is piano"
    assert conflicts._joined("a b c; d e f") == ("a b c", "d e f") and conflicts._joined("a b c") == ()
