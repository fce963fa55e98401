"""The MCP stdio transport (`memgraph.mcp_stdio`) message by message, in process, on the real ToolSet: the
handshake and version negotiation, ping, the JSON-RPC errors for bad input, tool errors as results,
cancellation. tests/agent/test_mcp.py drives the same server with the official SDK client over a real pipe."""

from __future__ import annotations

import io
import json
import threading
from typing import Any

from memgraph.mcp_server import INSTRUCTIONS, build_server
from memgraph.mcp_stdio import PROTOCOL_VERSIONS, StdioServer
from memgraph.tools import ToolSet

from .conftest import USER

INIT = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}


def run(server: StdioServer, *messages: Any) -> list[dict[str, Any]]:
    """Feed these messages (objects as JSON lines; bytes as they are) and return every line written back."""
    lines = [m if isinstance(m, bytes) else json.dumps(m).encode() + b"\n" for m in messages]
    out = io.BytesIO()
    server.serve(io.BytesIO(b"".join(lines)), out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def by_id(replies: list[dict[str, Any]]) -> dict[Any, dict[str, Any]]:
    return {r["id"]: r for r in replies}


def test_the_handshake_negotiates_the_version_and_lists_the_tools(open_engine) -> None:
    tools = ToolSet(open_engine(), user_id=USER)
    replies = run(
        build_server(tools),
        INIT,
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": "p", "method": "ping"},
        {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}},
    )
    assert [r["id"] for r in replies] == [0, "p", 1]  # the notification is not answered
    init = replies[0]["result"]
    assert init["protocolVersion"] == "2025-06-18"  # the client's, since we speak it
    assert init["capabilities"] == {"tools": {"listChanged": False}}
    assert init["serverInfo"]["name"] == "memgraph" and init["instructions"] == INSTRUCTIONS
    assert replies[1]["result"] == {}
    listed = replies[2]["result"]["tools"]
    assert [t["name"] for t in listed] == tools.names
    assert [t["inputSchema"] for t in listed] == [d.input_schema for d in tools.definitions()]

    for asked, answered in (("2024-11-05", "2024-11-05"), ("2099-01-01", PROTOCOL_VERSIONS[-1]), ("x", "2025-11-25")):
        reply = run(build_server(tools), {**INIT, "params": {**INIT["params"], "protocolVersion": asked}})[0]
        assert reply["result"]["protocolVersion"] == answered


