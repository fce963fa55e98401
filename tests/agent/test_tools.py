"""The memory tool set: one JSON schema per tool (generated from its model), structured errors for every bad
call, the owner from configuration only, and each tool doing what its description says."""

from __future__ import annotations

import json
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from memgraph import MemoryKind, ToolSet
from memgraph.agent import MemoryAgent
from memgraph.errors import MissingOwnerError

from .conftest import USER, FaultyStore

EXPECTED = [
    "remember", "recall", "search", "list", "forget", "link", "tag",  # the memory tools
    "learn", "episode", "procedure", "stats", "consolidate",  # the learning tools
]


@pytest.fixture
def tools(open_engine) -> ToolSet:
    return ToolSet(open_engine(), user_id=USER)


def ok(result) -> Any:
    assert result.ok, result.error
    json.dumps(result.model_dump(mode="json"))  # every result is JSON
    return result.result


def test_one_definition_per_tool_with_a_closed_json_schema(tools: ToolSet) -> None:
    defs = tools.definitions()
    assert [d.name for d in defs] == [f"memory_{n}" for n in EXPECTED]
    for d in defs:
        schema = d.input_schema
        Draft202012Validator.check_schema(schema)
        assert schema["type"] == "object" and schema["additionalProperties"] is False
        assert d.description
        json.dumps(schema)
    link = next(d for d in defs if d.name == "memory_link").input_schema
    assert set(link["required"]) == {"from", "to"}  # the model-facing names, not the Python ones
    remember = next(d for d in defs if d.name == "memory_remember").input_schema
    assert remember["required"] == ["content"]
    assert "user_id" not in json.dumps([d.input_schema for d in defs])  # the owner is never an argument


GOOD: list[tuple[str, dict[str, Any]]] = [
    ("memory_remember", {"content": "I prefer dark mode", "kind": "preference", "tags": ["ui"]}),
    ("memory_recall", {"query": "theme", "top_k": 3, "kinds": ["preference"]}),
    ("memory_search", {"query": "theme", "k": 2}),
    ("memory_list", {"tag": "ui", "limit": 5}),
    ("memory_learn", {"content": "Never commit .env files", "type": "policy", "priority": "critical"}),
    ("memory_episode", {"description": "Deployed v2 to staging", "outcome": "rolled back"}),
    ("memory_procedure", {"name": "release", "steps": ["bump version", "tag", "publish"]}),
    ("memory_stats", {}),
    ("memory_consolidate", {"apply": False}),
]
BAD: list[tuple[str, Any, str]] = [
    ("memory_remember", {}, "content"),  # missing
    ("memory_remember", {"content": ""}, "content"),  # too short
    ("memory_remember", {"content": "x", "user_id": "bob"}, "user_id"),  # extra (and an owner!)
    ("memory_remember", {"content": 42}, "content"),  # ill-typed
    ("memory_remember", {"content": "x", "kind": "gossip"}, "kind"),  # not a kind
    ("memory_remember", {"content": "x", "kind": "summary"}, "kind"),  # a summary needs evidence
    ("memory_remember", {"content": "x", "tags": "ui"}, "tags"),  # a string is not a list
    ("memory_recall", {"query": "x", "top_k": "5"}, "top_k"),
    ("memory_recall", {"query": "x", "top_k": 0}, "top_k"),
    ("memory_recall", {"query": "x", "top_k": True}, "top_k"),
    ("memory_search", {"q": "x"}, "query"),
    ("memory_list", {"limit": -1}, "limit"),
    ("memory_forget", {"id": None}, "id"),
    ("memory_link", {"src": "a", "dst": "b"}, "from"),  # the schema says from/to
    ("memory_link", {"from": "a", "to": "b", "weight": 2}, "weight"),
    ("memory_tag", {"id": "m", "tags": []}, "tags"),
    ("memory_learn", {"content": "x", "type": "gossip"}, "type"),
    ("memory_procedure", {"name": "x", "steps": []}, "steps"),
    ("memory_stats", {"verbose": True}, "verbose"),
    ("memory_consolidate", {"apply": "yes"}, "apply"),
]


@pytest.mark.parametrize(("name", "args"), GOOD)
def test_schema_and_model_agree_on_good_arguments(tools: ToolSet, name: str, args: dict) -> None:
    schema = next(d for d in tools.definitions() if d.name == name).input_schema
    assert not list(Draft202012Validator(schema).iter_errors(args))
    result = tools.call(name, args)
    assert result.ok or result.error.type == "Unavailable", result.error


@pytest.mark.parametrize(("name", "args", "field"), BAD)
def test_bad_arguments_get_a_structured_error(tools: ToolSet, name: str, args: Any, field: str) -> None:
    schema = next(d for d in tools.definitions() if d.name == name).input_schema
    assert list(Draft202012Validator(schema).iter_errors(args)), "the schema should refuse it too"
    before = tools.engine.stats(user_id=USER)
    result = tools.call(name, args)
    assert not result.ok and result.result is None
    assert result.error.type == "InvalidArguments"
    assert field in result.error.message
    assert result.error.details and all({"field", "problem"} <= set(d) for d in result.error.details)
    assert tools.engine.stats(user_id=USER) == before  # nothing written


