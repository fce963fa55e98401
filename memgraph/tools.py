"""Memory tools for agents: one typed set that any framework (and the MCP server) can register.

The memory tools (remember, recall, search, list, forget, link, tag) and the learning tools
(learn, episode, procedure, stats, consolidate), each with a pydantic input model (`extra="forbid"`, strict
types) whose JSON schema is what the model sees:

    tools = ToolSet(engine, user_id="ada")
    tools.definitions()                       # [{name, description, input_schema}, ...]
    tools.call("memory_recall", {"query": "editor settings"})   # ToolResult(ok=True, result={...})

The owner is the ToolSet's configuration, never an argument: a model cannot read or write another user's
memories by naming them. Bad arguments (missing, extra, ill-typed) and every memgraph error come back as a
structured `ToolResult(ok=False, error={type, message})`; `call` never raises for what a model sends.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic import ValidationError as PydanticValidationError

from memgraph.errors import MemgraphError, ValidationError
from memgraph.models import Memory, RecallResult, RecallTrace, validate_identifier, validate_owner
from memgraph.secrets import scrub

if TYPE_CHECKING:
    from memgraph.agent import MemoryAgent
    from memgraph.engine import MemoryEngine

log = logging.getLogger("memgraph.tools")

KindName = Literal["fact", "preference", "procedure", "correction", "constraint", "decision", "event", "summary"]
#: Kinds a tool may write: a `summary` needs DerivedFrom evidence (the provenance rule), which session end and
#: the compress job provide; a model cannot write one from nothing.
WritableKind = Literal["fact", "preference", "procedure", "correction", "constraint", "decision", "event"]
ScopeName = Literal["global", "project", "session"]
RelationName = Literal["relates_to", "supersedes", "contradicts", "derived_from"]

#: learn's memory types -> memgraph kinds
LEARN_TYPES: dict[str, str] = {
    "policy": "constraint",
    "pitfall": "constraint",
    "workflow": "procedure",
    "architecture": "decision",
    "decision": "decision",
    "preference": "preference",
    "fact": "fact",
}
#: learn's priorities -> importance (critical is also pinned: always in the baseline layer)
PRIORITY_IMPORTANCE: dict[str, float] = {"critical": 1.0, "high": 0.85, "medium": 0.65, "normal": 0.5, "low": 0.3}


# -- inputs --------------------------------------------------------------------------------------------------


class ToolInput(BaseModel):
    """Base of every tool's arguments: unknown keys and wrong JSON types are errors, not guesses."""

    model_config = ConfigDict(extra="forbid", strict=True)


class MemoryOutput(ToolInput):
    """Arguments of the tools that return memories: compact by default, every field on request. A whole memory
    (timestamps, confidence, trust, provenance, metadata...) costs the calling model ~4x the tokens of the
    compact form, on every call."""

    full: bool = Field(
        False,
        description="Return whole memory objects (timestamps, confidence, provenance, metadata, ...) instead of "
        "the compact form (id, kind, content, tags; recall and search add score and why).",
    )


class RememberInput(MemoryOutput):
    content: str = Field(min_length=1, description="What to remember, as one self-contained statement.")
    kind: WritableKind = Field("fact", description="fact | preference | correction | constraint | decision | "
                                                   "procedure | event.")
    scope: ScopeName = Field("global", description="global (everywhere), project (with file_paths globs), "
                                                   "or session.")
    tags: list[str] = Field(default_factory=list, description="Tags to attach (lowercased).")
    file_paths: list[str] = Field(default_factory=list, description="Glob patterns for project scope.")
    pinned: bool = Field(False, description="Always surface this memory (baseline layer).")


class RecallInput(MemoryOutput):
    query: str | None = Field(
        None, min_length=1,
        description="The current context or question. Omit to get the memories the background agent prepared "
                    "for this session (when the server runs one).",
    )
    top_k: int = Field(5, ge=1, le=50, description="Memories to return at most.")
    token_budget: int | None = Field(None, ge=1, le=100_000, description="Token budget (default: the engine's).")
    kinds: list[KindName] | None = Field(None, description="Only these kinds.")
    files: list[str] | None = Field(None, description="Current file paths: project-scoped memories must match.")
    mode: Literal["cascade", "hybrid", "semantic", "lexical"] = Field("cascade", description="Retrieval mode.")
    include_trace: bool = Field(False, description="Also return why each memory was recalled.")


