"""The public data types: what goes into the graph and what comes back out.

These pydantic models are the boundary of the library. Stores convert to and from them; nothing else
leaks out of `memgraph` (store rows, numpy arrays, driver records stay internal).
"""

from __future__ import annotations

import hashlib
import math
import warnings
from datetime import UTC, date, datetime
from enum import StrEnum
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from memgraph.errors import ValidationError

# MAX_ID_LEN and normalize_tag lived here before memgraph.ids; they are re-exported for existing imports.
from memgraph.ids import MAX_ID_LEN as MAX_ID_LEN
from memgraph.ids import check_id, check_owner
from memgraph.ids import normalize_tag as normalize_tag

ModelT = TypeVar("ModelT", bound=BaseModel)


def trusted(cls: type[ModelT], fields: dict[str, Any]) -> ModelT:
    """`cls.model_construct(**fields)` for a complete dict of values that are already valid (rows a store
    wrote itself, updates a job computed): the same object without pydantic's per-field loop, which cost
    ~1.5 s of every 100k-memory job read. Anything but exactly the model's fields goes to model_construct."""
    if fields.keys() != cls.model_fields.keys():
        return cls.model_construct(**fields)
    obj = cls.__new__(cls)
    object.__setattr__(obj, "__dict__", fields)
    object.__setattr__(obj, "__pydantic_fields_set__", set(fields))
    object.__setattr__(obj, "__pydantic_extra__", None)
    object.__setattr__(obj, "__pydantic_private__", None)
    return obj


def utcnow() -> datetime:
    """Timezone-aware now; every timestamp memgraph writes is UTC."""
    return datetime.now(UTC)


class MemoryKind(StrEnum):
    """What a memory is. One list for facts, preferences, rules, procedures and events."""

    FACT = "fact"
    PREFERENCE = "preference"
    PROCEDURE = "procedure"
    CORRECTION = "correction"
    CONSTRAINT = "constraint"  # negative/policy/pitfall: "never do X", surfaced by trigger patterns
    DECISION = "decision"
    EVENT = "event"  # an episodic turn or episode
    SUMMARY = "summary"  # compressed episodes, always DerivedFrom its evidence


class Layer(StrEnum):
    WORKING = "working"
    EPISODIC = "episodic"
    SEMANTIC = "semantic"
    PROCEDURAL = "procedural"


class Scope(StrEnum):
    GLOBAL = "global"
    PROJECT = "project"  # file_paths hold glob patterns matched against the caller's files
    SESSION = "session"


class Provenance(StrEnum):
    USER_STATED = "user_stated"
    USER_CORRECTED = "user_corrected"
    OBSERVED = "observed"
    INFERRED = "inferred"
    EXTRACTED = "extracted"


class Relation(StrEnum):
    """The graph's relationship vocabulary; names are kept as in the graph."""

    HAS_TAG = "HasTag"
    IN_CLUSTER = "InCluster"
    RELATES_TO = "RelatesTo"
    SUPERSEDES = "Supersedes"
    CONTRADICTS = "Contradicts"
    DERIVED_FROM = "DerivedFrom"

    @classmethod
    def parse(cls, value: str | Relation) -> Relation:
        """Accept `RelatesTo`, `relates_to` or `relates-to`; anything else is a typed error."""
        if isinstance(value, Relation):
            return value
        key = str(value).replace("-", "").replace("_", "").lower()
        for rel in cls:
            if rel.value.lower() == key:
                return rel
        names = ", ".join(r.value for r in MEMORY_RELATIONS)
        raise ValidationError(f"unknown relation {value!r}; use one of: {names}")


#: Relations that join two memories (HasTag and InCluster point at Tag and Cluster nodes).
MEMORY_RELATIONS = (Relation.RELATES_TO, Relation.SUPERSEDES, Relation.CONTRADICTS, Relation.DERIVED_FROM)


class LinkSource(StrEnum):
    EXPLICIT = "explicit"
    DISCOVERED = "discovered"
    CO_RECALL = "co_recall"
    SEQUENCE = "sequence"  # neighbouring turns of one conversation (ingest/episodes.py)


# --- identifiers (the rule is memgraph/ids.py) ------------------------------------------------------------


def validate_owner(user_id: object) -> str:
    """Every call is scoped by a user; a missing or invalid owner is `MissingOwnerError` (memgraph.ids)."""
    return check_owner(user_id)


