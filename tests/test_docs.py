"""The people's side: README, configuration table, docker compose and --help stay true to the code."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from memgraph.cli import app

ROOT = Path(__file__).resolve().parents[1]


def test_readme_config_table_is_generated_from_config() -> None:
    out = subprocess.run(
        [sys.executable, "tools/gen_config_table.py", "--check"], cwd=ROOT, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr


def test_readme_has_the_two_commands_and_ci_runs_the_test_one() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "make demo" in readme and "make test" in readme
    assert "make test" in (ROOT / ".ci" / "run").read_text()


def test_docker_compose_runs_neo4j_with_browser_bolt_volume_healthcheck_and_no_password() -> None:
    spec = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    neo4j = spec["services"]["neo4j"]
    assert neo4j["image"].startswith("neo4j:5")
    assert {"7474:7474", "7687:7687"} <= {str(p).split()[0] for p in neo4j["ports"]}
    assert "healthcheck" in neo4j and any(v.startswith("neo4j-data:") for v in neo4j["volumes"])
    assert "neo4j-data" in spec["volumes"]
    auth = neo4j["environment"]["NEO4J_AUTH"]
    assert "${MEMGRAPH_NEO4J_PASSWORD" in auth, "the password must come from .env, never the repo"
    # One variable serves compose and memgraph; the example does not claim memgraph reads .env itself.
    example = (ROOT / ".env.example").read_text()
    names = {line.split("=", 1)[0] for line in example.splitlines() if "=" in line and not line.startswith("#")}
    assert "MEMGRAPH_NEO4J_PASSWORD" in names and "NEO4J_PASSWORD" not in names
    assert "does not read .env" in example


def _commands() -> list[str]:
    return sorted(c.name or c.callback.__name__ for c in app.registered_commands)  # type: ignore[union-attr]


@pytest.mark.parametrize("command", [[]] + [[c] for c in _commands()])
def test_every_command_explains_itself(command: list[str]) -> None:
    res = CliRunner().invoke(app, [*command, "--help"])
    assert res.exit_code == 0, res.output
    assert "Usage" in res.output
    # Every option has help text.
    assert not re.search(r"^\s+--[\w-]+\s+(TEXT|INTEGER|FLOAT)?\s*$", res.output, re.M), res.output
    # and shows all of it: the help is rendered as Markdown, where a bare "<memory>" is an HTML tag and vanished
    # ("Print the  block for a prompt.")
    import typer.main

    cmd = typer.main.get_command(app)
    for name in command:
        cmd = cmd.commands[name]  # type: ignore[attr-defined]
    flat = " ".join(res.output.replace("│", " ").split())
    for what, text in [("the command", cmd.help), *((p.name, getattr(p, "help", None)) for p in cmd.params)]:
        for tag in re.findall(r"<[A-Za-z][\w:-]*>", text or ""):
            assert tag in flat, f"{what}: {tag} is not shown"
    # and reads in an 80-column terminal: no option name cut short ("--no-speaker-pre…" took the help column's
    # width, wrapping every help text to a word a line) and no "<list[str]>" for a repeatable option.
    narrow = CliRunner().invoke(app, [*command, "--help"], env={"COLUMNS": "80"}).output
    assert not re.search(r"--[\w-]*…", narrow), narrow
    assert not re.search(r"│\s+(?:\*\s+)?--.*<list\[", narrow), narrow


#: What the repository's own text must not lean on: files outside it, and the private vocabulary of the
#: documents it was first specified from ("seed 002", "DESIGN.md", "issue #5").
_OUTSIDE = re.compile(r"\]\((?:\.\./|/work/|file:)|\.\./shared|/work/shared")
_JARGON = re.compile(r"\b[Ss]eeds? 0\d\d\b|\bDESIGN\.md\b|\bSTYLE\.md\b|\b[Ii]ssue #?\d+\b|\(#\d+\)")


def _user_facing_files() -> list[Path]:
    files = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").rglob("*.md"))]
    files += sorted((ROOT / "memgraph").rglob("*.py")) + sorted((ROOT / "memgraph").rglob("*.cypher"))
    files += sorted((ROOT / "memgraph").rglob("*.md")) + sorted((ROOT / "notebooks").glob("*.py"))
    return files


def test_the_repository_stands_on_its_own() -> None:
    """No link out of the repository and no private jargon in anything a user reads: docs, docstrings, the
    tool schemas an LLM reads, the config descriptions the README table is generated from, --help."""
    found = []
    for path in _user_facing_files():
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if _OUTSIDE.search(line) or _JARGON.search(line):
                found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()[:100]}")
    assert not found, "\n".join(found)
