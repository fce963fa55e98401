"""`Settings` reads MEMGRAPH_* environment variables as it did on pydantic-settings (which the CLI's cold start
no longer imports): keyword arguments over the environment over the defaults, names matched without regard to
case, values validated (and coerced) like keyword values, other MEMGRAPH_* variables ignored, assignment
validated."""

from __future__ import annotations

import subprocess
import sys

import pytest
from pydantic import ValidationError

from memgraph.config import Settings


def test_environment_under_keywords(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMGRAPH_STORE_RETRY_ATTEMPTS", "7")
    monkeypatch.setenv("memgraph_similarity_threshold", "0.25")  # any case
    monkeypatch.setenv("MEMGRAPH_OUTBOX_BACKGROUND", "false")
    monkeypatch.setenv("MEMGRAPH_NEO4J_PASSWORD", "")  # an empty value is a value, not None
    monkeypatch.setenv("MEMGRAPH_NO_SUCH_SETTING", "x")  # not a setting: ignored
    s = Settings()
    assert s.store_retry_attempts == 7
    assert s.similarity_threshold == 0.25
    assert s.outbox_background is False
    assert s.neo4j_password == ""
    assert Settings(store_retry_attempts=2).store_retry_attempts == 2  # keywords win
    assert Settings(no_such_setting=1).store_retry_attempts == 7  # unknown keywords are ignored too
    # a copy keeps its values; it does not read the environment again
    monkeypatch.setenv("MEMGRAPH_STORE_RETRY_ATTEMPTS", "9")
    assert s.model_copy(update={"store": "x"}).store_retry_attempts == 7


def test_bad_environment_value_is_a_validation_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMGRAPH_EMBED_BACKEND", "tensorflow")
    with pytest.raises(ValidationError, match="embed_backend"):
        Settings()
    monkeypatch.setenv("MEMGRAPH_EMBED_BACKEND", "onnx")
    monkeypatch.setenv("MEMGRAPH_EMBED_THREADS", "many")
    with pytest.raises(ValidationError, match="embed_threads"):
        Settings()


def test_defaults_and_assignment_are_validated(monkeypatch: pytest.MonkeyPatch) -> None:
    for key in [k for k in __import__("os").environ if k.upper().startswith("MEMGRAPH_")]:
        monkeypatch.delenv(key)
    s = Settings()
    assert s.store == "~/.memgraph" and s.embed_threads is None
    s.store_retry_attempts = "3"  # type: ignore[assignment]  # coerced like any validated value
    assert s.store_retry_attempts == 3
    with pytest.raises(ValidationError):
        s.store_retry_attempts = "three"  # type: ignore[assignment]


def test_reading_settings_imports_no_asyncio() -> None:
    """pydantic-settings imports asyncio (and more: ~0.15-0.2 s of CPU per cold command here)."""
    code = "import sys, memgraph.config; memgraph.config.Settings(); print('asyncio' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
