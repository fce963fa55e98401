"""`memgraph ingest FILE|-`: plain text and JSON Lines of turns, through typer's CliRunner on a real store."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from memgraph import MemoryEngine
from memgraph.cli import app

from .conftest import SEED_EXAMPLES

TURNS = [
    {
        "speaker": "Caroline",
        "text": "I went to a LGBTQ support group yesterday and it was so powerful.",
        "session_id": "s1",
        "timestamp": "1:56 pm on 8 May, 2023",
    },
    {
        "speaker": "Melanie",
        "text": "I painted a sunrise over the lake last weekend, my favorite piece so far.",
        "session_id": "s1",
        "timestamp": "2023-05-08T14:01:00Z",
        "tags": ["art"],
    },
    {"content": "The API key is sk_live_" + "51HxYzAbCdEfGhIjKlMnOpQr" + " for billing.", "session_id": "s2"},
]


def _jsonl(path: Path) -> Path:
    path.write_text("\n".join(json.dumps(t) for t in TURNS) + "\n\n")
    return path


def test_ingest_jsonl_turns(tmp_path: Path, embedder) -> None:  # type: ignore[no-untyped-def]
    store = str(tmp_path / "data")
    res = CliRunner().invoke(
        app,
        [
            "ingest",
            str(_jsonl(tmp_path / "turns.jsonl")),
            "--user",
            "ada",
            "--store",
            store,
            "--json",
            "--batch",
            "2",
        ],
    )
    assert res.exit_code == 0, res.output
    report = json.loads(res.stdout[res.stdout.index("{") :])
    assert report["items"] == 3 and len(report["created"]) == 3
    assert report["redactions"] == {"stripe_key": 1}
    with MemoryEngine.open(store, embedder=embedder) as engine:
        mems = {m.metadata.get("speaker"): m for m in engine.list(user_id="ada")}
        caroline = mems["Caroline"]
        assert caroline.content.startswith("Caroline: I went to a LGBTQ support group")
        assert caroline.created_at.isoformat().startswith("2023-05-08T13:56")
        assert caroline.session_id == "s1" and "lgbtq" in caroline.tags
        assert "art" in mems["Melanie"].tags and mems["Melanie"].kind.value == "preference"
        assert "[REDACTED:stripe_key]" in mems[None].content


def test_ingest_plain_text_from_stdin_is_idempotent(tmp_path: Path) -> None:
    store = str(tmp_path / "data")
    text = "\n\n".join(SEED_EXAMPLES)
    runner = CliRunner()
    first = runner.invoke(
        app, ["ingest", "-", "--user", "u", "--session", "s", "--store", store, "--tag", "seed"], input=text
    )
    assert first.exit_code == 0, first.output
    assert "created 5" in first.stdout  # one memory per paragraph: each says something else
    again = runner.invoke(app, ["ingest", "-", "--user", "u", "--session", "s", "--store", store], input=text)
    assert again.exit_code == 0 and "created 0" in again.stdout and "unchanged 5" in again.stdout
    assert "embedded 0" in again.stdout  # the persistent embedding cache served it


def test_ingest_bad_input_is_a_clean_error(tmp_path: Path) -> None:
    runner = CliRunner()
    store = str(tmp_path / "data")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"text": "fine"}\n{"text": 5}\n')
    res = runner.invoke(app, ["ingest", str(bad), "--user", "u", "--store", store])
    assert res.exit_code == 1 and "line 2" in res.output
    res = runner.invoke(app, ["ingest", str(tmp_path / "missing.txt"), "--user", "u", "--store", store])
    assert res.exit_code == 1 and "cannot read" in res.output
    res = runner.invoke(app, ["ingest", "-", "--user", "u", "--store", store, "--format", "xml"], input="x")
    assert res.exit_code == 2


def test_ingest_help_explains_itself() -> None:
    res = CliRunner().invoke(app, ["ingest", "--help"])
    assert res.exit_code == 0
    for word in ("JSON Lines", "--session", "--kind", "--json", "secret"):
        assert word in res.output
