"""The `memgraph` command line: store memories, search them, and run maintenance jobs.

Every command takes `--store` (or MEMGRAPH_STORE): a directory (SQLite, the default ~/.memgraph),
`:memory:`, bolt://host:7687 / neo4j://… (Neo4j) or falkordb://host:port / falkordb+dir:///path (FalkorDB).
"""

from __future__ import annotations

import json
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
    param: Annotated[
        list[str] | None, typer.Option("--param", "-p", help="A parameter as name=value (repeatable).")
    ] = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Run a read query on a Cypher store (Neo4j or FalkorDB) and print the rows as a table."""
    if (statement is None) == (file is None):
        err_console.print("[red]error:[/red] give a statement or --file, not both")
        raise typer.Exit(2)
    if file is not None:
        with open(file, encoding="utf-8") as fh:
            statement = fh.read()
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


register_job_commands(app)  # cluster, decay, links, gaps, consolidate, compress, reindex, export, import, history


def main() -> None:  # pragma: no cover - console script entry
    app()


if __name__ == "__main__":  # pragma: no cover
    app()
