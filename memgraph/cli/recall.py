"""Finding memories: `recall` (the cascade through the graph, what an agent sees) and `search` (vector + full
text, no graph)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from memgraph.cli.common import (
    JsonOpt,
    StoreOpt,
    UserOpt,
    busy,
    check_user,
    console,
    err_console,
    memory_table,
    open_engine,
    print_json,
)
from memgraph.cli.trace import how_found, score_text, shared_notes, trace_line

if TYPE_CHECKING:
    from memgraph.engine import MemoryEngine
    from memgraph.models import RecallResult


def recall(
    query: Annotated[str, typer.Argument(help="The context to recall memories for (a question, a task).")],
    user: UserOpt,
    k: Annotated[int, typer.Option("-k", "--top-k", help="Memories to return at most.")] = 5,
    budget: Annotated[int, typer.Option("--budget", help="Token budget (model tokenizer).")] = 2000,
    mode: Annotated[
        str, typer.Option(help="cascade (graph), hybrid (vector+text), semantic (vector) or lexical (text).")
    ] = "cascade",
    kind: Annotated[
        list[str] | None, typer.Option("--kind", metavar="<kind>", help="Only these kinds (repeatable).")
    ] = None,
    file: Annotated[
        list[str] | None,
        typer.Option(
            "--file", "-f", metavar="<path>", help="A file you work on: project-scoped memories whose globs match it."
        ),
    ] = None,
    archived: Annotated[bool, typer.Option("--archived", help="Also recall archived memories.")] = False,
    session: Annotated[
        str | None,
        typer.Option("--session", help="Your session: its first recall also brings the latest session summary."),
    ] = None,
    include_old: Annotated[
        bool, typer.Option("--include-old", help="Also session summaries older than the episode window.")
    ] = False,
    prompt: Annotated[bool, typer.Option("--prompt", help="Print the `<memory>` block for a prompt.")] = False,
    trace: Annotated[bool, typer.Option("--trace", help="Explain how each memory was found and scored.")] = False,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Cascade retrieval: the memories an agent should see for QUERY, in prompt order, within the budget."""
    preload = (user, mode == "cascade", mode != "semantic")
    with open_engine(store, embeds=True, preload=preload, counts_tokens=True) as engine:
        with busy("Recalling…"):
            res = engine.recall(
                query, user_id=user, top_k=k, token_budget=budget, mode=mode, kinds=kind, files=file,
                include_archived=archived, session_id=session, include_old=include_old,
            )
        try:
            _print_recall(engine, res, user, as_json=as_json, prompt=prompt, trace=trace)
        finally:
            # the recall's maintenance (use counts, gap checks) runs on a worker thread meanwhile: printing
            # overlaps it instead of waiting for it first; it must still be written before the process ends
            engine.flush()


def _print_recall(
    engine: MemoryEngine, res: RecallResult, user: str, *, as_json: bool, prompt: bool, trace: bool
) -> None:
    for w in res.warnings:
        err_console.print(f"[yellow]warning:[/yellow] {w}")
    if as_json:
        print_json(res.model_dump(mode="json", exclude={"memories": {"__all__": {"embedding"}}}))
        return
    if prompt:
        sys.stdout.write(res.to_prompt() + "\n")
        return
    if not res.memories:
        check_user(engine, user)
        console.print("nothing recalled (every memory is below the relevance cut; try --mode lexical)")
        return
    table = Table(
        title=f"recall ({res.mode}): {res.total_tokens} tokens, {res.budget_used:.0%} of budget, in prompt order "
        "(sections first, then score)"
    )
    for col in ("#", "score", "section", "kind", "content", "how"):
        table.add_column(col, overflow="fold")
    rows = {mem.id: i for i, mem in enumerate(res.memories, start=1)}
    for i, (mem, tr) in enumerate(zip(res.memories, res.trace, strict=True), start=1):
        content = mem.content if len(mem.content) < 200 else mem.content[:197] + "..."
        # the memory's text as it is: a Text is not read as console markup ("[x]") or emoji codes (":x:")
        table.add_row(str(i), score_text(tr), tr.section, mem.kind.value, Text(content), how_found(mem, tr, rows))
    console.print(table)
    if trace:
        common = shared_notes(res.trace)
        for i, tr in enumerate(res.trace, start=1):
            console.print(trace_line(i, tr))
            for note in tr.notes:
                if note not in common:
                    console.print(f"    {escape(note)}")
        for note in common:
            console.print(escape(note))
        if res.cue_tags:
            console.print(f"query named tags: {', '.join(res.cue_tags)}")


def search(
    query: Annotated[str, typer.Argument(help="What to look for.")],
    user: UserOpt,
    k: Annotated[int, typer.Option("-k", help="How many hits.")] = 10,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Vector + full-text search of one user's memories (no graph expansion; see `recall`)."""
    with open_engine(store, embeds=True, preload=(user, False, True)) as engine:
        with busy("Searching…"):
            hits = engine.search(query, user_id=user, k=k)
        if as_json:
            print_json([h.model_dump(mode="json", exclude={"memory": {"embedding"}}) for h in hits])
        elif not hits:
            check_user(engine, user)
            console.print("no memories matched")
        else:
            console.print(memory_table([(h.score, h.memory) for h in hits]))
