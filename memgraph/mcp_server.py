"""`memgraph mcp`: the memory tools (`memgraph.tools.ToolSet`) served over MCP on stdio.

The transport and the protocol's lifecycle are memgraph's own (`memgraph.mcp_stdio`, which says why: the SDK's
import alone was most of the cold-start budget). The JSON schemas the model sees are exactly the ToolSet's
(generated once from its pydantic models) and every call goes through `ToolSet.call`: bad arguments come back as
a tool result with `isError: true` and a structured `{ok, error{type, message}}` payload (in `structuredContent`
and as JSON text), never as a crashed server. The user is fixed when the server starts (`--user` /
MEMGRAPH_USER); no tool argument can change it.
"""

from __future__ import annotations

import os
import sys
import threading
from typing import Any, BinaryIO

from memgraph.mcp_stdio import StdioServer
from memgraph.tools import ToolSet

INSTRUCTIONS = (
    "Long-term memory for this user. Call memory_recall with the current context before answering to get "
    "relevant memories (a <memory> block); call memory_remember / memory_learn when the user states a durable "
    "fact, preference, rule or correction; memory_forget when they retract one."
)


def build_server(tools: ToolSet) -> StdioServer:
    """An MCP server whose tools/list and tools/call are the ToolSet's."""
    from memgraph import __version__

    definitions = [
        {"name": d.name, "description": d.description, "inputSchema": d.input_schema} for d in tools.definitions()
    ]

    def call_tool(name: str, arguments: Any) -> tuple[dict[str, Any], bool]:
        result = tools.call(name, arguments)
        return result.model_dump(mode="json", exclude_none=True), not result.ok

    return StdioServer(
        name="memgraph", version=__version__, instructions=INSTRUCTIONS, tools=definitions, call_tool=call_tool
    )


def serve_stdio(tools: ToolSet, *, warm_up: bool = True) -> None:
    """Serve until the client closes stdin. With `warm_up`, the embedding model, the user's read structures and
    the token counter load in the background meanwhile (`memgraph mcp` starts those loads as it opens the engine
    and passes False)."""
    loading: list[threading.Thread | None] = []
    if warm_up:
        # the model loads in a background thread while the client initialises; the first tool call that
        # embeds waits for that load instead of starting its own
        from memgraph.cli.common import count_in_background
        from memgraph.embed import warm

        warm(tools.engine.embedder)
        loading = [preload_user(tools), count_in_background(tools.engine.embedder)]
    server = build_server(tools)
    reader, writer = protocol_streams()
    try:
        server.serve(reader, writer)
    finally:
        for thread in loading:
            if thread is not None:
                thread.join()  # the engine closes after this: no read may still run on its store


def protocol_streams() -> tuple[BinaryIO, BinaryIO]:
    """stdin, and a private copy of stdout for the protocol; file descriptor 1 then points at stderr, so a stray
    print (ours, a library's, a C extension's) lands in the log instead of corrupting the JSON-RPC stream."""
    sys.stdout.flush()
    writer = os.fdopen(os.dup(sys.stdout.fileno()), "wb", buffering=0)
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    return sys.stdin.buffer, writer


def preload_user(tools: ToolSet) -> threading.Thread | None:
    """Load the user's read structures (SQLite: vectors, graph arrays, full text; ~0.5 s of CPU at 10k memories)
    on a background thread, so the first tool call finds them ready or waits for this load rather than
    starting its own. Stores without such structures (the graph servers) have nothing to load: None."""
    from memgraph.cli.common import load_in_background

    return load_in_background(tools.engine, tools.user_id)
