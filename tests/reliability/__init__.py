"""Reliability tests. CI runs them with small parameters; `pytest --long` (or MEMGRAPH_LONG_TESTS=1) runs the
long variants: more kills, more property-test examples, a longer load run, more server restarts."""

from __future__ import annotations

import os


def long_tests() -> bool:
    """Set by `--long` (tests/conftest.py copies it into the environment before collection)."""
    return os.environ.get("MEMGRAPH_LONG_TESTS", "") not in ("", "0")


def scale(ci: int | float, long: int | float) -> int | float:
    """The CI-sized parameter, or the long one under `--long`."""
    return long if long_tests() else ci