class SearchInput(MemoryOutput):
    query: str = Field(min_length=1, description="Semantic + full-text search query.")
    k: int = Field(10, ge=1, le=100, description="Hits to return at most.")
    kinds: list[KindName] | None = Field(None, description="Only these kinds.")


class ListInput(MemoryOutput):
    tag: str | None = Field(None, min_length=1, description="Only memories with this tag.")
    kind: KindName | None = Field(None, description="Only this kind.")
    session_id: str | None = Field(None, min_length=1, description="Only memories of this session.")
    include_inactive: bool = Field(False, description="Also forgotten/superseded memories.")
    limit: int = Field(20, ge=1, le=500, description="Memories to return at most (newest first).")
    offset: int = Field(0, ge=0, description="Skip this many (paging).")


class ForgetInput(MemoryOutput):
    id: str = Field(min_length=1, description="Id of the memory to deactivate (kept, restorable).")


class LinkInput(ToolInput):
    src: str = Field(alias="from", min_length=1, description="Id of the source memory.")
    dst: str = Field(alias="to", min_length=1, description="Id of the target memory.")
    relation: RelationName = Field("relates_to", description="relates_to | supersedes (from replaces to) | "
                                                            "contradicts | derived_from.")
    weight: float = Field(1.0, ge=0.0, le=1.0, description="Strength of the link, 0..1.")
    reason: str | None = Field(None, description="Why they are linked.")


class TagInput(MemoryOutput):
    id: str = Field(min_length=1, description="Id of the memory to tag.")
    tags: list[str] = Field(min_length=1, description="Tags to add.")


class LearnInput(MemoryOutput):
    content: str = Field(min_length=1, description="The fact, rule or lesson to store.")
    type: Literal["policy", "workflow", "pitfall", "architecture", "decision", "preference", "fact"] = Field(
        "fact", description="Type: policy/pitfall (rules, mistakes to avoid), workflow, architecture, "
                            "decision, preference, fact.")
    scope: ScopeName = Field("global", description="global, project (give file_paths globs) or session.")
    file_paths: list[str] = Field(default_factory=list, description="Glob patterns for project scope.")
    priority: Literal["critical", "high", "medium", "normal", "low"] = Field(
        "normal", description="critical is pinned (always injected); high and above join the baseline layer.")
    tags: list[str] = Field(default_factory=list, description="Tags to attach.")


class EpisodeInput(MemoryOutput):
    description: str = Field(min_length=1, description="What happened.")
    outcome: str | None = Field(None, description="How it ended (success, failure, what was learned).")
    tags: list[str] = Field(default_factory=list, description="Tags to attach.")


class ProcedureInput(MemoryOutput):
    name: str = Field(min_length=1, description="Name of the workflow, e.g. 'deploy to staging'.")
    steps: list[str] = Field(min_length=1, description="The steps, in order.")
    tags: list[str] = Field(default_factory=list, description="Tags to attach.")
    file_paths: list[str] = Field(default_factory=list, description="Glob patterns where it applies.")


class StatsInput(ToolInput):
    pass


class ConsolidateInput(ToolInput):
    apply: bool = Field(False, description="False: only report the plan. True: merge near-duplicates.")


# -- outputs -------------------------------------------------------------------------------------------------


class ToolError(BaseModel):
    type: str  # InvalidArguments | UnknownTool | Unavailable | InternalError | a memgraph error class name
    message: str
    details: list[dict[str, Any]] | None = None


class ToolResult(BaseModel):
    """`{ok: true, result: ...}` or `{ok: false, error: {type, message}}`."""

    ok: bool
    result: Any = None
    error: ToolError | None = None

    @classmethod
    def failure(cls, type_: str, message: str, details: list[dict[str, Any]] | None = None) -> ToolResult:
        return cls(ok=False, error=ToolError(type=type_, message=message, details=details))


class ToolDefinition(BaseModel):
    name: str
    description: str
    input_schema: dict[str, Any]


class _Unavailable(MemgraphError):
    pass


# -- the set -------------------------------------------------------------------------------------------------


