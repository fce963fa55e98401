"""Cypher store (Neo4j 5 and FalkorDB). Placeholder until the Cypher backend lands; see issue #2."""

from __future__ import annotations

from memgraph.config import Settings
from memgraph.errors import UnsupportedOperationError
from memgraph.store.base import GraphStore


def open_cypher_store(target: str, settings: Settings) -> GraphStore:
    raise UnsupportedOperationError(f"the Cypher store is not available yet ({target})")
