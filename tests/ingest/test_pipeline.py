"""The whole write path through `MemoryEngine`: idempotence, atomicity, bad input, secrets never leak."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import numpy as np
import pytest

from memgraph import MemoryEngine, SecretDetectedError, Settings, ValidationError
from memgraph.embed import CachedEmbedder, SentenceTransformerEmbedder
from memgraph.errors import MissingOwnerError, StoreError
from memgraph.ingest.report import DropReason
from memgraph.ingest.structure import user_tags
from memgraph.store.sqlite import SQLiteStore
from memgraph.store.sqlite.writes import Writes

from .conftest import SEED_EXAMPLES

LOCOMO = Path(__file__).resolve().parents[3] / "shared" / "data" / "locomo_dev.json"


def _conversation(n_sessions: int = 2) -> list[dict]:
    """The first sessions of LoCoMo's first conversation as ingest items (real dialogue)."""
    if not LOCOMO.exists():
        pytest.skip(f"{LOCOMO} not found")
    conv = json.loads(LOCOMO.read_text())[0]["conversation"]
    items = []
    for s in range(1, n_sessions + 1):
        for turn in conv[f"session_{s}"]:
            items.append({"text": f"{turn['speaker']}: {turn['text']}", "session_id": f"session_{s}"})
    return items


def _snapshot(engine: MemoryEngine, user: str) -> list[tuple]:
    mems = engine.list(user_id=user, include_inactive=True, include_archived=True, limit=100_000)
    return sorted((m.id, m.content, m.strength, m.active, tuple(m.tags), json.dumps(m.metadata)) for m in mems)


def test_seed_examples_ingest(engine: MemoryEngine) -> None:
    report = engine.ingest("\n\n".join(SEED_EXAMPLES), user_id="u", session_id="s")
    assert report.chunks == 5  # five paragraphs, five facts: one memory each
    mems = [engine.get(mid, user_id="u") for mid in report.created]
    assert [m.content for m in mems] == SEED_EXAMPLES
    assert {"postgresql", "fastapi", "stripe"} <= {t for m in mems for t in m.tags}
    d = report.decisions[0]
    assert d.novelty == 1.0 and d.importance == pytest.approx(0.6 + 0.4 * d.salience)


def test_reingesting_a_conversation_changes_nothing(engine: MemoryEngine) -> None:
    items = _conversation()
    first = engine.ingest_many(items, user_id="caroline", on_secret_reject="raise")
    assert first.created and first.embedded > 0
    before = _snapshot(engine, "caroline")
    cache = engine.embedder
    assert isinstance(cache, CachedEmbedder)
    misses = cache.misses
    again = engine.ingest_many(items, user_id="caroline")
    assert again.created == [] and again.reinforced == [] and again.superseded == []
    assert again.embedded == 0 and cache.misses == misses  # nothing re-embedded
    assert _snapshot(engine, "caroline") == before  # no new memories, nothing changed
    assert len(again.unchanged) == len(first.created)


def test_low_importance_chunks_are_dropped_and_reported(engine: MemoryEngine) -> None:
    engine.ingest_many(_conversation(2), user_id="u")
    chatter = [
        "Thanks, Caroline! That's great to hear.",
        "Haha, yeah, that's so true!",
        "Aww, that's so sweet of you, Mel!",
        "Wow, that sounds amazing!",
    ]
    report = engine.ingest_many([{"text": t, "session_id": "later"} for t in chatter], user_id="u")
    dropped = [d for d in report.dropped if d.reason is DropReason.LOW_IMPORTANCE]
    assert dropped, report.decisions
    for d in dropped:
        assert d.importance < 0.3 and "novelty" in d.detail and d.preview in chatter
    kept = {engine.get(mid, user_id="u").content for mid in report.created}
    assert kept.isdisjoint(d.preview for d in dropped)
    # the same text remembered explicitly is stored, above recall's importance cut
    mem = engine.remember(dropped[0].preview, user_id="u")
    assert mem.importance >= Settings().explicit_min_importance


