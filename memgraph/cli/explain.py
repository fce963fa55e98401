"""How the CLI tells people what a write did: one line per decision (created, reinforced, superseded,
contradicted, unchanged, dropped) with its reason, and what was redacted. `remember` and `ingest` both print
through here, so a decision reads the same wherever it is shown."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rich.markup import escape

from memgraph.errors import MemgraphError
from memgraph.ingest.report import Dropped, IngestDecision, IngestReport
from memgraph.models import validate_owner

if TYPE_CHECKING:
    from memgraph.engine import MemoryEngine

#: memory id -> its (already secret-filtered) text, for naming the memory a decision acted on.
Lookup = Callable[[list[str]], dict[str, str]]

_VERB = {
    "created": "[green]created[/green]",
    "reinforced": "[cyan]reinforced[/cyan]",
    "superseded": "[yellow]superseded[/yellow]",
    "contradicted": "[magenta]contradicts[/magenta]",
    "unchanged": "[dim]unchanged[/dim]",
    "queued": "[yellow]queued[/yellow]",
}


def clip(text: str, n: int = 70) -> str:
    """One line, at most `n` characters, for quoting a memory."""
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"


def stored_id(d: IngestDecision) -> str:
    """The memory a decision resolved to: the new memory, or the stored one it repeated (reinforced, unchanged)."""
    return d.target_id if d.action in ("reinforced", "unchanged") and d.target_id else d.memory_id


def decision_lines(report: IngestReport, lookup: Lookup | None = None) -> list[list[str]]:
    """Per decision and per dropped chunk, in input order: a headline and its detail lines (what it replaced or
    contradicts, quoted when `lookup` can read it, and why)."""
    # what each new memory says is quoted too: an id alone does not show how a text was cut into memories
    targets = sorted({d.target_id for d in report.decisions if d.target_id} | {stored_id(d) for d in report.decisions})
    quoted = lookup(targets) if (lookup and targets) else {}
    several = report.items > 1 or report.chunks > 1
    out = [_decision(d, quoted, several=several) for d in report.decisions]
    out += [[_dropped_line(d)] for d in report.dropped]
    out += [[f"[dim]archived[/dim] {mid}: the least used rule over the per-user cap (kept, archived)"]
            for mid in report.archived]
    kept = lookup(report.remainders) if (lookup and report.remainders) else {}
    out += [[f"[green]kept[/green] {mid}" + (f' "{escape(clip(kept[mid]))}"' if mid in kept else ""),
             "why: the part of the replaced memory that did not change, kept as a memory of its own"]
            for mid in report.remainders]
    return out


def _decision(d: IngestDecision, quoted: dict[str, str], *, several: bool) -> list[str]:
    where = f"#{d.item + 1}.{d.chunk + 1} " if several else ""
    kind = f" ({d.kind})" if d.kind else ""
    mid = stored_id(d)
    if d.action == "reinforced":
        head = f"{where}{_VERB['reinforced']} {mid}{kind}: already known, nothing new stored"
    elif d.action == "unchanged":
        head = f"{where}{_VERB['unchanged']} {mid}{kind}: the same text is already stored"
    elif d.action == "queued":
        head = f"{where}{_VERB['queued']} {mid}{kind}: the graph server is unreachable, written when it answers"
    else:
        said = quoted.get(mid)
        head = f"{where}{_VERB['created']} {mid}{kind}" + (f' "{escape(clip(said))}"' if said else "")
    lines = [head]
    if d.target_id and d.action in ("superseded", "contradicted"):
        other = quoted.get(d.target_id)
        what = "replaces" if d.action == "superseded" else "contradicts"
        text = f' "{escape(clip(other))}"' if other else ""
        lines.append(f"{_VERB[d.action] if d.action == 'superseded' else what} {d.target_id}{text}"
                     + (" (both kept, flagged)" if d.action != "superseded" else
                        f" (current until {d.valid_from})" if d.valid_from else " (now inactive)"))
    if d.reason and d.action != "created":
        lines.append(f"why: {escape(d.reason)}")
    return lines


def _dropped_line(d: Dropped) -> str:
    where = f"#{d.item + 1}" + (f".{d.chunk + 1}" if d.chunk is not None else "")
    text = f' "{escape(d.preview)}"' if d.preview else ""
    detail = f": {escape(d.detail)}" if d.detail else ""
    return f"{where} [red]dropped[/red] ({d.reason.value}){text}{detail}"


def engine_lookup(engine: MemoryEngine, user_id: str) -> Lookup:
    """A `Lookup` reading the user's memories through the engine (ids it cannot read are left out): one store
    read for all of them (an ingest quotes every memory it made: on Neo4j one round trip each, 8-60 of them),
    with what the outbox still holds for each laid over it as `engine.get` does; one by one through
    `engine.get` when that read fails (a server that does not answer)."""

    def lookup(ids: list[str]) -> dict[str, str]:
        box = engine.outbox
        try:
            owner = validate_owner(user_id)
            found = {m.id: m for m in engine.store.get_memories(owner, list(dict.fromkeys(ids)))}
        except MemgraphError:
            return one_by_one(ids)
        out = {}
        for mid in ids:
            mem = box.overlay(owner, mid, found.get(mid)) if box is not None else found.get(mid)
            if mem is not None:
                out[mid] = mem.content
        return out

    def one_by_one(ids: list[str]) -> dict[str, str]:
        out = {}
        for mid in ids:
            try:
                out[mid] = engine.get(mid, user_id=user_id).content
            except MemgraphError:
                continue
        return out

    return lookup


def redaction_line(redactions: dict[str, int]) -> str | None:
    """What the secret filter replaced, by type (never the secret)."""
    if not redactions:
        return None
    kinds = ", ".join(f"{n} {k}" for k, n in sorted(redactions.items()))
    marks = ", ".join(escape(f"[REDACTED:{k}]") for k in sorted(redactions))
    return f"[yellow]redacted[/yellow] {kinds}: the stored text holds {marks} in their place"
