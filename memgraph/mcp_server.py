"""`memgraph mcp`: the memory tools (`memgraph.tools.ToolSet`) served over MCP on stdio with the official SDK.

The low-level `mcp.server.Server` is used rather than the decorator API so the JSON schemas the model sees are
exactly the ToolSet's (generated once from its pydantic models) and every call goes through `ToolSet.call`:
bad arguments come back as a tool result with `isError: true` and a structured `{ok, error{type, message}}`
payload (in `structuredContent` and as JSON text), never as a crashed server. The user is fixed when the
server starts (`--user` / MEMGRAPH_USER); no tool argument can change it.
"""

from __future__ import annotations

import json
import threading
from typing import Any

from memgraph.tools import ToolSet

INSTRUCTIONS = (
    "Long-term memory for this user. Call memory_recall with the current context before answering to get "
    "relevant memories (a <memory> block); call memory_remember / memory_learn when the user states a durable "
    "fact, preference, rule or correction; memory_forget when they retract one."
)


def build_server(tools: ToolSet) -> Any:
    """An MCP `Server` whose tools/list and tools/call handlers are the ToolSet's."""
    import anyio
    import mcp.types as types
    from mcp.server import Server

    from memgraph import __version__

    definitions = [
        types.Tool(name=d.name, description=d.description, input_schema=d.input_schema)
        for d in tools.definitions()
    ]

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=definitions)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        # the engine blocks (model, store): run the call on a worker thread, keep the event loop free
        result = await anyio.to_thread.run_sync(tools.call, params.name, params.arguments)
        payload = result.model_dump(mode="json", exclude_none=True)
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=json.dumps(payload, ensure_ascii=False))],
            structured_content=payload,
            is_error=not result.ok,
        )

    return Server(
        "memgraph",
        version=__version__,
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


def serve_stdio(tools: ToolSet, *, warm_up: bool = True) -> None:
    """Serve until the client closes stdin. The embedding model and the user's read structures load in the
    background meanwhile."""
    import anyio
    from mcp.server.stdio import stdio_server

    loading: threading.Thread | None = None
    if warm_up:
        # the model loads in a background thread while the client initialises; the first tool call that
        # embeds waits for that load instead of starting its own
        from memgraph.embed import warm

        warm(tools.engine.embedder)
        loading = preload_user(tools)
    server = build_server(tools)

    async def main() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    try:
        anyio.run(main)
    finally:
        if loading is not None:
            loading.join()  # the engine closes after this: no read may still be running on its store


def preload_user(tools: ToolSet) -> threading.Thread | None:
    """Load the user's read structures (SQLite: vectors, graph arrays, full text; ~0.5 s of CPU at 10k memories)
    on a background thread, so the first tool call finds them ready or waits for this load rather than
    starting its own. Stores without such structures (the graph servers) have nothing to load: None."""
    from memgraph.cli.common import load_in_background

    return load_in_background(tools.engine, tools.user_id)