def validate_identifier(value: object, what: str) -> str:
    """A session or memory id under the identifier rule (memgraph.ids), or `InvalidIdentifierError`."""
    return check_id(value, what)


def memory_id_for(user_id: str, content: str) -> str:
    """Stable, content-hash based id: re-ingesting the same text for the same user is idempotent."""
    digest = hashlib.blake2b(f"{user_id}\x00{content}".encode(), digest_size=16).hexdigest()
    return f"m_{digest}"


def content_hash(text: str) -> str:
    """Key of the embedding cache (model name is added by the cache)."""
    return hashlib.sha256(text.encode()).hexdigest()


#: Why an all-zero embedding is refused: cosine similarity needs a direction (numpy gives NaN, Neo4j's cosine
#: vector index skips such a vector), so the memory could never be found by meaning.
_ZERO_VECTOR = "embedding is all zeros: it has no direction, so no similarity can be computed with it"


def check_embedding(vector: Any, dim: int) -> list[float]:
    """A caller-supplied embedding must have the store's dimension, only finite numbers, and not be all zeros."""
    if getattr(vector, "ndim", None) == 1 and getattr(getattr(vector, "dtype", None), "kind", None) == "f":
        # the common case (an embedder's numpy row), checked in numpy: the per-element loop below was 0.7 ms
        # per 384-d vector, 15 s of a 20k-memory bulk load (profiled)
        import numpy as np

        from memgraph.errors import EmbeddingDimensionError

        if len(vector) != dim:
            raise EmbeddingDimensionError(f"embedding has {len(vector)} dimensions, the store uses {dim}")
        if not np.isfinite(vector).all():
            raise EmbeddingDimensionError("embedding holds NaN or infinite values")
        if not vector.any():
            raise EmbeddingDimensionError(_ZERO_VECTOR)
        _check_float32(vector)
        out: list[float] = vector.astype(np.float64).tolist()
        return out
    try:
        values = [float(x) for x in vector]
    except (TypeError, ValueError) as exc:
        raise ValidationError(f"embedding must be a sequence of numbers: {exc}") from None
    from memgraph.errors import EmbeddingDimensionError

    if len(values) != dim:
        raise EmbeddingDimensionError(f"embedding has {len(values)} dimensions, the store uses {dim}")
    if not all(math.isfinite(v) for v in values):
        raise EmbeddingDimensionError("embedding holds NaN or infinite values")
    if not any(values):
        raise EmbeddingDimensionError(_ZERO_VECTOR)
    _check_float32(values)
    return values


def _check_float32(vector: Any) -> None:
    """Stores and the similarity code hold vectors as 32-bit floats: a finite vector whose values or length
    overflow there (1e39, or 1e20 in every dimension) becomes inf, and NaN in every similarity; one whose length
    underflows (1e-30 everywhere) becomes all zeros, and one shorter than 1e-12 is below the floor the write
    path divides by when it normalises. Either is refused rather than stored unfindable."""
    import numpy as np

    from memgraph.errors import EmbeddingDimensionError

    with np.errstate(over="ignore", under="ignore"):
        v32 = np.asarray(vector, dtype=np.float32)
        square = np.dot(v32, v32)
    if not (np.isfinite(v32).all() and np.isfinite(square) and square >= 1e-24):
        raise EmbeddingDimensionError(
            "embedding values are out of range for 32-bit floats (its length overflows or underflows); "
            "give a normalised vector"
        )


# --- nodes ----------------------------------------------------------------------------------------------

UnitFloat = Annotated[float, Field(ge=0.0, le=1.0)]


