"""The CLI says what happened: what a write superseded, reinforced or redacted, each ingest decision with its
reason, statuses in `list --inactive`, an unknown user as an error, and job reports that do not claim changes
nobody can see. Through typer's CliRunner on a real SQLite data directory and the real model."""

from __future__ import annotations

import json
from datetime import timedelta

import numpy as np
import pytest
from typer.testing import CliRunner

from memgraph import MemoryEngine
from memgraph.cli import app
from memgraph.models import utcnow
from memgraph.store import MemoryUpdate

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    res = runner.invoke(app, list(args))
    return res.exit_code, res.stdout, res.stderr


@pytest.fixture
def store(tmp_path) -> str:
    return str(tmp_path / "store")


def flat(text: str) -> str:
    """Output with rich's line wrapping undone (non-terminal width is 80 columns)."""
    return " ".join(text.split())


def test_remember_names_what_it_superseded(store):
    code, out, _ = run("remember", "The Atlas deadline is Wednesday 12 March.", "-u", "ada", "-s", store)
    assert code == 0 and out.startswith("remembered m_")
    old_id = out.split()[1]
    code, out, _ = run(
        "remember", "Actually the Atlas deadline moved to Friday 14 March.", "--kind", "correction",
        "-u", "ada", "-s", store,
    )
    text = flat(out)
    assert code == 0 and "(correction)" in text
    assert f"superseded {old_id}" in text and '"The Atlas deadline is Wednesday 12 March."' in text
    assert "(now inactive)" in text and "why:" in text


def test_remember_says_a_later_change_leaves_the_old_memory_current(store):
    code, out, _ = run("remember", "The plot rent is £38 a year.", "-u", "ada", "-s", store)
    old_id = out.split()[1]
    code, out, _ = run("remember", "The plot rent goes up to £45 from next April.", "-u", "ada", "-s", store)
    text = flat(out)
    assert code == 0 and f"superseded {old_id}" in text
    assert "(now inactive)" not in text and "(current until 20" in text and "holds from 20" in text


def test_remember_says_when_nothing_new_was_stored(store):
    run("remember", "I prefer tabs over spaces in Python", "-u", "ada", "-s", store)
    code, out, _ = run("remember", "I prefer tabs over spaces in Python", "-u", "ada", "-s", store)
    assert code == 0 and flat(out).startswith("already remembered as m_")


def test_remember_says_what_it_redacted_never_the_secret(store):
    code, out, err = run("remember", "The deploy bucket key is AKIAIOSFODNN7EXAMPLE", "-u", "ada", "-s", store)
    text = flat(out)
    assert code == 0 and "redacted 1 aws_access_key" in text and "[REDACTED:aws_access_key]" in text
    assert "AKIAIOSFODNN7EXAMPLE" not in out + err


def test_remember_json_has_memory_and_report(store):
    code, out, _ = run("remember", "I live in Berlin.", "-u", "ada", "-s", store, "--json")
    data = json.loads(out)
    assert code == 0 and data["memory"]["content"] == "I live in Berlin."
    assert data["report"]["decisions"][0]["action"] == "created"


def test_ingest_prints_each_decision_with_its_reason(store, tmp_path):
    run("remember", "The office moved to Berlin.", "-u", "ada", "-s", store)
    notes = tmp_path / "notes.txt"
    notes.write_text("Actually, the office moved to Paris, not Berlin.\n", encoding="utf-8")
    code, out, _ = run("ingest", str(notes), "-u", "ada", "-s", store, "--session", "s1")
    text = flat(out)
    assert code == 0
    assert "superseded m_" in text and '"The office moved to Berlin."' in text and "why:" in text
    assert "superseded 1" in text  # the summary line follows the decisions


def test_ingest_says_what_it_dropped_and_why(store, tmp_path):
    turns = tmp_path / "turns.jsonl"
    turns.write_text(
        json.dumps({"text": "We agreed to ship the Atlas beta on Monday.", "speaker": "ada"}) + "\n"
        + json.dumps({"text": "AKIAIOSFODNN7EXAMPLE", "speaker": "ada"}) + "\n",
        encoding="utf-8",
    )
    code, out, _ = run("ingest", str(turns), "-u", "ada", "-s", store, "--no-speaker-prefix")
    text = flat(out)
    assert code == 0 and "dropped (only_secrets)" in text and "AKIAIOSFODNN7EXAMPLE" not in out


def test_list_shows_status_only_with_inactive_and_no_empty_score_column(store):
    run("remember", "The office moved to Berlin.", "-u", "ada", "-s", store)
    run("remember", "The office moved to Paris.", "-u", "ada", "-s", store)
    code, out, _ = run("list", "-u", "ada", "-s", store)
    assert code == 0 and "score" not in out and "status" not in out and "Berlin" not in out
    code, out, _ = run("list", "-u", "ada", "-s", store, "--inactive")
    assert code == 0 and "status" in out and "inactive" in out and "active" in out and "Berlin" in out


