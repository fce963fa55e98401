"""`memgraph outbox status|replay|drop`: the local queue of writes a graph server could not take.

`status` and `drop` read the outbox file only (no server, no model): they work while the server is down.
`replay` opens the store and applies what waits, in order, exactly once; an engine does the same in the
background on its own, so this is for a process that is not running any more, or to see it happen.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from memgraph.cli.common import JsonOpt, StoreOpt, console, fail, open_engine, print_json, reported, settings_or_fail

if TYPE_CHECKING:
    from pathlib import Path

    from memgraph.outbox import Entry, Outbox

app = typer.Typer(
    name="outbox",
    help="Writes queued while the graph server (Neo4j, FalkorDB) was unreachable: see, replay or drop them.",
    no_args_is_help=True,
)


def _path(store: str | None) -> Path:
    from memgraph.outbox import outbox_path

    settings = settings_or_fail()
    target = store or settings.store
    path = outbox_path(settings.model_copy(update={"store": target}))
    if path is None:
        fail(f"{target!r} has no outbox: only server stores (bolt://, neo4j://, falkordb://) queue writes, "
             "and only with MEMGRAPH_OUTBOX on")
    return path


def _open(store: str | None) -> Outbox | None:
    """The outbox file of the store, or None when nothing was ever queued for it."""
    from memgraph.outbox import Outbox

    path = _path(store)
    if not path.exists():
        return None
    s = settings_or_fail()
    return Outbox(path, max_entries=s.outbox_max_entries, log_keep=s.outbox_log_keep)


def _ago(when: datetime) -> str:
    secs = max(0.0, (datetime.now(UTC) - when).total_seconds())
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60)):
        if secs >= size:
            return f"{secs / size:.0f} {unit} ago"
    return f"{secs:.0f} s ago"


def _what(entry: Entry) -> str:
    op = entry.op
    if op.op == "write":
        n = len(getattr(op, "items", []))
        return f"{'remember' if getattr(op, 'explicit', True) else 'ingest'} ({n} item{'s' if n != 1 else ''})"
    if op.op == "update":
        return f"{getattr(op, 'what', 'update')} {getattr(op, 'memory_id', '')}"
    if op.op == "erase":
        ids = getattr(op, "memory_ids", None)
        return "erase all of the user's memories" if ids is None else f"erase {len(ids)} memories"
    return op.op


@app.command()
def status(
    store: StoreOpt = None,
    recent: Annotated[int, typer.Option(help="Replay outcomes to show, newest first.")] = 10,
    as_json: JsonOpt = False,
) -> None:
    """What waits in the outbox (per user), what was set aside, and the latest replay outcomes."""
    with reported():
        box = _open(store)
        if box is None:
            if as_json:
                print_json({"path": str(_path(store)), "pending": {}, "refused": {}, "recent": []})
            else:
                console.print(f"nothing was ever queued for this store ({_path(store)})")
            return
        try:
            counts = box.counts()
            pending, refused = counts.get("pending", {}), counts.get("refused", {})
            oldest = box.oldest()
            log = box.log(recent)
            set_aside = box.entries(state="refused", limit=20)
            if as_json:
                print_json({
                    "path": str(box.path), "pending": pending, "refused": refused,
                    "oldest": None if oldest is None else oldest.isoformat(),
                    "refused_entries": [{"id": e.id, "user_id": e.user_id, "op": e.op.op, "error": e.error}
                                        for e in set_aside],
                    "recent": [r.model_dump(mode="json") for r in log],
                })
                return
            total = sum(pending.values())
            console.print(f"outbox {box.path}")
            if total:
                who = ", ".join(f"{u}: {n}" for u, n in sorted(pending.items()))
                when = f", oldest queued {_ago(oldest)}" if oldest is not None else ""
                console.print(f"[bold]{total}[/bold] call(s) waiting to be replayed ({who}){when}")
            else:
                console.print("nothing waiting: every queued call was replayed")
            for e in set_aside:
                console.print(f"[yellow]set aside[/yellow] {e.user_id}: {_what(e)}: {e.error}")
            if log:
                table = Table("when", "user", "call", "outcome", "detail", title="latest replay outcomes")
                for r in log:
                    detail = " ".join(f"{k}={v}" for k, v in r.detail.items() if k != "decisions")
                    table.add_row(_ago(r.at), r.user_id, r.op, r.outcome, detail[:120])
                console.print(table)
        finally:
            box.close()


@app.command()
def replay(store: StoreOpt = None, as_json: JsonOpt = False) -> None:
    """Apply the queued calls to the graph server now, in order, exactly once. Exits 1 when some are still
    queued (the server is unreachable, or another process is replaying them)."""
    with open_engine(store, embeds=True, outbox_background=False) as engine:  # each call reported here
        box = engine.outbox
        if box is None:
            fail("this store has no outbox: only server stores (bolt://, neo4j://, falkordb://) queue writes")
        started = datetime.now(UTC)
        lines: list[str] = []

        def show(entry: Entry, outcome: str) -> None:
            line = f"{outcome}: {entry.user_id}: {_what(entry)}, queued {_ago(entry.queued_at)}"
            lines.append(line)
            if not as_json:
                console.print(line)

        with reported():
            report = box.replay(show)
            # entries the background replayer applied while this command waited for it are in the log
            earlier = [r for r in box.queue.log(1000) if r.at >= started and r.outcome != "dropped"]
        applied = sum(1 for r in earlier if r.outcome in ("applied", "already applied"))
        refused = sum(1 for r in earlier if r.outcome == "refused")
        if as_json:
            print_json({**report.model_dump(mode="json"), "applied_since_start": applied,
                        "refused_since_start": refused})
        else:
            extra = applied - report.applied - report.already_applied
            if extra > 0:
                console.print(f"{extra} call(s) were applied by the background replayer meanwhile")
            for r in earlier:
                if r.outcome == "refused":
                    console.print(f"[yellow]set aside[/yellow] {r.user_id}: {r.op}: {r.detail.get('error')}")
            console.print(
                f"replayed {applied} call(s) ({report.already_applied} found applied before a crash), "
                f"set aside {refused}, still queued {report.remaining}"
            )
            if report.waiting:
                console.print(f"[yellow]stopped:[/yellow] {report.waiting}")
        if report.remaining:
            raise typer.Exit(1)


@app.command()
def drop(
    yes: Annotated[bool, typer.Option("--yes", help="Really discard them (they are never applied).")] = False,
    user: Annotated[str | None, typer.Option("--user", "-u", help="Only this user's calls.")] = None,
    refused: Annotated[bool, typer.Option("--refused", help="Only the calls set aside as refused.")] = False,
    store: StoreOpt = None,
) -> None:
    """Discard queued calls without applying them (each is logged as dropped)."""
    with reported():
        box = _open(store)
        if box is None:
            console.print("nothing to drop: nothing was ever queued for this store")
            return
        try:
            counts = box.counts()
            states = ["refused"] if refused else ["pending", "refused"]
            n = sum(c for state in states for u, c in counts.get(state, {}).items() if user in (None, u))
            if not yes:
                fail(f"this would discard {n} queued call(s), which are then never written; "
                     "add --yes to do it", code=2)
            dropped = box.drop(user_id=user, refused_only=refused)
            console.print(f"dropped {dropped} queued call(s)")
        finally:
            box.close()
