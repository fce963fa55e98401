"""Fixtures for the write-path tests: the model's own token counter (no torch), example memories."""

from __future__ import annotations

import pytest

from memgraph.embed import TokenCounter, default_model_path

#: example memories of a coding assistant: real text the pipeline must handle.
SEED_EXAMPLES = [
    "User is a backend engineer specializing in Python and PostgreSQL.",
    "User is building a SaaS product with FastAPI and Stripe integration.",
    "Communication style: direct, technical, no preamble.",
    "2024-01-20: Discussed database migration from MySQL to PostgreSQL.",
    "2024-01-18: User reported issue with Alembic autogenerate on enums.",
]


@pytest.fixture(scope="session")
def counter() -> TokenCounter:
    return TokenCounter(default_model_path())
