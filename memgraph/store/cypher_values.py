"""Values between memgraph's models and Cypher stores: Memory fields as graph properties (timestamps as
fixed-width UTC ISO strings, metadata as a JSON string, embeddings as float lists with an optional packed
copy), stored rows back to `Memory`, and driver values (nodes, relationships, paths, temporal types) as plain
Python values for `memgraph cypher`."""

from __future__ import annotations

import base64
import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import numpy as np

from memgraph.errors import StoreError, ValidationError
from memgraph.models import Layer, Memory, MemoryKind, Provenance, Scope
from memgraph.store.base import STORED_FIELDS
from memgraph.text import terms

_JSON_FIELDS = {"metadata"}
_LIST_FIELDS = {"file_paths", "trigger_patterns"}
_BOOL_FIELDS = {"active", "archived", "pinned", "compressed"}


def iso_ts(value: datetime) -> str:
    """Timestamps are fixed-width UTC ISO strings (as in SQLite): text order is time order."""
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f+00:00")


def parse_ts(value: Any) -> datetime:
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    if hasattr(value, "to_native"):  # neo4j.time.DateTime
        return parse_ts(value.to_native())
    return datetime.fromisoformat(str(value))


def to_property(field: str, value: Any) -> Any:
    """A Memory field as a graph property: metadata is a JSON string (no map properties in Neo4j), timestamps
    are ISO strings, enums their value, lists stay lists of strings."""
    if field in _JSON_FIELDS:
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    if field in _LIST_FIELDS:
        return [str(v) for v in value]
    if field in _BOOL_FIELDS:
        return bool(value)
    if isinstance(value, datetime):
        return iso_ts(value)
    if hasattr(value, "value"):
        return value.value
    return value


def memory_properties(mem: Memory) -> dict[str, Any]:
    props = {f: to_property(f, getattr(mem, f)) for f in STORED_FIELDS}
    words = terms(mem.content)  # the full-text term field and its length (store/bm25.py's statistics)
    props["fts"], props["fts_len"] = " ".join(words), len(words)
    return props


def checked_vector(values: Any, dim: int) -> np.ndarray:
    vec = np.asarray(values, dtype=np.float32).reshape(-1)
    if vec.shape != (dim,) or not np.all(np.isfinite(vec)):
        raise ValidationError(f"embedding must be {dim} finite floats")
    return vec


def as_text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def pack_vector(vec: np.ndarray) -> str:
    """The packed copy of a vector (MemoryVector.embedding_b64): base64 of its little-endian float32 bytes."""
    return base64.b64encode(np.ascontiguousarray(vec, dtype="<f4").tobytes()).decode("ascii")


def vector_matrix(embeddings: Sequence[Any], packed: Sequence[str | None], dim: int) -> np.ndarray:
    """One float32 matrix from embeddings.cypher's rows: each row holds either its packed copy or, for a vector
    written without one (Neo4j, packing off, a store from before packing), the float list."""
    out = np.empty((len(packed), dim), dtype=np.float32)
    with_copy = [i for i, p in enumerate(packed) if p is not None]
    if with_copy:
        raw = b"".join(base64.b64decode(p) for p in packed if p is not None)  # in with_copy's order
        if len(raw) != len(with_copy) * dim * 4:
            raise StoreError(f"a stored packed vector (MemoryVector.embedding_b64) is not {dim} float32 values")
        out[with_copy] = np.frombuffer(raw, dtype="<f4").reshape(len(with_copy), dim)
    if len(with_copy) < len(packed):
        rest = [i for i, p in enumerate(packed) if p is None]
        out[rest] = np.asarray([embeddings[i] for i in rest], dtype=np.float32).reshape(len(rest), dim)
    return out



def to_memory(props: dict[str, Any], tags: Sequence[str], embedding: Any = None) -> Memory:
    return Memory(
        id=props["id"],
        user_id=props["user_id"],
        content=props["content"],
        kind=MemoryKind(props["kind"]),
        layer=Layer(props["layer"]),
        scope=Scope(props["scope"]),
        session_id=props.get("session_id"),
        created_at=parse_ts(props["created_at"]),
        updated_at=parse_ts(props["updated_at"]),
        last_accessed=parse_ts(props["last_accessed"]),
        access_count=int(props.get("access_count", 0)),
        strength=int(props.get("strength", 1)),
        importance=float(props["importance"]),
        confidence=float(props["confidence"]),
        trust=float(props["trust"]),
        provenance=Provenance(props["provenance"]),
        active=bool(props["active"]),
        archived=bool(props["archived"]),
        pinned=bool(props["pinned"]),
        compressed=bool(props.get("compressed", False)),
        file_paths=list(props.get("file_paths") or []),
        trigger_patterns=list(props.get("trigger_patterns") or []),
        metadata=json.loads(props.get("metadata") or "{}"),
        tags=sorted(tags),
        embedding_model=props.get("embedding_model"),
        embedding=None if embedding is None else [float(x) for x in embedding],
    )



def plain_value(value: Any) -> Any:
    """Driver values (nodes, relationships, paths, temporal types) as JSON-friendly Python values."""
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if isinstance(value, dict):
        return {str(k): plain_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        if all(type(v) is float for v in value):  # embeddings: 384 floats a row, no per-element recursion
            return list(value)
        return [plain_value(v) for v in value]
    labels = getattr(value, "labels", None)
    if labels is not None and hasattr(value, "items"):  # neo4j Node
        return {"_labels": sorted(labels), **{k: plain_value(v) for k, v in value.items()}}
    if hasattr(value, "type") and hasattr(value, "start_node") and hasattr(value, "items"):  # neo4j Relationship
        return {"_type": value.type, **{k: plain_value(v) for k, v in value.items()}}
    if hasattr(value, "nodes") and hasattr(value, "relationships"):  # neo4j / falkordb Path
        nodes = value.nodes() if callable(value.nodes) else value.nodes
        rels = value.relationships() if callable(value.relationships) else value.relationships
        return {"nodes": [plain_value(n) for n in nodes], "relationships": [plain_value(r) for r in rels]}
    if hasattr(value, "properties") and hasattr(value, "labels"):  # falkordb Node
        return {"_labels": list(value.labels or []), **plain_value(value.properties)}
    if hasattr(value, "properties") and hasattr(value, "relation"):  # falkordb Edge
        return {"_type": value.relation, **plain_value(value.properties)}
    if hasattr(value, "iso_format"):
        return value.iso_format()
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return str(value)

