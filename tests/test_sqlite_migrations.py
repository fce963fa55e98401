"""The SQLite store's schema versions: a store written by an older release opens, reads back exactly what
that release read, and is upgraded; migrations are atomic, run once across processes, and a store newer
than the code is refused."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import math
import shutil
import sqlite3
from datetime import datetime
from pathlib import Path
from types import ModuleType
from typing import Any

from memgraph.embed import CachedEmbedder

STORES = Path(__file__).parent / "data" / "stores"
DB_FILE = "memgraph.sqlite3"


def _maker() -> ModuleType:
    """tests/data/stores/make_v1_store.py: its `snapshot` is what the old release read back."""
    spec = importlib.util.spec_from_file_location("make_v1_store", STORES / "make_v1_store.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def assert_same(got: Any, want: Any, path: str = "$") -> None:
    """Deep equality with a readable path; floats within 1e-5 (the query embeddings of another machine's
    BLAS may differ in the last bits; everything read from the file is exact)."""
    if isinstance(want, float) and isinstance(got, int | float):
        assert math.isclose(got, want, rel_tol=1e-5, abs_tol=1e-6), f"{path}: {got} != {want}"
        return
    assert type(got) is type(want), f"{path}: {type(got).__name__} {got!r} != {type(want).__name__} {want!r}"
    if isinstance(want, dict):
        assert sorted(got) == sorted(want), f"{path}: keys {sorted(got)} != {sorted(want)}"
        for key in want:
            assert_same(got[key], want[key], f"{path}.{key}")
    elif isinstance(want, list):
        assert len(got) == len(want), f"{path}: {len(got)} items != {len(want)}: {got!r} vs {want!r}"
        for i, (g, w) in enumerate(zip(got, want, strict=True)):
            assert_same(g, w, f"{path}[{i}]")
    else:
        assert got == want, f"{path}: {got!r} != {want!r}"


def _copy_v1(tmp_path: Path) -> Path:
    directory = tmp_path / "store"
    directory.mkdir()
    shutil.copyfile(STORES / "v1" / DB_FILE, directory / DB_FILE)
    return directory


def test_v1_store_reads_back_what_the_old_release_read(tmp_path: Path, embedder: CachedEmbedder) -> None:
    """get/list/count/fields/links/tags/clusters/gaps/vector and text search/expand/search/stats/export of the
    store file written by the schema-1 release equal what that release read from it; then recall (at the
    instant the release ranked at) serves the same memories with the same traces and leaves the same
    maintenance writes behind."""
    maker = _maker()
    expected = json.loads((STORES / "v1" / "expected.json").read_text(encoding="utf-8"))
    directory = _copy_v1(tmp_path)
    got = maker.read_snapshot(directory, embedder, datetime.fromisoformat(expected.pop("now")))
    expected.pop("written_by")
    assert_same(got, expected)


def _file_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _raw(path: Path, sql: str) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()
