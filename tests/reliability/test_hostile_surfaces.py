"""Hostile input on the surfaces around the engine: the MCP tools (`ToolSet.call`), the MCP stdio server's
framing, and the CLI commands (options with NaN / negative / huge numbers, JSON Lines and export files). What
comes back is always a typed answer: a `ToolResult(ok=False)` of a memgraph error type (never InternalError), a
JSON-RPC error, or a CLI message with exit code 1 or 2; never a traceback, never a crashed server.

The regression cases each failed on main (stop 39) before the fixes they name.
"""

from __future__ import annotations

import io
import json
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from memgraph import MemgraphError, MemoryEngine, Settings
from memgraph.cli import app
from memgraph.embed import CachedEmbedder
from memgraph.mcp_server import build_server
from memgraph.store.sqlite import SQLiteStore
from memgraph.tools import ToolSet

from . import scale
from .test_hostile_input import INJECTIONS
from .test_secrets_sweep import NEEDLES, STANDALONE

FUZZ = settings(max_examples=int(scale(60, 500)), deadline=None, suppress_health_check=list(HealthCheck))
json_scalar = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(), st.sampled_from(INJECTIONS), st.text(max_size=40),
    st.sampled_from([math.nan, math.inf, -1, 0, 2**63, 10**40, "", " ", "\x00", "a\ud800", *STANDALONE]),
)
json_value = st.recursive(json_scalar, lambda kids: st.one_of(st.lists(kids, max_size=3),
                                                              st.dictionaries(st.text(max_size=8), kids, max_size=3)),
                          max_leaves=6)


@pytest.fixture(scope="module")
def tools(embedder: CachedEmbedder) -> Iterator[ToolSet]:
    engine = MemoryEngine(SQLiteStore(":memory:"), Settings(store=":memory:"), embedder)
    engine.remember("The canary memory must survive every attack", user_id="canary")
    ts = ToolSet(engine, user_id="ada", session_id="s1")
    ts.call("memory_remember", {"content": "Ada drinks green tea every morning"})
    yield ts
    engine.close()


def _schema_keys(tools: ToolSet) -> dict[str, list[str]]:
    return {d.name: list(d.input_schema.get("properties", {})) for d in tools.definitions()}


@FUZZ
@given(data=st.data())
def test_every_tool_answers_hostile_arguments_typed(tools: ToolSet, data: st.DataObject) -> None:
    keys = _schema_keys(tools)
    name = data.draw(st.sampled_from([*keys, "memory_nope", "", "memory_remember\x00"]))
    fields = keys.get(name, []) + ["extra", "user_id"]
    args = data.draw(st.one_of(
        st.dictionaries(st.sampled_from(fields), json_value, max_size=4),
        json_value,
    ))
    result = tools.call(name, args)
    if not result.ok:
        assert result.error is not None and result.error.type != "InternalError", result.error
    else:
        json.dumps(result.model_dump(mode="json"))  # what the MCP server sends must serialise
    text = json.dumps(result.model_dump(mode="json"), ensure_ascii=False).lower()
    assert not any(n.lower() in text for n in NEEDLES), "a secret came back in a tool result"
    assert [m.content for m in tools.engine.list(user_id="canary")] == ["The canary memory must survive every attack"]


def test_tools_refuse_the_hostile_values_the_engine_refuses(tools: ToolSet) -> None:
    [mine] = tools.engine.list(user_id="ada", limit=1)
    cases = {
        "memory_link": {"from": mine.id, "to": mine.id + " ", "reason": "x"},
        "memory_search": {"query": "tea", "k": 0},
        "memory_list": {"limit": -1},
        "memory_remember": {"content": "x", "tags": "abc"},  # JSON: a string is not a list of tags
        "memory_forget": {"id": mine.id.upper()},
        "memory_recall": {"query": "tea", "top_k": math.nan},
    }
    for name, args in cases.items():
        result = tools.call(name, args)
        assert not result.ok and result.error is not None and result.error.type != "InternalError", (name, result)
    other = tools.engine.list(user_id="canary")[0]
    for name, args in {"memory_forget": {"id": other.id}, "memory_tag": {"id": other.id, "tags": ["x"]},
                       "memory_link": {"from": mine.id, "to": other.id}}.items():
        result = tools.call(name, args)
        assert not result.ok and result.error is not None and result.error.type == "NotFoundError"


