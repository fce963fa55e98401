"""The identifier rule (memgraph/ids.py) at every entry point: API, tools, CLI, import, the agent.

User, session and memory ids that could mean two things (surrounding whitespace, control, zero-width or bidi
characters, look-alike spaces, not NFC) or that hold a secret are refused with a typed error whose message never
quotes the value; tags are normalised. Ids stored before the rule are reported on open, never rewritten."""

from __future__ import annotations

import json
import logging
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from memgraph import MemoryEngine, Settings
from memgraph.cli import app
from memgraph.errors import (
    InvalidIdentifierError,
    MemgraphError,
    MissingOwnerError,
    SecretDetectedError,
    ValidationError,
)
from memgraph.ids import check_id, identifier_problem, normalize_tag
from memgraph.ingest.structure import is_structure_tag
from memgraph.models import Memory
from memgraph.store import WriteBatch
from memgraph.tools import ToolSet

JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyLTQyMTciLCJyb2xlIjoiYWRtaW4ifQ.Qm9vbVRoaXNJc0FTaWduYXR1cmUxMjM0NTY3OA"
#: ids that look like "ada" (or like nothing at all) and must be refused
BAD_IDS = [
    "ada ", " ada", "ada\t", "\tada", "ada\n", "ada\r\n", "ada\u200b", "\u200bada", "a\u200dda", "ada\u00a0",
    "a\u00a0da", "ada\u2028", "ada\u202e", "ada\ufeff", "a\x00da", unicodedata.normalize("NFD", "adá"), "",
    "   ", "x" * 257, "bad\ud800",
    "\u0430da", "ad\u0430", "\u03bfps-team",  # Cyrillic а, Greek ο beside Latin letters: look-alikes of "ada", "ops"
]
SECRET_IDS = [
    JWT, "AKIAQ7XK2M4PLR9TBV3W", "session password=Vq8#kLm2!xPz9wRt", "ghp_R8fK2mQ9xLp4Tz7WcVb1Nd6Hs3Yj5Ga0EuXo",
]
GOOD_IDS = [
    "ada", "ADA", "Ada Lovelace", "adá", "zoë", "user-42@example.com", "東京", "s1", "x" * 256,
    "анна", "Αθηνά", "user-東京", "анна-42",  # one script, or Latin beside CJK, digits and punctuation
]


@pytest.mark.parametrize("value", BAD_IDS)
def test_the_rule_refuses_lookalikes(value: str) -> None:
    assert identifier_problem(value) is not None
    with pytest.raises(InvalidIdentifierError) as info:
        check_id(value, "session_id")
    if value.strip():
        assert value.strip() not in str(info.value) or value.strip() in "session_id"


@pytest.mark.parametrize("value", GOOD_IDS)
def test_the_rule_keeps_ordinary_ids(value: str) -> None:
    assert identifier_problem(value) is None and check_id(value, "session_id") == value


@pytest.mark.parametrize("value", SECRET_IDS)
def test_an_id_holding_a_secret_is_refused(value: str) -> None:
    with pytest.raises(SecretDetectedError) as info:
        check_id(value, "session_id")
    assert isinstance(info.value, InvalidIdentifierError)
    assert value not in str(info.value) and "Vq8#" not in str(info.value)


def test_tags_are_normalised_and_invisible_characters_refused() -> None:
    assert normalize_tag("  #Foo   Bar. ") == "foo bar"
    assert normalize_tag(unicodedata.normalize("NFD", "Café")) == "café"
    assert normalize_tag("a\u00a0b") == "a b"
    for bad in ("a\u200bb", "a\x00b", "\u202etag", "a\ufeffb"):
        with pytest.raises(ValidationError):
            normalize_tag(bad)


@pytest.fixture
def eng(engine: MemoryEngine) -> MemoryEngine:
    engine.remember("Ada prefers green tea in the morning", user_id="ada", session_id="s1", tags=["tea"])
    return engine


