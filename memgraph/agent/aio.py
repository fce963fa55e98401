"""`AsyncMemoryAgent`: the same agent for asyncio code. One implementation (the thread-backed `MemoryAgent`);
this wrapper only makes its waits awaitable, so sync and async forms cannot drift apart.

    async with AsyncMemoryAgent(engine) as agent:
        agent.observe(turn, user_id="ada", session_id="s1")        # non-blocking, no await needed
        pending = await agent.take_pending(user_id="ada", session_id="s1")   # RecallResult | None
        report = await agent.end_session("ada", "s1")
"""

from __future__ import annotations

import asyncio
from typing import Any

from memgraph.agent.agent import MemoryAgent
from memgraph.agent.models import AgentStats, HeldCandidate, MemoryMode, SessionEndReport
from memgraph.agent.seam import AgentEngine
from memgraph.models import RecallResult


class AsyncMemoryAgent:
    """Awaitable take_pending / end_session / drain / close over one `MemoryAgent` (same rules: one per store)."""

    def __init__(self, engine: AgentEngine, **options: Any) -> None:
        self.sync = MemoryAgent(engine, **options)

    @property
    def mode(self) -> MemoryMode:
        return self.sync.mode

    @property
    def stats(self) -> AgentStats:
        return self.sync.stats

    def observe(self, turn: str, *, user_id: str, session_id: str, role: str = "user") -> None:
        """Queue a turn and return at once (safe to call from the event loop: it never blocks)."""
        self.sync.observe(turn, user_id=user_id, session_id=session_id, role=role)

    async def take_pending(self, *, user_id: str, session_id: str, timeout: float = 0.0) -> RecallResult | None:
        if timeout and timeout > 0:
            return await asyncio.to_thread(
                self.sync.take_pending, user_id=user_id, session_id=session_id, timeout=timeout
            )
        return self.sync.take_pending(user_id=user_id, session_id=session_id)

    async def end_session(self, user_id: str, session_id: str) -> SessionEndReport:
        return await asyncio.wrap_future(self.sync.end_session_future(user_id, session_id))

    async def drain(self, timeout: float | None = None) -> bool:
        return await asyncio.to_thread(self.sync.drain, timeout)

    def held(self, user_id: str, session_id: str) -> list[HeldCandidate]:
        return self.sync.held(user_id, session_id)

    async def close(self, *, end_sessions: bool = True, timeout: float | None = None) -> None:
        await asyncio.to_thread(self.sync.close, end_sessions=end_sessions, timeout=timeout)

    async def __aenter__(self) -> AsyncMemoryAgent:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()
