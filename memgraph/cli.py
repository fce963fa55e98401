"""The `memgraph` command line: store memories, search them, and run maintenance jobs.

Every command takes `--store` (or MEMGRAPH_STORE): a directory (SQLite, the default ~/.memgraph),
`:memory:`, bolt://host:7687 / neo4j://… (Neo4j) or falkordb://host:port / falkordb+dir:///path (FalkorDB).
"""

from __future__ import annotations

import json
import logging
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from memgraph.cli_jobs import register as register_job_commands
from memgraph.config import Settings
from memgraph.errors import MemgraphError
from memgraph.store.dialect import browser_query

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

app = typer.Typer(
    name="memgraph",
    help="Long-term memory for AI agents as a property graph (SQLite embedded, Neo4j, FalkorDB).",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="rich",
)
console = Console()
err_console = Console(stderr=True)

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
UserOpt = Annotated[str, typer.Option("--user", "-u", envvar="MEMGRAPH_USER", help="Owner of the memories.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]


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


@contextmanager
def open_engine(store: str | None) -> Iterator[Any]:
    """Open the engine for one command; typed memgraph errors become a clean message and exit code 1."""
    from memgraph.engine import MemoryEngine

    try:
        settings = Settings()
        with MemoryEngine.open(store or settings.store, settings=settings) as engine:
            yield engine
    except MemgraphError as exc:
        err_console.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(1) from None


def _print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, default=str, ensure_ascii=False) + "\n")


def _memory_table(rows: list[tuple[str, Any]], title: str | None = None) -> Table:
    table = Table(title=title, show_lines=False)
    for col in ("score", "id", "kind", "content", "tags"):
        table.add_column(col, overflow="fold")
    for score, mem in rows:
        table.add_row(
            "" if score is None else f"{score:.3f}",
            mem.id,
            mem.kind.value,
            mem.content if len(mem.content) < 200 else mem.content[:197] + "...",
            ", ".join(mem.tags),
        )
    return table


