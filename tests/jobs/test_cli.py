"""The job commands through typer's CliRunner, on a real SQLite data directory."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from memgraph.cli import app
from tests.jobs.conftest import SIX_TOPICS, checksum, make_engine
from tests.jobs.corpus import generate

runner = CliRunner()


@pytest.fixture
def store_dir(embedder, tmp_path):
    path = str(tmp_path / "store")
    eng = make_engine(embedder, path)
    eng.remember_many([{"content": i.content} for i in generate(SIX_TOPICS, 20)], user_id="ada", reconcile=False)
    eng.remember("Bob likes tea.", user_id="bob")
    eng.close()
    return path


def invoke(*args: str):
    result = runner.invoke(app, list(args))
    return result


def test_cluster_plan_apply_and_history(store_dir, embedder):
    eng = make_engine(embedder, store_dir)
    before = checksum(eng.store)
    eng.close()
    plan = invoke("cluster", "--user", "ada", "--store", store_dir, "--json")
    assert plan.exit_code == 0, plan.output
    data = json.loads(plan.stdout)
    assert data["applied"] is False and data["clusters"]
    eng = make_engine(embedder, store_dir)
    assert checksum(eng.store) == before
    eng.close()
    text = invoke("cluster", "--user", "ada", "--store", store_dir)
    assert "PLAN" in text.stdout and "--apply" in text.stdout
    applied = invoke("cluster", "--user", "ada", "--store", store_dir, "--apply", "--json")
    assert applied.exit_code == 0 and json.loads(applied.stdout)["applied"] is True
    hist = invoke("history", "--store", store_dir, "--json")
    runs = json.loads(hist.stdout)
    assert [(r["job"], r["user_id"], r["status"]) for r in runs] == [("cluster", "ada", "done")]
    assert "cluster" in invoke("history", "--store", store_dir).stdout


def test_all_users_and_user_errors(store_dir):
    res = invoke("decay", "--all-users", "--store", store_dir, "--json")
    assert res.exit_code == 0
    assert {r["user_id"] for r in json.loads(res.stdout)} == {"ada", "bob"}
    missing = invoke("decay", "--store", store_dir)
    assert missing.exit_code == 2 and "--user" in missing.stderr
    unknown = invoke("decay", "--user", "nobody", "--store", store_dir)
    assert unknown.exit_code == 1 and "no memories" in unknown.stderr
    assert invoke("decay", "--user", "ada", "--prune", "--store", store_dir).exit_code == 2


def test_other_jobs_and_export_import(store_dir, tmp_path):
    for cmd in ("links", "consolidate", "gaps", "reindex"):
        res = invoke(cmd, "--user", "ada", "--store", store_dir, "--json")
        assert res.exit_code == 0, (cmd, res.output)
        assert json.loads(res.stdout)["job"] == cmd
    out = tmp_path / "backup.jsonl"
    res = invoke("export", str(out), "--store", store_dir)
    assert res.exit_code == 0 and out.exists()
    graphml = tmp_path / "g.graphml"
    assert invoke("export", str(graphml), "--format", "graphml", "--store", store_dir).exit_code == 0
    target = str(tmp_path / "copy")
    res = invoke("import", str(out), "--store", target, "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["records"]["memory"] == 121
    bad = tmp_path / "bad.jsonl"
    bad.write_text(out.read_text()[:500])
    res = invoke("import", str(bad), "--store", str(tmp_path / "other"))
    assert res.exit_code == 1 and "truncated" in res.stderr


def test_locked_store_gives_a_clean_error(store_dir, embedder):
    eng = make_engine(embedder, store_dir)
    with eng.jobs.locked("links"):
        res = invoke("decay", "--user", "ada", "--apply", "--store", store_dir)
    eng.close()
    assert res.exit_code == 1 and "job lock" in res.stderr and "links" in res.stderr
