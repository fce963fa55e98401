"""What enters the write path, and its stages 1-3 for one item: validate, clean, filter secrets.

`IngestItem` is one input as given (a document, a conversation turn, or one explicit memory); `prepare` turns it
into a `Prepared` item or raises a typed error, so a batch with one bad item writes nothing. A `Candidate` is one
chunk of a prepared item on its way through the later stages (embed, score, reconcile).
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np

from memgraph.config import Settings
from memgraph.errors import SecretDetectedError, ValidationError
from memgraph.ids import check_optional_id
from memgraph.ingest import importance as imp
from memgraph.ingest.classify import Classification, parse_hint
from memgraph.ingest.clean import CHUNK_ADVICE, SPLIT_ADVICE, clean_text, encodable
from memgraph.ingest.report import Dropped, DropReason, IngestReport
from memgraph.ingest.secrets import SecretFilter, only_redactions
from memgraph.ingest.tags import normalise_tags
from memgraph.models import Layer, Memory, MemoryKind, Provenance, Scope, check_embedding
from memgraph.validation import MAX_LIST_ITEMS, MAX_PATTERN_CHARS, check_nesting, nested_quantifier, utc_datetime


@dataclass
class IngestItem:
    """One input: a text (a document, a conversation turn, or one explicit memory) and what comes with it."""

    text: Any
    session_id: Any = None
    kind: Any = None  # a kind or a layer name; wins over classification
    layer: Any = None
    tags: Any = None
    scope: Any = Scope.GLOBAL
    files: Any = None
    metadata: Any = None
    pinned: bool = False
    trigger_patterns: Any = None
    created_at: Any = None
    importance: Any = None
    provenance: Any = None
    embedding: Any = None
    #: Whether `created_at` dates what the memory says (it gets that day's date facets). None: when it is given.
    #: False for a superseded memory's remainder whose original was undated (its `created_at` is only kept).
    dated: bool | None = None

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> IngestItem:
        """From `remember_many`'s dicts (key `content`) or ingest dicts (key `text`)."""
        data = dict(data)
        text = data.pop("content", None)
        if text is None:
            text = data.pop("text", None)
        else:
            data.pop("text", None)
        if "file_paths" in data:
            data["files"] = data.pop("file_paths")
        unknown = set(data) - _ITEM_FIELDS
        if unknown:
            raise ValidationError(f"unknown memory field(s): {', '.join(sorted(unknown))}")
        return cls(text=text, **{k: v for k, v in data.items() if v is not None})


_ITEM_FIELDS = frozenset(
    {
        "session_id",
        "kind",
        "layer",
        "tags",
        "scope",
        "files",
        "metadata",
        "pinned",
        "trigger_patterns",
        "created_at",
        "importance",
        "provenance",
        "embedding",
        "id",
        "user_id",
    }
)


def memory_items(items: Sequence[Mapping[str, Any] | Memory | str], owner: str, what: str) -> list[IngestItem]:
    """`remember_*` input as write-path items: dicts, Memory objects of this user (their stored fields), or
    plain strings (the content alone, as `remember(text)` takes it); an id or user_id given is ignored, and the
    kind defaults to fact. `what` names the call in errors."""
    if isinstance(items, str | bytes) or not isinstance(items, Sequence):
        kind = type(items).__name__
        raise ValidationError(f"{what} takes a list of memories (dicts or strings), not a single {kind}")
    parsed: list[IngestItem] = []
    for item in items:
        if isinstance(item, Memory):
            if item.user_id != owner:
                raise ValidationError(f"{what}: a Memory of another user was passed")
            check_nesting(item.metadata)
            data = item.model_dump(include=_MEMORY_FIELDS)
        elif isinstance(item, Mapping):
            data = dict(item)
        elif isinstance(item, str):
            data = {"content": item}
        else:
            raise ValidationError(f"{what} items must be dicts or strings, got {type(item).__name__}")
        data.pop("id", None)
        data.pop("user_id", None)
        if data.get("kind") is None:
            data["kind"] = MemoryKind.FACT
        parsed.append(IngestItem.from_mapping(data))
    return parsed


#: The fields of a stored Memory that `remember_many` takes over when given Memory objects.
_MEMORY_FIELDS = {
    "content", "kind", "layer", "tags", "scope", "session_id", "metadata", "pinned", "file_paths",
    "trigger_patterns", "created_at", "importance", "provenance", "embedding",
}


