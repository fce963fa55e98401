"""The background memory agent: the write policy, session buffers and session end.

`MemoryAgent` / `AsyncMemoryAgent` watch a conversation without making it wait: turns go on a bounded queue,
a worker recalls and applies the write policy, and the memories prepared from turn N are taken at turn N+1.
"""

from memgraph._deprecated import deprecated_alias
from memgraph.agent.agent import MemoryAgent
from memgraph.agent.aio import AsyncMemoryAgent
from memgraph.agent.models import (
    AgentStats,
    CandidateOutcome,
    HeldCandidate,
    MemoryMode,
    SessionBuffer,
    SessionEndReport,
    WriteAction,
)
from memgraph.agent.policy import WriteDecision, WritePolicy

__all__ = [
    "AgentStats",
    "AsyncMemoryAgent",
    "CandidateOutcome",
    "HeldCandidate",
    "MemoryAgent",
    "MemoryMode",
    "SessionBuffer",
    "SessionEndReport",
    "WriteAction",
    "WriteDecision",
    "WritePolicy",
]


def __getattr__(name: str) -> type:
    return deprecated_alias(__name__, name, {"Action": WriteAction, "Decision": WriteDecision})
