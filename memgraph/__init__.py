"""memgraph: long-term memory for AI agents as a property graph.

The public API is `MemoryEngine` and the models below; everything else is internal.
"""

import logging
from typing import TYPE_CHECKING

from memgraph.config import Settings
from memgraph.engine import MemoryEngine
from memgraph.errors import (
    AgentAlreadyRunningError,
    AgentClosedError,
    EmbedderUnavailableError,
    EngineClosedError,
    ExportFormatError,
    InvalidIdentifierError,
    JobLockedError,
    MemgraphError,
    MissingOwnerError,
    ModelMismatchError,
    NotFoundError,
    ProvenanceError,
    ReadOnlyQueryError,
    SchemaVersionError,
    SecretDetectedError,
    StoreError,
    TransientStoreError,
    UnknownUserError,
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
    WeakHits,
)

__version__ = "0.1.0"

if TYPE_CHECKING:  # what the lazy names below are, for type checkers
    from memgraph.agent import AgentStats, AsyncMemoryAgent, MemoryAgent, MemoryMode, SessionEndReport
    from memgraph.aio import AsyncMemoryEngine
    from memgraph.tools import ToolDefinition, ToolError, ToolResult, ToolSet

#: Imported on first use (`from memgraph import MemoryAgent` works): commands that never run an agent, the
#: tools or the async engine do not pay for building their models and regexes at start-up (the async twins
#: alone were ~0.35 s of a cold `memgraph recall`: each method's argument validator is built at import).
_LAZY = {
    "AsyncMemoryEngine": "memgraph.aio",
    "AgentStats": "memgraph.agent",
    "AsyncMemoryAgent": "memgraph.agent",
    "MemoryAgent": "memgraph.agent",
    "MemoryMode": "memgraph.agent",
    "SessionEndReport": "memgraph.agent",
    "ToolDefinition": "memgraph.tools",
    "ToolError": "memgraph.tools",
    "ToolResult": "memgraph.tools",
    "ToolSet": "memgraph.tools",
}


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'memgraph' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value

__all__ = [
    "AsyncMemoryEngine",
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
    "EngineClosedError",
    "ExportFormatError",
    "Gap",
    "IngestReport",
    "InvalidIdentifierError",

    "JobLockedError",
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
    "ProvenanceError",
    "ReadOnlyQueryError",
    "RecallResult",
    "RecallTrace",
    "Reconciler",
    "Relation",
    "Scope",
    "SearchHit",
    "SchemaVersionError",
    "SecretDetectedError",
    "Settings",
    "StoreError",
    "StoreStats",
    "Tag",
    "TransientStoreError",
    "UnknownUserError",
    "UnsupportedOperationError",
    "ValidationError",
    "WeakHits",
    "__version__",
]


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))

# A library leaves logging to the application: without a handler of its own, Python's last-resort handler
# would print memgraph's warnings (store retries) to stderr in apps that configured no logging.
# The CLI installs its own handler (memgraph/cli/__init__.py, --verbose).
logging.getLogger("memgraph").addHandler(logging.NullHandler())