@dataclass
class Prepared:
    """An item after validation and the secret filter."""

    index: int
    text: str
    session_id: str | None
    kind_hint: MemoryKind | None
    layer_hint: Layer | None
    scope: Scope
    tags: list[str]
    files: list[str]
    metadata: dict[str, Any]
    pinned: bool
    trigger_patterns: list[str] | None
    created_at: datetime | None
    importance: float | None
    provenance: Provenance | None
    embedding: list[float] | None
    dated: bool = False  # the memory gets date facets from `created_at` (`IngestItem.dated`)


@dataclass
class Candidate:
    """One chunk of a prepared item: filled in by the embed and score stages, then reconciled."""

    item: Prepared
    chunk: int
    text: str
    memory: Memory | None = None
    vector: np.ndarray | None = None
    klass: Classification | None = None
    novelty: float = 1.0
    salience: imp.Salience | None = None
    importance: float = 0.0
    low: bool = False  # below min_importance_stored: dropped unless it reconciles with an existing memory
    inferred: list[str] = field(default_factory=list)


def prepare(
    index: int,
    item: IngestItem,
    *,
    settings: Settings,
    secrets: SecretFilter,
    explicit: bool,
    many: bool,
    on_secret_reject: str,
    redactions: Counter[str],
    report: IngestReport,
) -> Prepared | None:
    """Stages 1-3 for one item: typed errors for bad input, the text cleaned, secrets redacted (or refused).
    None when the item is left out (a secret under `reject` with `on_secret_reject="drop"`, or nothing but
    secrets), with the reason in `report.dropped`; redactions are counted into `redactions`."""
    s = settings
    where = f"item {index}: " if many else ""
    what = "content" if explicit else "text"
    text = clean_text(
        item.text,
        what=f"{where}{what}",
        max_chars=s.max_content_chars if explicit else s.max_ingest_chars,
        advice=CHUNK_ADVICE if explicit else SPLIT_ADVICE,
    )
    try:
        session_id = check_optional_id(item.session_id, "session_id")
    except ValidationError as exc:  # the same type (an invalid id, a secret in it), with the item named
        raise type(exc)(f"{where}{exc}") from None
    try:
        kind_hint, layer_hint = parse_hint(item.kind)
        if item.layer is not None:
            layer_hint = Layer(item.layer)
        scope = Scope(item.scope if item.scope is not None else Scope.GLOBAL)
        provenance = None if item.provenance is None else Provenance(item.provenance)
    except ValueError as exc:
        raise ValidationError(f"{where}{exc}") from None
    if item.metadata is not None and not isinstance(item.metadata, Mapping):
        raise ValidationError(f"{where}metadata must be a JSON object (a mapping)")
    metadata = check_json(dict(item.metadata or {}))
    tags = as_str_list(item.tags, "tags")
    files = as_str_list(item.files, "file_paths", controls=False)
    triggers = None if item.trigger_patterns is None else trigger_list(item.trigger_patterns)
    importance = _unit(item.importance, "importance") if item.importance is not None else None
    created_at = _datetime(item.created_at)
    embedding = None if item.embedding is None else check_embedding(item.embedding, s.embedding_dim)
    if not isinstance(item.pinned, bool):
        raise ValidationError(f"{where}pinned must be true or false")

    # The secret filter: text, tags, file paths, trigger patterns and metadata (keys and values).
    found: Counter[str] = Counter()
    try:
        res = secrets.text(text, what=f"{where}{what}")
        found.update(res.counts)
        text = res.text
        kept_tags = []
        for tag in tags:
            r = secrets.text(tag, what=f"{where}a tag")
            found.update(r.counts)
            if not r.found:
                kept_tags.append(tag)  # a tag holding a secret is dropped, not stored redacted
        tags = normalise_tags(kept_tags)
        files = [secrets.value(f, found, what=f"{where}a file path") for f in files]
        if triggers is not None:
            triggers = [secrets.value(t, found, what=f"{where}a trigger pattern") for t in triggers]
        metadata = secrets.value(metadata, found, what=f"{where}metadata")
    except SecretDetectedError:
        if on_secret_reject == "raise":
            raise
        report.dropped.append(
            Dropped(item=index, reason=DropReason.SECRET_REJECTED, detail="secret found; policy is reject")
        )
        return None
    redactions.update(found)
    if found and only_redactions(text):
        if explicit:
            raise SecretDetectedError(
                f"{where}content consists only of secrets ({', '.join(sorted(found))}); nothing was stored"
            )
        report.dropped.append(
            Dropped(
                item=index,
                reason=DropReason.ONLY_SECRETS,
                detail=f"only secrets: {', '.join(sorted(found))}",
            )
        )
        return None
    return Prepared(
        index,
        text,
        session_id,
        kind_hint,
        layer_hint,
        scope,
        tags,
        files,
        metadata,
        item.pinned,
        triggers,
        created_at,
        importance,
        provenance,
        embedding,
        created_at is not None and item.dated is not False,
    )


