"""`memgraph mcp` driven by the official MCP SDK client over a real stdio subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from memgraph import ToolSet

from .conftest import USER

ROOT = Path(__file__).resolve().parents[2]


def server_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMGRAPH_")}
    return {**env, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false", **extra}


def with_server(store: Path, user: str, scenario: Callable[[Client], Awaitable[Any]], **env: str) -> Any:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "memgraph", "mcp", "--store", str(store), "--user", user],
        env=server_env(**env),
        cwd=str(ROOT),
    )
    out: dict[str, Any] = {}

    async def main() -> None:
        async with Client(params, read_timeout_seconds=300) as client:
            out["value"] = await scenario(client)

    anyio.run(main)
    return out["value"]


def test_lists_the_tools_and_answers_bad_calls_with_structured_errors(open_engine, tmp_path: Path) -> None:
    store = tmp_path / "store"
    engine = open_engine(store)
    expected = {d.name: d for d in ToolSet(engine, user_id=USER).definitions()}

    async def scenario(client: Client) -> dict[str, Any]:
        listed = await client.list_tools()
        bad_type = await client.call_tool("memory_recall", {"query": "x", "top_k": "five"})
        missing = await client.call_tool("memory_remember", {})
        extra = await client.call_tool("memory_remember", {"content": "hello", "user_id": "bob"})
        unknown = await client.call_tool("memory_drop_database", {})
        stats = await client.call_tool("memory_stats", {})  # the server is still fine afterwards
        return {"tools": listed.tools, "bad": [bad_type, missing, extra, unknown], "stats": stats}

    got = with_server(store, USER, scenario)
    assert {t.name: t.input_schema for t in got["tools"]} == {n: d.input_schema for n, d in expected.items()}
    assert all(t.description == expected[t.name].description for t in got["tools"])
    types_ = []
    for result in got["bad"]:
        assert result.is_error
        payload = result.structured_content
        assert payload["ok"] is False and json.loads(result.content[0].text) == payload
        types_.append(payload["error"]["type"])
    assert types_ == ["InvalidArguments", "InvalidArguments", "InvalidArguments", "UnknownTool"]
    assert "user_id" in got["bad"][2].structured_content["error"]["message"]
    assert not got["stats"].is_error and got["stats"].structured_content["result"]["memories"] == 0


def test_recall_through_mcp_returns_what_the_python_api_returns(open_engine, tmp_path: Path) -> None:
    store = tmp_path / "store"
    engine = open_engine(store, recall_maintenance=False)
    engine.remember_many(
        [
            {"content": "Ada prefers dark mode in every editor", "kind": "preference", "tags": ["ui"]},
            {"content": "The team uses the Solarized Dark theme in VS Code", "tags": ["ui"]},
            {"content": "The staging database is db-stage-02 on port 5433"},
            {"content": "Never deploy on Fridays", "kind": "constraint"},
        ],
        user_id=USER,
    )
    engine.remember("Bob likes light themes", user_id="bob")
    query = "which editor theme should I configure?"
    expected = engine.recall(query, user_id=USER, top_k=3)
    assert expected.memories

    async def scenario(client: Client) -> Any:
        recall = await client.call_tool("memory_recall", {"query": query, "top_k": 3, "full": True})
        remembered = await client.call_tool("memory_remember", {"content": "Ada's terminal font is Iosevka"})
        listed = await client.call_tool("memory_list", {"limit": 50, "full": True})
        return recall, remembered, listed

    recall, remembered, listed = with_server(store, USER, scenario, MEMGRAPH_RECALL_MAINTENANCE="false")
    assert not recall.is_error, recall.structured_content
    result = recall.structured_content["result"]
    assert [m["id"] for m in result["memories"]] == [m.id for m in expected.memories]
    assert result["prompt"] == expected.to_prompt()
    assert result["total_tokens"] == expected.total_tokens
    # writes through MCP land in the same store, owned by the configured user
    mem = remembered.structured_content["result"]["memory"]
    assert engine.get(mem["id"], user_id=USER).content == "Ada's terminal font is Iosevka"
    assert all(m["user_id"] == USER for m in listed.structured_content["result"]["memories"])
    assert "Bob likes light themes" not in json.dumps(listed.structured_content)


def test_the_server_needs_a_user(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "memgraph", "mcp", "--store", str(tmp_path / "s")],
        capture_output=True, text=True, env=server_env(), cwd=ROOT, timeout=120, stdin=subprocess.DEVNULL,
    )
    assert proc.returncode != 0
    assert "--user" in proc.stderr or "MEMGRAPH_USER" in proc.stderr


def test_the_server_loads_the_users_read_structures_before_the_first_call(open_engine, tmp_path: Path) -> None:
    """`serve_stdio` starts loading the user's structures on a background thread while the client initialises:
    the first recall then finds them loaded (the store counts its loads: one, not two) and answers as a
    process that loaded them on demand does."""
    from memgraph.mcp_server import preload_user

    store = tmp_path / "store"
    engine = open_engine(store, recall_maintenance=False)
    engine.remember_many([{"content": f"Ada note {i} about the Solarized theme"} for i in range(12)], user_id=USER)
    engine.store._mirror.drop()
    engine.store._text._users.clear()
    mirror = engine.store._mirror
    before = mirror.loads
    tools = ToolSet(engine, user_id=USER)
    thread = preload_user(tools)
    assert thread is not None
    thread.join(timeout=60)
    assert mirror.loaded(USER) and mirror.loads == before + 1 and USER in engine.store._text._users
    first = tools.call("memory_recall", {"query": "Solarized theme"})
    assert first.ok and mirror.loads == before + 1
    mirror.drop()
    engine.store._text._users.clear()
    again = tools.call("memory_recall", {"query": "Solarized theme"})
    assert again.model_dump()["result"] == first.model_dump()["result"]


@pytest.mark.filterwarnings("ignore:ping is removed")  # the SDK's note on the stateless revision we do not speak
def test_every_tool_through_the_sdk_client(open_engine, tmp_path: Path) -> None:
    """The official SDK's stdio client against our transport: the handshake (version, server info,
    instructions), ping, every tool of the ToolSet called once, a tool error and a protocol error."""
    from mcp.shared.exceptions import MCPError

    from memgraph.mcp_server import INSTRUCTIONS
    from memgraph.mcp_stdio import PROTOCOL_VERSIONS

    store = tmp_path / "store"
    names = ToolSet(open_engine(store, recall_maintenance=False), user_id=USER).names

    async def scenario(client: Client) -> dict[str, Any]:
        out: dict[str, Any] = {
            "version": client.protocol_version,
            "info": client.server_info,
            "instructions": client.instructions,
        }
        await client.send_ping()
        calls: dict[str, Any] = {}

        async def call(name: str, args: dict[str, Any]) -> dict[str, Any]:
            result = await client.call_tool(name, args)
            assert not result.is_error, (name, result.structured_content)
            assert json.loads(result.content[0].text) == result.structured_content
            calls[name] = result.structured_content["result"]
            return calls[name]

        first = (await call("memory_remember", {"content": "Ada deploys with the blue-green script", "tags": ["ops"]}))
        second = await call("memory_learn", {"content": "Never deploy on Fridays", "type": "policy",
                                             "priority": "high"})
        await call("memory_episode", {"description": "The Friday deploy broke checkout", "outcome": "rolled back"})
        await call("memory_procedure", {"name": "deploy to staging", "steps": ["build", "push", "smoke test"]})
        await call("memory_recall", {"query": "how do we deploy?", "top_k": 3})
        await call("memory_search", {"query": "deploy", "k": 5})
        await call("memory_list", {"limit": 10})
        await call("memory_tag", {"id": first["memory"]["id"], "tags": ["deploy"]})
        await call("memory_link", {"from": first["memory"]["id"], "to": second["memory"]["id"]})
        await call("memory_forget", {"id": first["memory"]["id"]})
        await call("memory_stats", {})
        await call("memory_consolidate", {})
        missing = await client.call_tool("memory_forget", {"id": "no-such-memory"})
        out["missing"] = (missing.is_error, missing.structured_content["error"]["type"])
        try:
            await client.list_prompts()  # this server has no prompts: a JSON-RPC error, and the session goes on
        except MCPError as exc:
            out["prompts_error"] = exc.code
        out["stats_after"] = (await client.call_tool("memory_stats", {})).structured_content["result"]
        out["calls"] = calls
        return out

    got = with_server(store, USER, scenario, MEMGRAPH_RECALL_MAINTENANCE="false")
    assert got["version"] == PROTOCOL_VERSIONS[-1]  # the SDK offers the newest handshake revision we speak
    assert got["info"].name == "memgraph" and got["instructions"] == INSTRUCTIONS
    assert sorted(got["calls"]) == sorted(names)  # every tool answered
    assert "deploy" in got["calls"]["memory_tag"]["memory"]["tags"]
    assert got["calls"]["memory_forget"]["memory"]["inactive"] is True
    assert any("blue-green" in m["content"] for m in got["calls"]["memory_recall"]["memories"])
    assert got["missing"] == (True, "NotFoundError")
    assert got["prompts_error"] == -32601
    assert got["stats_after"]["memories"] >= 4