def test_a_young_store_does_not_drop_what_is_new_to_it(engine: MemoryEngine) -> None:
    """Beside one stored memory the centroid is that memory: a new statement about the same thing scored
    novelty 0.45 and was dropped as unimportant (`novelty_prior_memories`)."""
    engine.remember("The team standup happens at 9:00 every weekday.", user_id="young")
    report = engine.ingest("Standup usually takes fifteen minutes.", user_id="young", session_id="s")
    assert report.created and not report.dropped


def test_remember_keeps_its_contract(engine: MemoryEngine) -> None:
    vec = np.random.default_rng(0).normal(size=384).astype(np.float32)
    before = engine.embedder.misses  # type: ignore[attr-defined]
    mems = engine.remember_many(
        [
            {
                "content": "Precomputed vector memory",
                "embedding": vec.tolist(),
                "kind": "fact",
                "pinned": True,
                "file_paths": ["src/*.py"],
                "trigger_patterns": ["deploy"],
                "importance": 0.9,
                "tags": ["a"],
                "metadata": {"k": 1},
                "scope": "project",
                "session_id": "s",
                "created_at": "2024-01-02T03:04:05Z",
            },
            {"content": "Precomputed vector memory", "embedding": vec.tolist()},  # same text: one memory
        ],
        user_id="u",
    )
    assert engine.embedder.misses == before  # type: ignore[attr-defined]  # the model was not used
    assert len(mems) == 1
    m = engine.get(mems[0].id, user_id="u", with_embedding=True)
    assert m.pinned and m.file_paths == ["src/*.py"] and m.trigger_patterns == ["deploy"]
    assert m.importance == 0.9 and user_tags(m.tags) == ["a"] and m.metadata == {"k": 1} and m.scope.value == "project"
    assert {"session:s", "date:2024-01-02", "month:2024-01"} <= set(m.tags)  # its structure (ingest/structure.py)
    assert m.created_at.year == 2024
    assert np.allclose(np.asarray(m.embedding), vec / np.linalg.norm(vec), atol=1e-5) or np.allclose(
        np.asarray(m.embedding), vec, atol=1e-5
    )


def test_remember_near_duplicate_returns_existing(engine: MemoryEngine) -> None:
    a = engine.remember("The staging database runs on port 5433", user_id="u", session_id="s1")
    b = engine.remember("The staging database runs on port 5433.", user_id="u", session_id="s2")
    assert b.id == a.id and b.strength == 2
    c = engine.remember("The staging database runs on port 5433.", user_id="u", session_id="s2", reconcile=False)
    assert c.id != a.id  # reconcile=False: only the exact text is deduplicated


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("", ValidationError),
        ("   \n\t  ", ValidationError),
        (None, ValidationError),
        (b"bytes", ValidationError),
        ("lone \udc80 surrogate", ValidationError),
        ("x" * 2_000_001, ValidationError),
    ],
)
def test_bad_text_is_a_typed_error_and_writes_nothing(
    engine: MemoryEngine, text: object, error: type[Exception]
) -> None:
    with pytest.raises(error):
        engine.ingest(text, user_id="u", session_id="s")  # type: ignore[arg-type]
    assert engine.stats().memories == 0


def test_ten_megabytes_is_refused_fast(engine: MemoryEngine) -> None:
    with pytest.raises(ValidationError, match="max_ingest_chars|maximum"):
        engine.ingest("word " * 2_000_000, user_id="u", session_id="s")
    assert engine.stats().memories == 0


@pytest.mark.parametrize("user", [None, 42, "", "a\x00b"])
def test_bad_owner(engine: MemoryEngine, user: object) -> None:
    with pytest.raises(MissingOwnerError):
        engine.ingest("I prefer tabs", user_id=user, session_id="s")  # type: ignore[arg-type]


@pytest.mark.parametrize("session", [42, ["s"], "", "x\x07y"])
def test_bad_session(engine: MemoryEngine, session: object) -> None:
    with pytest.raises(ValidationError):
        engine.ingest("I prefer tabs", user_id="u", session_id=session)  # type: ignore[arg-type]
    assert engine.stats().memories == 0


