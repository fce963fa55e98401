"""The agent's data: what a session buffer holds (persisted as JSON), what session end reports, and counters.

A `SessionBuffer` is the session memory buffer: the held candidates of one (user, session), the
session's transcript (secret-filtered, bounded) and the ids of the memories the session already wrote. It is
saved after every processed turn, so a killed process loses at most the turns still queued.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from pydantic import BaseModel, Field

from memgraph._deprecated import deprecated_alias
from memgraph.models import MemoryKind, utcnow


class MemoryMode(StrEnum):
    """Seed 004 memory modes. `incognito` persists nothing (buffers in memory, no store writes at all);
    `local` writes to the engine's store. ("guest" is accepted as an alias of incognito.)"""

    INCOGNITO = "incognito"
    LOCAL = "local"

    @classmethod
    def parse(cls, value: str | MemoryMode) -> MemoryMode:
        from memgraph.errors import ValidationError

        if isinstance(value, MemoryMode):
            return value
        key = str(value).strip().lower()
        if key == "guest":
            return cls.INCOGNITO
        try:
            return cls(key)
        except ValueError:
            raise ValidationError(f"unknown memory mode {value!r}; use 'local' or 'incognito'") from None


class WriteAction(StrEnum):
    """What the write policy does with one statement (commit, hold or drop)."""

    COMMIT = "commit"  # explicit durable statement: written now through the ingest path
    HOLD = "hold"  # implicit statement: kept until session end, promoted if repeated or supported
    REQUIRE_REPETITION = "require_repetition"  # session-only / implicit preference: promoted only if repeated
    DROP = "drop"  # a candidate refused by a guard (safety conflict, secret under the reject policy)
    SKIP = "skip"  # not a candidate at all (question, chit-chat, assistant turn): context only


class TranscriptTurn(BaseModel):
    index: int
    role: str
    text: str  # secret-filtered, clipped to agent_transcript_chars
    at: datetime = Field(default_factory=utcnow)


class HeldCandidate(BaseModel):
    """A statement held for session end. Repeated mentions raise `mentions` instead of adding a candidate."""

    id: str
    text: str
    kind: MemoryKind
    action: WriteAction
    rule: str
    reason: str
    mentions: int = 1
    turns: list[int] = Field(default_factory=list)  # transcript indexes where it was said
    first_seen: datetime = Field(default_factory=utcnow)
    last_seen: datetime = Field(default_factory=utcnow)


class SessionBuffer(BaseModel):
    """Everything session end needs, persisted per (user, session) in the store (local mode)."""

    user_id: str
    session_id: str
    started_at: datetime = Field(default_factory=utcnow)
    last_activity: datetime = Field(default_factory=utcnow)
    turns: int = 0
    user_turns: int = 0
    transcript: list[TranscriptTurn] = Field(default_factory=list)
    held: list[HeldCandidate] = Field(default_factory=list)
    written: list[str] = Field(default_factory=list)  # memory ids committed by this session
    dropped: int = 0
    dropped_turns: list[int] = Field(default_factory=list)  # turns with a statement the policy refused
    misses: int = 0  # turns whose recall prepared nothing


class CandidateOutcome(BaseModel):
    """What session end did with one held candidate, and why."""

    text: str
    kind: MemoryKind
    outcome: str  # promoted | dropped
    reason: str
    mentions: int
    memory_id: str | None = None


class SessionEndReport(BaseModel):
    """The result of `end_session`: promotions, drops, the summary and the gaps of one session."""

    user_id: str
    session_id: str
    trigger: str  # explicit | inactivity | close
    mode: MemoryMode
    turns: int = 0
    committed: list[str] = Field(default_factory=list, description="memories written during the session")
    promoted: list[str] = Field(default_factory=list, description="held candidates written at session end")
    candidates: list[CandidateOutcome] = Field(default_factory=list)
    summary_id: str | None = None
    summary: str | None = None
    evidence: list[str] = Field(default_factory=list, description="memory ids the summary is DerivedFrom")
    gaps: list[str] = Field(default_factory=list, description="recall misses of this session (Gap queries)")
    persisted: bool = True  # False in incognito mode: the report says what would have been written

    @property
    def dropped(self) -> list[CandidateOutcome]:
        return [c for c in self.candidates if c.outcome == "dropped"]


class AgentStats(BaseModel):
    """Counters of one agent (a snapshot; `agent.stats` returns a fresh copy)."""

    observed: int = 0
    processed: int = 0
    queue_dropped: int = Field(0, description="turns dropped unprocessed because the queue was full (oldest)")
    queued: int = 0
    errors: int = 0
    last_error: str | None = None
    committed: int = 0
    held: int = 0
    repeated: int = 0
    promoted: int = 0
    candidates_dropped: int = 0
    skipped: int = 0
    prepared: int = Field(0, description="turns for which memories were prepared for the next turn")
    surfaced: int = Field(0, description="memories handed to the caller by take_pending")
    misses: int = 0
    topic_changes: int = 0
    sessions_ended: int = 0
    summaries: int = 0


def __getattr__(name: str) -> type:
    return deprecated_alias(__name__, name, {"Action": WriteAction})
