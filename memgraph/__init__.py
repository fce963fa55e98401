"""memgraph: long-term memory for AI agents as a property graph.

The public API is `MemoryEngine` and the models below; everything else is internal.
"""

from memgraph.config import Settings
from memgraph.engine import MemoryEngine
from memgraph.errors import (
    EmbedderUnavailableError,
    MemgraphError,
    MissingOwnerError,
    ModelMismatchError,
    NotFoundError,
    ReadOnlyQueryError,
    SecretDetectedError,
    StoreError,
    TransientStoreError,
    UnsupportedOperationError,
    ValidationError,
)
from memgraph.models import (
    Cluster,
    Gap,
    Layer,
    Link,
    LinkSource,
    Memory,
    MemoryKind,
    Provenance,
    RecallResult,
    RecallTrace,
    Relation,
    Scope,
    SearchHit,
    StoreStats,
    Tag,
)

__version__ = "0.1.0"

__all__ = [
    "Cluster",
    "EmbedderUnavailableError",
    "Gap",
    "Layer",
    "Link",
    "LinkSource",
    "MemgraphError",
    "Memory",
    "MemoryEngine",
    "MemoryKind",
    "MissingOwnerError",
    "ModelMismatchError",
    "NotFoundError",
    "Provenance",
    "ReadOnlyQueryError",
    "RecallResult",
    "RecallTrace",
    "Relation",
    "Scope",
    "SearchHit",
    "SecretDetectedError",
    "Settings",
    "StoreError",
    "StoreStats",
    "Tag",
    "TransientStoreError",
    "UnsupportedOperationError",
    "ValidationError",
    "__version__",
]