def test_control_characters_are_cleaned(engine: MemoryEngine) -> None:
    report = engine.ingest("I prefer\x00 tabs\x1b over spaces\x07 in Python", user_id="u", session_id="s")
    assert engine.get(report.created[0], user_id="u").content == "I prefer tabs over spaces in Python"


def test_only_secrets_is_reported_not_stored(engine: MemoryEngine) -> None:
    report = engine.ingest(
        "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", user_id="u", session_id="s"
    )
    assert [d.reason for d in report.dropped] == [DropReason.ONLY_SECRETS]
    assert report.redactions == {"aws_secret_key": 1}
    assert engine.stats().memories == 0
    with pytest.raises(SecretDetectedError):
        engine.remember("ghp_" + "Ab1" * 12, user_id="u")


def test_one_bad_item_in_a_batch_writes_nothing(engine: MemoryEngine) -> None:
    items = [{"text": f"Fact number {i} about the Kubernetes cluster"} for i in range(5)]
    with pytest.raises(ValidationError, match="item 5"):
        engine.ingest_many([*items, {"text": "ok", "session_id": 7}], user_id="u")
    assert engine.stats().memories == 0


class FailingWrites(Writes):
    def upsert_links(self, user_id, links):  # type: ignore[no-untyped-def]
        raise StoreError("disk full (simulated, half way through the batch)")


class FailingStore(SQLiteStore):
    """A real store whose transaction fails half way (after the memories, on the first link)."""

    _writes = FailingWrites


def test_a_failed_write_leaves_nothing_half_written(embedder) -> None:  # type: ignore[no-untyped-def]
    engine = MemoryEngine(FailingStore(":memory:"), Settings(store=":memory:"), embedder)
    engine.ingest("My dentist appointment is on Monday at 3pm.", user_id="u", session_id="s1")  # no links: ok
    before = _snapshot(engine, "u")
    with pytest.raises(StoreError):
        engine.ingest_many(
            [
                {"text": "Actually, my dentist appointment is on Tuesday at 3pm.", "session_id": "s2"},
                {"text": "Grace keeps her bees on the roof of the Berlin office.", "session_id": "s2"},
            ],
            user_id="u",
        )
    assert _snapshot(engine, "u") == before  # no new memory, the old one still active, no tag edges
    assert engine.stats(user_id="u").memories == 1 and engine.list(user_id="u")[0].active


SECRETS = {
    "github": "ghp_" + "R8x2Lq9ZpT4vN7mK3wY6cB1dF5hJ0sA2gE8u",
    "stripe": "sk_live_" + "51HxYzAbCdEfGhIjKlMnOpQr",
    "password": "Tr0ub4dor&3xyz",
    "aws": "AKIA" + "Q3ZP7KXW2MBN5TRV",
}


