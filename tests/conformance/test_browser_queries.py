"""Every saved exploration query in cypher/browser runs on a real Cypher engine (FalkorDB and Neo4j) over a graph
built through the public API, through `memgraph cypher --file` and by name (`memgraph cypher --query`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from memgraph import MemoryEngine, Relation, Settings
from memgraph.cli import app

from .conftest import falkordb_available

BROWSER = Path(__file__).resolve().parents[2] / "cypher" / "browser"
FILES = sorted(BROWSER.glob("*.cypher"))


def _params(text: str, memory_id: str) -> dict[str, object]:
    declared = set(re.findall(r"\$(\w+)", text))
    values = {"user": "ada", "limit": 50, "threshold": 1.01, "memory_id": memory_id}
    return {k: v for k, v in values.items() if k in declared}


@pytest.fixture(scope="module", params=["falkordb", "neo4j"])
def browser_engine(request: pytest.FixtureRequest, embedder):  # noqa: ANN001, ANN201 - fixtures
    if request.param == "falkordb":
        reason = falkordb_available()
        if reason:
            pytest.skip(reason)
        target = f"falkordb+dir://{request.getfixturevalue('falkordb_dir')}?graph=browser"
        settings = Settings(store=target)
    else:
        server = request.getfixturevalue("neo4j_server")
        server.wipe()
        target, settings = server.uri, server.settings()
    eng = MemoryEngine.open(target, settings=settings, embedder=embedder)
    old = eng.remember("The office is in Berlin", user_id="ada", tags=["office"])
    new = eng.remember("The office moved to Munich", user_id="ada", tags=["office"])
    eng.link(new.id, old.id, Relation.SUPERSEDES, user_id="ada", reason="moved")
    a = eng.remember("Ada drinks tea in the morning", user_id="ada", tags=["habits"])
    b = eng.remember("Ada never drinks tea in the morning", user_id="ada", tags=["habits"], reconcile=False)
    eng.link(b.id, a.id, Relation.CONTRADICTS, user_id="ada")
    eng.link(a.id, new.id, Relation.RELATES_TO, user_id="ada", weight=0.7)
    eng.remember_many([{"content": f"Gardening note {i}: water the tomatoes after {i} days", "tags": ["garden"]}
                       for i in range(8)], user_id="ada", reconcile=False)
    eng.jobs.cluster("ada", apply=True, force=True)
    eng.recall("what is my passport number?", user_id="ada")
    eng.flush()
    yield eng, target, new.id
    eng.close()


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_browser_query_runs_on_a_real_graph(browser_engine, path: Path) -> None:  # noqa: ANN001
    eng, _, memory_id = browser_engine
    text = path.read_text(encoding="utf-8")
    rows = eng.store.query(text, _params(text, memory_id))
    expect_rows = {
        "user_overview": True, "memory_neighbourhood": True, "supersede_chains": True, "contradictions": True,
        "gaps": True, "strongest_links": True, "decay_candidates": True, "user_graph": True,
    }
    if expect_rows.get(path.stem):
        assert rows, f"{path.name} returned nothing on a graph that has what it shows"


def test_cli_runs_a_browser_file_with_params(browser_engine) -> None:  # noqa: ANN001
    _, target, _ = browser_engine
    res = CliRunner().invoke(
        app, ["cypher", "--file", str(BROWSER / "supersede_chains.cypher"), "--param", "user=ada", "--store", target]
    )
    assert res.exit_code == 0, res.output
    assert "Munich" in res.output and "Berlin" in res.output


def test_cli_runs_a_shipped_query_by_name(browser_engine) -> None:  # noqa: ANN001
    _, target, _ = browser_engine
    res = CliRunner().invoke(app, ["cypher", "--query", "user_overview", "--param", "user=ada", "--store", target])
    assert res.exit_code == 0, res.output
    assert "fact" in res.output and "row(s)" in res.output
    res = CliRunner().invoke(app, ["cypher", "--query", "no_such_query", "--store", target])
    assert res.exit_code == 2 and "user_overview" in res.output