class Memory(BaseModel):
    """A `:Memory` node. `tags` is the set of its HasTag targets, filled in by the store on read."""

    model_config = ConfigDict(use_enum_values=False, validate_assignment=False)

    id: str
    user_id: str
    content: str
    kind: MemoryKind = MemoryKind.FACT
    layer: Layer = Layer.SEMANTIC
    scope: Scope = Scope.GLOBAL
    session_id: str | None = None
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)
    last_accessed: datetime = Field(default_factory=utcnow)
    access_count: int = 0
    strength: int = 1
    importance: UnitFloat = 0.5
    confidence: UnitFloat = 1.0
    trust: UnitFloat = 1.0
    provenance: Provenance = Provenance.USER_STATED
    active: bool = True
    archived: bool = False
    pinned: bool = False
    compressed: bool = False
    file_paths: list[str] = Field(default_factory=list)
    trigger_patterns: list[str] = Field(default_factory=list)
    metadata: dict[str, Any] = Field(default_factory=dict)
    tags: list[str] = Field(default_factory=list)
    embedding_model: str | None = None
    embedding: list[float] | None = Field(default=None, repr=False)
    #: Not stored: True when the call that returned this memory could not reach the graph server and queued
    #: the write in the local outbox; it is replayed in order once the server answers (README "When the graph
    #: server is down"). Also True from `get` while queued changes of this memory wait.
    queued: bool = False

    @field_validator("created_at", "updated_at", "last_accessed")
    @classmethod
    def _aware(cls, value: datetime) -> datetime:
        if not value.tzinfo:
            return value.replace(tzinfo=UTC)
        try:  # every store keeps UTC: 0001-01-01T00:00+05:00 has no UTC form (an import file may hold it)
            value.astimezone(UTC)
        except OverflowError:
            raise ValueError("a timestamp whose UTC time is outside the calendar") from None
        return value


class Tag(BaseModel):
    """A `:Tag` node, unique per (user_id, name)."""

    name: str
    user_id: str
    description: str | None = None
    count: int = 0


class Cluster(BaseModel):
    """A `:Cluster` node found by HDBSCAN; its id is stable across runs."""

    id: str
    user_id: str
    size: int = 0
    label: str = ""
    centroid: list[float] | None = Field(default=None, repr=False)
    updated_at: datetime = Field(default_factory=utcnow)


class Gap(BaseModel):
    """A `:Gap` node: a context where recall found nothing useful (deduplicated by similarity)."""

    id: str
    user_id: str
    query: str
    count: int = 1
    first_seen: datetime = Field(default_factory=utcnow)
    last_seen: datetime = Field(default_factory=utcnow)
    embedding: list[float] | None = Field(default=None, repr=False)


# --- relationships --------------------------------------------------------------------------------------


class Link(BaseModel):
    """A relationship between two memories (RelatesTo, Supersedes, Contradicts, DerivedFrom)."""

    src: str
    dst: str
    relation: Relation
    weight: UnitFloat = 1.0
    source: LinkSource = LinkSource.EXPLICIT
    reason: str | None = None
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)


class HasTag(BaseModel):
    memory_id: str
    tag: str


class InCluster(BaseModel):
    memory_id: str
    cluster_id: str
    probability: UnitFloat = 1.0


# --- read-side results ------------------------------------------------------------------------------------


class SearchHit(BaseModel):
    """One hit of `search`: the memory and the fused score with its parts."""

    memory: Memory
    score: float
    vector_score: float | None = None
    text_score: float | None = None


class TraceStep(BaseModel):
    """One edge on the path by which the cascade reached a memory."""

    relation: str
    via: str  # the node passed through: memory id, `tag:<name>` or `cluster:<id>`
    weight: float
    degree: int | None = None  # members of the tag/cluster passed through (hub damping); None for memories


class RecallTrace(BaseModel):
    """How one recalled memory was found and scored."""

    memory_id: str
    seed_rank: int | None = None
    seed_score: float | None = None
    vector_score: float | None = None
    text_score: float | None = None
    depth: int = 0
    from_seed: str | None = None  # the seed at the start of `path`
    path: list[TraceStep] = Field(default_factory=list)
    cascade_score: float = 0.0  # activation summed over every seed's path (the path shown is the strongest)
    confidence: float = 1.0  # effective: stored confidence decayed by the kind's half-life
    recency_boost: float = 1.0
    importance: float = 0.5
    cue_boost: float = 1.0  # (1 + cue_boost) per query-named tag this memory carries
    matched_tags: list[str] = Field(default_factory=list)
    final_score: float = 0.0
    section: str = "contextual"  # triggered | baseline | contextual | procedural | weak | superseded
    tokens: int = 0
    notes: list[str] = Field(default_factory=list)
    #: The served memory this one conflicts with (a `Contradicts` edge between two served memories), or None;
    #: `conflict` says which of the two was written later: "newer" (placed first) or "older".
    conflicts_with: str | None = None
    conflict: Literal["newer", "older"] | None = None
    #: A change that starts later (ingest/starts.py), while its day is ahead: the day this memory holds from (the
    #: new side) or until (the old side, replaced from then on); None otherwise.
    valid_from: date | None = None
    valid_until: date | None = None

    @model_validator(mode="before")
    @classmethod
    def _old_layer_name(cls, data: Any) -> Any:
        """`layer=` (the old name of `section`) is still accepted, with a DeprecationWarning."""
        if isinstance(data, dict) and "layer" in data:
            warnings.warn("RecallTrace(layer=...) is deprecated, use section=", DeprecationWarning, stacklevel=4)
            data = {k: v for k, v in data.items() if k != "layer"} | {"section": data.get("section", data["layer"])}
        return data

    @property
    def layer(self) -> str:
        """Deprecated: the old name of `section` (a memory's own `layer` field is something else)."""
        warnings.warn("RecallTrace.layer is deprecated, use RecallTrace.section", DeprecationWarning, stacklevel=2)
        return self.section


