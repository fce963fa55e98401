"""Two served memories that contradict each other are marked, each with which of the two is the newer
(retrieve/disputes.py): side by side without a word, the agent could not tell that they disagree nor which was said
last."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from typer.testing import CliRunner

from memgraph import MemoryEngine
from memgraph.cli import app
from memgraph.models import Memory, MemoryKind, RecallResult, RecallTrace
from memgraph.retrieve.disputes import disputes, mark

T0 = datetime(2026, 3, 1, tzinfo=UTC)


def _mem(mid: str, day: int, **meta: list[str]) -> Memory:
    return Memory(id=mid, user_id="u", content=f"text {mid}", created_at=T0 + timedelta(days=day), metadata=meta)


def test_each_side_is_marked_and_nothing_moves() -> None:
    a, x, b = _mem("a", 0, contradicted_by=["b"]), _mem("x", 1), _mem("b", 2, contradicts=["a"])
    served, traces = [a, x, b], [RecallTrace(memory_id=m.id) for m in (a, x, b)]
    mark(served, traces)
    assert [m.id for m in served] == ["a", "x", "b"]  # the scores' order stays
    assert [(t.memory_id, t.conflicts_with, t.conflict) for t in traces] == [
        ("a", "b", "older"), ("x", None, None), ("b", "a", "newer")]
    prompt = RecallResult(memories=served, trace=traces).to_prompt()
    assert "[FACT, conflicting: older] text a\n[FACT] text x\n[FACT, conflicting: newer] text b" in prompt


def test_the_side_that_names_the_other_is_the_newer_one_whatever_its_date() -> None:
    """Two memories of one batch share a timestamp: the one whose write flagged the other came second."""
    a, b = _mem("a", 0, contradicts=["b"]), _mem("b", 0, contradicted_by=["a"])
    traces = [RecallTrace(memory_id="b"), RecallTrace(memory_id="a")]
    mark([b, a], traces)
    assert [t.conflict for t in traces] == ["older", "newer"]


def test_steps_of_a_procedure_are_no_conflict() -> None:
    """Numbered steps say different values of one frame, which the write path can flag as conflicting."""
    a, b = _mem("a", 0, contradicted_by=["b"]), _mem("b", 1, contradicts=["a"])
    a.kind = b.kind = MemoryKind.PROCEDURE
    assert disputes([a, b]) == {}


def test_a_conflict_with_a_memory_not_served_changes_nothing() -> None:
    a, x = _mem("a", 0, contradicted_by=["gone"]), _mem("x", 1)
    assert disputes([a, x]) == {}
    traces = [RecallTrace(memory_id="a"), RecallTrace(memory_id="x")]
    mark([a, x], traces)
    assert [(t.conflicts_with, t.conflict) for t in traces] == [(None, None), (None, None)]


def test_a_record_changed_is_marked(quiet: MemoryEngine) -> None:
    old = quiet.remember("Supplier: Harlow Mills | Contact: Ann Reyes | Phone: 0117 496 0555", user_id="kai")
    new = quiet.remember("Supplier: Harlow Mills | Contact: Ann Reyes | Phone: 0117 496 0777", user_id="kai")
    res = quiet.recall("what's Ann Reyes's number?", user_id="kai", top_k=3)
    sides = {t.memory_id: t.conflict for t in res.trace}
    assert sides[new.id] == "newer" and sides[old.id] == "older"
    assert "[FACT, conflicting: older] Supplier: Harlow Mills | Contact: Ann Reyes | Phone: 0117 496 0555" in (
        res.to_prompt())


def test_the_conflict_on_the_command_line(tmp_path: Path) -> None:
    store = str(tmp_path / "store")
    run = CliRunner().invoke
    env = {"COLUMNS": "200", "HF_HUB_OFFLINE": "1"}
    for text in ("The kids' bedtime is 8pm.", "The kids' bedtime is 9pm."):
        assert run(app, ["remember", text, "--user", "noor", "--store", store], env=env).exit_code == 0
    table = run(app, ["recall", "when is bedtime for the kids?", "--user", "noor", "--store", store], env=env)
    assert table.exit_code == 0, table.output
    rows = [line for line in table.output.splitlines() if "bedtime is" in line]
    newer = next(i for i, row in enumerate(rows) if "9pm" in row)
    older = 1 - newer
    assert f"conflicts with row {older + 1} (newer)" in rows[newer]
    assert f"conflicts with row {newer + 1} (older)" in rows[older]
