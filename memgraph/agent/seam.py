"""What the memory agent needs of an engine, as a typed interface. `MemoryEngine` is one; the agent never reaches
into an engine's internals (its write path or its recall pipeline), only through these public members."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

import numpy as np

from memgraph.config import Settings
from memgraph.embed import Embedder
from memgraph.models import Link, Memory, RecallResult
from memgraph.store.base import GraphStore


class AgentEngine(Protocol):
    """The engine members a `MemoryAgent` uses (a subset of `MemoryEngine`'s public API)."""

    @property
    def settings(self) -> Settings: ...

    @property
    def store(self) -> GraphStore: ...

    @property
    def embedder(self) -> Embedder: ...

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...

    def redact(self, text: str) -> str: ...

    def recall(self, query: str, *, user_id: str, top_k: int = ..., token_budget: int | None = ...) -> RecallResult:
        ...

    def remember_many(
        self, items: Sequence[Mapping[str, Any] | Memory | str], *, user_id: str, reconcile: bool = ...
    ) -> list[Memory]: ...

    def remember_linked(
        self,
        items: Sequence[Mapping[str, Any] | Memory | str],
        *,
        user_id: str,
        links: Callable[[list[str]], Iterable[Link]] | None = ...,
        reconcile: bool = ...,
        source: str = ...,
    ) -> list[str]: ...

    def flush(self, timeout: float | None = ...) -> None: ...
