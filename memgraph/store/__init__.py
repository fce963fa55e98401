"""Stores behind one `GraphStore` protocol; `open_store` picks one from a target string."""

from __future__ import annotations

from memgraph.config import Settings
from memgraph.errors import ValidationError
from memgraph.store.base import (
    Expansion,
    GraphStore,
    JobRun,
    MemoryFilter,
    MemoryUpdate,
    WriteBatch,
)

__all__ = [
    "Expansion",
    "GraphStore",
    "JobRun",
    "MemoryFilter",
    "MemoryUpdate",
    "WriteBatch",
    "is_cypher_target",
    "open_store",
]

CYPHER_SCHEMES = ("bolt://", "bolt+s://", "bolt+ssc://", "neo4j://", "neo4j+s://", "neo4j+ssc://", "falkordb")


def is_cypher_target(target: str) -> bool:
    return target.startswith(CYPHER_SCHEMES)


def open_store(target: str, settings: Settings) -> GraphStore:
    """A directory path or `:memory:` opens SQLite; bolt://, neo4j:// open Neo4j; falkordb://host:port or
    falkordb+dir:///path open FalkorDB (the latter starts an embedded server from falkordblite)."""
    if not isinstance(target, str) or not target.strip():
        raise ValidationError("store target must be a non-empty string")
    if is_cypher_target(target):
        from memgraph.store.cypher import open_cypher_store

        return open_cypher_store(target, settings)
    if "://" in target:
        raise ValidationError(
            f"unknown store target {target!r}: use a directory, ':memory:', bolt://, neo4j://, "
            "falkordb://host:port or falkordb+dir:///path"
        )
    from memgraph.store.bm25 import Okapi
    from memgraph.store.sqlite import SQLiteStore
    from memgraph.store.sqlite.ann import AnnConfig

    return SQLiteStore(
        target,
        embedding_dim=settings.embedding_dim,
        busy_timeout_ms=settings.sqlite_busy_timeout_ms,
        retry_attempts=settings.store_retry_attempts,
        retry_base_delay=settings.store_retry_base_delay,
        okapi=Okapi.from_settings(settings),
        change_log_keep=settings.sqlite_change_log_keep,
        memory_rows_cached=settings.sqlite_memory_rows_cached,
        ann=AnnConfig(
            min_vectors=settings.ann_min_vectors,
            min_passing_fraction=settings.ann_min_passing_fraction,
            subquantizers=settings.ann_subquantizers,
            rerank=settings.ann_rerank,
            rerank_per_sqrt=settings.ann_rerank_per_sqrt,
            rebuild_fraction=settings.ann_rebuild_fraction,
            background=settings.ann_background,
        ),
    )