@app.command()
def remember(
    content: Annotated[str, typer.Argument(help="The text to remember ('-' reads standard input).")],
    user: UserOpt,
    kind: Annotated[str, typer.Option(help="fact, preference, procedure, correction, constraint, ...")] = "fact",
    tag: Annotated[list[str] | None, typer.Option("--tag", "-t", help="A tag (repeatable).")] = None,
    session: Annotated[str | None, typer.Option(help="Session id the memory came from.")] = None,
    pinned: Annotated[bool, typer.Option(help="Always surface this memory first.")] = False,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Store one memory now (explicit memories are never dropped for low importance)."""
    if content == "-":
        content = sys.stdin.read()
    with open_engine(store) as engine:
        mem = engine.remember(content, user_id=user, kind=kind, tags=tag, session_id=session, pinned=pinned)
        if as_json:
            _print_json(mem.model_dump(mode="json", exclude={"embedding"}))
        else:
            console.print(f"remembered [bold]{mem.id}[/bold] ({mem.kind.value})")


@app.command()
def ingest(
    source: Annotated[
        str, typer.Argument(help="A file to read, or '-' for standard input. Plain text or JSON Lines of turns.")
    ],
    user: UserOpt,
    session: Annotated[
        str | None, typer.Option(help="Session id for the text (JSON Lines turns may carry their own).")
    ] = None,
    kind: Annotated[
        str | None,
        typer.Option(help="Kind (or layer) for every chunk, e.g. fact, preference, event; default: classified."),
    ] = None,
    tag: Annotated[list[str] | None, typer.Option("--tag", "-t", help="A tag for every memory (repeatable).")] = None,
    fmt: Annotated[
        str, typer.Option("--format", help="auto, text or jsonl. JSON Lines: one turn a line, "
                          '{"text", "speaker"?, "session_id"?, "timestamp"?, "tags"?}.')
    ] = "auto",
    batch: Annotated[
        int | None, typer.Option(help="Turns per ingest call (one embed batch and one transaction each).")
    ] = None,
    speaker_prefix: Annotated[
        bool, typer.Option(help="Prefix a turn's text with its speaker ('Caroline: ...').")
    ] = True,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Run text through the write path: clean, secret filter, chunk, embed, score, classify, tag, reconcile.

    Prints what was created, reinforced, superseded, contradicted or dropped (and why). Secrets are redacted
    (MEMGRAPH_SECRET_POLICY=reject refuses them: under reject, a turn holding one is left out and reported).
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from memgraph.ingest.report import IngestReport
    from memgraph.ingest.sources import looks_like_jsonl, split_plain_text, turns_from_jsonl

    if fmt not in ("auto", "text", "jsonl"):
        err_console.print("[red]error:[/red] --format must be auto, text or jsonl")
        raise typer.Exit(2)
    try:
        if source == "-":
            raw = sys.stdin.read()
        else:
            with open(source, encoding="utf-8", errors="strict") as fh:
                raw = fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        err_console.print(f"[red]error:[/red] cannot read {source}: {exc}")
        raise typer.Exit(1) from None
    with open_engine(store) as engine:
        settings = engine.settings
        try:
            if fmt == "jsonl" or (fmt == "auto" and looks_like_jsonl(raw[:10_000])):
                items = list(turns_from_jsonl(raw.splitlines(), session_id=session, speaker_prefix=speaker_prefix))
                size = batch or settings.ingest_batch_items
                batches = [items[i : i + size] for i in range(0, len(items), size)]
            else:
                parts = split_plain_text(raw, settings.max_ingest_chars)
                batches = [[{"text": p, "session_id": session}] for p in parts if p.strip()]
            for group in batches:
                for item in group:
                    if kind is not None:
                        item["kind"] = kind
                    if tag:
                        item["tags"] = [*(item.get("tags") or []), *tag]
            report = IngestReport(user_id=user)
            with Progress(
                TextColumn("[bold]ingest[/bold]"), BarColumn(), MofNCompleteColumn(), TextColumn("batches"),
                TimeElapsedColumn(), console=err_console, transient=as_json, disable=not batches,
            ) as progress:
                task = progress.add_task("ingest", total=len(batches))
                for group in batches:
                    part = engine.ingest_many(group, user_id=user, on_secret_reject="drop")
                    report = report.merge(part)
                    progress.advance(task)
        except MemgraphError as exc:
            err_console.print(f"[red]error:[/red] {exc}")
            raise typer.Exit(1) from None
        if as_json:
            _print_json(report.model_dump(mode="json"))
        else:
            console.print(report.summary())


@app.command()
def search(
    query: Annotated[str, typer.Argument(help="What to look for.")],
    user: UserOpt,
    k: Annotated[int, typer.Option("-k", help="How many hits.")] = 10,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Vector + full-text search of one user's memories (no graph expansion; see `recall`)."""
    with open_engine(store) as engine:
        hits = engine.search(query, user_id=user, k=k)
        if as_json:
            _print_json([h.model_dump(mode="json", exclude={"memory": {"embedding"}}) for h in hits])
        elif not hits:
            console.print("no memories matched")
        else:
            console.print(_memory_table([(h.score, h.memory) for h in hits]))


@app.command()
def recall(
    query: Annotated[str, typer.Argument(help="The context to recall memories for (a question, a task).")],
    user: UserOpt,
    k: Annotated[int, typer.Option("-k", "--top-k", help="Memories to return at most.")] = 5,
    budget: Annotated[int, typer.Option("--budget", help="Token budget (model tokenizer).")] = 2000,
    mode: Annotated[
        str, typer.Option(help="cascade (graph), hybrid (vector+text), semantic (vector) or lexical (text).")
    ] = "cascade",
    kind: Annotated[list[str] | None, typer.Option("--kind", help="Only these kinds (repeatable).")] = None,
    file: Annotated[
        list[str] | None,
        typer.Option("--file", "-f", help="A file you work on: project-scoped memories whose globs match it."),
    ] = None,
    archived: Annotated[bool, typer.Option("--archived", help="Also recall archived memories.")] = False,
    prompt: Annotated[bool, typer.Option("--prompt", help="Print the <memory> block for a prompt.")] = False,
    trace: Annotated[bool, typer.Option("--trace", help="Explain how each memory was found and scored.")] = False,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Cascade retrieval: the memories an agent should see for QUERY, in prompt order, within the budget."""
    with open_engine(store) as engine:
        res = engine.recall(
            query, user_id=user, top_k=k, token_budget=budget, mode=mode, kinds=kind, files=file,
            include_archived=archived,
        )
        engine.flush()
        for w in res.warnings:
            err_console.print(f"[yellow]warning:[/yellow] {w}")
        if as_json:
            _print_json(res.model_dump(mode="json", exclude={"memories": {"__all__": {"embedding"}}}))
            return
        if prompt:
            sys.stdout.write(res.to_prompt() + "\n")
            return
        if not res.memories:
            console.print("nothing recalled")
            return
        table = Table(title=f"recall ({res.mode}): {res.total_tokens} tokens, {res.budget_used:.0%} of budget")
        for col in ("#", "score", "layer", "kind", "content", "how"):
            table.add_column(col, overflow="fold")
        for i, (mem, tr) in enumerate(zip(res.memories, res.trace, strict=True), start=1):
            how = f"seed #{tr.seed_rank}" if tr.seed_rank else f"cascade depth {tr.depth}"
            content = mem.content if len(mem.content) < 200 else mem.content[:197] + "..."
            table.add_row(str(i), f"{tr.final_score:.3f}", tr.layer, mem.kind.value, content, how)
        console.print(table)
        if trace:
            for i, tr in enumerate(res.trace, start=1):
                path = " -> ".join(f"[{st.relation} {st.weight:.2f}] {st.via}" for st in tr.path) or "-"
                console.print(
                    f"[bold]{i}[/bold] {tr.memory_id}: seed rank {tr.seed_rank} score {tr.seed_score} "
                    f"(vector {tr.vector_score}, text {tr.text_score}); cascade {tr.cascade_score:.3f} via "
                    f"{path}; confidence {tr.confidence:.3f} recency x{tr.recency_boost:.2f} "
                    f"cue x{tr.cue_boost:.1f} {tr.matched_tags} -> {tr.final_score:.3f} [{tr.layer}]"
                )
                for note in tr.notes:
                    console.print(f"    {note}")
            if res.cue_tags:
                console.print(f"query named tags: {', '.join(res.cue_tags)}")


@app.command("list")
def list_(
    user: UserOpt,
    kind: Annotated[str | None, typer.Option(help="Only this kind.")] = None,
    tag: Annotated[str | None, typer.Option(help="Only memories with this tag.")] = None,
    inactive: Annotated[bool, typer.Option("--inactive", help="Include forgotten/superseded.")] = False,
    limit: Annotated[int, typer.Option(help="At most this many.")] = 50,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """List a user's memories, newest first."""
    with open_engine(store) as engine:
        mems = engine.list(user_id=user, kind=kind, tag=tag, include_inactive=inactive, limit=limit)
        if as_json:
            _print_json([m.model_dump(mode="json", exclude={"embedding"}) for m in mems])
        else:
            console.print(_memory_table([(None, m) for m in mems]))


@app.command()
def forget(
    memory_id: Annotated[str, typer.Argument(help="Id of the memory.")],
    user: UserOpt,
    store: StoreOpt = None,
) -> None:
    """Deactivate a memory (soft: it is kept and can be restored)."""
    with open_engine(store) as engine:
        engine.forget(memory_id, user_id=user)
        console.print(f"forgot {memory_id} (restore with `memgraph restore {memory_id}`)")


@app.command()
def restore(
    memory_id: Annotated[str, typer.Argument(help="Id of the memory.")],
    user: UserOpt,
    store: StoreOpt = None,
) -> None:
    """Make a forgotten or superseded memory active again."""
    with open_engine(store) as engine:
        engine.restore(memory_id, user_id=user)
        console.print(f"restored {memory_id}")


@app.command()
def link(
    src: Annotated[str, typer.Argument(help="From memory id.")],
    dst: Annotated[str, typer.Argument(help="To memory id.")],
    user: UserOpt,
    relation: Annotated[str, typer.Option(help="RelatesTo, Supersedes, Contradicts or DerivedFrom.")] = "RelatesTo",
    weight: Annotated[float, typer.Option(help="Edge weight, 0..1.")] = 1.0,
    store: StoreOpt = None,
) -> None:
    """Join two memories of the same user."""
    with open_engine(store) as engine:
        ln = engine.link(src, dst, relation, user_id=user, weight=weight)
        console.print(f"({src})-[:{ln.relation.value} {{weight: {ln.weight}}}]->({dst})")


@app.command()
def tag(
    memory_id: Annotated[str, typer.Argument(help="Id of the memory.")],
    tags: Annotated[list[str], typer.Argument(help="Tags to add.")],
    user: UserOpt,
    store: StoreOpt = None,
) -> None:
    """Add tags to a memory."""
    with open_engine(store) as engine:
        mem = engine.tag(memory_id, tags, user_id=user)
        console.print(f"{mem.id}: {', '.join(mem.tags)}")


@app.command()
def stats(
    user: Annotated[str | None, typer.Option("--user", "-u", help="One user (default: the whole store).")] = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Counts of memories, tags, clusters, gaps and edges."""
    with open_engine(store) as engine:
        st = engine.stats(user_id=user)
        if as_json:
            _print_json(st.model_dump(mode="json"))
            return
        table = Table(title=f"memgraph stats ({user or 'all users'})")
        table.add_column("what")
        table.add_column("count", justify="right")
        for name in ("users", "memories", "active", "archived", "tags", "clusters", "gaps"):
            table.add_row(name, str(getattr(st, name)))
        for kind, n in sorted(st.by_kind.items()):
            table.add_row(f"kind: {kind}", str(n))
        for rel, n in sorted(st.edges.items()):
            table.add_row(f"edge: {rel}", str(n))
        console.print(table)


@app.command()
def cypher(
    statement: Annotated[str | None, typer.Argument(help="A read-only Cypher statement.")] = None,
    file: Annotated[str | None, typer.Option("--file", "-f", help="Read the statement from a .cypher file.")] = None,
    query: Annotated[
        str | None, typer.Option("--query", help="Run a shipped exploration query by name (user_overview, ...).")
    ] = None,
    param: Annotated[
        list[str] | None, typer.Option("--param", "-p", help="A parameter as name=value (repeatable).")
    ] = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Run a read query on a Cypher store (Neo4j or FalkorDB) and print the rows as a table."""
    if sum(x is not None for x in (statement, file, query)) != 1:
        err_console.print("[red]error:[/red] give one of: a statement, --file or --query")
        raise typer.Exit(2)
    if file is not None:
        with open(file, encoding="utf-8") as fh:
            statement = fh.read()
    if query is not None:
        try:
            statement = browser_query(query)
        except MemgraphError as exc:
            err_console.print(f"[red]error:[/red] {exc}")
            raise typer.Exit(2) from None
    params: dict[str, Any] = {}
    for item in param or []:
        name, sep, value = item.partition("=")
        if not sep or not name:
            err_console.print(f"[red]error:[/red] --param {item!r} is not name=value")
            raise typer.Exit(2)
        try:
            params[name] = json.loads(value)
        except json.JSONDecodeError:
            params[name] = value
    with open_engine(store) as engine:
        try:
            rows = engine.store.query(statement or "", params)
        except MemgraphError as exc:
            err_console.print(f"[red]error:[/red] {exc}")
            raise typer.Exit(1) from None
        if as_json:
            _print_json(rows)
            return
        table = Table()
        cols = list(rows[0]) if rows else []
        for c in cols:
            table.add_column(c, overflow="fold")
        for r in rows:
            table.add_row(*(json.dumps(r[c], default=str, ensure_ascii=False) for c in cols))
        console.print(table)
        console.print(f"{len(rows)} row(s)")


DEMO_QUESTIONS = (
    "When is the PostgreSQL cutover planned?",
    "How do I deploy the ledger service?",
    "Can I run alembic autogenerate against production?",
    "Who owns the fraud rules engine?",
)


@app.command()
def demo(
    store: StoreOpt = None,
    user: Annotated[str, typer.Option("--user", "-u", help="Owner of the demo memories.")] = "demo",
) -> None:
    """Run the main job end to end on a bundled conversation: ingest three sessions (secret filter, importance,
    dedup, supersede), recall with the cascade (prompt block and trace), then plan the maintenance jobs."""
    from importlib.resources import files as package_files

    turns = [json.loads(line) for line in package_files("memgraph").joinpath("data/demo_conversation.jsonl")
             .read_text(encoding="utf-8").splitlines() if line.strip()]
    sessions: dict[str, list[dict[str, Any]]] = {}
    for turn in turns:
        sessions.setdefault(turn["session_id"], []).append(turn)
    with open_engine(store) as engine:
        where = engine.settings.store
        console.rule(f"[bold]1. ingest[/bold] {len(turns)} turns in {len(sessions)} sessions -> {where}")
        for sid, session_turns in sessions.items():
            report = engine.ingest_many(
                [{"text": f"{t['speaker']}: {t['text']}", "session_id": sid, "created_at": t["timestamp"]}
                 for t in session_turns],
                user_id=user,
            )
            console.print(
                f"session {sid}: {len(report.created)} created, {len(report.reinforced)} reinforced, "
                f"{len(report.superseded)} superseded, {len(report.contradicted)} contradicted, "
                f"{len(report.dropped)} dropped"
            )
            for decision in [*report.superseded, *report.contradicted]:
                console.print(f"   {decision}")
        for question in DEMO_QUESTIONS:
            console.rule(f"[bold]2. recall[/bold] {question}")
            res = engine.recall(question, user_id=user, top_k=3)
            engine.flush()  # post-recall maintenance (co-recall links) before the next question: repeatable
            sys.stdout.write(res.to_prompt() + "\n")
            for tr in res.trace:
                path = " -> ".join(f"{st.relation}" for st in tr.path) or "seed"
                console.print(f"   [dim]{tr.memory_id}: {tr.layer}, {path}, score {tr.final_score:.3f}[/dim]")
        engine.flush()
        jobs = engine.jobs
        console.rule("[bold]3. maintenance plans[/bold] (dry run: nothing changes without --apply)")
        for name in ("cluster", "decay", "links", "consolidate"):
            plan = getattr(jobs, name)(user)
            counts = ", ".join(f"{k} {v}" for k, v in plan.counts().items() if v)
            console.print(f"{name}: {plan.skipped or counts or 'nothing to do'}")
        st = engine.stats(user_id=user)
        console.rule("[bold]4. the graph[/bold]")
        console.print(f"{st.memories} memories ({st.active} active), {st.tags} tags, edges {st.edges}")
        console.print("next: `memgraph recall \"...\" --user demo --trace`, `memgraph cluster --user demo --apply`")



@app.command("mcp")
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
    from memgraph.mcp_server import serve_stdio
    from memgraph.tools import ToolSet

    with open_engine(store) as engine:
        try:
            tools = ToolSet(engine, user_id=user, session_id=session)
        except MemgraphError as exc:
            err_console.print(f"[red]error:[/red] {exc}")
            raise typer.Exit(2) from None
        serve_stdio(tools)

register_job_commands(app)  # cluster, decay, links, gaps, consolidate, compress, reindex, export, import, history


def main() -> None:  # pragma: no cover - console script entry
    app()


if __name__ == "__main__":  # pragma: no cover
    app()