class ToolSet:
    """The memory tools bound to one engine and one user (and optionally a session and a MemoryAgent)."""

    def __init__(
        self,
        engine: MemoryEngine,
        *,
        user_id: str,
        session_id: str | None = None,
        agent: MemoryAgent | None = None,
        prefix: str = "memory_",
    ) -> None:
        self.engine = engine
        self.user_id = validate_owner(user_id)
        self.session_id = None if session_id is None else validate_identifier(session_id, "session_id")
        self.agent = agent
        self.prefix = prefix
        self._tools: dict[str, tuple[str, type[ToolInput], Callable[[Any], Any]]] = {
            "remember": ("Store a memory now. Returns the stored memory; a near-duplicate "
                         "reinforces the existing one.", RememberInput, self._remember),
            "recall": ("Memories relevant to the current context, ranked and within a token budget, with a "
                       "ready-to-use <memory> prompt block.", RecallInput, self._recall),
            "search": ("Semantic + full-text search over memories (no graph expansion).", SearchInput, self._search),
            "list": ("List memories, newest first, by tag, kind or session.", ListInput, self._list),
            "forget": ("Deactivate a memory (kept and restorable, never deleted).", ForgetInput, self._forget),
            "link": ("Link two memories (relates_to, supersedes, contradicts, derived_from).", LinkInput,
                     self._link),
            "tag": ("Add tags to a memory.", TagInput, self._tag),
            "learn": ("Store a fact, rule, pitfall, workflow, decision or preference with a priority.", LearnInput,
                      self._learn),
            "episode": ("Record an event with its outcome (episodic memory).", EpisodeInput, self._episode),
            "procedure": ("Save a named workflow with its steps (procedural memory).", ProcedureInput,
                          self._procedure),
            "stats": ("Counts of this user's memories by kind, tags, clusters, gaps and edges.", StatsInput,
                      self._stats),
            "consolidate": ("Merge near-duplicate memories and clean up tags (plan unless apply=true).",
                            ConsolidateInput, self._consolidate),
        }

    # -- public ---------------------------------------------------------------------------------------------

    @property
    def names(self) -> list[str]:
        return [self.prefix + n for n in self._tools]

    def definitions(self) -> list[ToolDefinition]:
        """Every tool's name, description and JSON schema (generated from its pydantic input model)."""
        return [
            ToolDefinition(name=self.prefix + name, description=desc, input_schema=input_schema(model))
            for name, (desc, model, _) in self._tools.items()
        ]

    def call(self, name: str, arguments: Any = None) -> ToolResult:
        """Run one tool. Never raises for bad input: errors come back as `ToolResult(ok=False, ...)`."""
        key = self._resolve(name)
        if key is None:
            return ToolResult.failure("UnknownTool", f"no tool {name!r}; tools: {', '.join(self.names)}")
        _, model, fn = self._tools[key]
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            return ToolResult.failure("InvalidArguments", f"arguments must be a JSON object, got "
                                                          f"{type(arguments).__name__}")
        try:
            args = model.model_validate(arguments)
        except PydanticValidationError as exc:
            details = [
                {"field": ".".join(str(p) for p in e["loc"]) or "(arguments)", "problem": e["msg"], "type": e["type"]}
                for e in exc.errors(include_url=False, include_input=False)
            ]
            message = "; ".join(f"{d['field']}: {d['problem']}" for d in details)
            return ToolResult.failure("InvalidArguments", f"{self.prefix}{key}: {message}", details)
        try:
            return ToolResult(ok=True, result=fn(args))
        except _Unavailable as exc:
            return ToolResult.failure("Unavailable", str(exc))
        except MemgraphError as exc:
            return ToolResult.failure(type(exc).__name__, str(exc))
        except Exception as exc:  # a tool must answer, whatever broke underneath
            # scrubbed, and no traceback: a foreign exception may quote the arguments, secrets included
            message = scrub(f"{type(exc).__name__}: {exc}")
            log.error("tool %s failed: %s", key, message)
            return ToolResult.failure("InternalError", message)

    def _resolve(self, name: object) -> str | None:
        if not isinstance(name, str):
            return None
        if name.startswith(self.prefix) and name[len(self.prefix):] in self._tools:
            return name[len(self.prefix):]
        return name if name in self._tools else None

    # -- the tools ----------------------------------------------------------------------------------------------

    def _remember(self, a: RememberInput) -> dict[str, Any]:
        mem = self.engine.remember_many(
            [{"content": a.content, "kind": a.kind, "scope": a.scope, "tags": a.tags, "file_paths": a.file_paths,
              "pinned": a.pinned, "session_id": self.session_id}],
            user_id=self.user_id,
        )[0]
        return {"memory": memory_json(mem, full=a.full)}

    def _recall(self, a: RecallInput) -> dict[str, Any]:
        if a.query is None:
            if self.agent is None or self.session_id is None:
                raise ValidationError("query is required (no background agent session is configured)")
            pending = self.agent.take_pending(user_id=self.user_id, session_id=self.session_id)
            out = recall_json(pending or RecallResult(), include_trace=a.include_trace, full=a.full)
            out["source"] = "agent"
            return out
        result = self.engine.recall(
            a.query, user_id=self.user_id, top_k=a.top_k, token_budget=a.token_budget, kinds=a.kinds,
            files=a.files, mode=a.mode,
        )
        return recall_json(result, include_trace=a.include_trace, full=a.full)

    def _search(self, a: SearchInput) -> dict[str, Any]:
        hits = self.engine.search(a.query, user_id=self.user_id, k=a.k, kinds=a.kinds)
        if a.full:
            return {"hits": [{"score": h.score, "memory": memory_json(h.memory, full=True)} for h in hits]}
        return {"hits": [{**memory_json(h.memory), "score": round(h.score, 4)} for h in hits]}

    def _list(self, a: ListInput) -> dict[str, Any]:
        mems = self.engine.list(user_id=self.user_id, kind=a.kind, tag=a.tag, session_id=a.session_id,
                                include_inactive=a.include_inactive, limit=a.limit, offset=a.offset)
        return {"memories": [memory_json(m, full=a.full) for m in mems]}

    def _forget(self, a: ForgetInput) -> dict[str, Any]:
        return {"memory": memory_json(self.engine.forget(a.id, user_id=self.user_id), full=a.full)}

    def _link(self, a: LinkInput) -> dict[str, Any]:
        link = self.engine.link(a.src, a.dst, a.relation, user_id=self.user_id, weight=a.weight, reason=a.reason)
        return {"link": link.model_dump(mode="json")}

    def _tag(self, a: TagInput) -> dict[str, Any]:
        return {"memory": memory_json(self.engine.tag(a.id, a.tags, user_id=self.user_id), full=a.full)}

    def _learn(self, a: LearnInput) -> dict[str, Any]:
        kind = LEARN_TYPES[a.type]
        tags = [*a.tags, a.type] if a.type != kind else list(a.tags)
        mem = self.engine.remember_many(
            [{"content": a.content, "kind": kind, "scope": a.scope, "file_paths": a.file_paths, "tags": tags,
              "importance": PRIORITY_IMPORTANCE[a.priority], "pinned": a.priority == "critical",
              "session_id": self.session_id, "metadata": {"type": a.type, "priority": a.priority}}],
            user_id=self.user_id,
        )[0]
        return {"memory": memory_json(mem, full=a.full)}

    def _episode(self, a: EpisodeInput) -> dict[str, Any]:
        content = a.description.strip()
        if a.outcome:
            content += f"\nOutcome: {a.outcome.strip()}"
        mem = self.engine.remember_many(
            [{"content": content, "kind": "event", "layer": "episodic", "tags": a.tags,
              "session_id": self.session_id, "metadata": {"outcome": a.outcome} if a.outcome else {}}],
            user_id=self.user_id,
        )[0]
        return {"memory": memory_json(mem, full=a.full)}

    def _procedure(self, a: ProcedureInput) -> dict[str, Any]:
        steps = [s.strip() for s in a.steps if s.strip()]
        if not steps:
            raise ValidationError("steps must hold at least one non-empty step")
        content = f"{a.name.strip()}:\n" + "\n".join(f"{i}. {s}" for i, s in enumerate(steps, 1))
        mem = self.engine.remember_many(
            [{"content": content, "kind": "procedure", "tags": a.tags, "file_paths": a.file_paths,
              "scope": "project" if a.file_paths else "global", "session_id": self.session_id,
              "metadata": {"procedure": a.name.strip(), "steps": steps}}],
            user_id=self.user_id,
        )[0]
        return {"memory": memory_json(mem, full=a.full)}

    def _stats(self, a: StatsInput) -> dict[str, Any]:
        return self.engine.stats(user_id=self.user_id).model_dump(mode="json")

    def _consolidate(self, a: ConsolidateInput) -> dict[str, Any]:
        jobs = getattr(self.engine, "jobs", None)
        consolidate = getattr(jobs, "consolidate", None)
        if consolidate is None:
            raise _Unavailable("consolidation is not available in this installation (no engine.jobs)")
        from memgraph.errors import UnknownUserError

        try:
            report = consolidate(self.user_id, apply=a.apply)
        except UnknownUserError:
            # An agent may call this before it stored anything: nothing to consolidate is not an error.
            return {"job": "consolidate", "user_id": self.user_id, "applied": False, "memories": 0, "groups": [],
                    "tag_merges": [], "contradictions": [], "skipped": "no memories yet"}
        return report.model_dump(mode="json") if isinstance(report, BaseModel) else {"report": report}