# -- value checks ---------------------------------------------------------------------------------------------


def as_str_list(values: Any, what: str, *, controls: bool = True) -> list[str]:
    """A list of strings (a single string counts as one); anything else is a typed error, and so is a string
    no store can hold (a lone surrogate, NUL) or, with `controls=False` (file paths), any control character."""
    if values is None:
        return []
    if isinstance(values, str):
        values = [values]
    try:
        out = list(values)
    except TypeError:
        raise ValidationError(f"{what} must be a list of strings") from None
    if len(out) > MAX_LIST_ITEMS:
        raise ValidationError(f"{what} has {len(out)} entries; the maximum is {MAX_LIST_ITEMS}")
    for i, v in enumerate(out):  # errors name the position, not the value: it may hold a secret
        if not isinstance(v, str):
            raise ValidationError(f"{what} must be strings, got {type(v).__name__}")
        if not controls and len(v) > MAX_PATTERN_CHARS:
            raise ValidationError(f"{what}[{i}] is longer than {MAX_PATTERN_CHARS} characters")
        if not encodable(v):
            raise ValidationError(f"{what}[{i}] contains invalid (lone surrogate) characters")
        if "\x00" in v or (not controls and any(unicodedata.category(c) == "Cc" for c in v)):
            raise ValidationError(f"{what}[{i}] contains control characters")
    return out


def trigger_list(values: Any) -> list[str]:
    """Trigger patterns as given, blank ones left out (an empty pattern would match no query, "  " nearly
    every one); a `re:` pattern must compile, so a typo is an error now rather than a rule that never fires."""
    out = [p.strip() for p in as_str_list(values, "trigger_patterns")]
    for i, p in enumerate(out):
        if len(p) > MAX_PATTERN_CHARS:
            raise ValidationError(f"trigger_patterns[{i}] is longer than {MAX_PATTERN_CHARS} characters")
        if p.startswith("re:"):
            try:
                re.compile(p[3:])
            except re.error as exc:
                raise ValidationError(f"trigger_patterns[{i}] is not a valid regular expression ({exc})") from None
            if nested_quantifier(p[3:]):
                raise ValidationError(
                    f"trigger_patterns[{i}] repeats a repetition, such as (a+)+, or alternatives that start alike, "
                    "such as (a|ab)+: matching it can take exponential time; repeat the inner part once (a+), or "
                    "take the shared start out of the alternatives (a(b|c))"
                )
    return [p for p in out if p]


def check_json(meta: dict[str, Any]) -> dict[str, Any]:
    """Metadata must be a JSON object that round-trips (string keys, finite numbers), at most 64 KB, nested at
    most `MAX_NESTING` deep (checked first, without recursion: json.dumps would end in a RecursionError)."""
    check_nesting(meta)
    try:
        text = json.dumps(meta, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise ValidationError(f"metadata must be JSON-serialisable with finite numbers: {exc}") from None
    if not encodable(text):
        raise ValidationError("metadata contains invalid (lone surrogate) characters")
    if len(text) > 64_000:
        raise ValidationError("metadata is larger than 64 KB")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def _unit(value: Any, what: str) -> float:
    if isinstance(value, bool):  # float(True) is 1.0: a flag given where a number belongs is a mistake
        raise ValidationError(f"{what} must be a number between 0 and 1, got bool")
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ValidationError(f"{what} must be a number between 0 and 1") from None
    if not 0.0 <= v <= 1.0:
        raise ValidationError(f"{what} must be between 0 and 1")
    return v


def _datetime(value: Any) -> datetime | None:
    if value is None:
        return None
    if isinstance(value, datetime):
        return utc_datetime(value, "created_at")
    if isinstance(value, str):
        try:
            parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            raise ValidationError("created_at is not an ISO 8601 timestamp") from None
        return utc_datetime(parsed, "created_at")
    raise ValidationError(f"created_at must be a datetime or an ISO 8601 string, got {type(value).__name__}")
