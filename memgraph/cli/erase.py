"""Erasure commands: `memgraph erase ID... --user U` and `memgraph erase-user --user U --yes`.

Hard deletes, unlike `forget`: the memories, what derives from them and their bytes in the store's files are
gone (memgraph/jobs/erase.py says exactly what is removed, kept and rewritten).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from memgraph.cli.common import JsonOpt, StoreOpt, UserOpt, console, err_console, fail, open_engine, print_json

if TYPE_CHECKING:
    from memgraph.jobs.erase import EraseReport

#: Report fields shown in the summary line, in order, when not zero.
_SHOWN = (
    ("memories", "memories"),
    ("merged_copies", "merged copies"),
    ("summaries_erased", "summaries erased"),
    ("summaries_rewritten", "summaries rewritten"),
    ("evidence_uncompressed", "evidence served again"),
    ("supersede_bridges", "supersede links joined"),
    ("metadata_cleaned", "metadata cleaned"),
    ("tags", "tags"),
    ("clusters", "clusters"),
    ("gaps", "gaps"),
    ("job_runs", "job records"),
    ("cache_entries", "cache entries"),
)


def _print(report: EraseReport, as_json: bool) -> None:
    if as_json:
        print_json(report.model_dump(mode="json"))
        return
    parts = [f"{getattr(report, f)} {label}" for f, label in _SHOWN if getattr(report, f)]
    parts += [f"{n} {k.replace('_', ' ')}" for k, n in sorted(report.other.items())]
    console.print("erased: " + (", ".join(parts) or "nothing"))
    for mid in report.not_found:
        err_console.print(f"[yellow]not found:[/yellow] {mid} (no memory with this id for this user)")
    for warning in report.warnings:
        err_console.print(f"[yellow]warning:[/yellow] {warning}")


def erase(
    memory_ids: Annotated[list[str], typer.Argument(help="Ids of the memories to erase.", show_default=False)],
    user: UserOpt,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Erase memories for good (forget is the soft delete): the memories, the summaries built only from them,
    their tags, clusters and cache entries; summaries with other evidence lose what they quoted of them. Then
    the store's files are rewritten so the bytes are gone (Neo4j keeps transaction logs: see the README).
    Exits 1 when none of the ids was found."""
    with open_engine(store) as engine:
        report = engine.erase(memory_ids, user_id=user)
    _print(report, as_json)
    if not report.memories:
        raise typer.Exit(1)


def erase_user(
    user: UserOpt,
    yes: Annotated[bool, typer.Option("--yes", help="Confirm: everything of this user is erased for good.")] = False,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Erase everything stored for one user: memories, tags, clusters, gaps, job history, open agent session
    buffers and cache entries, then rewrite the store's files. Irreversible: needs --yes."""
    if not yes:
        fail("erase-user erases every memory of this user for good; add --yes to confirm", code=2)
    with open_engine(store) as engine:
        report = engine.erase_user(user)
    _print(report, as_json)
