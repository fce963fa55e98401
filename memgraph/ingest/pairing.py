"""Which stored memories a new one is decided against, and which pairs the learned duplicate gate may never merge.

The rules of `reconcile.py` decide a pair; this module says what a pair is made of before any rule runs: who said
each side (`speaker`: a turn of a conversation is never merged away), whether a side records something that
happened (`episodic`: episodes accumulate, they are not replaced), from which cosine a stored memory is a neighbour
at all (`neighbour_floor`), and the vetoes behind which the learned gate runs (`gate_veto`). Split from
reconcile.py, which had grown past one concern (the rules themselves).
"""

from __future__ import annotations

from memgraph.config import Settings
from memgraph.ingest import repeats, signals
from memgraph.ingest.chunk import looks_like_turn
from memgraph.ingest.comparison import Comparison
from memgraph.ingest.statement import Statement, statement
from memgraph.models import Memory, MemoryKind


def episodic(mem: Memory, st: Statement, *, turn: bool) -> bool:
    """Whether `mem` records something that happened (it accumulates; it is not replaced). `event` is also the
    kind the classifier gives a statement no other rule matched ("Tom's shoe size is 42.", "The standup moved to
    9:30."): outside a conversation such an event is episodic only when its words tell an episode. Read as
    episodes, statements like these could never supersede or contradict what they update: through `ingest`,
    supersede recall on the labelled pairs was 0.615 against 0.879 through `remember` (kind fact), at equal
    precision (bench/decisions.py --path ingest)."""
    if mem.kind is MemoryKind.SUMMARY:
        return True
    # "the broadband went up to £35.50", "I sold the Civic and bought a Kia Niro": the episode words tell a change
    # (an update cue), which replaces what it changes (held-out pairs 4 through `ingest`)
    return mem.kind is MemoryKind.EVENT and (turn or (st.episode and not st.update))


def speaker(m: Memory) -> str | None:
    """Who said it: metadata["speaker"] (set by the CLI for turns), else a "Name: " prefix of the text that
    reads as a speaker (`chunk.looks_like_turn`): "Update: …" and "New protocol: …" are labels of a note, and a
    note's statement is no turn of a conversation (it was read as one, and as an episode that only an explicit
    correction supersedes)."""
    value = m.metadata.get("speaker") if isinstance(m.metadata, dict) else None
    if isinstance(value, str) and value.strip():
        return value.strip().lower()
    if not looks_like_turn(m.content):
        return None
    return (signals.speaker(m.content) or "").lower() or None


def gate_veto(
    new: Memory, n: Statement, old: Memory, o: Statement, c: Comparison, settings: Settings
) -> str | None:
    """Why the learned duplicate gate never reinforces `old` with `new`, whatever its probability, or None. Never
    for a turn of a conversation or another speaker's statement (a turn reinforced instead of stored loses its
    place in the conversation), an episode (they accumulate), a correction (it replaces) or a question (it states
    nothing; a bulk load of chat merged questions into statements), where a word of the subject differs (the same
    values said of another subject look like a repeat to the model's features: "The gym / The pharmacy closes at
    22:00 on weekdays", p 0.93), where one prefers one thing over another and the other does not ("I prefer the
    old South Park to the new." / "I like to watch South Park."), nor for the shapes of `repeats.veto` (one says
    more, another person, another time).
    bench/decisions_model.py reads it to score the gate as the write path runs it."""
    return new_side_veto(new, n) or old_side_veto(new, n, old, o, c, settings)


def new_side_veto(new: Memory, n: Statement) -> str | None:
    if speaker(new):
        return "a turn or a speaker's statement"
    if new.kind is MemoryKind.CORRECTION or n.correction:
        return "a correction"
    if n.episode or n.question or episodic(new, n, turn=False):
        return "an episode or a question"
    return None


def old_side_veto(
    new: Memory, n: Statement, old: Memory, o: Statement, c: Comparison, settings: Settings
) -> str | None:
    if speaker(old):
        return "a turn or a speaker's statement"
    if o.episode or o.question or episodic(old, o, turn=False):
        return "an episode or a question"
    if c.subject_changed:
        return "another subject"
    if (n.preference is None) != (o.preference is None):
        # "I prefer cars to surfing." beside "Surfing is easy for me." (p 0.95): a choice between two says more
        return "a preference over another"
    return repeats.veto(n.text, o.text, settings.dedup_sentence_max_covered)


def neighbour_floor(new: Memory, settings: Settings) -> float:
    """The cosine from which a stored memory is a neighbour `new` is compared with: `reconcile_slot_cosine`, or the
    lower `reconcile_cue_cosine` for a text that says a change or a correction ("Noor has started eating fish, so
    she's pescatarian now." beside "My partner Noor is vegetarian, so …", 0.38), whose change is most of its words.
    The statement is the reconciler's own cached parse."""
    floor = settings.reconcile_slot_cosine
    if new.kind is MemoryKind.CORRECTION:
        return min(floor, settings.reconcile_cue_cosine)
    st = statement(new.content)
    return min(floor, settings.reconcile_cue_cosine) if st.update or st.correction else floor