@pytest.mark.parametrize("args", [["content"], "content", 7])
def test_arguments_that_are_not_an_object(tools: ToolSet, args: Any) -> None:
    result = tools.call("memory_remember", args)
    assert not result.ok and result.error.type == "InvalidArguments"


def test_unknown_tool(tools: ToolSet) -> None:
    for name in ("memory_delete_everything", None, 3):
        result = tools.call(name, {})  # type: ignore[arg-type]
        assert not result.ok and result.error.type == "UnknownTool"


def test_short_names_are_accepted(tools: ToolSet) -> None:
    assert ok(tools.call("stats", None))["memories"] == 0


def test_remember_recall_search_list_tag_link_forget(tools: ToolSet) -> None:
    a = ok(tools.call("memory_remember", {"content": "I prefer dark mode in every editor", "kind": "preference",
                                          "tags": ["UI"]}))["memory"]
    b = ok(tools.call("memory_remember", {"content": "The team uses the Solarized Dark theme in VS Code"}))["memory"]
    assert a["kind"] == "preference" and a["tags"] == ["ui"] and "embedding" not in a
    rec = ok(tools.call("memory_recall", {"query": "which editor theme should I set up?"}))
    assert a["id"] in [m["id"] for m in rec["memories"]]
    assert "trace" not in rec and "prompt" not in rec
    full = ok(tools.call("memory_recall", {"query": "which editor theme should I set up?", "full": True}))
    assert full["prompt"].startswith("<memory>") and "[PREFERENCE] I prefer dark mode" in full["prompt"]
    traced = ok(tools.call("memory_recall", {"query": "editor theme", "include_trace": True}))
    assert traced["trace"] and traced["trace"][0]["memory_id"] == traced["memories"][0]["id"]
    hits = ok(tools.call("memory_search", {"query": "Solarized theme", "k": 1}))["hits"]
    assert [h["id"] for h in hits] == [b["id"]] and hits[0]["score"] > 0
    assert ok(tools.call("memory_tag", {"id": b["id"], "tags": ["ui", "team"]}))["memory"]["tags"] == ["team", "ui"]
    listed = ok(tools.call("memory_list", {"tag": "ui"}))["memories"]
    assert {m["id"] for m in listed} == {a["id"], b["id"]}
    link = ok(tools.call("memory_link", {"from": a["id"], "to": b["id"], "reason": "same topic"}))["link"]
    assert (link["src"], link["dst"], link["relation"]) == (a["id"], b["id"], "RelatesTo")
    forgotten = ok(tools.call("memory_forget", {"id": a["id"]}))["memory"]
    assert forgotten["inactive"] is True
    assert a["id"] not in [m["id"] for m in ok(tools.call("memory_list", {}))["memories"]]
    assert a["id"] in [m["id"] for m in ok(tools.call("memory_list", {"include_inactive": True}))["memories"]]


def test_results_are_compact_unless_full_is_asked(tools: ToolSet) -> None:
    """A whole memory costs the calling model tokens on every call: the default is id, kind, content, tags,
    and recall adds a score and a few words of why."""
    mem = ok(tools.call("memory_remember", {"content": "I prefer dark mode in every editor", "kind": "preference"}))
    assert set(mem["memory"]) == {"id", "kind", "content", "tags"}
    rec = ok(tools.call("memory_recall", {"query": "dark mode editor"}))
    [hit] = rec["memories"]
    assert set(hit) == {"id", "kind", "content", "score", "why"} and "matches the query" in hit["why"]
    full = ok(tools.call("memory_recall", {"query": "dark mode editor", "full": True}))
    assert {"created_at", "confidence", "provenance", "metadata"} <= set(full["memories"][0])
    assert len(json.dumps(rec)) * 2 < len(json.dumps(full))


def test_learn_episode_procedure_stats(tools: ToolSet) -> None:
    rule = ok(tools.call("memory_learn", {"content": "Never commit .env files to git", "type": "policy",
                                          "priority": "critical", "full": True}))["memory"]
    assert (rule["kind"], rule["pinned"], rule["importance"]) == ("constraint", True, 1.0)
    assert "policy" in rule["tags"] and rule["metadata"] == {"type": "policy", "priority": "critical"}
    low = ok(tools.call("memory_learn", {"content": "The CI cache is flaky on Mondays", "type": "pitfall",
                                         "priority": "low", "full": True}))["memory"]
    assert (low["kind"], low["pinned"], low["importance"]) == ("constraint", False, 0.3)
    ep = ok(tools.call("memory_episode", {"description": "Deployed v2 to staging", "outcome": "rolled back",
                                          "tags": ["deploy"], "full": True}))["memory"]
    assert ep["kind"] == "event" and ep["layer"] == "episodic"
    assert ep["content"] == "Deployed v2 to staging\nOutcome: rolled back"
    proc = ok(tools.call("memory_procedure", {"name": "release", "steps": ["bump version", "tag", "publish"],
                                              "full": True}))
    assert proc["memory"]["content"] == "release:\n1. bump version\n2. tag\n3. publish"
    assert proc["memory"]["kind"] == "procedure" and proc["memory"]["metadata"]["steps"] == ["bump version", "tag",
                                                                                            "publish"]
    stats = ok(tools.call("memory_stats", {}))
    assert stats["memories"] == 4 and stats["by_kind"] == {"constraint": 2, "event": 1, "procedure": 1}
    # the pinned critical rule is in the baseline of any recall
    rec = ok(tools.call("memory_recall", {"query": "what did we deploy?"}))
    assert rule["id"] in [m["id"] for m in rec["memories"]]


