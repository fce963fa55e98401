"""Every job on an empty store, an unknown user, a one-memory user and NaN embeddings."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from memgraph.cli import app
from memgraph.errors import UnknownUserError, ValidationError
from memgraph.models import Memory
from tests.jobs.conftest import checksum, plant_nan_vector

JOBS = ("cluster", "decay", "links", "gaps", "consolidate", "compress", "reindex")


def test_unknown_user_is_refused_before_anything_is_written(engine):
    engine.remember("someone else's memory", user_id="real")
    before = checksum(engine.store)
    for job in JOBS:
        kwargs = {} if job == "gaps" else {"apply": True}
        with pytest.raises(UnknownUserError, match="'typo' has no memories") as info:
            getattr(engine.jobs, job)("typo", **kwargs)
        assert "real" not in str(info.value)  # an error never names another tenant
    assert checksum(engine.store) == before and engine.jobs.history() == []


def test_empty_store(engine, tmp_path):
    assert engine.jobs.users(all_users=True) == []
    with pytest.raises(ValidationError):
        engine.jobs.users()  # neither a user nor --all-users
    with pytest.raises(UnknownUserError, match="'anyone' has no memories"):
        engine.jobs.decay("anyone")
    res = CliRunner().invoke(app, ["cluster", "--all-users", "--store", str(tmp_path / "empty"), "--json"])
    assert res.exit_code == 0 and res.stdout.strip() == "[]"


def test_every_job_on_a_one_memory_user(engine, tmp_path):
    engine.remember("the only thing I know", user_id="solo", session_id="s1", kind="event")
    for job in JOBS:
        kwargs = {} if job == "gaps" else {"apply": True}
        report = getattr(engine.jobs, job)("solo", **kwargs)
        assert report.user_id == "solo"
    assert engine.jobs.links("solo").pairs_found == 0
    assert engine.jobs.consolidate("solo").groups == []
    path = tmp_path / "solo.jsonl"
    assert engine.jobs.export(path, user_id="solo").records["memory"] == 1


def test_nan_embeddings_are_skipped_and_reported(engine):
    for text in ("coffee beans from Kenya", "coffee beans from Kenya!", "hiking boots"):
        engine.remember(text, user_id="u")
    bad = Memory(id="m_nan", user_id="u", content="coffee beans from Kenya.")
    plant_nan_vector(engine.store, "u", bad)
    assert engine.jobs.links("u", apply=True).invalid_embeddings == ["m_nan"]
    assert engine.jobs.consolidate("u", apply=True).invalid_embeddings == ["m_nan"]
    assert engine.jobs.gaps("u").invalid_embeddings == ["m_nan"]
    assert all("m_nan" not in (ln.src, ln.dst) for ln in engine.store.get_links("u"))
    assert engine.get("m_nan", user_id="u").active