def _owner_calls(eng: MemoryEngine, owner: Any) -> list[Any]:  # noqa: ANN401 - any value is tried
    return [
        lambda: eng.remember("Ada prefers green tea", user_id=owner),
        lambda: eng.remember_many([{"content": "green tea"}], user_id=owner),
        lambda: eng.ingest("Ada prefers green tea", user_id=owner, session_id="s1"),
        lambda: eng.list(user_id=owner),
        lambda: eng.search("tea", user_id=owner),
        lambda: eng.recall("tea", user_id=owner),
        lambda: eng.tags(user_id=owner),
        lambda: eng.stats(user_id=owner),
        lambda: eng.jobs.decay(owner),
        lambda: eng.remember_conversation([{"speaker": "Ada", "text": "hi there"}], user_id=owner, session_id="s"),
    ]


@pytest.mark.parametrize("owner", ["ada ", " ada", "ada\u200b", "ada\t", unicodedata.normalize("NFD", "adá"), JWT])
def test_every_api_path_refuses_a_bad_owner(eng: MemoryEngine, owner: str) -> None:
    before = eng.stats().model_dump()
    for call in _owner_calls(eng, owner):
        with pytest.raises(MissingOwnerError) as info:
            call()
        assert owner not in str(info.value) and owner.strip() not in str(info.value).replace("user_id", "")
    assert eng.stats().model_dump() == before and eng.users() == ["ada"]


@pytest.mark.parametrize("session", ["s1 ", "s\u200b1", "s1\n", JWT, "token=Zk39fQm2Lp8Rx7Tv"])
def test_every_session_path_refuses_a_bad_session_id(eng: MemoryEngine, session: str) -> None:
    before = eng.stats().model_dump()
    calls = [
        lambda: eng.remember("Ada likes oolong", user_id="ada", session_id=session),
        lambda: eng.remember_many([{"content": "Ada likes oolong", "session_id": session}], user_id="ada"),
        lambda: eng.ingest("Ada likes oolong", user_id="ada", session_id=session),
        lambda: eng.ingest_many([{"text": "Ada likes oolong", "session_id": session}], user_id="ada"),
        lambda: eng.remember_conversation([{"speaker": "Ada", "text": "oolong"}], user_id="ada", session_id=session),
        lambda: eng.list(user_id="ada", session_id=session),
        lambda: ToolSet(eng, user_id="ada", session_id=session),
    ]
    for call in calls:
        with pytest.raises(InvalidIdentifierError) as info:
            call()
        assert session.strip() not in str(info.value)
    assert eng.stats().model_dump() == before


def test_memory_ids_and_sources_follow_the_rule(eng: MemoryEngine) -> None:
    mid = eng.list(user_id="ada")[0].id
    for bad in (mid + " ", " " + mid, mid + "\u200b"):
        for call in (lambda b=bad: eng.get(b, user_id="ada"), lambda b=bad: eng.forget(b, user_id="ada"),
                     lambda b=bad: eng.link(mid, b, user_id="ada"), lambda b=bad: eng.tag(b, ["x"], user_id="ada")):
            with pytest.raises(InvalidIdentifierError):
                call()
    with pytest.raises(SecretDetectedError):
        eng.remember_linked([{"content": "a fact about tea"}], user_id="ada", source=JWT)
    assert eng.get(mid, user_id="ada").active


def test_tools_refuse_bad_ids_as_typed_results(eng: MemoryEngine) -> None:
    tools = ToolSet(eng, user_id="ada")
    mid = eng.list(user_id="ada")[0].id
    for name, args in [("memory_forget", {"id": mid + " "}), ("memory_tag", {"id": mid + "\u200b", "tags": ["x"]}),
                       ("memory_list", {"session_id": "s1 "}),
                       ("memory_remember", {"content": "x", "tags": ["a\x00"]})]:
        res = tools.call(name, args)
        assert not res.ok and res.error is not None and res.error.type != "InternalError", (name, res)
    with pytest.raises(MissingOwnerError):
        ToolSet(eng, user_id="ada ")


def test_the_cli_refuses_a_bad_user_without_quoting_it(tmp_path: Path) -> None:
    store = str(tmp_path / "s")
    for args in (["remember", "green tea", "--user", "ada\u200b"], ["list", "--user", " ada"],
                 ["stats", "--user", "ada "]):
        res = CliRunner().invoke(app, [*args, "--store", store])
        assert res.exit_code == 1, res.output
        assert "user_id" in res.output and "\u200b" not in res.output and "' ada'" not in res.output


