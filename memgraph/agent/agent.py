"""`MemoryAgent`: memory for an agent without ever making it wait (writes and
recalls run in the background).

    agent = MemoryAgent(engine)
    for turn in conversation:
        pending = agent.take_pending(user_id="ada", session_id="s1")    # RecallResult | None (previous turn)
        prompt = build_prompt(turn, pending.to_prompt() if pending else "")
        agent.observe(turn, user_id="ada", session_id="s1")              # returns at once
        ...
    agent.end_session(user_id="ada", session_id="s1")

`observe` puts the turn on a bounded queue and returns; when the queue is full the oldest queued turn is
dropped and counted (`stats.queue_dropped`). One background thread takes turns in order and for each: filters
secrets, embeds the context, detects topic changes, recalls (before the turn's own writes), keeps the memories
not yet surfaced in this topic as the session's pending result, and runs the write policy (commit now / hold /
require repetition / drop) with the session buffer saved to the store afterwards. A turn is acknowledged once
its buffer is saved: a killed process loses at most the turns still queued, never a held candidate.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import deque
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

import numpy as np

from memgraph.agent import registry
from memgraph.agent.buffer import BufferStore, MemoryBufferStore, MetaBufferStore, SessionKey
from memgraph.agent.finalize import SessionFinalizer
from memgraph.agent.models import AgentStats, HeldCandidate, MemoryMode, SessionBuffer, SessionEndReport, WriteAction
from memgraph.agent.policy import WritePolicy
from memgraph.agent.seam import AgentEngine
from memgraph.agent.session import VectorCache, add_turn, hold
from memgraph.agent.topic import TopicTracker
from memgraph.embed import CachedEmbedder, Embedder
from memgraph.errors import AgentClosedError, SecretDetectedError, StoreError, ValidationError
from memgraph.ingest.secrets import SecretFilter
from memgraph.models import RecallResult, utcnow, validate_identifier, validate_owner

if TYPE_CHECKING:
    from memgraph.retrieve.pipeline import Recaller

log = logging.getLogger("memgraph.agent")

ROLES = ("user", "assistant", "system")


@dataclass
class _Turn:
    key: SessionKey
    role: str
    text: str
    seq: int
    at: datetime


@dataclass
class _End:
    key: SessionKey
    trigger: str
    future: Future[SessionEndReport] = field(default_factory=Future)


@dataclass
class _Close:
    end_sessions: bool


class MemoryAgent:
    """The background memory agent of one store. Thread-safe; one per store (AgentAlreadyRunningError)."""

    def __init__(
        self,
        engine: AgentEngine,
        *,
        mode: MemoryMode | str = MemoryMode.LOCAL,
        queue_size: int | None = None,
        inactivity_timeout: float | None = None,
        top_k: int | None = None,
        token_budget: int | None = None,
        policy: WritePolicy | None = None,
    ) -> None:
        s = engine.settings
        self.engine = engine
        self.settings = s
        self.mode = MemoryMode.parse(mode)
        self.queue_size = _positive_int(s.agent_queue_size if queue_size is None else queue_size, "queue_size")
        self.inactivity_timeout = _positive_float(
            s.agent_inactivity_timeout if inactivity_timeout is None else inactivity_timeout, "inactivity_timeout"
        )
        self.top_k = _positive_int(s.agent_top_k if top_k is None else top_k, "top_k")
        self.token_budget = _positive_int(s.agent_token_budget if token_budget is None else token_budget,
                                          "token_budget")
        self.policy = policy or WritePolicy(min_words=s.agent_min_candidate_words,
                                            max_triggers=s.constraint_max_triggers)
        #: the write path's secret policy, applied to each turn before it is embedded, buffered or recalled
        self._secrets = SecretFilter.from_settings(s)
        self._claim = registry.claim(engine, holder=f"pid {os.getpid()}, {self.mode.value} agent")
        try:
            self._setup()
        except BaseException:
            self._claim.release()
            raise

    def _setup(self) -> None:
        s = self.settings
        engine = self.engine
        self._cv = threading.Condition()
        self._queue: deque[_Turn | _End | _Close] = deque()
        self._turns_queued = 0
        self._closed = False
        self._stats = AgentStats()
        self._seq: dict[SessionKey, int] = {}
        self._done: dict[SessionKey, int] = {}
        self._pending: dict[SessionKey, RecallResult] = {}
        self._topics = TopicTracker(s.agent_topic_change_cosine)
        self._open: dict[SessionKey, SessionBuffer] = {}
        self._recaller: Recaller | None = None
        if self.mode is MemoryMode.LOCAL:
            self._buffers: BufferStore = MetaBufferStore(engine.store)
            self._embedder: Embedder | None = None  # the engine's (cached, persistent)
        else:
            # incognito: no store writes, and no embedding cache on disk either
            from memgraph.retrieve.maintenance import Maintainer
            from memgraph.retrieve.pipeline import Recaller

            self._buffers = MemoryBufferStore()
            base = engine.embedder
            own = CachedEmbedder(base.inner if isinstance(base, CachedEmbedder) else base)
            self._embedder = own
            ro = s.model_copy(update={"recall_maintenance": False})
            self._recaller = Recaller(engine.store, ro, lambda: own, Maintainer(engine.store, ro))
        self._vectors = VectorCache(self._embed)
        self._finalizer = SessionFinalizer(engine, self.mode, self._vectors)
        for key in self._buffers.sessions():  # sessions a previous (maybe killed) agent left open
            buf = self._buffers.load(key)
            if buf is not None:
                self._open[key] = buf
        self._thread = threading.Thread(target=self._run, name="memgraph-agent", daemon=True)
        self._thread.start()

    # -- caller side: never waits on the store ---------------------------------------------------------------

    def observe(self, turn: str, *, user_id: str, session_id: str, role: str = "user") -> None:
        """Queue a turn for the background worker and return at once (no embedding, no store access).

        Raises a typed error for bad input (empty turn, missing owner, unknown role) and AgentClosedError
        after close(). When the queue is full the oldest queued turn is dropped (`stats.queue_dropped`)."""
        if not isinstance(turn, str):
            raise ValidationError(f"turn must be a string, got {type(turn).__name__}")
        if not turn.strip():
            raise ValidationError("turn is empty")
        if len(turn) > self.settings.max_ingest_chars:
            raise ValidationError(
                f"turn has {len(turn)} characters; the maximum is {self.settings.max_ingest_chars}"
            )
        key = (validate_owner(user_id), validate_identifier(session_id, "session_id"))
        if role not in ROLES:
            raise ValidationError(f"role must be one of {', '.join(ROLES)}, got {role!r}")
        with self._cv:
            if self._closed:
                raise AgentClosedError("this MemoryAgent is closed; create a new one")
            if self._turns_queued >= self.queue_size:
                self._drop_oldest()
            seq = self._seq.get(key, 0) + 1
            self._seq[key] = seq
            self._queue.append(_Turn(key, role, turn, seq, utcnow()))
            self._turns_queued += 1
            self._stats.observed += 1
            self._cv.notify_all()

    def _drop_oldest(self) -> None:
        for i, item in enumerate(self._queue):
            if isinstance(item, _Turn):
                del self._queue[i]
                self._turns_queued -= 1
                self._stats.queue_dropped += 1
                self._done[item.key] = max(self._done.get(item.key, 0), item.seq)
                return

    def take_pending(self, *, user_id: str, session_id: str, timeout: float = 0.0) -> RecallResult | None:
        """The memories prepared from the session's latest processed turn that were not surfaced yet in this
        topic, or None. They count as surfaced once taken. `timeout` > 0 first waits (that long at most) until
        every turn observed so far for this session has been processed."""
        key = (validate_owner(user_id), validate_identifier(session_id, "session_id"))
        with self._cv:
            if timeout and timeout > 0:
                deadline = time.monotonic() + timeout
                while self._done.get(key, 0) < self._seq.get(key, 0):
                    left = deadline - time.monotonic()
                    if left <= 0 or not self._thread.is_alive():
                        break
                    self._cv.wait(left)
            result = self._pending.pop(key, None)
            if result is None:
                return None
            fresh = set(self._topics.unseen(key, [m.id for m in result.memories]))
            if not fresh:
                return None
            if len(fresh) < len(result.memories):
                result = _subset(result, fresh)
            self._topics.mark_surfaced(key, [m.id for m in result.memories])
            self._stats.surfaced += len(result.memories)
            return result

    def end_session(self, user_id: str, session_id: str, *, timeout: float | None = None) -> SessionEndReport:
        """End a session now (after its queued turns): promote or drop held candidates, write the episodic
        summary with DerivedFrom edges, flush recall gaps. Returns what was done."""
        return self.end_session_future(user_id, session_id).result(timeout=timeout)

    def end_session_future(self, user_id: str, session_id: str) -> Future[SessionEndReport]:
        """`end_session` without waiting: a Future of the report (AsyncMemoryAgent awaits it)."""
        key = (validate_owner(user_id), validate_identifier(session_id, "session_id"))
        item = _End(key, "explicit")
        with self._cv:
            if self._closed:
                raise AgentClosedError("this MemoryAgent is closed; create a new one")
            self._queue.append(item)
            self._cv.notify_all()
        return item.future

    def drain(self, timeout: float | None = None) -> bool:
        """Wait until every queued turn and session end has been processed. Returns False on timeout."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cv:
            while self._queue or self._busy:
                if not self._thread.is_alive():
                    return not self._queue
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return False
                self._cv.wait(left if left is not None else 0.5)
        return True

    def held(self, user_id: str, session_id: str) -> list[HeldCandidate]:
        """The held candidates of a session as persisted (what survives a restart)."""
        key = (validate_owner(user_id), validate_identifier(session_id, "session_id"))
        buf = self._buffers.load(key)
        return [] if buf is None else list(buf.held)

    def sessions(self) -> list[SessionKey]:
        """Open sessions: (user_id, session_id) pairs with a buffer, including ones left by a previous agent."""
        return self._buffers.sessions()

    @property
    def stats(self) -> AgentStats:
        with self._cv:
            snap = self._stats.model_copy()
            snap.queued = self._turns_queued
            return snap

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self, *, end_sessions: bool = True, timeout: float | None = None) -> None:
        """Process every queued turn, end every open session (unless end_sessions=False: buffers stay in the
        store for the next agent), flush background maintenance and free the store for another agent."""
        with self._cv:
            already = self._closed
            if not already:
                self._closed = True
                self._queue.append(_Close(end_sessions))
                self._cv.notify_all()
        self._thread.join(self.settings.agent_close_timeout if timeout is None else timeout)
        if self._thread.is_alive():
            raise StoreError(
                "the memory agent did not finish its queue in time; the store stays claimed by this agent "
                "(call close() again to keep waiting)"
            )
        if not already and self.mode is MemoryMode.LOCAL:
            self.engine.flush()
        self._claim.release()

    def __enter__(self) -> MemoryAgent:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- worker side ----------------------------------------------------------------------------------------

    _busy = False

    def _run(self) -> None:
        last_sweep = time.monotonic()
        while True:
            with self._cv:
                if not self._queue:
                    self._cv.wait(self.settings.agent_poll_interval)
                item = self._queue.popleft() if self._queue else None
                if isinstance(item, _Turn):
                    self._turns_queued -= 1
                self._busy = item is not None
            try:
                if isinstance(item, _Close):
                    self._shutdown(item.end_sessions)
                    return
                if isinstance(item, _Turn):
                    self._handle_turn(item)
                elif isinstance(item, _End):
                    self._handle_end(item)
                if time.monotonic() - last_sweep >= self.settings.agent_poll_interval:
                    last_sweep = time.monotonic()
                    self._expire_idle()
            finally:
                with self._cv:
                    self._busy = False
                    self._cv.notify_all()

    def _handle_turn(self, t: _Turn) -> None:
        try:
            self._process(t)
            with self._cv:
                self._stats.processed += 1
        except Exception as exc:  # one bad turn must not stop the agent
            log.exception("memory agent: turn %d of session %r failed", t.seq, t.key[1])
            with self._cv:
                self._stats.errors += 1
                self._stats.last_error = f"{type(exc).__name__}: {exc}"
        finally:
            with self._cv:
                self._done[t.key] = max(self._done.get(t.key, 0), t.seq)
                self._cv.notify_all()

    def _handle_end(self, item: _End) -> None:
        try:
            report = self._end(item.key, item.trigger)
        except Exception as exc:
            log.exception("memory agent: ending session %r failed", item.key[1])
            with self._cv:
                self._stats.errors += 1
                self._stats.last_error = f"{type(exc).__name__}: {exc}"
            item.future.set_exception(exc)
        else:
            item.future.set_result(report)

    def _process(self, t: _Turn) -> None:
        engine = self.engine
        user_id, session_id = t.key
        buf = self._buffer(t.key, t.at)
        rejected = False
        try:
            safe = self._secrets.text(t.text, what="turn").text
        except SecretDetectedError:  # reject policy: nothing of this turn is remembered; recall still runs
            safe = engine.redact(t.text)
            rejected = True
        context = safe.strip()[: self.settings.max_content_chars]

        # the write policy is plain rules: decide first, so the model embeds the context and every statement
        # to hold in one batch (one forward pass instead of one per sentence)
        decisions = [] if rejected else self.policy.decide_turn(safe, t.role)
        holds = [d.text for d in decisions if d.action in (WriteAction.HOLD, WriteAction.REQUIRE_REPETITION)
                 or (d.action is WriteAction.COMMIT and self.mode is MemoryMode.INCOGNITO)]
        vec, *_ = self._vectors.vectors([context, *holds])

        # 1. topic: consecutive contexts far apart reset what was surfaced
        with self._cv:
            changed, _ = self._topics.observe(t.key, vec)
            if changed:
                self._stats.topic_changes += 1
                self._pending.pop(t.key, None)  # prepared for the old topic

        # 2. recall before this turn's own writes; keep what this topic has not surfaced yet
        result = self._recall(context, user_id)
        written = set(buf.written)
        ids = [m.id for m in result.memories if m.id not in written]
        with self._cv:
            fresh = set(self._topics.unseen(t.key, ids))
            if fresh:
                self._pending[t.key] = _subset(result, fresh)
                self._stats.prepared += 1
            if not result.memories:
                self._stats.misses += 1
        if not result.memories:
            buf.misses += 1

        # 3. the write policy
        index = add_turn(buf, t.role, safe, t.at, self.settings)
        if rejected:
            buf.dropped += 1
            buf.dropped_turns.append(index)
            with self._cv:
                self._stats.candidates_dropped += 1
        commits = [d for d in decisions if d.action is WriteAction.COMMIT]
        counts = {"held": 0, "repeated": 0, "dropped": 0, "skipped": 0}
        if commits and self.mode is MemoryMode.LOCAL:
            items = [
                {"content": d.text, "kind": d.kind, "session_id": session_id,
                 "metadata": {"source": "agent", "rule": d.rule}}
                for d in commits
            ]
            mems = engine.remember_many(items, user_id=user_id)
            buf.written.extend(m.id for m in mems if m.id not in written)
        for d in decisions:
            if d.action in (WriteAction.HOLD, WriteAction.REQUIRE_REPETITION) or (
                d.action is WriteAction.COMMIT and self.mode is MemoryMode.INCOGNITO
            ):
                _, repeated = hold(buf, d, index, t.at, self._vectors, self.settings)
                counts["repeated" if repeated else "held"] += 1
            elif d.action is WriteAction.DROP:
                buf.dropped += 1
                counts["dropped"] += 1
                if index not in buf.dropped_turns:
                    buf.dropped_turns.append(index)
            elif d.action is WriteAction.SKIP:
                counts["skipped"] += 1
        self._buffers.save(buf)  # the acknowledgement: from here on a crash loses nothing of this turn
        with self._cv:
            self._stats.committed += len(commits)
            self._stats.held += counts["held"]
            self._stats.repeated += counts["repeated"]
            self._stats.candidates_dropped += counts["dropped"]
            self._stats.skipped += counts["skipped"]

    def _buffer(self, key: SessionKey, at: datetime) -> SessionBuffer:
        buf = self._open.get(key)
        if buf is None:
            buf = self._buffers.load(key) or SessionBuffer(user_id=key[0], session_id=key[1], started_at=at,
                                                           last_activity=at)
            self._open[key] = buf
        return buf

    def _recall(self, text: str, user_id: str) -> RecallResult:
        if self._recaller is None:
            return self.engine.recall(
                text, user_id=user_id, top_k=self.top_k, token_budget=self.token_budget
            )
        from memgraph.retrieve.pipeline import RecallRequest

        return self._recaller.recall(RecallRequest(
            user_id=user_id, query=text, top_k=self.top_k, token_budget=self.token_budget, kinds=None,
            scope_files=None, mode="cascade", include_archived=False,
        ))

    def _embed(self, texts: Sequence[str]) -> np.ndarray:
        if self._embedder is not None:
            return np.asarray(self._embedder.encode(list(texts)), dtype=np.float32)
        return self.engine.embed(texts)

    def _end(self, key: SessionKey, trigger: str) -> SessionEndReport:
        buf = self._open.get(key) or self._buffers.load(key)
        if buf is None:
            return SessionEndReport(user_id=key[0], session_id=key[1], trigger=trigger, mode=self.mode,
                                    persisted=self.mode is MemoryMode.LOCAL)
        report = self._finalizer.finalize(buf, trigger)
        self._buffers.delete(key)  # only after everything was written: a crash before here re-runs the end
        self._open.pop(key, None)
        with self._cv:
            self._topics.forget(key)
            self._pending.pop(key, None)
            self._stats.sessions_ended += 1
            self._stats.promoted += len(report.promoted)
            self._stats.summaries += 1 if report.summary_id else 0
        log.info("memory agent: session %r ended (%s): %d committed, %d promoted, %d dropped, summary %s",
                 key[1], trigger, len(report.committed), len(report.promoted), len(report.dropped),
                 report.summary_id)
        return report

    def _expire_idle(self) -> None:
        now = utcnow()
        for key, buf in list(self._open.items()):
            with self._cv:
                waiting = self._done.get(key, 0) < self._seq.get(key, 0)
            if waiting or (now - buf.last_activity).total_seconds() < self.inactivity_timeout:
                continue
            try:
                self._end(key, "inactivity")
            except Exception as exc:
                log.exception("memory agent: ending idle session %r failed", key[1])
                with self._cv:
                    self._stats.errors += 1
                    self._stats.last_error = f"{type(exc).__name__}: {exc}"

    def _shutdown(self, end_sessions: bool) -> None:
        """The queue is empty up to the close marker; end the open sessions if asked."""
        if not end_sessions:
            return
        for key in list(self._open):
            try:
                self._end(key, "close")
            except Exception as exc:
                log.exception("memory agent: ending session %r at close failed", key[1])
                with self._cv:
                    self._stats.errors += 1
                    self._stats.last_error = f"{type(exc).__name__}: {exc}"


def _subset(result: RecallResult, keep: set[str]) -> RecallResult:
    mems = [m for m in result.memories if m.id in keep]
    traces = [t for t in result.trace if t.memory_id in keep]
    tokens = sum(t.tokens for t in traces)
    budget = result.total_tokens / result.budget_used if result.budget_used else 0
    return result.model_copy(update={
        "memories": mems,
        "trace": traces,
        "total_tokens": tokens,
        "budget_used": (tokens / budget) if budget else 0.0,
    })


def _positive_int(value: object, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ValidationError(f"{what} must be a positive integer, got {value!r}")
    return value


def _positive_float(value: object, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
        raise ValidationError(f"{what} must be a positive number of seconds, got {value!r}")
    return float(value)
