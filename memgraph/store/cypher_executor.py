"""What the Cypher store asks of a database client (`Executor`), and the one retry layer both clients share."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

import numpy as np

from memgraph.errors import TransientStoreError

log = logging.getLogger("memgraph.store")
T = TypeVar("T")


class Executor(Protocol):
    """Runs one statement with parameters and returns rows as dicts (plain Python values)."""

    def run(self, statement: str, params: dict[str, Any], *, write: bool) -> list[dict[str, Any]]: ...
    def run_user(self, statement: str, params: dict[str, Any]) -> list[dict[str, Any]]: ...
    def run_matrix(self, statement: str, params: dict[str, Any], dim: int) -> tuple[list[str], np.ndarray]:
        """A read returning rows (id, embedding, packed) as ids and one float32 matrix (batch jobs' embedding
        read; `vector_matrix`)."""
        ...

    def apply_schema(self, statements: list[str]) -> None: ...
    def is_guard_error(self, exc: BaseException) -> bool: ...
    def purge(self) -> list[str]:
        """After an erasure: rewrite what the database keeps on disk, where it can (GraphStore.purge)."""
        ...

    def close(self) -> None: ...


def with_retry(
    fn: Callable[[], T],
    transient: tuple[type[BaseException], ...],
    attempts: int,
    delay: float,
    *,
    unsafe: tuple[type[BaseException], ...] = (),
) -> T:
    """Bounded retries with exponential backoff on the driver's transient/connection errors: this is the only
    retry layer (the drivers' own are switched off), so `store_retry_attempts` is the real budget. An `unsafe`
    error means the write may already be applied (Neo4j's IncompleteCommit); it is reported, not repeated.
    Each retry logs one WARNING on `memgraph.store` (its type only: driver messages can quote the statement)."""
    attempts = max(1, attempts)
    for attempt in range(attempts):
        try:
            return fn()
        except unsafe as exc:
            raise TransientStoreError(
                "the connection broke while committing, so the write may or may not be applied; repeating the "
                f"call is safe (memgraph writes MERGE by id): {type(exc).__name__}"
            ) from exc
        except transient as exc:
            if attempt == attempts - 1:
                raise TransientStoreError(f"store unavailable after {attempts} attempts: {exc}") from exc
            wait = delay * (2**attempt)
            log.warning("transient store error (%s), attempt %d of %d, retrying in %.3fs",
                        type(exc).__name__, attempt + 1, attempts, wait)
            time.sleep(wait)
    raise AssertionError("unreachable")