def test_ids_in_tables_stay_whole_to_be_copied(store):
    """A newcomer copied an id from `list` into `forget`: the table had folded it over two lines."""
    code, out, _ = run("remember", "The staging database is pg-stage-02, reachable only over the VPN.", "-u", "ada",
                       "-s", store, "--json")
    mid = json.loads(out)["memory"]["id"]
    for args in (("list",), ("search", "staging database"), ("list", "--inactive")):
        code, out, _ = run(*args, "-u", "ada", "-s", store)
        assert code == 0 and mid in out, out  # on one line of the 80-column table


def test_forget_twice_says_nothing_changed(store):
    _, out, _ = run("remember", "Temporary note about lunch.", "-u", "ada", "-s", store)
    mid = out.split()[1]
    code, out, _ = run("forget", mid, "-u", "ada", "-s", store)
    assert code == 0 and out.startswith("forgot")
    code, out, _ = run("forget", mid, "-u", "ada", "-s", store)
    assert code == 0 and "already inactive" in flat(out) and not out.startswith("forgot")
    code, out, _ = run("restore", mid, "-u", "ada", "-s", store)
    assert code == 0 and out.startswith("restored")
    code, out, _ = run("restore", mid, "-u", "ada", "-s", store)
    assert "already active" in out


@pytest.mark.parametrize("command", [["recall", "anything"], ["search", "anything"], ["list"]])
def test_unknown_user_is_an_error_naming_no_other_user(store, command):
    run("remember", "Bob likes tea.", "-u", "bob", "-s", store)
    code, out, err = run(*command, "-u", "nobody", "-s", store)
    assert code == 1 and "has no memories" in flat(err) and "bob" not in err + out


def test_short_f_means_file_everywhere():
    for command in ("recall", "cypher"):
        _, out, _ = run(command, "--help")
        assert "--file" in out and "-f" in out
    _, out, _ = run("export", "--help")
    assert "--format" in out and " -f " not in out


def test_decay_plan_counts_only_visible_changes_and_writes_nothing(store, embedder):
    engine = MemoryEngine.open(store, embedder=embedder)
    engine.remember("A fresh fact about the garden.", user_id="ada")
    week_old = utcnow() - timedelta(days=7)
    engine.remember_many([{"content": "An old fact about the car.", "created_at": week_old}], user_id="ada")
    mid = engine.list(user_id="ada")[-1].id
    engine.store.update_memories("ada", [MemoryUpdate(id=mid, set={"last_accessed": week_old})])
    engine.close()
    code, out, _ = run("decay", "-u", "ada", "-s", store, "--json")
    report = json.loads(out)
    assert code == 0 and report["applied"] is False
    assert report["rows_planned"] == 2 and report["rows_written"] == 0
    assert report["changed"] == 1  # the week-old fact; the fresh one moves by ~1e-9
    assert [e["id"] for e in report["examples"]] == [mid]
    code, out, _ = run("decay", "-u", "ada", "-s", store, "--apply", "--json")
    assert json.loads(out)["rows_written"] == 2


def test_cluster_that_does_nothing_says_skipped_not_applied(store, embedder):
    engine = MemoryEngine.open(store, embedder=embedder)
    engine.remember_many([{"content": f"note {i} about gardening"} for i in range(3)], user_id="ada")
    engine.close()
    code, out, _ = run("cluster", "-u", "ada", "-s", store, "--apply")
    text = flat(out)
    assert code == 0 and text.startswith("SKIPPED cluster for ada") and "APPLIED" not in text
    assert "memories: 0" not in text


def test_cluster_without_clusters_says_which_setting_to_lower(tmp_path, embedder):
    rng = np.random.default_rng(7)  # twelve unrelated directions: HDBSCAN finds no group of five
    vectors = rng.normal(size=(12, 384))
    engine = MemoryEngine.open(str(tmp_path / "s"), embedder=embedder)
    engine.remember_many(
        [{"content": f"unrelated note number {i}", "embedding": v.tolist()} for i, v in enumerate(vectors)],
        user_id="ada", reconcile=False,
    )
    report = engine.jobs.cluster("ada")
    engine.close()
    assert report.clustered == 0 and report.skipped is None
    assert any("MEMGRAPH_CLUSTER_MIN_SIZE=3" in w for w in report.warnings)


def test_recall_trace_is_rounded_and_paths_start_at_their_seed(store):
    eng = MemoryEngine.open(store)
    eng.remember_conversation(
        [
            {"speaker": "Ada", "text": "We are moving the Atlas launch to the Lisbon office."},
            {"speaker": "Ben", "text": "Then the catering order needs a new address."},
            {"speaker": "Ada", "text": "I will email Rosa at the bakery about it tomorrow."},
        ],
        user_id="ada",
        session_id="s1",
    )
    eng.close()
    code, out, _ = run("recall", "Where is the Atlas launch?", "-u", "ada", "-s", store, "--trace", "-k", "3")
    text = flat(out)
    assert code == 0 and "in prompt order" in text
    assert "search hit #1" in text  # the how column names what found each memory
    assert not __import__("re").search(r"\d\.\d{5,}", text), text  # three significant digits, never 0.0327868...
    assert "cue x1.0 []" not in text and "cascade depth 0" not in text
    for line in text.split(" · "):
        if " via " in line:  # a graph path runs from the seed it started at to this memory
            assert line.split(" via ", 1)[1].split()[0].startswith(("m_", "seed")) and "this" in line