def _serve(tools: ToolSet, lines: list[bytes]) -> list[dict[str, Any]]:
    server = build_server(tools)
    out = io.BytesIO()
    server.serve(io.BytesIO(b"\n".join(lines) + b"\n"), out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_mcp_server_survives_hostile_framing(tools: ToolSet) -> None:
    """main: a line nested a few thousand deep ("[[[[…") raised RecursionError out of the read loop, ending the
    server for its client."""
    init = b'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}'
    call = '{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"memory_recall","arguments":{args}}}}}'
    lines = [
        init,
        b"[" * 100_000,
        b'{"a":' * 50_000,
        b"\xff\xfe\x00",
        b'{"jsonrpc":"2.0","id":NaN,"method":"ping"}',
        b'{"jsonrpc":"2.0","id":' + b"9" * 5000 + b',"method":"ping"}',
        call.format(id=1, args='{"query": "tea", "top_k": 1e400}').encode(),
        call.format(id=2, args='{"query": "' + "[" * 10 + '", "top_k": -1}').encode(),
        call.format(id=3, args="[" * 500 + "]" * 500).encode(),
        call.format(id=4, args='{"query": "\\ud800 tea"}').encode(),
        b'{"jsonrpc":"2.0","id":5,"method":"ping"}',
    ]
    answers = _serve(tools, lines)
    by_id = {a.get("id"): a for a in answers if a.get("id") is not None}
    assert by_id[5] == {"jsonrpc": "2.0", "id": 5, "result": {}}, "the server stopped answering"
    for i in (1, 2, 3, 4):
        res = by_id[i]
        assert "error" in res or res["result"]["isError"], res
        assert "internal error" not in json.dumps(res).lower()
    assert sum(1 for a in answers if a.get("error", {}).get("code") == -32700) >= 3


# -- the CLI -------------------------------------------------------------------------------------------------------


def _cli(store: Path, *args: str, stdin: str | None = None) -> tuple[int, str]:
    res = CliRunner().invoke(app, [*args, "--store", str(store)], input=stdin)
    if res.exception is not None:
        assert isinstance(res.exception, SystemExit), f"{args[:3]}: {res.exception!r}"
    assert res.exit_code in (0, 1, 2), res.output
    assert "Traceback" not in res.output
    return res.exit_code, " ".join(res.output.split())  # the console wraps long lines


@pytest.fixture(scope="module")
def cli_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    store = tmp_path_factory.mktemp("cli") / "store"
    assert _cli(store, "remember", "Ada drinks green tea every morning", "--user", "ada")[0] == 0
    return store


NUMBERS = ["nan", "inf", "-inf", "-1", "0", "1e309", "99999999999999999999", "0x10", "", " 5", "1.5"]


@settings(max_examples=int(scale(30, 300)), deadline=None, suppress_health_check=list(HealthCheck))
@given(command=st.sampled_from([
    ["recall", "tea", "-u", "ada", "-k"], ["recall", "tea", "-u", "ada", "--budget"],
    ["search", "tea", "-u", "ada", "-k"],
    ["list", "-u", "ada", "--limit"], ["link", "m_a", "m_b", "-u", "ada", "--weight"], ["history", "--limit"],
    ["recall", "tea", "-u", "ada", "--mode"], ["list", "-u", "ada", "--kind"], ["list", "-u", "ada", "--tag"],
    ["remember", "hello there", "-u"], ["stats", "-u"], ["forget", "-u", "ada"],
]), value=st.one_of(st.sampled_from(NUMBERS + INJECTIONS[:-1]), st.text(alphabet=st.characters(
    blacklist_categories=["Cs"], blacklist_characters="\x00"), max_size=20)))
def test_cli_options_with_hostile_values(cli_store: Path, command: list[str], value: str) -> None:
    code, _ = _cli(cli_store, *command, value)
    assert code in (0, 1, 2)
    assert _cli(cli_store, "list", "-u", "ada", "--json")[1].count("green tea") == 1


def test_cli_negative_counts_are_errors(cli_store: Path) -> None:
    """main: `list --limit -1` printed nothing and `search -k 0` one hit, both with exit code 0."""
    assert _cli(cli_store, "list", "-u", "ada", "--limit", "-1")[0] == 1
    assert _cli(cli_store, "search", "tea", "-u", "ada", "-k", "0")[0] == 1


def test_job_history_refuses_a_negative_limit(cli_store: Path) -> None:
    """main: `history(limit=-1)` read every run (a store's LIMIT -1), `memgraph history --limit -1` printed them all."""
    assert _cli(cli_store, "history", "--limit", "-1")[0] == 1
    assert _cli(cli_store, "history", "--limit", "0")[0] == 0


def test_cli_ingest_batch_must_be_positive(cli_store: Path, tmp_path: Path) -> None:
    """main: `--batch -1` made no batches: nothing was ingested and the exit code was 0."""
    turns = tmp_path / "t.jsonl"
    turns.write_text('{"text": "I moved to Lisbon in 2019"}\n')
    for batch in ("-1", "0"):
        code, out = _cli(cli_store, "ingest", str(turns), "-u", "ada", "--batch", batch)
        assert code == 2 and "--batch" in out


@pytest.mark.parametrize(("line", "says"), [
    ('{"text": "hi", "metadata": ' + "[" * 50_000 + "]" * 50_000 + "}", "nests too deeply"),
    ('{"text": "a dated turn", "timestamp": 1e300}', "timestamp"),
    ('{"text": "a dated turn", "timestamp": -1e20}', "timestamp"),
    ('{"text": "a dated turn", "timestamp": NaN}', "timestamp"),
    ('{"text": "a dated turn", "timestamp": true}', "timestamp"),
    ('{"text": "a dated turn", "timestamp": "0001-01-01T00:00:00+05:00"}', "timestamp"),
    ('{"text": "a dated turn", "metadata": {"k": NaN}}', "finite"),
    ('{"text": "a dated turn", "tags": [1]}', "tags"),
])
def test_cli_ingest_hostile_json_lines(cli_store: Path, tmp_path: Path, line: str, says: str) -> None:
    """main: RecursionError (deep nesting), OverflowError (1e300 / -1e20 seconds) and ValueError (NaN) came out of
    `memgraph ingest` as tracebacks."""
    turns = tmp_path / "bad.jsonl"
    turns.write_text(line + "\n")
    code, out = _cli(cli_store, "ingest", str(turns), "-u", "ada", "--format", "jsonl")
    assert code == 1 and says in out


def test_cli_export_to_a_directory_is_an_error(cli_store: Path, tmp_path: Path) -> None:
    """main: IsADirectoryError as a traceback."""
    for fmt in ("jsonl", "graphml"):
        code, out = _cli(cli_store, "export", str(tmp_path), "--format", fmt)
        assert code == 1 and "is a directory" in out
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code, out = _cli(cli_store, "export", str(blocker / "sub" / "x.jsonl"))
    assert code == 1 and "cannot write" in out


def test_cli_secrets_in_ids_and_options_are_refused(cli_store: Path) -> None:
    for args in (["remember", "hello", "-u", STANDALONE[1]], ["remember", "hello", "-u", "ada", "--session",
                                                                STANDALONE[4]],
                 ["recall", "tea", "-u", "ada", "--session", STANDALONE[0]]):
        code, out = _cli(cli_store, *args)
        assert code == 1
        assert not any(n.lower() in out.lower() for n in NEEDLES)


@pytest.mark.parametrize(("variable", "value", "says"), [
    ("MEMGRAPH_TOKEN_BUDGET", "abc", "MEMGRAPH_TOKEN_BUDGET: expected a valid integer"),
    ("MEMGRAPH_SIMILARITY_THRESHOLD", "nan", "MEMGRAPH_SIMILARITY_THRESHOLD: expected a finite number"),
    ("MEMGRAPH_MAX_DEPTH", "-5", "MEMGRAPH_MAX_DEPTH: must be zero or more"),
    ("MEMGRAPH_MAX_CONTENT_CHARS", "0", "MEMGRAPH_MAX_CONTENT_CHARS: expected greater than or equal to 1"),
    ("MEMGRAPH_STORE_RETRY_ATTEMPTS", "-5", "MEMGRAPH_STORE_RETRY_ATTEMPTS"),
    ("MEMGRAPH_TOKEN_BUDGET", "99999999999999999999", "2**53"),
])
def test_cli_bad_setting_in_the_environment_is_a_message(cli_store: Path, monkeypatch: pytest.MonkeyPatch,
                                                         variable: str, value: str, says: str) -> None:
    """main: a pydantic traceback (and for MEMGRAPH_STORE_RETRY_ATTEMPTS=-5 an AssertionError from the store);
    NaN, negative sizes and 2**66 were accepted."""
    monkeypatch.setenv(variable, value)
    for args in (["list", "-u", "ada"], ["outbox", "status"]):
        code, out = _cli(cli_store, *args)
        assert code == 2 and says in " ".join(out.split()), out
        assert value not in out or value in says  # the value may be a password: not quoted


def test_settings_refuse_non_finite_and_out_of_range_numbers() -> None:
    from pydantic import ValidationError as PydanticValidationError

    for bad in ({"similarity_threshold": math.nan}, {"link_stale_days": math.inf}, {"token_budget": -1},
                {"knn_probe_cells": 2**63}, {"store_retry_attempts": 0}):
        with pytest.raises(PydanticValidationError):
            Settings(**bad)
    with pytest.raises(MemgraphError):  # the API's own error type at the engine's door
        MemoryEngine.open(":memory:", similarity_threshold=math.nan)
    assert Settings(gap_focus_drop=-0.1).gap_focus_drop == -0.1  # a float threshold may be negative


@pytest.mark.parametrize("bad", [
    {"half_life_fact": 0}, {"job_batch_size": 0}, {"embed_batch_size": 0}, {"cluster_min_size": 1},
    {"max_content_chars": 0}, {"token_budget": 0}, {"pool_multiplier": 0}, {"embedding_dim": 0},
    {"similarity_threshold": -0.5}, {"reply_weight": -0.1}, {"walk_cosine_slope": -1.0},
])
def test_settings_refuse_zero_sizes_and_negative_weights(bad: dict[str, float]) -> None:
    """main took them: half_life_fact=0 divided by zero in decay, cluster_min_size=1 was HDBSCAN's ValueError,
    a zero batch or budget failed later or did nothing, a negative weight or threshold was used as given."""
    from pydantic import ValidationError as PydanticValidationError

    with pytest.raises(PydanticValidationError):
        Settings(**bad)


def test_settings_keep_zero_where_it_means_off() -> None:
    """0 is 'off' or 'the server's default' for these; a float default of 0 may go below it."""
    s = Settings(walk_cosine_slope=0.0, recall_confidence_boost=0.0, falkordb_query_timeout_ms=0,
                 sqlite_busy_timeout_ms=0, structure_max_topic_tags=0, gap_focus_drop=-0.2)
    assert (s.walk_cosine_slope, s.falkordb_query_timeout_ms, s.gap_focus_drop) == (0.0, 0, -0.2)


def test_paths_with_a_nul_are_typed_errors(tmp_path: Path, embedder: CachedEmbedder) -> None:
    """main: ValueError("embedded null byte") from os for export, import and open."""
    from memgraph.errors import ValidationError

    with pytest.raises(ValidationError, match="NUL"):
        MemoryEngine.open(str(tmp_path / "a\x00b"), embedder=embedder)
    with MemoryEngine.open(str(tmp_path / "s"), embedder=embedder) as engine:
        engine.remember("Ada drinks green tea every morning", user_id="ada")
        for fmt in ("jsonl", "graphml"):
            with pytest.raises(ValidationError, match="NUL"):
                engine.jobs.export(str(tmp_path / "x\x00.jsonl"), user_id="ada", format=fmt)  # type: ignore[arg-type]
        with pytest.raises(ValidationError, match="cannot read"):
            engine.jobs.import_(str(tmp_path / "x\x00.jsonl"))


def test_cli_import_of_a_doctored_export_is_refused(cli_store: Path, tmp_path: Path) -> None:
    """main: a created_at of 0001-01-01T00:00:00+05:00 in an export file was an OverflowError traceback."""
    exported = tmp_path / "e.jsonl"
    assert _cli(cli_store, "export", str(exported))[0] == 0
    text = exported.read_text()
    stamp = text.split('"created_at":"', 1)[1].split('"', 1)[0]
    for bad in ('"created_at":"0001-01-01T00:00:00+05:00"', '"created_at":"9999-12-31T23:59:59-10:00"'):
        doctored = tmp_path / "bad.jsonl"
        doctored.write_text(text.replace(f'"created_at":"{stamp}"', bad, 1))
        code, out = _cli(tmp_path / "fresh", "import", str(doctored))
        assert code == 1 and "invalid memory record" in out
