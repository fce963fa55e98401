"""Commands on single memories: remember, list, forget, restore, link, tag, and the store's stats."""

from __future__ import annotations

import sys
from typing import Annotated

import typer
from rich.table import Table

from memgraph.cli.common import (
    JsonOpt,
    StoreOpt,
    UserOpt,
    busy,
    check_user,
    console,
    memory_table,
    open_engine,
    print_json,
)
from memgraph.cli.explain import decision_lines, engine_lookup, redaction_line, stored_id


def remember(
    content: Annotated[str, typer.Argument(help="The text to remember ('-' reads standard input).")],
    user: UserOpt,
    kind: Annotated[str, typer.Option(help="fact, preference, procedure, correction, constraint, ...")] = "fact",
    tag: Annotated[list[str] | None, typer.Option("--tag", "-t", metavar="<tag>", help="A tag (repeatable).")] = None,
    session: Annotated[str | None, typer.Option(help="Session id the memory came from.")] = None,
    pinned: Annotated[bool, typer.Option(help="Always surface this memory first.")] = False,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Store one memory now (explicit memories are never dropped for low importance).

    Prints the memory's id and what the write did: a near-duplicate reinforces the memory already there, a
    correction supersedes the statement it corrects (named, with the reason), a conflicting statement is
    flagged as contradicting one, and secrets are redacted (by type). --json prints the memory and that report."""
    if content == "-":
        content = sys.stdin.read()
    with open_engine(store, embeds=True, preload=(user, False, False)) as engine:
        with busy("Remembering…"):
            report = engine.remember_report(
                content, user_id=user, kind=kind, tags=tag, session_id=session, pinned=pinned
            )
        decision = report.decisions[0]
        box = engine.outbox
        if report.queued and box is not None:  # the server is unreachable: the memory as queued
            mem = box.memory(user, decision.memory_id)
        else:
            mem = engine.get(stored_id(decision), user_id=user)
        if as_json:
            print_json({"memory": mem.model_dump(mode="json", exclude={"embedding"}),
                        "report": report.model_dump(mode="json")})
            return
        if report.queued:
            console.print(f"[yellow]queued[/yellow] [bold]{mem.id}[/bold] ({mem.kind.value}): the graph server is "
                          "unreachable; it is written, and reconciled, when the server answers "
                          "(`memgraph outbox status`)")
        elif decision.action == "reinforced":
            console.print(f"already remembered as [bold]{mem.id}[/bold] ({mem.kind.value}): reinforced it, "
                          "nothing new stored")
        elif decision.action == "unchanged":
            console.print(f"already remembered as [bold]{mem.id}[/bold] ({mem.kind.value}): the same text")
        else:
            console.print(f"remembered [bold]{mem.id}[/bold] ({mem.kind.value})")
        if not report.queued:
            (_head, *details), *more = decision_lines(report, engine_lookup(engine, user))
            for line in details:
                console.print(f"  {line}")
            for head, *lines in more:  # what else the write did: a rule archived, a remainder kept
                console.print(f"  {head}")
                for line in lines:
                    console.print(f"    {line}")
        redacted = redaction_line(report.redactions)
        if redacted:
            console.print("  " + redacted)


def list_(
    user: UserOpt,
    kind: Annotated[str | None, typer.Option(help="Only this kind.")] = None,
    tag: Annotated[str | None, typer.Option(help="Only memories with this tag.")] = None,
    inactive: Annotated[
        bool, typer.Option("--inactive", help="Include forgotten, superseded and archived memories (a status column "
                           "says which).")
    ] = False,
    limit: Annotated[int, typer.Option(help="At most this many.")] = 50,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """List a user's memories, newest first."""
    with open_engine(store) as engine:
        mems = engine.list(
            user_id=user, kind=kind, tag=tag, include_inactive=inactive, include_archived=inactive, limit=limit
        )
        if as_json:
            print_json([m.model_dump(mode="json", exclude={"embedding"}) for m in mems])
        elif not mems:
            check_user(engine, user)
            console.print("no memories match (try --inactive, or another --kind/--tag)")
        else:
            console.print(memory_table([(None, m) for m in mems], status=inactive))


def forget(
    memory_id: Annotated[str, typer.Argument(help="Id of the memory.")],
    user: UserOpt,
    store: StoreOpt = None,
) -> None:
    """Deactivate a memory (soft: it is kept and can be restored)."""
    with open_engine(store) as engine:
        if not engine.get(memory_id, user_id=user).active:
            console.print(f"{memory_id} is already inactive (forgotten or superseded); nothing changed")
            return
        engine.forget(memory_id, user_id=user)
        console.print(f"forgot {memory_id} (restore with `memgraph restore {memory_id}`)")


def restore(
    memory_id: Annotated[str, typer.Argument(help="Id of the memory.")],
    user: UserOpt,
    store: StoreOpt = None,
) -> None:
    """Make a forgotten or superseded memory active again."""
    with open_engine(store) as engine:
        if engine.get(memory_id, user_id=user).active:
            console.print(f"{memory_id} is already active; nothing changed")
            return
        engine.restore(memory_id, user_id=user)
        console.print(f"restored {memory_id}")


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


def stats(
    user: Annotated[str | None, typer.Option("--user", "-u", help="One user (default: the whole store).")] = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Counts of memories, tags, clusters, gaps and edges."""
    with open_engine(store) as engine:
        st = engine.stats(user_id=user)
        if as_json:
            print_json(st.model_dump(mode="json"))
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
        if st.invalid_user_ids:  # stored before the identifier rule; kept as they are (memgraph/ids.py)
            table.add_row("user ids breaking the id rule", str(st.invalid_user_ids))
        console.print(table)