@pytest.mark.parametrize("policy", ["redact", "reject"])
def test_secrets_never_reach_store_cache_logs_or_errors(
    tmp_path: Path, policy: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    settings = Settings(store=str(tmp_path / "data"), secret_policy=policy)
    inner = SentenceTransformerEmbedder()
    engine = MemoryEngine.open(settings=settings)
    engine._embedder = CachedEmbedder(inner, path=tmp_path / "data" / "embedding_cache.sqlite3")
    text = (
        f"Deploy notes for the billing service. The GitHub token is {SECRETS['github']} and Stripe uses "
        f"{SECRETS['stripe']}.\n\nThe admin password: {SECRETS['password']}\n\naws_access_key_id = {SECRETS['aws']}"
    )
    errors: list[str] = []
    try:
        report = engine.ingest(
            text,
            user_id="u",
            session_id="s",
            tags=["billing", SECRETS["github"]],
            metadata={"note": f"key {SECRETS['stripe']}", SECRETS["aws"]: "x"},
        )
        engine.remember(
            f"Rotate {SECRETS['github']} monthly",
            user_id="u",
            tags=["ops"],
            metadata={"pw": f"password={SECRETS['password']}"},
        )
        engine.search(f"what is {SECRETS['stripe']} used for", user_id="u")
        assert policy == "redact"
        assert set(report.redactions) >= {"github_token", "stripe_key", "password", "aws_access_key"}
        assert report.stored
        contents = [engine.get(mid, user_id="u").content for mid in report.created]
        assert any("[REDACTED:github_token]" in c for c in contents)
    except SecretDetectedError as exc:
        assert policy == "reject"
        errors += [str(exc), repr(exc)]
        assert "github_token" in str(exc) or "stripe_key" in str(exc)
        assert engine.stats().memories == 0
    finally:
        engine.close()
    blobs = b"".join(p.read_bytes() for p in (tmp_path / "data").rglob("*") if p.is_file())
    assert blobs, "the store and the cache were written to disk"
    logs = "\n".join(r.getMessage() for r in caplog.records)
    for value in SECRETS.values():
        assert value.encode() not in blobs, "secret found in the SQLite store or the embedding cache"
        assert value not in logs
        assert all(value not in e for e in errors)


def test_every_entry_point_filters_secrets(engine: MemoryEngine) -> None:
    token = SECRETS["github"]
    mem = engine.remember(
        "Deploys go through the CI pipeline",
        user_id="u",
        tags=["ci", f"tok {token}"],
        metadata={"note": f"use {token}"},
        trigger_patterns=[f"push {token}"],
    )
    assert mem.tags == ["ci"]  # a tag holding a secret is dropped, not stored
    assert token not in json.dumps(mem.metadata) and token not in " ".join(mem.trigger_patterns)
    tagged = engine.tag(mem.id, ["release", token], user_id="u")
    assert tagged.tags == ["ci", "release"]
    other = engine.remember("Releases are cut on Thursdays", user_id="u")
    link = engine.link(mem.id, other.id, user_id="u", reason=f"both need {token}")
    assert token not in (link.reason or "") and "[REDACTED:github_token]" in (link.reason or "")
    assert engine.redact(f"what is {token}") == "what is [REDACTED:github_token]"


def test_reject_policy_on_every_entry_point(embedder) -> None:  # type: ignore[no-untyped-def]
    engine = MemoryEngine.open(":memory:", embedder=embedder, secret_policy="reject")
    token = SECRETS["stripe"]
    for call in (
        lambda: engine.ingest(f"billing uses {token}", user_id="u", session_id="s"),
        lambda: engine.remember("fine text", user_id="u", metadata={"k": token}),
        lambda: engine.remember("fine text", user_id="u", tags=[token]),
    ):
        with pytest.raises(SecretDetectedError) as info:
            call()
        assert token not in str(info.value) and "stripe_key" in str(info.value)
    assert engine.stats().memories == 0
    report = engine.ingest_many(
        [{"text": "I prefer tabs"}, {"text": f"key {token}"}], user_id="u", on_secret_reject="drop"
    )
    assert [d.reason for d in report.dropped] == [DropReason.SECRET_REJECTED] and len(report.created) == 1
    engine.close()


def test_reconciliation_reads_stored_neighbours_without_copies_only_for_the_rule_reconciler(
    engine: MemoryEngine,
) -> None:
    # the rule reconciler only reads its neighbours: the row cache's own objects, no copy each (~7 objects the
    # garbage collector tracks); any other reconciler may keep or change what it gets, so it gets copies
    from memgraph.ingest.reconcile import RuleReconciler

    store = engine.store
    if not hasattr(store, "read_memories"):
        pytest.skip("the store shares no row objects")
    ids = engine.ingest_many(
        [{"text": "The gym closes at 22:00."}, {"text": "My sister Lena lives in Porto."}], user_id="u"
    ).created
    engine.search("gym", user_id="u")  # loads the user's read structures (the row cache)
    shared = store.read_memories("u", ids)
    pipeline = engine.pipeline
    assert type(pipeline.reconciler) is RuleReconciler
    got = pipeline._read_neighbours("u", ids)
    assert [m.id for m in got] == ids and all(a is b for a, b in zip(got, shared, strict=True))

    class Judge(RuleReconciler):
        pass

    pipeline.reconciler = Judge(engine.settings)
    copies = pipeline._read_neighbours("u", ids)
    assert [m.id for m in copies] == ids and not any(a is b for a, b in zip(copies, shared, strict=True))
