"""The maintenance commands: cluster, decay, links, gaps, consolidate, compress, reindex, history (export and
import live in `memgraph.cli.ingest`).

Jobs that change data print a PLAN and change nothing unless given `--apply`. Progress bars go to standard
error (only on a terminal), so `--json` output on standard output stays clean for tooling.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, TypeVar

import typer
from rich.table import Table

from memgraph.cli.common import (
    AllUsersOpt,
    ApplyOpt,
    JobUserOpt,
    Progress,
    ReportJsonOpt,
    StoreOpt,
    console,
    err_console,
    fail,
    open_engine,
    print_reports,
    progress_bar,
    reported,
)

if TYPE_CHECKING:
    from memgraph.engine import MemoryEngine
    from memgraph.jobs import (
        ClusterReport,
        CompressReport,
        ConsolidateReport,
        DecayReport,
        GapsReport,
        JobReport,
        LinksReport,
        ReindexReport,
    )

R = TypeVar("R", bound="JobReport")


def _banner(report: JobReport) -> None:
    """PLAN or APPLIED, for whom, and why a job did nothing or skipped some memories."""
    who = f" for {report.user_id}" if report.user_id else ""
    if report.skipped:
        console.print(f"[bold yellow]SKIPPED[/bold yellow] {report.job}{who}: {report.skipped} (nothing changed)")
    elif report.applied:
        console.print(f"[bold green]APPLIED[/bold green] {report.job}{who}")
    else:
        console.print(
            f"[bold yellow]PLAN[/bold yellow] {report.job}{who} (dry run: nothing changed; "
            "run again with --apply to act)"
        )
    for w in report.warnings:
        console.print(f"  [yellow]warning:[/yellow] {w}")
    if report.invalid_embeddings:
        console.print(
            f"  [yellow]{len(report.invalid_embeddings)} memories with NaN/inf embeddings skipped[/yellow]"
        )


def _counts_line(report: JobReport, names: list[str]) -> None:
    console.print("  " + " · ".join(f"{n.replace('_', ' ')}: {getattr(report, n)}" for n in names))


def _run_per_user(
    store: str | None,
    user: str | None,
    all_users: bool,
    as_json: bool,
    call: Callable[[MemoryEngine, str, Progress], R],
    render: Callable[[R], None],
    *,
    check_model: bool = True,
) -> list[R]:
    """Run one job for --user or every user (--all-users) and print each report (or all of them as JSON)."""
    with open_engine(store, check_model=check_model) as engine:
        with reported(2):
            users = engine.jobs.users(user, all_users=all_users)
        if not users:
            err_console.print("the store has no users: nothing to do")
        reports = []
        with progress_bar() as progress:
            for u in users:
                reports.append(call(engine, u, progress))
        if as_json:
            print_reports(reports)
        else:
            for r in reports:
                _banner(r)
                render(r)
        return reports


def cluster(
    user: JobUserOpt = None,
    all_users: AllUsersOpt = False,
    apply: ApplyOpt = False,
    force: Annotated[bool, typer.Option("--force", help="Recluster even if nothing changed.")] = False,
    store: StoreOpt = None,
    as_json: ReportJsonOpt = False,
) -> None:
    """Group each user's memories into clusters (PCA + HDBSCAN) with ids stable across runs."""

    def render(r: ClusterReport) -> None:
        if not r.skipped:
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