def test_bad_input_gets_json_rpc_errors_and_the_session_goes_on(open_engine) -> None:
    server = build_server(ToolSet(open_engine(), user_id=USER))
    replies = run(
        server,
        {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},  # before initialize
        {"jsonrpc": "2.0", "id": 2, "method": "ping"},  # ping is allowed before it
        INIT,
        b"{not json\n",
        b"\xff\xfe\n",
        b"[]\n",
        b"42\n",
        {"jsonrpc": "1.0", "id": 3, "method": "ping"},
        {"jsonrpc": "2.0", "id": 4},
        {"jsonrpc": "2.0", "id": None, "method": "ping"},
        {"jsonrpc": "2.0", "id": 5, "method": "prompts/list"},
        {"jsonrpc": "2.0", "id": 6, "method": "server/discover", "params": {}},
        {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": "memory_stats"},
        {"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": {"arguments": {}}},
        {"jsonrpc": "2.0", "id": 9, "method": "initialize", "params": {}},
        {"jsonrpc": "2.0", "id": 10, "result": {}},  # a response to nothing: dropped
        {"jsonrpc": "2.0", "method": "notifications/unknown", "params": {"x": 1}},  # dropped
        b"\n",
        {"jsonrpc": "2.0", "id": 11, "method": "tools/call", "params": {"name": "memory_stats"}},
    )
    keyed = by_id([r for r in replies if r["id"] is not None])
    codes = {k: r["error"]["code"] for k, r in keyed.items() if "error" in r}
    assert codes == {1: -32600, 3: -32600, 4: -32600, 5: -32601, 6: -32601, 7: -32602, 8: -32602, 9: -32602}
    assert keyed[2]["result"] == {} and keyed[0]["result"]["protocolVersion"] == "2025-06-18"
    anonymous = [r["error"]["code"] for r in replies if r["id"] is None]
    assert anonymous == [-32700, -32700, -32600, -32600, -32600]  # two unparsable lines, [], 42, a null id
    stats = keyed[11]["result"]
    assert stats["isError"] is False and stats["structuredContent"]["result"]["memories"] == 0
    assert 10 not in keyed


def test_tool_errors_are_results_and_old_revisions_get_text_only(open_engine) -> None:
    server = build_server(ToolSet(open_engine(), user_id=USER))
    old = {**INIT, "params": {**INIT["params"], "protocolVersion": "2025-03-26"}}
    replies = by_id(run(
        server,
        old,
        {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
         "params": {"name": "memory_recall", "arguments": {"query": "x", "top_k": "five"}}},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "memory_drop_all", "arguments": {}}},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
         "params": {"name": "memory_remember", "arguments": {"content": "Ada's shell is fish"}}},
    ))
    for i, kind in ((1, "InvalidArguments"), (2, "UnknownTool")):
        result = replies[i]["result"]
        assert result["isError"] is True and "structuredContent" not in result  # 2025-03-26 has no such field
        assert json.loads(result["content"][0]["text"])["error"]["type"] == kind
    written = json.loads(replies[3]["result"]["content"][0]["text"])
    assert replies[3]["result"]["isError"] is False and written["result"]["memory"]["content"] == "Ada's shell is fish"


def test_a_cancelled_call_is_not_answered_and_ping_answers_while_a_call_runs() -> None:
    """Calls run on one worker thread: a queued call cancelled before it starts never runs; a running one
    finishes unanswered; ping is answered meanwhile."""
    started, release = threading.Event(), threading.Event()
    ran: list[str] = []

    def call_tool(name: str, arguments: Any) -> tuple[dict[str, Any], bool]:
        ran.append(name)
        if name == "slow":
            started.set()
            release.wait(10)
        return {"ok": True, "result": name}, False

    server = StdioServer(name="t", version="1", instructions=None, tools=[], call_tool=call_tool)
    reader_r, reader_w = _pipe()
    out = _Lines()
    serving = threading.Thread(target=server.serve, args=(reader_r, out))
    serving.start()

    def send(message: dict[str, Any]) -> None:
        reader_w.write(json.dumps(message).encode() + b"\n")
        reader_w.flush()

    send(INIT)
    send({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "slow"}})
    assert started.wait(10)
    send({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "queued"}})
    send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 2, "reason": "user"}})
    send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}})
    send({"jsonrpc": "2.0", "id": 3, "method": "ping"})
    assert out.wait_for(3)["result"] == {}  # while "slow" still runs
    release.set()
    send({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "after"}})
    reader_w.close()
    serving.join(10)
    assert not serving.is_alive()
    assert ran == ["slow", "after"]
    assert sorted(r["id"] for r in out.replies) == [0, 3, 4]


def _pipe() -> tuple[Any, Any]:
    import os

    r, w = os.pipe()
    return os.fdopen(r, "rb"), os.fdopen(w, "wb")


class _Lines(io.RawIOBase):
    """A writable stream that parses each line written and lets a test wait for a reply by id."""

    def __init__(self) -> None:
        self.replies: list[dict[str, Any]] = []
        self._changed = threading.Condition()

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        with self._changed:
            self.replies.extend(json.loads(line) for line in bytes(data).splitlines())
            self._changed.notify_all()
        return len(data)

    def wait_for(self, msg_id: Any) -> dict[str, Any]:
        with self._changed:
            assert self._changed.wait_for(lambda: any(r.get("id") == msg_id for r in self.replies), 10)
            return next(r for r in self.replies if r.get("id") == msg_id)
