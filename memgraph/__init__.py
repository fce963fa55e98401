"""memgraph: long-term memory for AI agents as a property graph.

The public API is `MemoryEngine` and the models below; everything else is internal.
"""

from memgraph.agent import AgentStats, AsyncMemoryAgent, MemoryAgent, MemoryMode, SessionEndReport
from memgraph.config import Settings
from memgraph.engine import MemoryEngine
from memgraph.errors import (
    AgentAlreadyRunningError,
    AgentClosedError,
    EmbedderUnavailableError,
    MemgraphError,
    MissingOwnerError,
    ModelMismatchError,
    NotFoundError,
    SecretDetectedError,
    StoreError,
    TransientStoreError,
    UnsupportedOperationError,
    ValidationError,
)
from memgraph.ingest.reconcile import Reconciler
from memgraph.ingest.report import IngestReport
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
from memgraph.tools import ToolDefinition, ToolError, ToolResult, ToolSet

__version__ = "0.1.0"

__all__ = [
    "AgentAlreadyRunningError",
    "AgentClosedError",
    "AgentStats",
    "AsyncMemoryAgent",
    "MemoryAgent",
    "MemoryMode",
    "SessionEndReport",
    "ToolDefinition",
    "ToolError",
    "ToolResult",
    "ToolSet",
    "Cluster",
    "EmbedderUnavailableError",
    "Gap",
    "IngestReport",
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
    "RecallResult",
    "RecallTrace",
    "Reconciler",
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