def decay(
    user: JobUserOpt = None,
    all_users: AllUsersOpt = False,
    apply: ApplyOpt = False,
    prune: Annotated[
        bool,
        typer.Option("--prune", help="With --apply: delete prune candidates (default: archive them)."),
    ] = False,
    store: StoreOpt = None,
    as_json: ReportJsonOpt = False,
) -> None:
    """Recompute confidence by age, kind half-life, use and trust; archive the faded (prune: delete)."""
    if prune and not apply:
        fail("--prune deletes memories and needs --apply", 2)

    def render(r: DecayReport) -> None:
        _counts_line(
            r, ["evaluated", "changed", "archived", "prune_candidates", "pruned", "pinned_skipped"]
        )
        if not r.changed and r.rows_planned:
            console.print(
                f"  no visible change: {r.rows_planned} memories' confidence moves by less than "
                "decay_min_reported_change (--apply still records the exact values)"
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


def links(
    user: JobUserOpt = None,
    all_users: AllUsersOpt = False,
    apply: ApplyOpt = False,
    store: StoreOpt = None,
    as_json: ReportJsonOpt = False,
) -> None:
    """Discover RelatesTo links between near neighbours; age links no longer supported."""

    def render(r: LinksReport) -> None:
        _counts_line(r, ["memories", "pairs_found", "created", "updated", "weakened", "dropped"])
        g = r.graph
        console.print(
            f"  graph: {g.nodes} memories, {g.edges} links, {g.components} components "
            f"(largest {g.largest_component}), {g.isolated} isolated, bridges {g.bridges}"
        )

    _run_per_user(
        store, user, all_users, as_json, lambda e, u, p: e.jobs.links(u, apply=apply, progress=p), render
    )


def gaps(
    user: JobUserOpt = None,
    all_users: AllUsersOpt = False,
    store: StoreOpt = None,
    as_json: ReportJsonOpt = False,
) -> None:
    """Report where memory is thin (read-only).

    Recall misses, questions asked repeatedly that no served memory answered, tiny or sparse clusters, orphan tags
    and memories with no edges."""

    def render(r: GapsReport) -> None:
        console.print(f"[bold]gaps[/bold] for {r.user_id}")
        table = Table("query", "count", "answered by")
        for g in r.misses:
            table.add_row(g.query, str(g.count), g.answered_by or "")
        if r.misses:
            console.print(table)
        if r.repeated_unanswered:
            console.print(
                "  asked repeatedly, no served memory answered: " + "; ".join(g.query for g in r.repeated_unanswered)
            )
        console.print(
            f"  tiny clusters: {len(r.tiny_clusters)} · sparse clusters: {len(r.sparse_clusters)} · "
            f"orphan tags: {', '.join(r.orphan_tags) or 0} · unconnected memories: {r.unconnected_total}"
        )

    with open_engine(store) as engine:  # a typed error here (unknown user) is reported with exit code 1
        users = engine.jobs.users(user, all_users=all_users)
        with progress_bar() as progress:
            reports = [engine.jobs.gaps(u, progress=progress) for u in users]
        if as_json:
            print_reports(reports)
        else:
            for r in reports:
                render(r)


def consolidate(
    user: JobUserOpt = None,
    all_users: AllUsersOpt = False,
    apply: ApplyOpt = False,
    store: StoreOpt = None,
    as_json: ReportJsonOpt = False,
) -> None:
    """Merge near-duplicates and duplicate tags; list open contradictions and near-duplicate rules.

    The strongest memory of a group is kept and gets the others' edges and tags; the others become
    inactive with a DerivedFrom link to them. Nothing is deleted."""

    def render(r: ConsolidateReport) -> None:
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
        for p in r.near_duplicate_rules[:20]:
            console.print(
                f"  [yellow]similar {p.kind}s[/yellow] ({p.similarity:.2f}) {p.a} <-> {p.b}: "
                f"{p.a_content[:50]!r} vs {p.b_content[:50]!r}"
            )

    _run_per_user(
        store,
        user,
        all_users,
        as_json,
        lambda e, u, p: e.jobs.consolidate(u, apply=apply, progress=p),
        render,
    )


def compress(
    user: JobUserOpt = None,
    all_users: AllUsersOpt = False,
    apply: ApplyOpt = False,
    store: StoreOpt = None,
    as_json: ReportJsonOpt = False,
) -> None:
    """Summarise old episodic sessions into summary memories.

    Sessions older than MEMGRAPH_COMPRESS_AFTER_DAYS get one extractive summary (no LLM) with
    DerivedFrom edges to every event; the events are kept but no longer recalled."""

    def render(r: CompressReport) -> None:
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


def reindex(
    user: JobUserOpt = None,
    all_users: AllUsersOpt = False,
    apply: ApplyOpt = False,
    force: Annotated[bool, typer.Option("--force", help="Re-embed every memory.")] = False,
    store: StoreOpt = None,
    as_json: ReportJsonOpt = False,
) -> None:
    """Re-embed memories whose embedding is missing, NaN or from another model.

    Works on a store built with another model of the same dimension; once every memory is re-embedded
    the store records the new model."""

    def render(r: ReindexReport) -> None:
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


def history(
    limit: Annotated[int, typer.Option(help="How many runs.")] = 20,
    store: StoreOpt = None,
    as_json: ReportJsonOpt = False,
) -> None:
    """Applied job runs, newest first (interrupted ones included)."""
    with open_engine(store) as engine:
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
