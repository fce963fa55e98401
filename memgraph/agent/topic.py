"""Topic-change detection and surfaced-memory tracking.

The context of each turn is embedded; when two consecutive contexts of a session are less similar than
`agent_topic_change_cosine` (0.3) the conversation has moved on, and the set of memories already surfaced in
the old topic is cleared so they may be surfaced again. Within a topic a memory is handed to the caller once.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


def cosine(a: np.ndarray, b: np.ndarray) -> float:
    na, nb = float(np.linalg.norm(a)), float(np.linalg.norm(b))
    if na == 0.0 or nb == 0.0:
        return 0.0
    return float(np.dot(a, b) / (na * nb))


@dataclass
class TopicState:
    """One session's topic: the last context vector and the memories surfaced since the topic began."""

    last: np.ndarray | None = None
    surfaced: set[str] = field(default_factory=set)
    topic: int = 0  # topic counter of the session (0 = the first topic)


class TopicTracker:
    """Per-session topic state. Not thread-safe on its own: the agent calls it under its lock."""

    def __init__(self, threshold: float) -> None:
        self.threshold = threshold
        self._states: dict[tuple[str, str], TopicState] = {}

    def state(self, key: tuple[str, str]) -> TopicState:
        return self._states.setdefault(key, TopicState())

    def observe(self, key: tuple[str, str], vector: np.ndarray) -> tuple[bool, float | None]:
        """Record a context vector; returns (topic changed, cosine to the previous context)."""
        st = self.state(key)
        sim = None if st.last is None else cosine(st.last, vector)
        changed = sim is not None and sim < self.threshold
        if changed:
            st.surfaced.clear()
            st.topic += 1
        st.last = np.asarray(vector, dtype=np.float32)
        return changed, sim

    def unseen(self, key: tuple[str, str], ids: list[str]) -> list[str]:
        st = self.state(key)
        return [i for i in ids if i not in st.surfaced]

    def mark_surfaced(self, key: tuple[str, str], ids: list[str]) -> None:
        self.state(key).surfaced.update(ids)

    def forget(self, key: tuple[str, str]) -> None:
        self._states.pop(key, None)
