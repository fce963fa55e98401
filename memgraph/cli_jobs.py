"""The maintenance commands of the `memgraph` CLI: cluster, decay, links, gaps, consolidate, compress,
reindex, export, import, history. Registered on the main typer app by `memgraph.cli`.

Jobs that change data print a PLAN and change nothing unless given `--apply`. Progress bars go to standard
error (only on a terminal), so `--json` output on standard output stays clean for tooling.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TaskID, TextColumn, TimeElapsedColumn
from rich.table import Table

from memgraph.config import Settings
from memgraph.errors import MemgraphError

console = Console()
err_console = Console(stderr=True)

StoreOpt = Annotated[
    str | None,
    typer.Option(
        "--store",
        "-s",
        envvar="MEMGRAPH_STORE",
        help="Where the graph lives: a directory (SQLite), ':memory:', bolt://… (Neo4j) or falkordb://… "
        "(FalkorDB). Default: ~/.memgraph",
        show_default=False,
    ),
]
UserOpt = Annotated[
    str | None,
    typer.Option("--user", "-u", envvar="MEMGRAPH_USER", help="Run for this user.", show_default=False),
]
AllUsersOpt = Annotated[bool, typer.Option("--all-users", help="Run for every user in the store.")]
ApplyOpt = Annotated[bool, typer.Option("--apply", help="Act on the plan. Without it nothing is changed.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the report(s) as JSON (for tooling).")]


@contextmanager
def _engine(store: str | None, *, check_model: bool = True) -> Iterator[Any]:
    from memgraph.engine import MemoryEngine

    try:
        settings = Settings()
        with MemoryEngine.open(store or settings.store, settings=settings, check_model=check_model) as engine:
            yield engine
    except MemgraphError as exc:
        err_console.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(1) from None


@contextmanager
def _progress() -> Iterator[Callable[[str, int, int], None]]:
    """A rich progress bar on standard error, fed by the jobs' (stage, done, total) callbacks."""
    bar = Progress(
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


def _dump(reports: list[Any]) -> None:
    data = [r.model_dump(mode="json") for r in reports]
    sys.stdout.write(json.dumps(data[0] if len(data) == 1 else data, indent=2, ensure_ascii=False) + "\n")


def _banner(report: Any) -> None:
    who = f" for {report.user_id}" if report.user_id else ""
    if report.applied:
        console.print(f"[bold green]APPLIED[/bold green] {report.job}{who}")
    else:
        console.print(
            f"[bold yellow]PLAN[/bold yellow] {report.job}{who} (dry run: nothing changed; "
            "run again with --apply to act)"
        )
    if report.skipped:
        console.print(f"  skipped: {report.skipped}")
    for w in report.warnings:
        console.print(f"  [yellow]warning:[/yellow] {w}")
    if report.invalid_embeddings:
        console.print(
            f"  [yellow]{len(report.invalid_embeddings)} memories with NaN/inf embeddings skipped[/yellow]"
        )


def _counts_line(report: Any, names: list[str]) -> None:
    console.print("  " + " · ".join(f"{n.replace('_', ' ')}: {getattr(report, n)}" for n in names))


def _run_per_user(
    store: str | None,
    user: str | None,
    all_users: bool,
    as_json: bool,
    call: Callable[[Any, str, Callable[[str, int, int], None]], Any],
    render: Callable[[Any], None],
    *,
    check_model: bool = True,
) -> list[Any]:
    with _engine(store, check_model=check_model) as engine:
        try:
            users = engine.jobs.users(user, all_users=all_users)
        except MemgraphError as exc:
            err_console.print(f"[red]error:[/red] {exc}")
            raise typer.Exit(2) from None
        if not users:
            err_console.print("the store has no users: nothing to do")
        reports = []
        with _progress() as progress:
            for u in users:
                reports.append(call(engine, u, progress))
        if as_json:
            _dump(reports)
        else:
            for r in reports:
                _banner(r)
                render(r)
        return reports


def register(app: typer.Typer) -> None:
    """Add the job commands to the main app."""

    @app.command(rich_help_panel="Maintenance jobs")
    def cluster(
        user: UserOpt = None,
        all_users: AllUsersOpt = False,
        apply: ApplyOpt = False,
        force: Annotated[bool, typer.Option("--force", help="Recluster even if nothing changed.")] = False,
        store: StoreOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Group each user's memories into clusters (PCA + HDBSCAN) with ids stable across runs."""

        def render(r: Any) -> None:
            _counts_line(r, ["memories", "clustered", "noise"])
            table = Table("cluster", "status", "size", "label")
            for c in r.clusters:
                table.add_row(c.id, c.status, str(c.size), c.label)
            if r.clusters:
                console.print(table)
            if r.removed:
                console.print(f"  removed clusters: {', '.join(r.removed)}")

        _run_per_user(
            store,
            user,
            all_users,
            as_json,
            lambda e, u, p: e.jobs.cluster(u, apply=apply, force=force, progress=p),
            render,
        )

    @app.command(rich_help_panel="Maintenance jobs")
    def decay(
        user: UserOpt = None,
        all_users: AllUsersOpt = False,
        apply: ApplyOpt = False,
        prune: Annotated[
            bool,
            typer.Option("--prune", help="With --apply: delete prune candidates (default: archive them)."),
        ] = False,
        store: StoreOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Recompute confidence by age, kind half-life, use and trust; archive the faded (prune: delete)."""
        if prune and not apply:
            err_console.print("[red]error:[/red] --prune deletes memories and needs --apply")
            raise typer.Exit(2)

        def render(r: Any) -> None:
            _counts_line(
                r, ["evaluated", "changed", "archived", "prune_candidates", "pruned", "pinned_skipped"]
            )
            table = Table("memory", "kind", "age (d)", "old", "new", "action")
            for c in r.examples[:10]:
                action = "prune" if c.prune else "archive" if c.archive else ""
                table.add_row(c.id, c.kind, f"{c.age_days:.1f}", f"{c.old:.3f}", f"{c.new:.3f}", action)
            if r.examples:
                console.print(table)

        _run_per_user(
            store,
            user,
            all_users,
            as_json,
            lambda e, u, p: e.jobs.decay(u, apply=apply, prune=prune, progress=p),
            render,
        )

    @app.command(rich_help_panel="Maintenance jobs")
    def links(
        user: UserOpt = None,
        all_users: AllUsersOpt = False,
        apply: ApplyOpt = False,
        store: StoreOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Discover RelatesTo links between near neighbours; age links no longer supported."""

        def render(r: Any) -> None:
            _counts_line(r, ["memories", "pairs_found", "created", "updated", "weakened", "dropped"])
            g = r.graph
            console.print(
                f"  graph: {g.nodes} memories, {g.edges} links, {g.components} components "
                f"(largest {g.largest_component}), {g.isolated} isolated, bridges {g.bridges}"
            )

        _run_per_user(
            store, user, all_users, as_json, lambda e, u, p: e.jobs.links(u, apply=apply, progress=p), render
        )

    @app.command(rich_help_panel="Maintenance jobs")
    def gaps(
        user: UserOpt = None,
        all_users: AllUsersOpt = False,
        store: StoreOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Report where memory is thin (read-only).

        Recall misses, topics asked repeatedly with nothing stored, tiny or sparse clusters, orphan tags
        and memories with no edges."""

        def render(r: Any) -> None:
            console.print(f"[bold]gaps[/bold] for {r.user_id}")
            table = Table("query", "count", "answered by")
            for g in r.misses:
                table.add_row(g.query, str(g.count), g.answered_by or "")
            if r.misses:
                console.print(table)
            if r.repeated_unanswered:
                console.print(
                    "  asked repeatedly, nothing stored: " + "; ".join(g.query for g in r.repeated_unanswered)
                )
            console.print(
                f"  tiny clusters: {len(r.tiny_clusters)} · sparse clusters: {len(r.sparse_clusters)} · "
                f"orphan tags: {', '.join(r.orphan_tags) or 0} · unconnected memories: {r.unconnected_total}"
            )

        with _engine(store) as engine:
            try:
                users = engine.jobs.users(user, all_users=all_users)
                with _progress() as progress:
                    reports = [engine.jobs.gaps(u, progress=progress) for u in users]
            except MemgraphError as exc:
                err_console.print(f"[red]error:[/red] {exc}")
                raise typer.Exit(1) from None
            if as_json:
                _dump(reports)
            else:
                for r in reports:
                    render(r)

    @app.command(rich_help_panel="Maintenance jobs")
    def consolidate(
        user: UserOpt = None,
        all_users: AllUsersOpt = False,
        apply: ApplyOpt = False,
        store: StoreOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Merge near-duplicates and duplicate tags; list open contradictions.

        The strongest memory of a group is kept and gets the others' edges and tags; the others become
        inactive with a DerivedFrom link to them. Nothing is deleted."""

        def render(r: Any) -> None:
            _counts_line(r, ["memories", "merged_memories", "moved_edges", "moved_tags"])
            for g in r.groups[:20]:
                console.print(f"  keep {g.keep}: {g.keep_content[:80]}")
                for m in g.merged:
                    console.print(f"    merge {m.id} ({m.similarity:.3f}): {m.content[:70]}")
            for t in r.tag_merges:
                console.print(f"  tag {t.canonical!r} <- {', '.join(repr(v) for v in t.variants)}")
            for c in r.contradictions:
                console.print(
                    f"  [red]contradiction[/red] {c.a} <-> {c.b}: "
                    f"{c.a_content[:50]!r} vs {c.b_content[:50]!r}"
                )

        _run_per_user(
            store,
            user,
            all_users,
            as_json,
            lambda e, u, p: e.jobs.consolidate(u, apply=apply, progress=p),
            render,
        )

    @app.command(rich_help_panel="Maintenance jobs")
    def compress(
        user: UserOpt = None,
        all_users: AllUsersOpt = False,
        apply: ApplyOpt = False,
        store: StoreOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Summarise old episodic sessions into summary memories.

        Sessions older than MEMGRAPH_COMPRESS_AFTER_DAYS get one extractive summary (no LLM) with
        DerivedFrom edges to every event; the events are kept but no longer recalled."""

        def render(r: Any) -> None:
            _counts_line(
                r, ["summaries_written", "events_compressed", "recent_sessions", "events_without_session"]
            )
            for sp in r.sessions[:20]:
                console.print(f"  session {sp.session_id} ({sp.events} events): {sp.summary[:100]}")

        _run_per_user(
            store,
            user,
            all_users,
            as_json,
            lambda e, u, p: e.jobs.compress(u, apply=apply, progress=p),
            render,
        )

    @app.command(rich_help_panel="Maintenance jobs")
    def reindex(
        user: UserOpt = None,
        all_users: AllUsersOpt = False,
        apply: ApplyOpt = False,
        force: Annotated[bool, typer.Option("--force", help="Re-embed every memory.")] = False,
        store: StoreOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Re-embed memories whose embedding is missing, NaN or from another model.

        Works on a store built with another model of the same dimension; once every memory is re-embedded
        the store records the new model."""

        def render(r: Any) -> None:
            _counts_line(r, ["checked", "missing", "invalid", "to_reembed", "reembedded"])
            if r.other_model:
                console.print(f"  from other models: {r.other_model}")

        _run_per_user(
            store,
            user,
            all_users,
            as_json,
            lambda e, u, p: e.jobs.reindex(u, apply=apply, force=force, progress=p),
            render,
            check_model=False,
        )

    @app.command(rich_help_panel="Maintenance jobs")
    def export(
        output: Annotated[str, typer.Argument(help="File to write ('-' for standard output, jsonl only).")],
        user: UserOpt = None,
        all_users: AllUsersOpt = False,
        fmt: Annotated[
            str, typer.Option("--format", "-f", help="jsonl (lossless backup) or graphml (Gephi, yEd).")
        ] = "jsonl",
        store: StoreOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Export the graph: JSON Lines with the embedding model recorded (lossless), or GraphML."""
        if user is None and not all_users:
            all_users = True
        with _engine(store) as engine:
            try:
                with _progress() as progress:
                    report = engine.jobs.export(
                        output, user_id=user, all_users=all_users, format=fmt, progress=progress
                    )
            except MemgraphError as exc:
                err_console.print(f"[red]error:[/red] {exc}")
                raise typer.Exit(1) from None
            if as_json:
                _dump([report])
            elif output != "-":
                console.print(f"exported {report.records} to {output} ({report.format})")

    @app.command("import", rich_help_panel="Maintenance jobs")
    def import_(
        path: Annotated[str, typer.Argument(help="A file written by `memgraph export`.")],
        reembed: Annotated[
            bool, typer.Option("--reembed", help="Re-embed with this store's model when the file's differs.")
        ] = False,
        store: StoreOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Import a file written by `memgraph export`.

        The file is validated completely first: a truncated or newer-format file is refused and nothing
        is written. Memories are upserted by id, so importing twice is harmless."""
        with _engine(store) as engine:
            try:
                with _progress() as progress:
                    report = engine.jobs.import_(path, reembed=reembed, progress=progress)
            except MemgraphError as exc:
                err_console.print(f"[red]error:[/red] {exc}")
                raise typer.Exit(1) from None
            if as_json:
                _dump([report])
            else:
                console.print(f"imported {report.records} for {', '.join(report.users)} from {path}")
                for w in report.warnings:
                    console.print(f"  [yellow]warning:[/yellow] {w}")

    @app.command(rich_help_panel="Maintenance jobs")
    def history(
        limit: Annotated[int, typer.Option(help="How many runs.")] = 20,
        store: StoreOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Applied job runs, newest first (interrupted ones included)."""
        with _engine(store) as engine:
            runs = engine.jobs.history(limit)
            if as_json:
                rows = [{**r.model_dump(mode="json"), "status": engine.jobs.status_of(r)} for r in runs]
                sys.stdout.write(json.dumps(rows, indent=2) + "\n")
                return
            table = Table("started", "job", "user", "status", "counts")
            for r in runs:
                counts = " ".join(
                    f"{k}={v}" for k, v in r.counts.items() if k != "status" and v not in (0, None)
                )
                table.add_row(
                    r.started_at.strftime("%Y-%m-%d %H:%M:%S"),
                    r.job,
                    r.user_id or "(all)",
                    engine.jobs.status_of(r),
                    counts[:200],
                )
            console.print(table if runs else "no job has been applied to this store yet")
