"""Step 5 (seed 000 §1.6 + seed 001 "Auto-Capture"): kind, layer and provenance of a chunk, without an LLM.

A hint always wins. Otherwise the first rule that matches decides (seed 001's captures first, then seed 000's
routing table):

| rule                                                      | kind        | layer      |
|-----------------------------------------------------------|-------------|------------|
| correction cue ("actually X", "no, X", "not X but Y")     | correction  | semantic   | provenance user_corrected
| constraint ("must X", "required", "don't ever", "Never X")| constraint  | procedural | + trigger patterns
| preference signal ("I prefer", "always use X", "I hate")  | preference  | procedural |
| decision ("we decided", "let's go with")                  | decision    | semantic   |
| numbered steps / "first … then …"                         | procedure   | procedural |
| about now / this session ("right now", "currently")       | event       | working    |
| subject-predicate-object statement ("my X is Y", "I use") | fact        | semantic   |
| default: a conversation turn or event                     | event       | episodic   |

Trigger patterns of a constraint are its key terms (content words minus the cue words), the words whose
appearance in a later query should surface the constraint (DESIGN.md read path, step 4).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from memgraph.errors import ValidationError
from memgraph.ingest import signals
from memgraph.models import Layer, MemoryKind, Provenance

#: Kind -> layer when nothing else decides (DESIGN.md: kinds and layers).
KIND_LAYER: dict[MemoryKind, Layer] = {
    MemoryKind.FACT: Layer.SEMANTIC,
    MemoryKind.PREFERENCE: Layer.PROCEDURAL,
    MemoryKind.PROCEDURE: Layer.PROCEDURAL,
    MemoryKind.CORRECTION: Layer.SEMANTIC,
    MemoryKind.CONSTRAINT: Layer.PROCEDURAL,
    MemoryKind.DECISION: Layer.SEMANTIC,
    MemoryKind.EVENT: Layer.EPISODIC,
    MemoryKind.SUMMARY: Layer.EPISODIC,
}
#: A layer given as the hint (seed 000's memory_type_hint) picks the kind when no rule does.
LAYER_DEFAULT_KIND: dict[Layer, MemoryKind] = {
    Layer.WORKING: MemoryKind.EVENT,
    Layer.EPISODIC: MemoryKind.EVENT,
    Layer.SEMANTIC: MemoryKind.FACT,
    Layer.PROCEDURAL: MemoryKind.PROCEDURE,
}
#: Words that make a sentence a constraint or a preference; they are not what it is about.
CUE_WORDS = frozenset(
    "must mustn't never ever don't do not required require requires mandatory forbidden prohibited allowed "
    "always please should shall use using used make sure avoid circumstances prefer like hate love".split()
)


@dataclass(frozen=True)
class Classification:
    kind: MemoryKind
    layer: Layer
    provenance: Provenance
    rule: str  # which rule decided, for the report
    trigger_patterns: list[str] = field(default_factory=list)


def parse_hint(hint: object) -> tuple[MemoryKind | None, Layer | None]:
    """A hint is a kind ("preference") or a layer ("procedural", seed 000's memory_type_hint)."""
    if hint is None:
        return None, None
    if isinstance(hint, MemoryKind):
        return hint, None
    if isinstance(hint, Layer):
        return None, hint
    if isinstance(hint, str):
        value = hint.strip().lower()
        if value in MemoryKind._value2member_map_:
            return MemoryKind(value), None
        if value in Layer._value2member_map_:
            return None, Layer(value)
    kinds = ", ".join(k.value for k in MemoryKind)
    raise ValidationError(f"unknown kind hint {hint!r}; use a kind ({kinds}) or a layer name")


def trigger_terms(text: str, limit: int) -> list[str]:
    return signals.key_terms(text, drop=CUE_WORDS, limit=limit)


def classify(text: str, hint: object = None, *, max_triggers: int = 5) -> Classification:
    """Kind, layer, provenance and (for constraints) trigger patterns of one chunk."""
    kind_hint, layer_hint = parse_hint(hint)
    if kind_hint is not None:
        prov = Provenance.USER_CORRECTED if kind_hint is MemoryKind.CORRECTION else Provenance.USER_STATED
        triggers = trigger_terms(text, max_triggers) if kind_hint is MemoryKind.CONSTRAINT else []
        return Classification(kind_hint, KIND_LAYER[kind_hint], prov, "hint", triggers)
    kind, rule = _rules(text)
    layer = KIND_LAYER[kind]
    if rule == "working":
        layer = Layer.WORKING
    if layer_hint is not None:
        if rule == "default":
            kind = LAYER_DEFAULT_KIND[layer_hint]
        layer, rule = layer_hint, f"{rule}+layer hint"
    prov = Provenance.USER_CORRECTED if kind is MemoryKind.CORRECTION else Provenance.USER_STATED
    triggers = trigger_terms(text, max_triggers) if kind is MemoryKind.CONSTRAINT else []
    return Classification(kind, layer, prov, rule, triggers)


def _rules(text: str) -> tuple[MemoryKind, str]:
    if signals.has_correction(text):
        return MemoryKind.CORRECTION, "correction cue"
    if signals.has_constraint(text):
        return MemoryKind.CONSTRAINT, "constraint cue"
    if signals.has_preference(text):
        return MemoryKind.PREFERENCE, "preference signal"
    if signals.DECISION.search(text):
        return MemoryKind.DECISION, "decision cue"
    if signals.PROCEDURE.search(text):
        return MemoryKind.PROCEDURE, "procedure steps"
    if signals.WORKING.search(text):
        return MemoryKind.EVENT, "working"
    if signals.FACT.search(text):
        return MemoryKind.FACT, "subject-predicate-object"
    return MemoryKind.EVENT, "default"
