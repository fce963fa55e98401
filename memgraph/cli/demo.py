"""`memgraph demo`: the main job end to end on a bundled conversation (ingest, recall, maintenance plans)."""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any

import typer

from memgraph.cli.common import StoreOpt, console, open_engine
from memgraph.cli.explain import decision_lines, engine_lookup

DEMO_QUESTIONS = (
    "When is the PostgreSQL cutover planned?",
    "How do I deploy the ledger service?",
    "Can I run alembic autogenerate against production?",
    "Who owns the fraud rules engine?",
)


def demo(
    store: StoreOpt = None,
    user: Annotated[str, typer.Option("--user", "-u", help="Owner of the demo memories.")] = "demo",
) -> None:
    """Run the main job end to end on a bundled conversation: ingest three sessions (secret filter, importance,
    dedup, supersede), recall with the cascade (prompt block and trace), then plan the maintenance jobs."""
    from importlib.resources import files as package_files

    turns = [json.loads(line) for line in package_files("memgraph").joinpath("data/demo_conversation.jsonl")
             .read_text(encoding="utf-8").splitlines() if line.strip()]
    sessions: dict[str, list[dict[str, Any]]] = {}
    for turn in turns:
        sessions.setdefault(turn["session_id"], []).append(turn)
    with open_engine(store, embeds=True) as engine:
        where = engine.settings.store
        lookup = engine_lookup(engine, user)
        console.rule(f"[bold]1. ingest[/bold] {len(turns)} turns in {len(sessions)} sessions -> {where}")
        for sid, session_turns in sessions.items():
            report = engine.ingest_many(
                [{"text": f"{t['speaker']}: {t['text']}", "session_id": sid, "created_at": t["timestamp"]}
                 for t in session_turns],
                user_id=user,
            )
            console.print(
                f"session {sid}: {len(report.created)} created, {len(report.reinforced)} reinforced, "
                f"{len(report.superseded)} superseded, {len(report.contradicted)} contradicted, "
                f"{len(report.dropped)} dropped"
            )
            for (head, *details), d in zip(decision_lines(report, lookup), report.decisions, strict=False):
                if d.action in ("superseded", "contradicted"):
                    console.print(f"   {head}")
                    for line in details:
                        console.print(f"     {line}")
        for question in DEMO_QUESTIONS:
            console.rule(f"[bold]2. recall[/bold] {question}")
            res = engine.recall(question, user_id=user, top_k=3)
            engine.flush()  # post-recall maintenance (co-recall links) before the next question: repeatable
            sys.stdout.write(res.to_prompt() + "\n")
            for tr in res.trace:
                path = " -> ".join(f"{st.relation}" for st in tr.path) or "seed"
                console.print(f"   [dim]{tr.memory_id}: {tr.section}, {path}, score {tr.final_score:.3f}[/dim]")
        engine.flush()
        jobs = engine.jobs
        console.rule("[bold]3. maintenance plans[/bold] (dry run: nothing changes without --apply)")
        for name in ("cluster", "decay", "links", "consolidate"):
            plan = getattr(jobs, name)(user)
            counts = ", ".join(f"{k} {v}" for k, v in plan.counts().items() if v)
            console.print(f"{name}: {plan.skipped or counts or 'nothing to do'}")
        st = engine.stats(user_id=user)
        console.rule("[bold]4. the graph[/bold]")
        console.print(f"{st.memories} memories ({st.active} active), {st.tags} tags, edges {st.edges}")
        console.print("next: `memgraph recall \"...\" --user demo --trace`, `memgraph cluster --user demo --apply`")
