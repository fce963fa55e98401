"""A memory that says its value as a change of the one it superseded is served with that one (retrieve/bases.py):
"rent went up by 50" alone hides the 1450 it is relative to."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from memgraph import MemoryEngine
from memgraph.cli import app
from memgraph.ingest.remainders import AMENDS, leaves_values
from memgraph.models import Relation
from memgraph.retrieve.bases import relative
from memgraph.retrieve.layers import SUPERSEDED


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("rent went up by 50 from next month", True),
        ("the gym fee increased by 10% in January", True),
        ("swim starts an hour later than before", True),
        ("pickup is 15 minutes earlier than usual on Fridays", True),
        ("she's on half the dose now", True),
        ("the new tank holds twice as much water", True),
        ("rent went up to 1500 a month", False),
        ("we meet later this week", False),
        ("more than 20 people came to the fair", False),
        ("the dose is 5 ml twice a day", False),
    ],
)
def test_a_value_said_as_a_change(text: str, said: bool) -> None:
    assert relative(text) is said


def test_a_relative_change_is_served_with_the_value_it_changes(quiet: MemoryEngine) -> None:
    old = quiet.remember("rent is 1450 a month", user_id="noor")
    new = quiet.remember("rent went up by 50 this month", user_id="noor")
    assert not quiet.get(old.id, user_id="noor").active  # the rent changed: the old statement is superseded
    res = quiet.recall("how much is the rent now?", user_id="noor", top_k=3)
    ids = [m.id for m in res.memories]
    assert ids.index(old.id) == ids.index(new.id) + 1  # right after the change
    base = res.trace[ids.index(old.id)]
    assert base.section == SUPERSEDED and base.tokens > 0
    assert "[FACT, superseded] rent is 1450 a month" in res.to_prompt()
    assert res.total_tokens == sum(t.tokens for t in res.trace)


def test_a_relative_change_that_starts_later_leaves_the_old_value_current(quiet: MemoryEngine) -> None:
    """"from next month": the old rent holds until then (ingest/starts.py), so it is served as itself, marked with
    its last day, not as a superseded base."""
    old = quiet.remember("rent is 1450 a month", user_id="noor")
    quiet.remember("rent went up by 50 from next month", user_id="noor")
    assert quiet.get(old.id, user_id="noor").active
    res = quiet.recall("how much is the rent now?", user_id="noor", top_k=3)
    assert [t.section for t in res.trace if t.memory_id == old.id] != [SUPERSEDED]
    assert "until" in res.to_prompt() and "[FACT, superseded]" not in res.to_prompt()


def test_an_absolute_update_needs_no_base(quiet: MemoryEngine) -> None:
    old = quiet.remember("The allotment fee is 40 pounds a year.", user_id="noor")
    quiet.remember("The allotment fee went up to 45 pounds a year.", user_id="noor")
    assert not quiet.get(old.id, user_id="noor").active
    res = quiet.recall("what is the allotment fee?", user_id="noor")
    assert old.id not in [m.id for m in res.memories]
    assert all(t.section != SUPERSEDED for t in res.trace)


def test_a_base_is_shown_not_credited(mem: MemoryEngine) -> None:
    """Maintenance credits what the caller used; a superseded base only rode along: even helpful feedback on it
    links nothing (co-recall) and touches nothing."""
    old = mem.remember("Mia takes 5 ml of Calpol.", user_id="noor")
    new = mem.remember("Mia's Calpol went up by 2.5 ml now she's heavier.", user_id="noor")
    before = mem.get(old.id, user_id="noor")
    res = mem.recall("how much Calpol does Mia take?", user_id="noor")
    assert [m.id for m in res.memories][:2] == [new.id, old.id]
    mem.feedback(new.id, helpful=True, user_id="noor")
    mem.feedback(old.id, helpful=True, user_id="noor")
    mem.flush()
    assert not [lk for lk in mem.store.get_links("noor", [old.id]) if lk.relation is Relation.RELATES_TO]
    after = mem.get(old.id, user_id="noor")
    assert not after.active and after.access_count == before.access_count


def test_the_base_on_the_command_line(tmp_path: Path) -> None:
    store = str(tmp_path / "store")
    run = CliRunner().invoke
    env = {"COLUMNS": "200", "HF_HUB_OFFLINE": "1"}
    for text in ("The allotment fee is 40 pounds a year.", "the allotment fee went up by 5 pounds this year"):
        assert run(app, ["remember", text, "--user", "noor", "--store", store], env=env).exit_code == 0
    table = run(app, ["recall", "how much is the allotment fee?", "--user", "noor", "--store", store], env=env)
    assert table.exit_code == 0, table.output
    row = next(line for line in table.output.splitlines() if "superseded" in line)
    assert "40 pounds" in row and "row above" in row and " 0 " not in row  # no score of 0: it was not matched
    prompt = run(app, ["recall", "how much is the allotment fee?", "--user", "noor", "--prompt", "--store", store],
                 env=env)
    assert "[FACT, superseded] The allotment fee is 40 pounds a year." in prompt.output


def test_a_follow_up_is_served_with_the_memory_it_leaves_its_subject_to(quiet: MemoryEngine) -> None:
    """A lead's quarter hour: "pushed back a week, to the 19th" superseded the plumber's visit (the write path compares
    a follow-up with the latest memories, ingest/followups.py), and recall served the date with no plumber."""
    old = quiet.remember("The plumber is coming on the 12th at 10am.", user_id="kai")
    new = quiet.remember("pushed back a week, to the 19th", user_id="kai")
    assert not quiet.get(old.id, user_id="kai").active
    res = quiet.recall("when is the plumber coming?", user_id="kai", top_k=3)
    ids = [m.id for m in res.memories]
    assert ids[ids.index(new.id) + 1] == old.id
    assert "[FACT] pushed back a week, to the 19th\n[FACT, superseded] The plumber is coming on the 12th at 10am." in (
        res.to_prompt())
    # a statement with a subject of its own is not brought its predecessor
    other = quiet.remember("The window cleaner comes on the 3rd.", user_id="kai")
    quiet.remember("The window cleaner comes on the 10th now.", user_id="kai")
    assert other.id not in [m.id for m in quiet.recall("when does the window cleaner come?", user_id="kai").memories]


@pytest.mark.parametrize(
    ("old", "new", "leaves"),
    [
        ("The committee meets on the first Wednesday of the month at 7pm.", "The committee now meets on the second "
         "Wednesday.", True),  # the time still stands
        ("Rent is £38 a year, due every April.", "Rent is now £45.", True),  # the month it is due
        ("The dentist is on Friday 3 March at 10am.", "The dentist moved to Monday 6 March at 2pm.", False),
        ("Lena lives in Porto.", "Lena moved to Lisbon.", False),  # no value at all
        ("The pool opens at 6am.", "The pool opens at 6:30 now.", False),  # the same kind, changed
    ],
)
def test_a_change_that_leaves_a_kind_of_value_unsaid(old: str, new: str, leaves: bool) -> None:
    assert leaves_values(new, old) is leaves


def test_a_change_of_one_value_is_served_with_the_values_it_left_standing(quiet: MemoryEngine) -> None:
    """One clause, so no remainder can be cut out of it: the write marks the new memory (`AMENDS`) and recall serves
    the old one after it, marked superseded, so "what time" still finds the 7pm."""
    old = quiet.remember("The allotment committee meets on the first Wednesday of the month at 7pm.", user_id="kim")
    new = quiet.remember("Actually the committee now meets on the second Wednesday.", user_id="kim")
    assert not quiet.get(old.id, user_id="kim").active
    assert new.metadata[AMENDS] == [old.id]
    res = quiet.recall("what time does the committee meet?", user_id="kim", top_k=3)
    ids = [m.id for m in res.memories]
    assert ids.index(old.id) == ids.index(new.id) + 1
    assert res.trace[ids.index(old.id)].section == SUPERSEDED
    assert "[FACT, superseded] The allotment committee meets" in res.to_prompt()
    # erasing the old memory takes its id out of the mark, and recall serves the change alone
    quiet.erase([old.id], user_id="kim")
    assert AMENDS not in quiet.get(new.id, user_id="kim").metadata or not quiet.get(new.id, user_id="kim").metadata[
        AMENDS]
    assert [m.id for m in quiet.recall("what time does the committee meet?", user_id="kim", top_k=3).memories] == [
        new.id]


def test_a_change_that_restates_every_kind_of_value_brings_nothing(quiet: MemoryEngine) -> None:
    old = quiet.remember("The dentist appointment is on Friday 3 March at 10am.", user_id="kim")
    new = quiet.remember("The dentist appointment moved to Monday 6 March at 2pm.", user_id="kim")
    assert not quiet.get(old.id, user_id="kim").active and AMENDS not in new.metadata
    res = quiet.recall("when is the dentist appointment?", user_id="kim", top_k=3)
    assert old.id not in [m.id for m in res.memories]