def test_consolidate_runs_the_job_or_says_it_is_unavailable(tools: ToolSet) -> None:
    result = tools.call("memory_consolidate", {})
    if getattr(tools.engine, "jobs", None) is None:
        assert not result.ok and result.error.type == "Unavailable" and "engine.jobs" in result.error.message
    else:
        assert result.ok and result.result["applied"] is False


def test_the_owner_comes_from_the_configuration(open_engine) -> None:
    engine = open_engine()
    ada, bob = ToolSet(engine, user_id=USER), ToolSet(engine, user_id="bob")
    mem = ok(ada.call("memory_remember", {"content": "Ada's locker code is 4711"}))["memory"]
    assert engine.get(mem["id"], user_id=USER).user_id == USER
    assert ok(bob.call("memory_list", {}))["memories"] == []
    assert ok(bob.call("memory_recall", {"query": "locker code"}))["memories"] == []
    for name, args in [("memory_forget", {"id": mem["id"]}), ("memory_tag", {"id": mem["id"], "tags": ["x"]})]:
        result = bob.call(name, args)
        assert not result.ok and result.error.type == "NotFoundError"
    assert engine.get(mem["id"], user_id=USER).active
    with pytest.raises(MissingOwnerError):
        ToolSet(engine, user_id="")


def test_secrets_are_filtered_in_tool_writes(tools: ToolSet) -> None:
    key = "ghp_" + "a1B2c3D4e5F6g7H8i9J0" * 2
    mem = ok(tools.call("memory_remember", {"content": f"the deploy token is {key}"}))["memory"]
    assert key not in json.dumps(mem) and "[REDACTED" in mem["content"]


def test_an_engine_failure_is_a_structured_error(open_engine) -> None:
    tools = ToolSet(open_engine(store_cls=FaultyStore), user_id=USER)
    result = tools.call("memory_search", {"query": "kaboom"})
    assert not result.ok and result.error.type == "InternalError" and "simulated store failure" in result.error.message
    assert tools.call("memory_search", {"query": "fine"}).ok


def test_recall_without_a_query_takes_the_agents_pending_memories(open_engine, agents) -> None:
    engine = open_engine()
    mem = engine.remember("Ada's cat is called Miso and loves sardines.", user_id=USER)
    agent = MemoryAgent(engine)
    agents.append(agent)
    tools = ToolSet(engine, user_id=USER, session_id="s1", agent=agent)
    agent.observe("My cat Miso has been sneezing all week.", user_id=USER, session_id="s1")
    assert agent.drain(60)
    rec = ok(tools.call("memory_recall", {}))
    assert rec["source"] == "agent" and [m["id"] for m in rec["memories"]] == [mem.id]
    assert ok(tools.call("memory_recall", {}))["memories"] == []  # surfaced once
    without_agent = ToolSet(engine, user_id=USER).call("memory_recall", {})
    assert not without_agent.ok and without_agent.error.type == "ValidationError"


def test_session_id_from_the_configuration_is_stored(open_engine) -> None:
    engine = open_engine()
    tools = ToolSet(engine, user_id=USER, session_id="chat-7")
    mem = ok(tools.call("memory_remember", {"content": "We picked Hetzner for the EU region", "full": True}))
    mem = mem["memory"]
    assert mem["session_id"] == "chat-7"
    assert engine.get(mem["id"], user_id=USER).kind is MemoryKind.FACT


def test_an_internal_error_does_not_echo_a_secret(open_engine, caplog) -> None:
    """A foreign exception may quote what it was given (a URL with a password, say): the tool's error message
    and its log line are scrubbed like everything else the engine says."""
    from tests.agent.conftest import FaultyStore

    secret_url = "postgres://admin:Hunter2Sup3rSecret@db.internal:5432/app"

    class LeakyStore(FaultyStore):
        def text_search(self, user_id: str, query: str, k: int, **kwargs: object) -> object:
            raise RuntimeError(f"could not reach {secret_url}")

    tools = ToolSet(open_engine(store_cls=LeakyStore), user_id=USER)
    with caplog.at_level("DEBUG"):
        result = tools.call("memory_search", {"query": "anything"})
    assert not result.ok and result.error.type == "InternalError" and "could not reach" in result.error.message
    assert "Hunter2Sup3rSecret" not in result.error.message
    assert "Hunter2Sup3rSecret" not in caplog.text
