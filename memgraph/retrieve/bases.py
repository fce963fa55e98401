"""The base of a relative change, served with it.

"rent went up by 50 from next month" supersedes "rent is 1450 a month" (the rent changed), and recall serves the
newest statement of a thing: alone, it answers "how much is the rent now?" with "+50", and the 1450 it is relative
to is hidden. A served memory that states its value only relative to an earlier one ("up by 50", "an hour later
than before", "half the dose now") brings the memory it superseded along, right after it, in section `superseded`:
the agent then has both numbers. It is shown, not reinforced: maintenance never credits it (`pipeline`).

A relative statement that also gives the new value ("went up by 50 to 1500") brings its base too: one more line
costs little, and telling the two apart would take the write path's value parse on every recall.

So does a change that leaves other values of the memory it replaced standing, when they could not be kept as a
memory of their own (`ingest/remainders.py`, `AMENDS`: "The committee meets on the first Wednesday of the month at
7pm." then "Actually the committee now meets on the second Wednesday.": served alone, "what time does the committee
meet?" lost the 7pm; a lead's quarter hour of allotment notes). The write marks it, so recall reads no edge for it.

So does a follow-up that names no subject of its own ("pushed back a week, to the 19th" after "The plumber is coming
on the 12th at 10am.": `ingest/followups.py`, which the write path compares with the latest memories): served alone
it answered "when is the plumber coming?" with a date and no plumber (a lead's quarter hour of use).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from memgraph.ingest.followups import SAID, followup
from memgraph.ingest.remainders import AMENDS
from memgraph.models import Memory, RecallTrace, Relation
from memgraph.retrieve.layers import SUPERSEDED
from memgraph.retrieve.seeds import read_memories
from memgraph.store.base import GraphStore

#: A value said as a change of another: "up by 50", "increased by 10%", "an hour later than before", "two days
#: earlier than usual", "half the dose", "twice as much", "double the dose", "50 more than last year".
_RELATIVE = re.compile(
    r"(?i)\b(?:up|down|increased|decreased|raised|reduced|cut|lowered|dropped|rose|fell|grew|shrank|went\s+up|"
    r"went\s+down|gone\s+up|gone\s+down)\s+by\s+\S|"
    r"\b(?:an?|one|two|three|half\s+an|\d+(?:\.\d+)?)\s*(?:hours?|hrs?|minutes?|mins?|days?|weeks?|months?)\s+"
    r"(?:later|earlier|sooner|longer|shorter)\b|"
    r"\b(?:later|earlier|more|less|fewer|longer|shorter|higher|lower|cheaper|dearer)\s+than\s+(?:before|usual|"
    r"last\s+(?:time|week|month|year)|it\s+was|previously)\b|"
    r"\b(?:half|double|twice|triple)\s+(?:the|as|what)\b"
)


def relative(text: str) -> bool:
    """Whether `text` says a value as a change of another ("rent went up by 50")."""
    return _RELATIVE.search(text) is not None


def bases(store: GraphStore, user_id: str, served: Sequence[Memory]) -> dict[str, Memory]:
    """Served memory id -> the memory it superseded, for the served ones that say their value as a change or name
    no subject of their own (a follow-up). The most recent Supersedes edge of each (a statement that replaced several
    keeps the last); none already served."""
    rel = {m.id for m in served if m.active and relative(m.content)}
    # a follow-up only when the write decided it as one (its edge's reason): "Actually Lena moved to Lisbon" has the
    # shape too, and names its subject
    follow = {m.id for m in served if m.active and m.id not in rel and followup(m.content)}
    amended: dict[str, str] = {}
    for m in served:  # the write named them: no edge to read
        amends = m.metadata.get(AMENDS) if m.active and m.id not in rel and m.id not in follow else None
        if isinstance(amends, list) and amends and isinstance(amends[-1], str):
            amended[m.id] = amends[-1]
    older = dict(amended)
    if rel or follow:
        links = store.get_links(user_id, [*rel, *follow], relations=[Relation.SUPERSEDES], direction="out")
        for link in sorted(links, key=lambda lk: lk.updated_at):
            if link.src in rel or (link.src in follow and SAID in (link.reason or "")):
                older[link.src] = link.dst
    if not older:
        return {}
    shown = {m.id for m in served}
    found = {m.id: m for m in read_memories(store, user_id, [d for d in older.values() if d not in shown])}
    # a memory the write marked as amending one that is active again (or still: a change that starts later) leaves
    # it to be served on its own merits
    return {new: found[old] for new, old in older.items()
            if old in found and not (new in amended and found[old].active)}


def with_bases(
    served: list[Memory],
    traces: list[RecallTrace],
    based: dict[str, Memory],
    count_tokens: Callable[[str], int],
    room: int,
) -> tuple[list[Memory], list[RecallTrace]]:
    """`served` and its traces with each base right after the memory that changed it, while the `room` left in the
    token budget holds it."""
    memories: list[Memory] = []
    out: list[RecallTrace] = []
    placed: set[str] = set()
    for mem, trace in zip(served, traces, strict=True):
        memories.append(mem)
        out.append(trace)
        base = based.get(mem.id)
        if base is None or base.id in placed:
            continue
        tokens = count_tokens(base.content)
        if tokens > room:
            continue
        room -= tokens
        placed.add(base.id)
        memories.append(base)
        out.append(
            RecallTrace(
                memory_id=base.id,
                section=SUPERSEDED,
                importance=base.importance,
                confidence=base.confidence,
                tokens=tokens,
                notes=[f"superseded by {mem.id}, which says its value as a change of this one, leaves its "
                       "subject to it or leaves its other values standing"],
            )
        )
    return memories, out
