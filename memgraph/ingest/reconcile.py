"""Step 7: reconcile a new memory with the nearest existing ones of the same user (seed 002 Phase 7.5, seed 004).

No LLM. For each neighbour, most similar first, the first rule that applies decides:

1. near-duplicate: cosine >= `dedup_cosine` or token Jaccard >= `dedup_jaccard`, with no differing value and
   no correction cue -> **reinforce** the existing memory (strength+1, last_accessed, a breadcrumb).
2. same subject, and the new text is a correction ("actually", "no,", "not X but Y") or a newer statement
   ("now", "no longer", "switched to") with a different value -> **supersede** the old memory.
3. same subject, a different value and no cue, neither being an episode -> **contradict** (both kept, flagged).
   Episodes (`event` memories) accumulate rather than conflict: "went hiking" and "went camping" both happened,
   and an update cue ("now") in a chat turn does not supersede another turn; only an explicit correction does.
   Statements of two different speakers (metadata["speaker"] or a "Name: " prefix) never supersede or
   contradict each other.
4. otherwise -> **create**.

"Same subject" (no parser): cosine >= `reconcile_subject_cosine`, or the two texts share a frame: cosine
>= `reconcile_slot_cosine` and their content words differ by at most `reconcile_max_changed_terms` on each
side with at least one shared ("I live in Berlin" / "I live in Paris now": frame {live}, Berlin -> Paris).
"A different value": numbers, dates (weekdays, months), named entities or negation differ, or (for a cue or a
state statement) a word of the frame was replaced. Every decision carries its reason and scores.

A `Reconciler` is pluggable (`MemoryEngine(..., reconciler=...)`), e.g. an LLM judge: it returns a
`ReconcileDecision` per new memory; `RuleReconciler` is the deterministic default.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from typing import Protocol, runtime_checkable

from memgraph._deprecated import deprecated_alias
from memgraph.config import Settings
from memgraph.ingest import signals
from memgraph.models import Memory, MemoryKind
from memgraph.text import stop_words, tokenize


class ReconcileAction(StrEnum):
    """What a new memory does to its nearest neighbour."""

    CREATE = "create"
    REINFORCE = "reinforce"
    SUPERSEDE = "supersede"
    CONTRADICT = "contradict"


@dataclass(frozen=True)
class Neighbour:
    """An existing (or earlier-in-this-batch) memory near the new one."""

    memory: Memory
    similarity: float
    in_batch: bool = False


@dataclass(frozen=True)
class ReconcileDecision:
    """A reconciler's verdict on one new memory: the action, the neighbour it targets (None for create), why,
    and the scores that decided it."""

    action: ReconcileAction
    target_id: str | None
    reason: str
    scores: dict[str, float] = field(default_factory=dict)


@runtime_checkable
class Reconciler(Protocol):
    """Decides what a new memory does to its neighbours. Neighbours come most similar first."""

    def decide(self, new: Memory, neighbours: Sequence[Neighbour]) -> ReconcileDecision: ...


# Words that mark a correction or an update; they are not part of what a statement says.
_CUE_TOKENS = frozenset(
    "actually correction scratch meant wait no nope now nowadays anymore longer instead switched changed "
    "moved days since today wrong incorrect".split()
)
_EPISODIC = frozenset({MemoryKind.EVENT, MemoryKind.SUMMARY})


@dataclass(frozen=True)
class Comparison:
    """What differs between a new text and an old one (lexically) and how much they share."""

    cosine: float
    jaccard: float
    shared: int
    only_new: int
    only_old: int
    numbers: bool
    dates: bool
    entities: bool
    negation: bool

    @property
    def frame_jaccard(self) -> float:
        union = self.shared + self.only_new + self.only_old
        return self.shared / union if union else 1.0

    @property
    def replaced(self) -> bool:
        return self.only_new > 0 and self.only_old > 0

    def value_changes(self) -> list[str]:
        return [n for n in ("numbers", "dates", "entities", "negation") if getattr(self, n)]

    def scores(self) -> dict[str, float]:
        return {
            "cosine": round(self.cosine, 4),
            "jaccard": round(self.jaccard, 4),
            "frame_jaccard": round(self.frame_jaccard, 4),
        }


@dataclass(frozen=True)
class _Features:
    """What `compare` reads from one text, computed once per text (neighbours recur across a batch)."""

    tokens: frozenset[str]  # every token: the dedup Jaccard of seed 004 (memgraph.text.jaccard)
    words: frozenset[str]  # content words without cue words: the frame
    entities: frozenset[str]
    entity_words: frozenset[str]
    numbers: frozenset[str]
    dates: frozenset[str]
    negated: bool
    correction: bool


@lru_cache(maxsize=16384)
def _features(text: str) -> _Features:
    stops = stop_words()
    ents = frozenset(e.lower() for e in signals.entities(text))
    tokens = tokenize(text)
    return _Features(
        tokens=frozenset(tokens),
        words=frozenset(t for t in tokens if t not in stops and t not in _CUE_TOKENS),
        entities=ents,
        entity_words=frozenset(w for e in ents for w in tokenize(e)),
        numbers=frozenset(signals.numbers(text)),
        dates=frozenset(signals.dates(text)),
        negated=signals.is_negated(_strip_cue(text)),
        correction=signals.has_correction(text),
    )


def _strip_cue(text: str) -> str:
    """Text without its leading correction cue, so "No, I live in Paris" is not read as a negation."""
    m = signals.CORRECTION.search(text)
    if m and m.start() <= 2:
        return text[m.end() - 1 :] if text[m.end() - 1 : m.end()].isalnum() else text[m.end() :]
    return text


def compare(new: str, old: str, cosine: float) -> Comparison:
    n, o = _features(new), _features(old)
    value_words = (
        n.entity_words | o.entity_words | n.numbers | o.numbers | {w for d in n.dates | o.dates for w in d.split()}
    )
    fn, fo = n.words - value_words, o.words - value_words
    union = n.tokens | o.tokens
    return Comparison(
        cosine=cosine,
        jaccard=(len(n.tokens & o.tokens) / len(union)) if union else 1.0,  # == memgraph.text.jaccard
        shared=len(n.words & o.words),
        only_new=len(fn - fo),
        only_old=len(fo - fn),
        numbers=bool(n.numbers and o.numbers and n.numbers != o.numbers),
        dates=bool(n.dates and o.dates and n.dates != o.dates),
        entities=bool(n.entities - o.entities and o.entities - n.entities),
        negation=n.negated != o.negated,
    )


class RuleReconciler:
    """The deterministic default (see the module docstring); thresholds come from `Settings`."""

    def __init__(self, settings: Settings) -> None:
        self.s = settings

    def same_subject(self, c: Comparison) -> str | None:
        if c.cosine >= self.s.reconcile_subject_cosine:
            return "similar meaning"
        if (
            c.cosine >= self.s.reconcile_slot_cosine
            and c.shared >= 1
            and c.only_new <= self.s.reconcile_max_changed_terms
            and c.only_old <= self.s.reconcile_max_changed_terms
            and c.frame_jaccard >= self.s.reconcile_frame_jaccard
        ):
            return "same frame"
        return None

    def decide(self, new: Memory, neighbours: Sequence[Neighbour]) -> ReconcileDecision:
        s = self.s
        correction = new.kind is MemoryKind.CORRECTION or _features(new.content).correction
        update = signals.has_update_cue(new.content)
        who = _speaker(new)
        for nb in neighbours:
            old = nb.memory
            c = compare(new.content, old.content, nb.similarity)
            scores = c.scores()
            changes = c.value_changes()
            near = c.cosine >= s.dedup_cosine or c.jaccard >= s.dedup_jaccard
            old_correction = _features(old.content).correction
            if near and not changes and (not correction or old_correction):
                what = "cosine" if c.cosine >= s.dedup_cosine else "token Jaccard"
                return ReconcileDecision(ReconcileAction.REINFORCE, old.id, f"near-duplicate ({what})", scores)
            other = _speaker(old)
            if who and other and who != other:
                continue  # one person's statement does not correct or contradict another's
            subject = self.same_subject(c)
            if subject is None or c.frame_jaccard < s.reconcile_frame_jaccard:
                continue
            small = c.only_new <= s.reconcile_max_changed_terms and c.only_old <= s.reconcile_max_changed_terms
            slot = bool(changes) or (c.replaced and small)
            detail = ", ".join(changes) or ("replaced terms" if c.replaced else "restated")
            if correction and (slot or (c.cosine >= s.reconcile_subject_cosine and small)):
                return ReconcileDecision(
                    ReconcileAction.SUPERSEDE,
                    old.id,
                    f"correction of the same subject ({subject}; {detail})",
                    scores,
                )
            # Episodes (conversation turns, events) accumulate: "now" in a chat turn does not replace another.
            if new.kind in _EPISODIC or old.kind in _EPISODIC:
                continue
            if update and slot:
                return ReconcileDecision(
                    ReconcileAction.SUPERSEDE,
                    old.id,
                    f"newer statement of the same subject ({subject}; {detail})",
                    scores,
                )
            # A swapped word alone is a conflict only inside a real frame (subject + predicate shared):
            # "alpha memory" / "beta memory" share one word and are simply two different things.
            swapped = c.replaced and c.only_new <= 1 and c.only_old <= 1 and c.shared >= s.reconcile_min_frame_terms
            if changes or swapped:
                return ReconcileDecision(
                    ReconcileAction.CONTRADICT,
                    old.id,
                    f"conflicting statement, not clearly newer ({subject}; {detail})",
                    scores,
                )
        best = neighbours[0] if neighbours else None
        scores = {"cosine": round(best.similarity, 4)} if best else {}
        reason = "new" if best is None else "no duplicate or conflict"
        return ReconcileDecision(ReconcileAction.CREATE, None, reason, scores)


def _speaker(m: Memory) -> str | None:
    """Who said it: metadata["speaker"] (set by the CLI for turns), else a "Name: " prefix of the text."""
    value = m.metadata.get("speaker") if isinstance(m.metadata, dict) else None
    if isinstance(value, str) and value.strip():
        return value.strip().lower()
    return (signals.speaker(m.content) or "").lower() or None


def __getattr__(name: str) -> type:
    return deprecated_alias(__name__, name, {"Action": ReconcileAction, "Decision": ReconcileDecision})
