"""During a session: the transcript and the held candidates of one `SessionBuffer`.

A held statement said again (cosine >= agent_repeat_cosine or token Jaccard >= agent_repeat_jaccard against a
held candidate of the same session) counts as another mention of that candidate instead of a new one; session
end promotes candidates with enough mentions (a held statement needs repeating to become memory).
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Callable, Sequence
from datetime import datetime

import numpy as np

from memgraph.agent.models import HeldCandidate, SessionBuffer, TranscriptTurn, WriteAction
from memgraph.agent.policy import WriteDecision
from memgraph.agent.topic import cosine
from memgraph.config import Settings
from memgraph.text import content_tokens, jaccard

Embed = Callable[[Sequence[str]], np.ndarray]


class VectorCache:
    """Embeddings of held candidates and transcript turns, so a turn re-embeds only its own new text."""

    def __init__(self, embed: Embed, capacity: int = 4096) -> None:
        self._embed = embed
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self.capacity = capacity

    def vectors(self, texts: Sequence[str]) -> list[np.ndarray]:
        missing = list(dict.fromkeys(t for t in texts if t not in self._cache))
        if missing:
            for t, v in zip(missing, self._embed(missing), strict=True):
                self._cache[t] = np.asarray(v, dtype=np.float32)
        out = []
        for t in texts:
            self._cache.move_to_end(t)
            out.append(self._cache[t])
        while len(self._cache) > self.capacity:
            self._cache.popitem(last=False)
        return out


def candidate_id(text: str) -> str:
    return "c_" + hashlib.blake2b(" ".join(text.casefold().split()).encode(), digest_size=8).hexdigest()


def add_turn(buf: SessionBuffer, role: str, text: str, at: datetime, settings: Settings) -> int:
    """Append a (secret-filtered) turn to the transcript; returns its index in the session."""
    index = buf.turns
    buf.turns += 1
    if role == "user":
        buf.user_turns += 1
    buf.transcript.append(TranscriptTurn(index=index, role=role, text=text[: settings.agent_transcript_chars], at=at))
    if len(buf.transcript) > settings.agent_max_transcript:
        del buf.transcript[: len(buf.transcript) - settings.agent_max_transcript]
    buf.last_activity = at
    return index


def hold(
    buf: SessionBuffer, decision: WriteDecision, turn: int, at: datetime, vectors: VectorCache, settings: Settings
) -> tuple[HeldCandidate, bool]:
    """Hold a statement, or count it as a repeat of a held one. Returns (candidate, was a repeat)."""
    best: HeldCandidate | None = None
    best_score = 0.0
    if buf.held:
        texts = [c.text for c in buf.held]
        new_vec, *held_vecs = vectors.vectors([decision.text, *texts])
        for c, v in zip(buf.held, held_vecs, strict=True):
            cos = cosine(new_vec, v)
            jac = jaccard(decision.text, c.text)
            if cos >= settings.agent_repeat_cosine or jac >= settings.agent_repeat_jaccard:
                score = max(cos, jac)
                if score > best_score:
                    best, best_score = c, score
    if best is not None:
        if turn not in best.turns:
            best.mentions += 1
            best.turns.append(turn)
        best.last_seen = at
        if len(set(content_tokens(decision.text))) > len(set(content_tokens(best.text))) + 1:
            best.text = decision.text  # a clearly fuller wording replaces the first one
        if decision.action is WriteAction.HOLD and best.action is WriteAction.REQUIRE_REPETITION:
            best.action, best.rule, best.reason = decision.action, decision.rule, decision.reason
        return best, True
    cand = HeldCandidate(
        id=candidate_id(decision.text),
        text=decision.text,
        kind=decision.kind,
        action=decision.action,
        rule=decision.rule,
        reason=decision.reason,
        turns=[turn],
        first_seen=at,
        last_seen=at,
    )
    buf.held.append(cand)
    if len(buf.held) > settings.agent_max_held:
        # make room: the oldest candidate mentioned once goes first (a repeated one has earned its place)
        victim = next((c for c in buf.held if c.mentions == 1 and c is not cand), buf.held[0])
        buf.held.remove(victim)
        buf.dropped += 1
    return cand, False
