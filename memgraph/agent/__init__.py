"""The background memory agent (seed 002 "Memory Agent", seed 004 write model and session end).

`MemoryAgent` / `AsyncMemoryAgent` watch a conversation without making it wait: turns go on a bounded queue,
a worker recalls and applies the write policy, and the memories prepared from turn N are taken at turn N+1.
"""

from memgraph.agent.agent import MemoryAgent
from memgraph.agent.aio import AsyncMemoryAgent
from memgraph.agent.models import (
    Action,
    AgentStats,
    CandidateOutcome,
    HeldCandidate,
    MemoryMode,
    SessionBuffer,
    SessionEndReport,
)
from memgraph.agent.policy import Decision, WritePolicy

__all__ = [
    "Action",
    "AgentStats",
    "AsyncMemoryAgent",
    "CandidateOutcome",
    "Decision",
    "HeldCandidate",
    "MemoryAgent",
    "MemoryMode",
    "SessionBuffer",
    "SessionEndReport",
    "WritePolicy",
]
