"""How `memgraph recall` explains a result: the table's "how" column and the `--trace` lines.

Numbers are rounded to three significant digits (a trace is read by people; `--json` keeps full precision),
parts that did not apply are left out (no `cue x1.0 []`), and a graph path is written from where it started
(the seed) to the memory it reached, not as the list of nodes it passed.
"""

from __future__ import annotations

from rich.markup import escape

from memgraph.cli.explain import clip
from memgraph.models import Memory, RecallTrace


def sig(value: float | None) -> str:
    """Three significant digits, or '-' when there is no value."""
    return "-" if value is None else f"{value:.3g}"


def _short(node: str, memory_id: str) -> str:
    """A path node for people: the recalled memory is 'this', memory ids are cut to 10 characters and '…'."""
    if node == memory_id:
        return "this"
    return clip(node, 11) if node.startswith("m_") else node


def path_text(tr: RecallTrace) -> str:
    """`m_1a2b… -[RelatesTo 0.85]-> tag:atlas -[HasTag 0.8]-> this`, from the seed that started the path."""
    if not tr.path:
        return ""
    parts = [_short(tr.from_seed or "seed", tr.memory_id)]
    for step in tr.path:
        hub = f", {step.degree} members" if step.degree else ""
        parts.append(f"-[{step.relation} {step.weight:.2g}{hub}]-> {_short(step.via, tr.memory_id)}")
    return " ".join(parts)


def how_found(mem: Memory, tr: RecallTrace, rows: dict[str, int]) -> str:
    """The table's "how" column: what put this memory in the result. `rows` maps the returned memories' ids
    to their row numbers, so a graph hit names the row of the seed it came from when that seed is shown."""
    section = tr.section
    if section == "weak":
        return f"weak match (cosine {sig(tr.vector_score)})" if tr.vector_score is not None else "weak match"
    if section == "superseded":  # retrieve/bases.py: shown right after the memory that replaced it
        return "superseded by the row above, which says its value as a change of this one or leaves its subject to it"
    how = _found(mem, tr, rows)
    if tr.conflicts_with and tr.conflicts_with in rows:  # retrieve/disputes.py
        how += f"; conflicts with row {rows[tr.conflicts_with]} ({tr.conflict})"
    if tr.valid_from:  # retrieve/validity.py: a change that starts later
        how += f"; holds from {tr.valid_from.isoformat()}"
    if tr.valid_until:
        how += f"; holds until {tr.valid_until.isoformat()}, then replaced"
    return how


def _found(mem: Memory, tr: RecallTrace, rows: dict[str, int]) -> str:
    section = tr.section
    if tr.seed_rank:
        return f"search hit #{tr.seed_rank}"
    if tr.path:
        start = tr.from_seed or ""
        origin = f"row {rows[start]}" if start in rows else _short(start, tr.memory_id)
        hops = len(tr.path)
        return f"graph: {hops} hop{'s' if hops != 1 else ''} from {origin}"
    if section == "triggered":
        return "its trigger pattern matched the query"
    if section == "baseline":
        return "pinned" if mem.pinned else "important: always shown"
    return "-"


def trace_line(i: int, tr: RecallTrace) -> str:
    """One `--trace` line: each factor of the final score that applied, rounded."""
    parts = [f"{tr.memory_id} [{tr.section}]"]
    if tr.seed_rank:
        found = f"search hit #{tr.seed_rank} (fusion score {sig(tr.seed_score)}"
        if tr.vector_score is not None:
            found += f", cosine {sig(tr.vector_score)}"
        if tr.text_score is not None:
            found += f", BM25 {sig(tr.text_score)}"
        parts.append(found + ")")
    if tr.cascade_score > 0:
        path = path_text(tr)
        parts.append(f"graph {sig(tr.cascade_score)}" + (f" via {path}" if path else ""))
    parts.append(f"confidence {sig(tr.confidence)}")
    if abs(tr.recency_boost - 1.0) >= 0.005:
        parts.append(f"recency x{tr.recency_boost:.2f}")
    if tr.matched_tags:
        parts.append(f"cue x{tr.cue_boost:.2f} ({', '.join(tr.matched_tags)})")
    return f"[bold]{i}[/bold] " + escape(" · ".join(parts) + f" → {sig(tr.final_score)}")


def score_text(tr: RecallTrace) -> str:
    """The table's score: '-' for a memory shown for its section alone (pinned, important, triggered, the
    superseded base of a change) that the query itself did not reach, rather than a 0 that reads like a bad
    match."""
    if tr.final_score == 0 and tr.section in ("baseline", "triggered", "superseded"):
        return "-"
    return sig(tr.final_score)


def shared_notes(traces: list[RecallTrace]) -> list[str]:
    """Notes every trace carries (how the whole recall was ranked): printed once, not under each memory."""
    if not traces:
        return []
    common = set(traces[0].notes)
    for tr in traces[1:]:
        common &= set(tr.notes)
    return [n for n in traces[0].notes if n in common]
