"""Two served memories that contradict each other, served as such.

The write path flags a statement that conflicts with a stored one and is not clearly newer ("Mia is 9 years old." /
"Mia is 11 years old.": a `Contradicts` edge, both kept, each naming the other in its metadata). Served side by side
without a word, the agent cannot tell that they disagree nor which was said last (two versions of a supplier's
record that differ in one digit of the phone number scored 1.34 and 1.15, the older first). When recall serves both
sides of a conflict, both traces name the other (`conflicts_with`) and say which is the newer (`conflict`), and the
prompt block writes them `[FACT, conflicting: newer]` / `[FACT, conflicting: older]`. Procedures are left out: the
numbered steps of one procedure say different values of one frame, which the write path can flag as a conflict.

The pair is read from the served memories' own metadata (`contradicts` / `contradicted_by`, written with the edge in
the same batch), so it costs no store query: a recall that serves no flagged memory does nothing here. Nothing is
added to, removed from or moved in what was served: the marks only.
"""

from __future__ import annotations

from collections.abc import Sequence

from memgraph.models import Memory, MemoryKind, RecallTrace

#: The metadata keys in which the write path names the other side of a conflict (`ingest/resolve.py`).
_KEYS = ("contradicts", "contradicted_by")


def disputes(served: Sequence[Memory]) -> dict[str, str]:
    """Served id -> the served memory it conflicts with (the first named, when it conflicts with several)."""
    shown = {m.id for m in served if m.kind is not MemoryKind.PROCEDURE}
    out: dict[str, str] = {}
    for mem in served:
        meta = mem.metadata if isinstance(mem.metadata, dict) else {}
        for key in _KEYS:
            others = meta.get(key)
            if not isinstance(others, list):
                continue
            for other in others:
                if isinstance(other, str) and other != mem.id and other in shown and mem.id in shown:
                    out.setdefault(mem.id, other)
    return out


def ordered(a: Memory, b: Memory) -> tuple[Memory, Memory]:
    """(newer, older) of two conflicting memories: the one that names the other in `contradicts` was written after
    it (the new statement flags the stored one); else the later `created_at`."""
    if _names(a, "contradicts", b.id) or _names(b, "contradicted_by", a.id):
        return a, b
    if _names(b, "contradicts", a.id) or _names(a, "contradicted_by", b.id):
        return b, a
    return (a, b) if a.created_at >= b.created_at else (b, a)


def _names(mem: Memory, key: str, other: str) -> bool:
    value = mem.metadata.get(key) if isinstance(mem.metadata, dict) else None
    return isinstance(value, list) and other in value


def mark(served: Sequence[Memory], traces: Sequence[RecallTrace]) -> None:
    """Each trace of a served conflicting pair names the other side and which of the two is the newer. The order is
    left to the scores: moving the newer one up put numbered steps of one procedure, which the write path had flagged
    as conflicting values, out of their order."""
    at = {m.id: i for i, m in enumerate(served)}
    for mid, other in disputes(served).items():
        newer, older = ordered(served[at[mid]], served[at[other]])
        traces[at[newer.id]].conflicts_with, traces[at[newer.id]].conflict = older.id, "newer"
        traces[at[older.id]].conflicts_with, traces[at[older.id]].conflict = newer.id, "older"
