"""Erased text is gone from every byte of the data directory: database, write-ahead log, shared memory, the
embedding cache file, FalkorDB's snapshot and append-only file.

A memory with made-up words is stored beside a kept one, used the ways that copy text around (tags inferred
from it, a link with a reason, a recall, the cluster job, an export), then erased. Every file under the data
directory is scanned, while the store is still open and again after it is closed, for the erased text, each of
its words and each word's first five letters (what a stemmer keeps: an index of stems would hold those). The
same scan must find the kept memory's words: the control that shows the scan reads where the data really is
(tests/erasure/conftest.py switches FalkorDB's snapshot compression off for that reason)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from memgraph import MemoryEngine
from memgraph.models import Gap, content_hash

from .conftest import kinds

ERASED = "Quorvex Zilbranth keeps the Mirthwaldian quokkafeather recipe: glimmerwort folded into snargleberry jam."
KEPT = "Ada prefers Pembrokeshire oolong with a slice of Tamworthian lemon."
OTHER_USER = "Bellvista Ornithurgy club meets on Thursdays at Grimsholt."


def _needles(text: str) -> list[str]:
    words = [w.lower() for w in re.findall(r"[A-Za-z]{4,}", text)]
    common = {"keeps", "recipe", "folded", "into", "with", "slice", "prefers", "meets", "club", "thursdays", "lemon"}
    words = [w for w in words if w not in common]
    return sorted({text.lower(), *words, *(w[:5] for w in words)})


def _scan(directory: Path) -> bytes:
    return b"\0".join(p.read_bytes().lower() for p in sorted(directory.rglob("*")) if p.is_file())


def _hits(raw: bytes, text: str) -> list[str]:
    return [n for n in _needles(text) if n.encode() in raw]


def _use(eng: MemoryEngine, user: str, text: str) -> str:
    """Store `text` and run it through what copies text around: inferred tags, a link reason, recall (access
    counts, co-recall links), search, the cluster job's labels."""
    mem = eng.remember(text, user_id=user, tags=["notes"])
    other = eng.remember(f"{user} keeps notes in the shared drive.", user_id=user, tags=["notes"])
    eng.link(mem.id, other.id, user_id=user, reason=f"about {text.split()[1]}")
    eng.recall(text, user_id=user)
    eng.search(text, user_id=user)
    eng.flush()
    return mem.id


def _erase_and_scan(make_engine: Callable[..., MemoryEngine], erase: Callable[[MemoryEngine, str], object]) -> None:
    eng = make_engine()
    directory: Path = make_engine.directory  # type: ignore[attr-defined]
    erased_id = _use(eng, "ada", ERASED)
    _use(eng, "ada", KEPT)
    _use(eng, "bob", OTHER_USER)
    eng.jobs.cluster("ada", apply=True, force=True)
    eng.jobs.export(str(directory.parent / "before.jsonl"), user_id="ada")  # an export is the caller's file
    assert _hits(_scan(directory), ERASED), "the erased text was never in the files: the scan proves nothing"
    erase(eng, erased_id)
    for when in ("open", "closed"):
        raw = _scan(directory)
        assert not _hits(raw, ERASED), (when, _hits(raw, ERASED))
        assert content_hash(ERASED).encode() not in raw, f"{when}: the embedding cache still keys the erased text"
        assert _hits(raw, OTHER_USER) == _needles(OTHER_USER), f"{when}: the control: another user's text is found"
        if when == "open":
            eng.close()


@kinds("sqlite", "falkordb")
def test_erased_memory_leaves_no_bytes(make_engine: Callable[..., MemoryEngine]) -> None:
    def erase(eng: MemoryEngine, mid: str) -> None:
        report = eng.erase([mid], user_id="ada")
        assert report.memories == 1 and report.purged and not report.warnings, report

    _erase_and_scan(make_engine, erase)
    eng = make_engine(reopen=True)
    assert [m.content for m in eng.list(user_id="ada") if "Tamworthian" in m.content] == [KEPT]
    assert not eng.search("quokkafeather glimmerwort", user_id="ada") or all(
        "quokka" not in h.memory.content for h in eng.search("quokkafeather glimmerwort", user_id="ada"))


@kinds("sqlite", "falkordb")
def test_erased_user_leaves_no_bytes(make_engine: Callable[..., MemoryEngine]) -> None:
    def erase(eng: MemoryEngine, mid: str) -> None:
        # a recall miss holding the erased words (recall records one when nothing relevant is found)
        eng.store.upsert_gap(Gap(id="g_miss", user_id="ada", query="what did Zilbranth say about Mirthwaldian rain?"))
        report = eng.erase_user("ada")
        assert report.memories == 3 and report.gaps == 1 and report.purged and not report.warnings, report

    _erase_and_scan(make_engine, erase)
    eng = make_engine(reopen=True)
    assert eng.users() == ["bob"] and eng.stats(user_id="ada").model_dump(exclude={"user_id"}) == eng.stats(
        user_id="nobody").model_dump(exclude={"user_id"})
    assert all(run.user_id != "ada" for run in eng.jobs.history())


@kinds("sqlite", "falkordb")
def test_the_scan_finds_text_that_was_only_forgotten(make_engine: Callable[..., MemoryEngine]) -> None:
    """The control for the whole method: `forget` (the soft delete) keeps the text, and the scan finds it."""
    eng = make_engine()
    mid = _use(eng, "ada", ERASED)
    eng.forget(mid, user_id="ada")
    eng.close()
    assert _hits(_scan(make_engine.directory), ERASED)  # type: ignore[attr-defined]