def test_import_applies_the_rule(eng: MemoryEngine, tmp_path: Path) -> None:
    export = tmp_path / "e.jsonl"
    eng.jobs.export(str(export), user_id="ada")
    lines = [json.loads(x) for x in export.read_text().splitlines()]

    def variant(edit: Any) -> Path:  # noqa: ANN401
        out = [json.loads(json.dumps(x)) for x in lines]
        for rec in out:
            edit(rec)
        path = tmp_path / f"v{len(list(tmp_path.iterdir()))}.jsonl"
        path.write_text("\n".join(json.dumps(x) for x in out) + "\n")
        return path

    def owner(rec: dict[str, Any]) -> None:
        if "user_id" in rec:
            rec["user_id"] = "ada "
            if rec.get("type") == "memory":
                rec["memory"]["user_id"] = "ada "

    def session(rec: dict[str, Any]) -> None:
        if rec.get("type") == "memory":
            rec["memory"]["session_id"] = JWT

    for edit, error in ((owner, ValidationError), (session, SecretDetectedError)):
        before = eng.stats().model_dump()
        with pytest.raises(error) as info:
            eng.jobs.import_(str(variant(edit)))
        assert "ada " not in str(info.value) and JWT not in str(info.value)
        assert eng.stats().model_dump() == before

    def tags(rec: dict[str, Any]) -> None:
        if rec.get("type") == "memory":
            rec["tags"] = ["  #Green   TEA ", "tea"]
    eng.jobs.import_(str(variant(tags)))
    own = {t.name for t in eng.tags(user_id="ada") if not is_structure_tag(t.name)}  # not session:, date: ...
    assert own == {"tea", "green tea"}


def test_stored_invalid_ids_are_reported_on_open_never_rewritten(tmp_path: Path, embedder: Any,  # noqa: ANN401
                                                                  caplog: pytest.LogCaptureFixture) -> None:
    target = str(tmp_path / "store")
    eng = MemoryEngine.open(target, settings=Settings(store=target), embedder=embedder)
    eng.remember("a note", user_id="ada")
    for n, bad in enumerate(("ada ", "ada\u200b")):  # written before the rule existed: straight into the store
        m = Memory(id=f"m_old{n}", user_id=bad, content="an old note")
        eng.store.write(bad, WriteBatch(memories=[m]))
    eng.close()
    caplog.set_level(logging.WARNING, logger="memgraph")
    eng = MemoryEngine.open(target, settings=Settings(store=target), embedder=embedder)
    warned = [r.getMessage() for r in caplog.records if "identifier rule" in r.getMessage()]
    assert warned and "2 stored user id(s)" in warned[0] and "ada" not in warned[0]
    assert eng.stats().invalid_user_ids == 2 and sorted(eng.users()) == ["ada", "ada ", "ada\u200b"]
    eng.close()
    res = CliRunner().invoke(app, ["stats", "--store", target])
    assert "user ids breaking the id rule" in res.output and "2" in res.output


def test_errors_are_memgraph_errors() -> None:
    assert issubclass(MissingOwnerError, InvalidIdentifierError) and issubclass(InvalidIdentifierError, MemgraphError)


def test_import_refuses_metadata_nested_too_deep(eng: MemoryEngine, tmp_path: Path) -> None:
    """A line nested beyond Python's recursion limit, or metadata beyond the write path's cap, is a typed error
    (it was a raw RecursionError, or stored)."""
    export = tmp_path / "e.jsonl"
    eng.jobs.export(str(export), user_id="ada")
    lines = [json.dumps(json.loads(x)) for x in export.read_text().splitlines()]
    assert sum('"metadata": {}' in x for x in lines) == 1
    before = eng.stats().model_dump()
    for depth in (100, 5000):
        deep = "1"
        for _ in range(depth):
            deep = '{"a":' + deep + "}"
        path = tmp_path / f"deep{depth}.jsonl"
        path.write_text("\n".join(x.replace('"metadata": {}', f'"metadata": {deep}') for x in lines) + "\n")
        with pytest.raises(ValidationError, match="nests deeper than 64"):
            eng.jobs.import_(str(path))
    assert eng.stats().model_dump() == before
