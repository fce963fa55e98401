"""`memgraph demo`, the README's main job: it must run end to end on a fresh store and show what it promises."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from memgraph.cli import app


def test_demo_runs_end_to_end(tmp_path: Path) -> None:
    store = tmp_path / "demo-store"
    result = CliRunner().invoke(app, ["demo", "--store", str(store)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    out = result.output
    # ingest: three sessions, the correction supersedes the first cutover date
    assert "session s1:" in out and "session s3:" in out
    assert "1 superseded" in out
    blocks = out.split("2. recall")[1:]
    assert len(blocks) == 4
    cutover, deploy, alembic, owners = blocks
    # recall: the correction answers the cutover question; the old date is not served
    assert "28 November 2026" in cutover and "planned for 14 November 2026." not in cutover
    assert "[CORRECTION]" in cutover
    # the query's best hit comes first after any baseline preference (a high-priority preference is placed first)
    deploy_lines = [ln for ln in deploy.split("<memory>")[1].strip().splitlines() if not ln.startswith("[PREFERENCE]")]
    assert deploy_lines[0].startswith("[PROCEDURE] user: To deploy the ledger")
    alembic_lines = [
        ln for ln in alembic.split("<memory>")[1].strip().splitlines() if not ln.startswith("[PREFERENCE]")
    ]
    assert alembic_lines[0].startswith("[CONSTRAINT] user: Never run Alembic")
    assert "Mei owns the fraud rules engine" in owners
    # maintenance plans are dry runs, and the graph summary is printed
    assert "3. maintenance plans" in out and "4. the graph" in out
    assert (store / "memgraph.sqlite3").exists()