def input_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The JSON schema a model sees: by alias (`from`/`to`), objects closed (`additionalProperties: false`)."""
    schema = model.model_json_schema(by_alias=True)
    schema.setdefault("properties", {})
    schema["type"] = "object"
    return schema


def memory_json(mem: Memory, *, full: bool = False) -> dict[str, Any]:
    """A memory as JSON for a model: compact (id, kind, content, tags; `inactive` when it is, `queued` while it
    waits in the outbox for the graph server) or, with `full`, everything but the embedding."""
    if full:
        return mem.model_dump(mode="json", exclude={"embedding"})
    out: dict[str, Any] = {"id": mem.id, "kind": mem.kind.value, "content": mem.content, "tags": list(mem.tags)}
    if not mem.active:
        out["inactive"] = True
    if mem.queued:
        out["queued"] = True
    return out


def why(trace: RecallTrace) -> str:
    """Why a memory was recalled, in a few words: how the query found it, or the graph path that led to it."""
    section = str(getattr(trace, "section", None) or trace.layer)
    if section == "triggered":
        return "a rule whose trigger the query names"
    if section == "superseded":
        return ("superseded by the memory before it, which says its value as a change of this one or leaves its "
                "subject to it")
    if trace.seed_rank:
        found = [name for name, score in (("meaning", trace.vector_score), ("words", trace.text_score)) if score]
        return f"matches the query's {' and '.join(found) or 'tags'} (rank {trace.seed_rank})"
    if trace.path:
        steps = " -> ".join(f"{st.relation} {st.via}" for st in trace.path)
        return f"linked to a match: {steps}"
    return "pinned (always shown)" if section == "baseline" else section


def recall_json(result: RecallResult, *, include_trace: bool = False, full: bool = False) -> dict[str, Any]:
    """A recall as JSON for a model. Compact: each memory's id, kind, content, score and why (and `holds_from` /
    `holds_until` on the two sides of a change that starts later, before its day), and the warnings;
    `full` adds whole memories, the <memory> prompt block, tokens and mode."""
    out: dict[str, Any]
    if full:
        out = {
            "memories": [memory_json(m, full=True) for m in result.memories],
            "prompt": result.to_prompt(),
            "total_tokens": result.total_tokens,
            "budget_used": result.budget_used,
            "mode": result.mode,
        }
    else:
        traces = {t.memory_id: t for t in result.trace}
        out = {"memories": []}
        for m in result.memories:
            t = traces.get(m.id)
            item: dict[str, Any] = {"id": m.id, "kind": m.kind.value, "content": m.content}
            if t is not None:
                item.update(score=round(t.final_score, 4), why=why(t))
                # a change that starts later, while its day is ahead (retrieve/validity.py): when each side holds
                if t.valid_from:
                    item["holds_from"] = t.valid_from.isoformat()
                if t.valid_until:
                    item["holds_until"] = t.valid_until.isoformat()
            out["memories"].append(item)
    out["warnings"] = list(result.warnings)
    if include_trace:
        out["trace"] = [t.model_dump(mode="json") for t in result.trace]
    return out


__all__ = ["ToolDefinition", "ToolError", "ToolResult", "ToolSet", "input_schema"]
