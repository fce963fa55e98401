"""`memgraph mcp`: serve the memory tools to an agent over MCP on stdio."""

from __future__ import annotations

from typing import Annotated

import typer

from memgraph.cli.common import StoreOpt, UserOpt, open_engine, reported


def mcp_(
    user: UserOpt,
    store: StoreOpt = None,
    session: Annotated[
        str | None,
        typer.Option("--session", help="Session id stored with memories written through the tools (optional)."),
    ] = None,
) -> None:
    """Serve the memory tools to an agent over MCP (stdio).

    Tools: memory_remember, memory_recall, memory_search, memory_list, memory_forget, memory_link, memory_tag,
    memory_learn, memory_episode, memory_procedure, memory_stats, memory_consolidate. Every call is scoped to
    --user (or MEMGRAPH_USER); no tool argument can change it. Register it in an MCP client as the command
    `memgraph mcp --store DIR --user NAME`. Logs go to stderr; stdout carries the protocol only.
    """
    # the model, the user's read structures and the token counter start loading as the engine opens, before
    # the server's own imports and tool schemas: the first tool call waits for those loads, not for these
    with open_engine(
        store, embeds=True, preload=(user, True, True), counts_tokens=True, spinner=False, compiled_walk=True
    ) as engine:
        from memgraph.mcp_server import serve_stdio
        from memgraph.tools import ToolSet

        with reported(2):  # a bad --user or --session is a usage error
            tools = ToolSet(engine, user_id=user, session_id=session)
        serve_stdio(tools, warm_up=False)
