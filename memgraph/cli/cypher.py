"""`memgraph cypher`: read-only Cypher on a Neo4j or FalkorDB store, printed as a table (or JSON)."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.table import Table

from memgraph.cli.common import JsonOpt, StoreOpt, console, fail, open_engine, print_json
from memgraph.errors import MemgraphError
from memgraph.store.dialect import browser_query


def cypher(
    statement: Annotated[str | None, typer.Argument(help="A read-only Cypher statement.")] = None,
    file: Annotated[str | None, typer.Option("--file", "-f", help="Read the statement from a .cypher file.")] = None,
    query: Annotated[
        str | None, typer.Option("--query", help="Run a shipped exploration query by name (user_overview, ...).")
    ] = None,
    param: Annotated[
        list[str] | None,
        typer.Option("--param", "-p", metavar="<name=value>", help="A parameter as name=value (repeatable)."),
    ] = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Run a read query on a Cypher store (Neo4j or FalkorDB) and print the rows as a table."""
    text = _statement(statement, file, query)
    params = _params(param or [])
    with open_engine(store) as engine:  # a refused (writing) statement is reported with exit code 1
        rows = engine.store.query(text, params)
        if as_json:
            print_json(rows)
            return
        table = Table()
        cols = list(rows[0]) if rows else []
        for c in cols:
            table.add_column(c, overflow="fold")
        for r in rows:
            table.add_row(*(json.dumps(r[c], default=str, ensure_ascii=False) for c in cols))
        console.print(table)
        console.print(f"{len(rows)} row(s)")


def _statement(statement: str | None, file: str | None, query: str | None) -> str:
    """The statement to run: given on the command line, read from a file, or a shipped exploration query by
    name (exactly one of them)."""
    if sum(x is not None for x in (statement, file, query)) != 1:
        fail("give one of: a statement, --file or --query", 2)
    if file is not None:
        with open(file, encoding="utf-8") as fh:
            return fh.read()
    if query is not None:
        try:
            return browser_query(query)
        except MemgraphError as exc:
            fail(exc, 2)
    return statement or ""


def _params(items: list[str]) -> dict[str, Any]:
    """`--param name=value` pairs; a value that parses as JSON is passed as that JSON value, else as text."""
    params: dict[str, Any] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name:
            fail(f"--param {item!r} is not name=value", 2)
        try:
            params[name] = json.loads(value)
        except json.JSONDecodeError:
            params[name] = value
    return params