class WeakHits(BaseModel):
    """Why a recall served weak hits: no memory passed the similarity threshold, so the closest ones below it
    are shown, marked, rather than nothing; or fewer than `top_k` passed, and the slots left took the closest
    ones below it that are still nearer than unrelated text usually is."""

    best_score: float  # the closest weak hit's cosine similarity to the query
    threshold: float  # similarity_threshold
    count: int  # weak hits served
    hint: str = ""
    passed: int = 0  # memories served before the weak hits (those that passed, triggered and baseline ones)


#: How `RecallResult.to_prompt` marks a memory of these sections.
_PROMPT_MARKS = {"weak": ", weak match", "superseded": ", superseded"}


class RecallResult(BaseModel):
    """What `recall` returns: memories in prompt order, the tokens they cost and why each is there."""

    memories: list[Memory] = Field(default_factory=list)
    total_tokens: int = 0
    budget_used: float = 0.0
    trace: list[RecallTrace] = Field(default_factory=list)
    mode: str = "cascade"
    warnings: list[str] = Field(default_factory=list)
    cue_tags: list[str] = Field(default_factory=list)  # tags the query named (cascade mode)
    #: Set when the closest memories below the similarity threshold came back as `weak` hits (nothing passed,
    #: or fewer than top_k did).
    weak: WeakHits | None = None

    def to_prompt(self) -> str:
        """Render the `<memory>` prompt block: one `[KIND] content` line per memory; a weak hit (below the
        similarity threshold) says so, `[KIND, weak match]`, and so does a superseded memory shown as the base of
        the change that replaced it, `[KIND, superseded]`, and each of two served memories that conflict,
        `[KIND, conflicting: newer]` / `[KIND, conflicting: older]`, so the model can weigh them; the two sides of
        a change that starts later, while its day is ahead, `[KIND, until 2026-11-30]` (holds now) /
        `[KIND, from 2026-11-30]` (holds from then)."""
        marks = {t.memory_id: _PROMPT_MARKS[t.section] for t in self.trace if t.section in _PROMPT_MARKS}
        for t in self.trace:
            if t.conflict:
                marks[t.memory_id] = marks.get(t.memory_id, "") + f", conflicting: {t.conflict}"
            if t.valid_from:
                marks[t.memory_id] = marks.get(t.memory_id, "") + f", from {t.valid_from.isoformat()}"
            if t.valid_until:
                marks[t.memory_id] = marks.get(t.memory_id, "") + f", until {t.valid_until.isoformat()}"
        lines = ["<memory>"]
        lines += [f"[{m.kind.value.upper()}{marks.get(m.id, '')}] {m.content}" for m in self.memories]
        lines.append("</memory>")
        return "\n".join(lines)


class StoreStats(BaseModel):
    """Counts for one user (or the whole store when user_id is None)."""

    user_id: str | None = None
    memories: int = 0
    active: int = 0
    archived: int = 0
    by_kind: dict[str, int] = Field(default_factory=dict)
    tags: int = 0
    clusters: int = 0
    gaps: int = 0
    edges: dict[str, int] = Field(default_factory=dict)
    users: int = 0
    #: Whole-store stats only: stored user ids that break the identifier rule (memgraph/ids.py), written before
    #: it existed. They are kept as they are (never rewritten); the engine logs them when it opens the store.
    invalid_user_ids: int = 0
