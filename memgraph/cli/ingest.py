"""What comes in and goes out in bulk: `ingest` (text or JSON Lines through the write path), `export` and
`import` (the whole graph, lossless JSON Lines or GraphML)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated, cast

import typer

from memgraph.cli.common import (
    AllUsersOpt,
    JobUserOpt,
    JsonOpt,
    ReportJsonOpt,
    StoreOpt,
    UserOpt,
    console,
    err_console,
    fail,
    open_engine,
    print_json,
    print_reports,
    progress_bar,
)
from memgraph.cli.explain import Lookup, decision_lines, engine_lookup, redaction_line

if TYPE_CHECKING:
    from memgraph.ingest.report import IngestReport
    from memgraph.jobs import ExportFormat


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
    tag: Annotated[
        list[str] | None, typer.Option("--tag", "-t", metavar="<tag>", help="A tag for every memory (repeatable).")
    ] = None,
    fmt: Annotated[
        str, typer.Option("--format", help="auto, text or jsonl. JSON Lines: one turn a line, "
                          '{"text", "speaker"?, "session_id"?, "timestamp"?, "tags"?}.')
    ] = "auto",
    batch: Annotated[
        int | None, typer.Option(help="Turns per ingest call (one embed batch and one transaction each).")
    ] = None,
    no_speaker_prefix: Annotated[
        bool, typer.Option("--no-speaker-prefix", help="Keep a JSON Lines turn's text as written (by default it "
                           "is prefixed with its speaker: 'Caroline: ...').")
    ] = False,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Run text through the write path: clean, secret filter, chunk, embed, score, classify, tag, reconcile.

    Prints what happened to each chunk and why (reinforced, superseded, contradicted, dropped; and what was
    created when that is at most 20 memories), then a summary line. Secrets are redacted
    (MEMGRAPH_SECRET_POLICY=reject refuses them: under reject, a turn holding one is left out and reported).
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from memgraph.ingest.report import IngestReport
    from memgraph.ingest.sources import looks_like_jsonl, split_plain_text, turns_from_jsonl

    if fmt not in ("auto", "text", "jsonl"):
        fail("--format must be auto, text or jsonl", 2)
    if batch is not None and batch < 1:  # a negative step made no batches: nothing ingested, exit code 0
        fail("--batch must be a positive number of turns", 2)
    try:
        if source == "-":
            raw = sys.stdin.read()
        else:
            with open(source, encoding="utf-8", errors="strict") as fh:
                raw = fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        fail(f"cannot read {source}: {exc}")
    with open_engine(store, embeds=True) as engine:  # a typed error from here on is reported with exit code 1
        settings = engine.settings
        if fmt == "jsonl" or (fmt == "auto" and looks_like_jsonl(raw[:10_000])):
            items = list(turns_from_jsonl(raw.splitlines(), session_id=session, speaker_prefix=not no_speaker_prefix))
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
            TimeElapsedColumn(), console=err_console, transient=as_json,
            disable=not batches or not err_console.is_terminal,  # piped output and logs stay clean
        ) as progress:
            task = progress.add_task("ingest", total=len(batches))
            for group in batches:
                part = engine.ingest_many(group, user_id=user, on_secret_reject="drop")
                report = report.merge(part)
                progress.advance(task)
        if as_json:
            print_json(report.model_dump(mode="json"))
        else:
            _print_decisions(report, engine_lookup(engine, user))
            console.print(report.summary())


#: Decision lines `ingest` prints at most (the summary line follows; --json has every decision).
MAX_DECISION_LINES = 200
#: Up to this many created memories are listed one by one; above it they are only counted.
MAX_CREATED_LISTED = 20


def _print_decisions(report: IngestReport, lookup: Lookup) -> None:
    """What happened to each chunk, with the reason: everything that was not a plain creation (reinforced,
    superseded, contradicted, unchanged, dropped), and the creations too when there are few of them."""
    quiet_created = len(report.created) > MAX_CREATED_LISTED
    shown = 0
    entries = decision_lines(report, lookup)
    for (head, *details), action in zip(entries, [d.action for d in report.decisions] + ["dropped"] * len(
        report.dropped
    ), strict=True):
        if quiet_created and action == "created":
            continue
        if shown >= MAX_DECISION_LINES:
            console.print(f"… {len(entries) - shown} more (--json lists every decision)")
            break
        console.print(head)
        for line in details:
            console.print(f"  {line}")
        shown += 1
    redacted = redaction_line(report.redactions)
    if redacted:
        console.print(redacted)


def export(
    output: Annotated[str, typer.Argument(help="File to write ('-' for standard output, jsonl only).")],
    user: JobUserOpt = None,
    all_users: AllUsersOpt = False,
    fmt: Annotated[
        str, typer.Option("--format", help="jsonl (lossless backup) or graphml (Gephi, yEd).")
    ] = "jsonl",
    store: StoreOpt = None,
    as_json: ReportJsonOpt = False,
) -> None:
    """Export the graph: JSON Lines with the embedding model recorded (lossless), or GraphML."""
    if user is None and not all_users:
        all_users = True
    with open_engine(store) as engine:
        with progress_bar() as progress:
            report = engine.jobs.export(
                output,
                user_id=user,
                all_users=all_users,
                format=cast("ExportFormat", fmt),  # the job refuses any other format with a typed error
                progress=progress,
            )
        if as_json:
            print_reports([report])
        elif output != "-":
            console.print(f"exported {report.records} to {output} ({report.format})")


def import_(
    path: Annotated[str, typer.Argument(help="A file written by `memgraph export`.")],
    reembed: Annotated[
        bool, typer.Option("--reembed", help="Re-embed with this store's model when the file's differs.")
    ] = False,
    store: StoreOpt = None,
    as_json: ReportJsonOpt = False,
) -> None:
    """Import a file written by `memgraph export`.

    The file is validated completely first: a truncated or newer-format file is refused and nothing
    is written. Memories are upserted by id, so importing twice is harmless."""
    with open_engine(store) as engine:
        with progress_bar() as progress:
            report = engine.jobs.import_(path, reembed=reembed, progress=progress)
        if as_json:
            print_reports([report])
        else:
            console.print(f"imported {report.records} for {', '.join(report.users)} from {path}")
            for w in report.warnings:
                console.print(f"  [yellow]warning:[/yellow] {w}")
