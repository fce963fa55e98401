"""Rows and clauses: how model values become column values, rows become `Memory` models, and a
`MemoryFilter` becomes a WHERE clause. No connection here: pure functions the store and its graph walk share.
"""

from __future__ import annotations

import fnmatch
import json
import sqlite3
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any, TypeVar

import numpy as np

from memgraph.models import MEMORY_RELATIONS, Layer, Memory, MemoryKind, Provenance, Scope, trusted
from memgraph.store.base import MemoryFilter, enum_reader

T = TypeVar("T")

#: Bound parameters per statement (SQLite >= 3.32 allows 32766).
MAX_SQL_VARIABLES = 30_000
MEMORY_COLUMNS = (
    "id, user_id, content, kind, layer, scope, session_id, created_at, updated_at, last_accessed, "
    "access_count, strength, importance, confidence, trust, provenance, active, archived, pinned, compressed, "
    "file_paths, trigger_patterns, metadata, embedding_model"
)
_JSON_FIELDS = {"file_paths", "trigger_patterns", "metadata"}
_BOOL_FIELDS = {"active", "archived", "pinned", "compressed"}
#: Fields an increment clamps to [0, 1].
CLAMPED = {"confidence", "importance"}
#: Memory-to-memory edge types as an SQL list (constants, not user data): lets SQLite use the edge indexes.
MEMORY_EDGE_TYPES = ", ".join(f"'{r.value}'" for r in MEMORY_RELATIONS)


@lru_cache(maxsize=8192)
def ts(value: datetime) -> str:
    """Timestamps are stored as fixed-width UTC ISO strings, so text order is time order. Cached: a batch
    job stamps thousands of rows with the same instant (isoformat gives the same text as the old strftime)."""
    return value.astimezone(UTC).isoformat(timespec="microseconds")


def parse_ts(value: str) -> datetime:
    return datetime.fromisoformat(value)


def json_value(text: str) -> Any:
    """json.loads with the two defaults that most rows hold answered without the parser (a 100k-row job read
    parses three JSON columns per row). Each call returns a fresh object: callers may mutate it."""
    if text == "[]":
        return []
    if text == "{}":
        return {}
    return json.loads(text)


#: Enum members by stored value: a dict lookup instead of the Enum constructor for each of 100k rows.
_KIND = enum_reader(MemoryKind)
_LAYER = enum_reader(Layer)
_SCOPE = enum_reader(Scope)
_PROVENANCE = enum_reader(Provenance)


def db_value(field: str, value: Any) -> Any:
    if field in _JSON_FIELDS:
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    if field in _BOOL_FIELDS:
        return int(bool(value))
    if isinstance(value, datetime):
        return ts(value)
    if hasattr(value, "value"):  # enums
        return value.value
    return value


def glob_any(patterns_json: str, files_json: str) -> int:
    """SQL function `mg_glob_any(file_paths, files)`: does any stored glob match any of the caller's files."""
    patterns = json.loads(patterns_json)
    files = json.loads(files_json)
    return int(any(fnmatch.fnmatchcase(f, p) for p in patterns for f in files))


def row_to_memory(row: sqlite3.Row, tags: list[str], with_embedding: bool) -> Memory:
    emb = None
    if with_embedding and row["embedding"] is not None:
        emb = np.frombuffer(row["embedding"], dtype=np.float32).tolist()
    # Rows were validated on the way in; skipping pydantic (validation and model_construct's field loop)
    # keeps a 100k-memory job read cheap (values are converted to the model's types right here).
    return trusted(
        Memory,
        dict(
            id=row["id"],
            user_id=row["user_id"],
            content=row["content"],
            kind=_KIND(row["kind"]),
            layer=_LAYER(row["layer"]),
            scope=_SCOPE(row["scope"]),
            session_id=row["session_id"],
            created_at=parse_ts(row["created_at"]),
            updated_at=parse_ts(row["updated_at"]),
            last_accessed=parse_ts(row["last_accessed"]),
            access_count=row["access_count"],
            strength=row["strength"],
            importance=row["importance"],
            confidence=row["confidence"],
            trust=row["trust"],
            provenance=_PROVENANCE(row["provenance"]),
            active=bool(row["active"]),
            archived=bool(row["archived"]),
            pinned=bool(row["pinned"]),
            compressed=bool(row["compressed"]),
            file_paths=json_value(row["file_paths"]),
            trigger_patterns=json_value(row["trigger_patterns"]),
            metadata=json_value(row["metadata"]),
            tags=tags,
            embedding_model=row["embedding_model"],
            embedding=emb,
            queued=False,
        ),
    )


def where(flt: MemoryFilter | None, alias: str = "m") -> tuple[str, list[Any]]:
    """The filter as a WHERE clause on the memories table aliased `alias`, and its parameters."""
    flt = flt or MemoryFilter()
    clauses: list[str] = []
    params: list[Any] = []
    if flt.active is not None:
        clauses.append(f"{alias}.active = ?")
        params.append(int(flt.active))
    if not flt.include_archived:
        clauses.append(f"{alias}.archived = 0")
    if not flt.include_compressed:
        clauses.append(f"{alias}.compressed = 0")
    if flt.kinds:
        clauses.append(f"{alias}.kind IN ({','.join('?' * len(flt.kinds))})")
        params += [k.value for k in flt.kinds]
    if flt.pinned is not None:
        # a literal, so that the partial index memories_pinned serves `pinned = 1`
        clauses.append(f"{alias}.pinned = {1 if flt.pinned else 0}")
    if flt.session_id is not None:
        clauses.append(f"{alias}.session_id = ?")
        params.append(flt.session_id)
    if flt.min_importance is not None:
        clauses.append(f"({alias}.importance >= ? OR {alias}.pinned = 1)")
        params.append(flt.min_importance)
    if flt.tag is not None:
        clauses.append(
            f"EXISTS (SELECT 1 FROM edges t WHERE t.user_id = {alias}.user_id AND t.type = 'HasTag' "
            f"AND t.src = {alias}.id AND t.dst = ?)"
        )
        params.append(flt.tag)
    if flt.files is not None:
        clauses.append(f"({alias}.scope != 'project' OR mg_glob_any({alias}.file_paths, ?) = 1)")
        params.append(json.dumps(flt.files))
    return (" AND ".join(clauses) or "1=1"), params
