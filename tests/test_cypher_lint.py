"""Every Cypher statement passes Neo4j's own parser and semantic analysis (tools/cypher-lint), and the lint
really fails on a broken statement."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LINT_DIR = ROOT / "tools" / "cypher-lint"
PACKAGE = LINT_DIR / "node_modules" / "@neo4j-cypher" / "language-support"


@pytest.fixture(scope="module")
def node() -> str:
    exe = shutil.which("node")
    if exe is None:
        pytest.skip("Node.js is not installed: the Neo4j Cypher lint needs it (apt-get install nodejs)")
    if not PACKAGE.exists():
        pytest.skip(
            "tools/cypher-lint/node_modules is missing: run `make setup-dev` (cd tools/cypher-lint && npm ci)"
        )
    return exe


def _lint(node: str, *paths: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [node, str(LINT_DIR / "lint.mjs"), *map(str, paths)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )


STATEMENTS = ROOT / "memgraph" / "cypher"
BROWSER = ROOT / "cypher" / "browser"


def test_every_statement_passes_neo4j_lint(node: str) -> None:
    """The lint's default roots: the statements the stores run (includes expanded, as the store expands them)
    and the exploration queries."""
    result = _lint(node)
    assert result.returncode == 0, result.stdout + result.stderr
    summary = result.stdout.strip().splitlines()[-1]
    files = int(summary.split()[1])
    statements = [p for p in STATEMENTS.rglob("*.cypher") if "include" not in p.relative_to(STATEMENTS).parts]
    assert files == len(statements) + len(list(BROWSER.glob("*.cypher")))
    assert " 0 error(s)" in summary


def test_lint_sees_the_included_filter(node: str, tmp_path: Path) -> None:
    """A mistake inside an included fragment fails every statement that includes it, at the expanded line."""
    (tmp_path / "include").mkdir()
    (tmp_path / "include" / "broken_filter.cypher").write_text(
        "// A filter with a typo in a label.\n// Parameters: $user_id\n"
        "WHERE m.user_id = $user_id AND (m)-[:HasTag]->(:Tagg)\n"
    )
    (tmp_path / "uses.cypher").write_text(
        "// Uses the broken filter.\n// Parameters: $user_id\n"
        "MATCH (m:Memory)\n// include: broken_filter\nRETURN m.id\n"
    )
    result = _lint(node, tmp_path)
    assert result.returncode == 1, result.stdout
    assert any("uses.cypher:4:" in ln and "error" in ln for ln in result.stdout.splitlines()), result.stdout
    assert "1 file(s)" in result.stdout.strip().splitlines()[-1]


def test_lint_fails_on_a_broken_statement(node: str, tmp_path: Path) -> None:
    good = tmp_path / "good.cypher"
    good.write_text(
        "// Count a user's memories.\n// Parameters: $user_id\n"
        "MATCH (m:Memory {user_id: $user_id}) RETURN count(m) AS n\n"
    )
    broken = tmp_path / "broken.cypher"
    broken.write_text(
        "// A statement with a syntax error.\n// Parameters: $user_id\n"
        "MATCH (m:Memory {user_id: $user_id} RETURN m\n"
    )
    result = _lint(node, good, broken)
    assert result.returncode == 1
    errors = [ln for ln in result.stdout.splitlines() if ": error: " in ln]
    assert errors and all(ln.split(":")[0].endswith("broken.cypher") for ln in errors), result.stdout
    assert any(ln.startswith(f"{broken}:3:") or "broken.cypher:3:" in ln for ln in errors)


MISTAKES = {
    "label": ("MATCH (m:Memroy) RETURN m", "Memroy"),  # a label outside memgraph's model
    "reltype": ("MATCH (m:Memory)-[:HasTags]->(t) RETURN t", "HasTags"),
    "procedure": (
        "CALL db.index.vector.queryNode('memory_vector', 5, [1.0]) YIELD node RETURN node",
        "queryNode",
    ),
    "parameter": ("MATCH (m:Memory) RETURN m.id, $undeclared", "undeclared"),
    "function": ("MATCH (m:Memory) RETURN toFloatLst(m.x)", "toFloatLst"),
    "semantics": ("MATCH (m:Memory) RETURN n.id", "not defined"),
}


def test_lint_catches_semantic_mistakes(node: str, tmp_path: Path) -> None:
    """Mistakes a parser alone would miss: each file fails with its own message."""
    for name, (body, _) in MISTAKES.items():
        (tmp_path / f"{name}.cypher").write_text(
            f"// A statement with a {name} mistake.\n// Parameters: none\n{body}\n"
        )
    result = _lint(node, tmp_path)
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    for name, (_, message) in MISTAKES.items():
        assert any(f"{name}.cypher:3:" in ln and "error" in ln and message in ln for ln in lines), (
            name,
            lines,
        )
