"""What every `memgraph` command shares: its options, the two consoles, opening the engine, turning a memgraph
error into a clean message and exit code, and the output helpers (JSON, the memory table, the job progress bar).

Nothing here imports the engine, the model or a job at import time: `memgraph --help` and the commands that do
not need them stay fast. The engine is imported when a command opens it.
"""

from __future__ import annotations

import json
import logging
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from memgraph.config import Settings
from memgraph.errors import MemgraphError
from memgraph.ingest.structure import user_tags

if TYPE_CHECKING:
    from pydantic import BaseModel

    from memgraph.engine import MemoryEngine
    from memgraph.models import Memory

log = logging.getLogger(__name__)

#: Results (tables, reports) go to standard output; errors, warnings and progress to standard error.
console = Console()
err_console = Console(stderr=True)

#: (stage, done, total): how the jobs report progress (memgraph.jobs.base.ProgressFn).
Progress = Callable[[str, int, int], None]

# -- options ------------------------------------------------------------------------------------------------

StoreOpt = Annotated[
    str | None,
    typer.Option(
        "--store",
        "-s",
        envvar="MEMGRAPH_STORE",
        help="Where the graph lives: a directory (SQLite), ':memory:', bolt://… / neo4j://… (Neo4j), "
        "falkordb://host:port or falkordb+dir:///path (FalkorDB). Default: ~/.memgraph",
        show_default=False,
    ),
]
#: The owner a memory command acts for (required).
UserOpt = Annotated[str, typer.Option("--user", "-u", envvar="MEMGRAPH_USER", help="Owner of the memories.")]
#: The user a job runs for: this or --all-users.
JobUserOpt = Annotated[
    str | None,
    typer.Option("--user", "-u", envvar="MEMGRAPH_USER", help="Run for this user.", show_default=False),
]
AllUsersOpt = Annotated[bool, typer.Option("--all-users", help="Run for every user in the store.")]
ApplyOpt = Annotated[bool, typer.Option("--apply", help="Act on the plan. Without it nothing is changed.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]
ReportJsonOpt = Annotated[bool, typer.Option("--json", help="Print the report(s) as JSON (for tooling).")]

# -- errors ---------------------------------------------------------------------------------------------------


def fail(message: object, code: int = 1) -> NoReturn:
    """Print `error: message` on standard error and end the command with `code` (2: a usage error)."""
    err_console.print(f"[red]error:[/red] {message}")
    raise typer.Exit(code)


@contextmanager
def reported(code: int = 1) -> Iterator[None]:
    """A typed memgraph error inside becomes a clean message and exit code `code`, never a traceback."""
    try:
        yield
    except MemgraphError as exc:
        fail(exc, code)


def settings_or_fail(**overrides: Any) -> Settings:
    """`Settings` from the MEMGRAPH_* environment and `overrides`; a bad value ends the command with a message
    naming the setting and what it expects (exit code 2), never a pydantic traceback. The value is not quoted:
    it may be a password."""
    from pydantic import ValidationError as PydanticValidationError

    try:
        return Settings(**overrides)
    except PydanticValidationError as exc:
        problems = [
            f"MEMGRAPH_{'.'.join(str(p) for p in e['loc']).upper() or 'SETTINGS'}: "
            + str(e["msg"]).removeprefix("Value error, ").replace("Input should be ", "expected ")
            for e in exc.errors(include_url=False, include_input=False)[:5]
        ]
        fail("invalid setting: " + "; ".join(problems), 2)


@contextmanager
def open_engine(
    store: str | None,
    *,
    check_model: bool = True,
    embeds: bool = False,
    preload: tuple[str, bool, bool] | None = None,
    counts_tokens: bool = False,
    spinner: bool = True,
    **overrides: Any,
) -> Iterator[MemoryEngine]:
    """Open the engine for one command (`--store`, else MEMGRAPH_STORE, else the default directory) and close
    it afterwards; typed memgraph errors, opening included, become a clean message and exit code 1.

    `embeds=True` (commands that embed text: recall, search, remember, ingest, mcp, demo) starts loading the
    embedding model in a background thread before the store opens, so the two overlap, and shows a spinner on a
    terminal while the model is still loading (the first run on a machine exports it to ONNX once, ~20 s).
    `preload=(user, graph, text)`: load that user's read structures on another thread meanwhile (the columns;
    the graph for a recall's walk; the full-text index for its text search), so the first read finds them
    loaded while the model was loading (SQLite; other stores have nothing to load). `counts_tokens` (recall):
    read the tokenizer a recall counts tokens with on another thread too. `spinner=False` (a server): never
    wait for the model here, even on a terminal.
    `overrides` are settings for this command (e.g. `outbox_background=False`). A one-shot command walks the
    graph at most once: it never warms the compiled walk (`compiled_walk=True` for a server)."""
    from memgraph.engine import MemoryEngine

    overrides.setdefault("compiled_walk", False)
    with reported():
        settings = settings_or_fail(**overrides)
        target = store or settings.store
        if not embeds:
            with MemoryEngine.open(target, settings=settings, check_model=check_model) as engine:
                yield engine
            return
        from concurrent.futures import wait

        from memgraph.embed import default_embedder, warm

        settings = settings.model_copy(update={"store": target})
        embedder = default_embedder(settings)
        will_export = getattr(embedder.inner, "will_export", None)
        exporting = bool(will_export()) if callable(will_export) else False
        loading = warm(embedder)
        with MemoryEngine.open(settings=settings, embedder=embedder, check_model=check_model) as engine:
            reading = None if preload is None else load_in_background(engine, *preload)
            counting = count_in_background(embedder) if counts_tokens else None
            if spinner and not loading.done() and err_console.is_terminal:
                text = (
                    "First run: exporting the embedding model to ONNX (about 20 s, once)…"
                    if exporting
                    else "Loading the embedding model…"
                )
                with err_console.status(text):
                    wait([loading])  # not .result(): a load error surfaces, typed, at the first embed
            try:
                yield engine
            finally:
                # A command that needed no model (every text it embedded was in the cache) must still let the
                # load finish: a daemon thread inside onnxruntime at interpreter exit aborts the process.
                wait([loading])
                for thread in (reading, counting):
                    if thread is not None:
                        thread.join()  # the engine closes next: no read may still run on its store


def load_in_background(
    engine: MemoryEngine, user: str, graph: bool = True, text: bool = True
) -> threading.Thread | None:
    """Start loading the user's read structures on a daemon thread (`SQLiteStore.load_user`); None when the
    store has none. A failure is left to the command's own first read, which reports it typed."""
    # looked up on the class: a store opened deferred (its server unreachable, writes queued in the outbox)
    # forwards attribute reads to the server and would try to connect here, failing the command
    if getattr(type(engine.store), "load_user", None) is None:
        return None
    load = engine.store.load_user  # type: ignore[attr-defined]

    def run() -> None:
        try:
            load(user, graph=graph, text=text)
        except Exception as exc:  # noqa: BLE001 - the first read loads again and reports it
            log.debug("preloading %s's read structures failed: %s", user, exc)

    thread = threading.Thread(target=run, name="memgraph-preload", daemon=True)
    thread.start()
    return thread


def count_in_background(embedder: Any) -> threading.Thread | None:
    """Read the model's tokenizer for token counting (a recall counts the tokens of the memories it places) on a
    daemon thread, beside the model's and the user's loads: done at the recall's end instead, it was 40-70 ms
    on the command's own thread (tokenizer.json parsed once more: the encoder's copy truncates, a count must
    not). None when the embedder counts no tokens."""
    count = getattr(embedder, "count_tokens", None)
    if count is None:
        return None

    def run() -> None:
        try:
            count("")
        except Exception as exc:  # noqa: BLE001 - the recall counts again and reports it
            log.debug("loading the token counter failed: %s", exc)

    thread = threading.Thread(target=run, name="memgraph-tokens", daemon=True)
    thread.start()
    return thread


@contextmanager
def busy(text: str) -> Iterator[None]:
    """A spinner on standard error while a command works (loading a user's memories on its first read takes
    ~0.5 s at 10k memories), only on a terminal: piped output and tests see nothing of it."""
    if not err_console.is_terminal:
        yield
        return
    with err_console.status(text):
        yield


def check_user(engine: MemoryEngine, user: str) -> None:
    """End the command (exit 1) when `user` has no memories at all in this store: an empty answer would hide a
    mistyped --user or the wrong --store. Names no other user of the store."""
    if engine.stats(user_id=user).memories == 0:
        fail(f"user {user!r} has no memories in {engine.settings.store} (check --user and --store)")


# -- output ---------------------------------------------------------------------------------------------------


def print_json(data: Any) -> None:
    """JSON on standard output, for tooling (dates and other values as strings)."""
    sys.stdout.write(json.dumps(data, indent=2, default=str, ensure_ascii=False) + "\n")


def print_reports(reports: Sequence[BaseModel]) -> None:
    """Reports as JSON on standard output: one report as an object, several as a list."""
    data = [r.model_dump(mode="json") for r in reports]
    print_json(data[0] if len(data) == 1 else data)


def memory_status(mem: Memory) -> str:
    """active, archived or inactive (forgotten or superseded), as `list --inactive` shows it."""
    if not mem.active:
        return "inactive"
    return "archived" if mem.archived else "active"


def tag_cell(tags: Sequence[str]) -> str:
    """A memory's own tags, then how many structure tags (session, speaker, date, topic) it also carries: those
    are the graph's, written on every session write, and would crowd the column (`--json` lists them all)."""
    own = user_tags(tags)
    extra = len(tags) - len(own)
    return ", ".join(own) + (f"{' ' if own else ''}(+{extra} structure)" if extra else "")


def memory_table(
    rows: Sequence[tuple[float | None, Memory]], title: str | None = None, *, status: bool = False
) -> Table:
    """Memories as a table: score (only when the rows have scores), id, status (with `status`), kind, content
    (clipped) and tags."""
    scored = any(score is not None for score, _ in rows)
    table = Table(title=title, show_lines=False)
    cols = [*(["score"] if scored else []), "id", *(["status"] if status else []), "kind", "content", "tags"]
    for col in cols:
        if col == "id":
            # whole on one line, to be copied into `forget`, `erase` or `link` (folded it broke in two)
            table.add_column(col, no_wrap=True, min_width=max((len(m.id) for _, m in rows), default=2))
        else:
            table.add_column(col, overflow="fold")
    for score, mem in rows:
        cells: list[str | Text] = [
            *([("" if score is None else f"{score:.3f}")] if scored else []),
            mem.id,
            *([memory_status(mem)] if status else []),
            mem.kind.value,
            # user text as it is: a Text is not read as console markup ("[x]") or emoji codes (":x:")
            Text(mem.content if len(mem.content) < 200 else mem.content[:197] + "..."),
            Text(tag_cell(mem.tags)),
        ]
        table.add_row(*cells)
    return table


@contextmanager
def progress_bar() -> Iterator[Progress]:
    """A rich progress bar on standard error (only on a terminal), fed by the jobs' progress callbacks."""
    from rich.progress import BarColumn, TaskID, TextColumn, TimeElapsedColumn
    from rich.progress import Progress as Bar

    bar = Bar(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total}"),
        TimeElapsedColumn(),
        console=err_console,
        transient=True,
        disable=not err_console.is_terminal,
    )
    tasks: dict[str, TaskID] = {}

    def update(stage: str, done: int, total: int) -> None:
        if stage not in tasks:
            tasks[stage] = bar.add_task(stage, total=max(total, 1))
        bar.update(tasks[stage], completed=done, total=max(total, 1))

    with bar:
        yield update
