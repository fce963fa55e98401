"""The MCP stdio transport and lifecycle, served by memgraph itself: newline-delimited JSON-RPC 2.0.

Why not the official `mcp` SDK at run time: importing its server (`mcp.server.lowlevel`) took 1.27 s of CPU on
the 2-core reference machine (`python -X importtime -c "import mcp"`: pydantic building the protocol's types for
every revision, and the client the package's `__init__` imports too), most of the 2 s a fresh `memgraph mcp` has
to answer its first tool call (spawn to the first recall 2.95 s with the SDK; bench/cold_start.py, bench/RESULTS.md).
What stdio MCP asks of a tools-only server is small: one JSON object a line each way, the `initialize` handshake
with version negotiation, `ping`, `tools/list`, `tools/call`. The SDK stays a test dependency: its own stdio
client drives this server in tests/agent/test_mcp.py, so the reference implementation checks the wire format.

What is served:
- `initialize`: answers the client's protocol version when it is one of `PROTOCOL_VERSIONS`, else the newest;
  requests other than `ping` before it are refused (-32600). `server/discover` (the stateless era's probe) is
  an unknown method (-32601), after which clients fall back to `initialize`.
- `tools/call` runs on one worker thread, in arrival order, so `ping` and `tools/list` answer while a call works
  (the first call may wait for the model). A tool's own failure is a result with `isError: true`; a malformed
  call (params not an object, no tool name) is a JSON-RPC error (-32602).
- `notifications/cancelled`: a call not yet started is skipped, one running finishes; neither is answered.
  Other notifications (`notifications/initialized`, ...) and responses from the client are read and dropped.
- Malformed input: -32700 (not JSON), -32600 (not a request: wrong `jsonrpc`, no method, a batch array),
  -32601 (unknown method), -32603 (a handler broke). Nothing the client sends ends the server; end of input does.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
from collections.abc import Callable
from typing import Any, BinaryIO

log = logging.getLogger("memgraph.mcp")

#: The handshake-era protocol revisions this server speaks, oldest to newest; the last is offered to a client
#: that asks for one not listed.
PROTOCOL_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
#: From this revision a tool result may carry `structuredContent` beside its text content.
STRUCTURED_FROM = "2025-06-18"

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603

#: A tool call: (tool name, arguments) -> (JSON payload, is an error).
CallTool = Callable[[str, Any], tuple[dict[str, Any], bool]]


class RequestError(Exception):
    """A JSON-RPC error to answer a request with."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class StdioServer:
    """One MCP session over a pair of byte streams (the process's stdin and stdout in `memgraph mcp`)."""

    def __init__(
        self,
        *,
        name: str,
        version: str,
        instructions: str | None,
        tools: list[dict[str, Any]],
        call_tool: CallTool,
    ) -> None:
        self.info = {"name": name, "version": version}
        self.instructions = instructions
        self.tools = tools
        self.call_tool = call_tool
        self.protocol_version: str | None = None  # set by `initialize`
        self._out: BinaryIO | None = None
        self._write_lock = threading.Lock()
        self._calls: queue.Queue[tuple[Any, str, Any] | None] = queue.Queue()
        self._pending: set[Any] = set()  # ids of the calls queued or running
        self._cancelled: set[Any] = set()  # ids of those the client cancelled
        self._cancel_lock = threading.Lock()

    # -- the loop -----------------------------------------------------------------------------------------------

    def serve(self, reader: BinaryIO, writer: BinaryIO) -> None:
        """Read requests until `reader` ends; answer on `writer`. Returns once the calls already read are done."""
        self._out = writer
        worker = threading.Thread(target=self._work, name="memgraph-mcp-calls", daemon=True)
        worker.start()
        try:
            for line in reader:
                if line.strip():
                    self.handle_line(line)
        finally:
            self._calls.put(None)
            worker.join()

    def handle_line(self, line: bytes) -> None:
        """One line of input: a request, a notification, a response (dropped) or garbage (answered)."""
        try:
            message = json.loads(line)
        except ValueError as exc:  # JSONDecodeError and UnicodeDecodeError
            self._error(None, PARSE_ERROR, f"parse error: {exc}")
            return
        except RecursionError:  # "[[[[…" a few thousand deep: json's decoder recurses; the session survives
            self._error(None, PARSE_ERROR, "parse error: the message nests too deeply")
            return
        if not isinstance(message, dict):
            what = "batches are not supported" if isinstance(message, list) else "a message must be an object"
            self._error(None, INVALID_REQUEST, what)
            return
        has_id = "id" in message
        msg_id = message.get("id")
        if has_id and (isinstance(msg_id, bool) or not isinstance(msg_id, str | int)):
            self._error(None, INVALID_REQUEST, "id must be a string or an integer")
            return
        if message.get("jsonrpc") != "2.0":
            if has_id:
                self._error(msg_id, INVALID_REQUEST, 'jsonrpc must be "2.0"')
            return
        method = message.get("method")
        if not isinstance(method, str):
            if has_id and ("result" in message or "error" in message):
                return  # a response: this server sends no requests, nothing waits for it
            if has_id:
                self._error(msg_id, INVALID_REQUEST, "method must be a string")
            return
        params = message.get("params")
        if not has_id:
            self._notify(method, params)
            return
        try:
            self._request(msg_id, method, params)
        except RequestError as exc:
            self._error(msg_id, exc.code, exc.message)
        except Exception as exc:  # noqa: BLE001 - the session survives whatever one request broke
            log.exception("MCP %s failed", method)
            self._error(msg_id, INTERNAL_ERROR, f"internal error: {type(exc).__name__}")

    @property
    def structured(self) -> bool:
        """Whether the negotiated revision knows `structuredContent` (revisions are compared by their place in
        the list, not as strings)."""
        version = self.protocol_version
        return version is not None and PROTOCOL_VERSIONS.index(version) >= PROTOCOL_VERSIONS.index(STRUCTURED_FROM)

    # -- messages -----------------------------------------------------------------------------------------------

    def _request(self, msg_id: Any, method: str, params: Any) -> None:
        if params is not None and not isinstance(params, dict):
            raise RequestError(INVALID_PARAMS, "params must be an object")
        params = params or {}
        if method == "ping":
            self._result(msg_id, {})
        elif method == "initialize":
            self._result(msg_id, self._initialize(params))
        elif method in ("tools/list", "tools/call"):
            if self.protocol_version is None:
                raise RequestError(INVALID_REQUEST, "the session is not initialized: send initialize first")
            if method == "tools/list":
                self._result(msg_id, {"tools": self.tools})
                return
            name = params.get("name")
            if not isinstance(name, str) or not name:
                raise RequestError(INVALID_PARAMS, "tools/call needs the tool's name (a string)")
            with self._cancel_lock:
                self._pending.add(msg_id)
            self._calls.put((msg_id, name, params.get("arguments")))
        else:
            raise RequestError(METHOD_NOT_FOUND, f"method not found: {method}")

    def _initialize(self, params: dict[str, Any]) -> dict[str, Any]:
        asked = params.get("protocolVersion")
        if not isinstance(asked, str):
            raise RequestError(INVALID_PARAMS, "initialize needs protocolVersion (a string)")
        self.protocol_version = asked if asked in PROTOCOL_VERSIONS else PROTOCOL_VERSIONS[-1]
        result: dict[str, Any] = {
            "protocolVersion": self.protocol_version,
            "capabilities": {"tools": {"listChanged": False}},
            "serverInfo": self.info,
        }
        if self.instructions:
            result["instructions"] = self.instructions
        return result

    def _notify(self, method: str, params: Any) -> None:
        if method == "notifications/cancelled" and isinstance(params, dict) and "requestId" in params:
            with self._cancel_lock:
                if params["requestId"] in self._pending:  # a cancel for a call already answered is moot
                    self._cancelled.add(params["requestId"])

    # -- tool calls ---------------------------------------------------------------------------------------------

    def _work(self) -> None:
        while (item := self._calls.get()) is not None:
            msg_id, name, arguments = item
            if self._take_cancelled(msg_id, done=False):
                continue
            try:
                payload, is_error = self.call_tool(name, arguments)
                text = json.dumps(payload, ensure_ascii=False)
                result: dict[str, Any] = {"content": [{"type": "text", "text": text}], "isError": is_error}
                if self.structured:
                    result["structuredContent"] = payload
            except Exception as exc:  # noqa: BLE001 - ToolSet.call answers every tool error; this is a bug
                log.exception("tool %s failed", name)
                if not self._take_cancelled(msg_id, done=True):
                    self._error(msg_id, INTERNAL_ERROR, f"internal error: {type(exc).__name__}")
                continue
            if not self._take_cancelled(msg_id, done=True):
                self._result(msg_id, result)

    def _take_cancelled(self, msg_id: Any, *, done: bool = False) -> bool:
        """Whether the client cancelled this call; `done`: the call is over (it leaves the pending set)."""
        with self._cancel_lock:
            cancelled = msg_id in self._cancelled
            if done or cancelled:
                self._cancelled.discard(msg_id)
                self._pending.discard(msg_id)
            return cancelled

    # -- output -------------------------------------------------------------------------------------------------

    def _result(self, msg_id: Any, result: dict[str, Any]) -> None:
        self._send({"jsonrpc": "2.0", "id": msg_id, "result": result})

    def _error(self, msg_id: Any, code: int, message: str) -> None:
        self._send({"jsonrpc": "2.0", "id": msg_id, "error": {"code": code, "message": message}})

    def _send(self, message: dict[str, Any]) -> None:
        data = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"
        assert self._out is not None, "serve() sets the output stream"
        with self._write_lock:
            try:
                self._out.write(data)
                self._out.flush()
            except (BrokenPipeError, ValueError):  # the client went away (ValueError: the stream is closed)
                log.debug("MCP client gone; dropped a message")


__all__ = ["PROTOCOL_VERSIONS", "RequestError", "StdioServer"]
