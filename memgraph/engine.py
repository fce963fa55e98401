"""`MemoryEngine`: the public facade. It validates input, embeds, and talks to one `GraphStore`.

    with MemoryEngine.open("~/.memgraph") as mem:
        mem.remember("I prefer tabs over spaces", user_id="ada")
        hits = mem.search("indentation", user_id="ada")
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

from memgraph.config import Settings
from memgraph.embed import CachedEmbedder, Embedder, SentenceTransformerEmbedder
from memgraph.errors import EmbedderUnavailableError, ModelMismatchError, NotFoundError, ValidationError
from memgraph.ingest.episodes import plan_episode
from memgraph.models import (
    MEMORY_RELATIONS,
    HasTag,
    Layer,
    Link,
    LinkSource,
    Memory,
    MemoryKind,
    Provenance,
    RecallResult,
    Relation,
    Scope,
    SearchHit,
    StoreStats,
    Tag,
    check_embedding,
    memory_id_for,
    normalize_tag,
    utcnow,
    validate_identifier,
    validate_owner,
)
from memgraph.retrieve.fusion import rrf_fuse
from memgraph.retrieve.maintenance import Maintainer
from memgraph.retrieve.pipeline import Recaller, RecallRequest, check_mode, memory_kinds
from memgraph.store import GraphStore, MemoryFilter, MemoryUpdate, WriteBatch, open_store

#: Kind -> layer when the caller gives no layer (DESIGN.md: kinds and layers).
DEFAULT_LAYER = {
    MemoryKind.FACT: Layer.SEMANTIC,
    MemoryKind.PREFERENCE: Layer.PROCEDURAL,
    MemoryKind.PROCEDURE: Layer.PROCEDURAL,
    MemoryKind.CORRECTION: Layer.SEMANTIC,
    MemoryKind.CONSTRAINT: Layer.PROCEDURAL,
    MemoryKind.DECISION: Layer.SEMANTIC,
    MemoryKind.EVENT: Layer.EPISODIC,
    MemoryKind.SUMMARY: Layer.EPISODIC,
}


def clean_text(text: object, *, max_chars: int, what: str = "content") -> str:
    """NFC, trimmed; rejects non-strings, empty text, lone surrogates and oversized input with typed errors."""
    if not isinstance(text, str):
        raise ValidationError(f"{what} must be a string, got {type(text).__name__}")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValidationError(f"{what} contains invalid (lone surrogate) characters") from None
    cleaned = unicodedata.normalize("NFC", text).strip()
    if not cleaned:
        raise ValidationError(f"{what} is empty")
    if len(cleaned) > max_chars:
        raise ValidationError(
            f"{what} has {len(cleaned)} characters; the maximum is {max_chars} "
            "(use ingest() to chunk long text, or raise MEMGRAPH_MAX_CONTENT_CHARS)"
        )
    return cleaned


class MemoryEngine:
    """Long-term memory for agents, scoped per user, on SQLite (embedded), Neo4j or FalkorDB."""

    def __init__(self, store: GraphStore, settings: Settings, embedder: Embedder | None = None) -> None:
        self.store = store
        self.settings = settings
        self._embedder = embedder
        self._check_model()
        self._maintainer = Maintainer(store, settings)
        self._recaller = Recaller(store, settings, lambda: self.embedder, self._maintainer)

    # -- lifecycle ----------------------------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        target: str | Path | None = None,
        *,
        settings: Settings | None = None,
        embedder: Embedder | None = None,
        **overrides: Any,
    ) -> MemoryEngine:
        """Open a store: a directory (SQLite), ":memory:" (incognito), bolt:// / neo4j:// (Neo4j),
        falkordb://host:port or falkordb+dir:///path (FalkorDB). Keyword overrides go to `Settings`."""
        settings = settings or Settings(**overrides)
        if overrides and settings is not None:
            settings = settings.model_copy(update=overrides)
        if target is not None:
            settings = settings.model_copy(update={"store": str(target)})
        store = open_store(settings.store, settings)
        return cls(store, settings, embedder)

    def close(self) -> None:
        """Finish background maintenance, then close the store (and the embedding cache file)."""
        self._maintainer.close()
        if isinstance(self._embedder, CachedEmbedder):
            self._embedder.close()
        self.store.close()

    def __enter__(self) -> MemoryEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def embedder(self) -> Embedder:
        """The embedder, created on first use (importing sentence-transformers only then)."""
        if self._embedder is None:
            s = self.settings
            inner = SentenceTransformerEmbedder(
                s.embedding_model_path,
                model_name=s.embedding_model,
                dim=s.embedding_dim,
                batch_size=s.embed_batch_size,
                device=s.embed_device,
            )
            cache_dir = Path(s.embed_cache_dir).expanduser() if s.embed_cache_dir else s.data_dir()
            path = cache_dir / "embedding_cache.sqlite3" if cache_dir else None
            self._embedder = CachedEmbedder(inner, max_items=s.embed_cache_size, path=path)
        return self._embedder

    def _check_model(self) -> None:
        """A store remembers the model that built it; another model's vectors are not comparable."""
        recorded = self.store.get_meta("embedding_model")
        if recorded is None:
            self.store.set_meta("embedding_model", self.settings.embedding_model)
        elif recorded != self.settings.embedding_model:
            raise ModelMismatchError(
                f"store was built with embedding model {recorded!r}, this engine uses "
                f"{self.settings.embedding_model!r}; run `memgraph reindex` or open with that model"
            )

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed texts in batches (cached by content hash)."""
        vecs = self.embedder.encode(list(texts))
        if vecs.shape[1:] != (self.settings.embedding_dim,):
            raise ModelMismatchError(
                f"embedder returns {vecs.shape[1:]} vectors, the store uses {self.settings.embedding_dim}"
            )
        return vecs

    # -- writes -------------------------------------------------------------------------------------------

    def _build_memory(
        self,
        content: object,
        *,
        user_id: str,
        kind: MemoryKind | str = MemoryKind.FACT,
        layer: Layer | str | None = None,
        tags: Iterable[str] | None = None,
        scope: Scope | str = Scope.GLOBAL,
        session_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        pinned: bool = False,
        file_paths: Iterable[str] | None = None,
        trigger_patterns: Iterable[str] | None = None,
        importance: float = 0.5,
        provenance: Provenance | str = Provenance.USER_STATED,
        created_at: Any = None,
    ) -> Memory:
        text = clean_text(content, max_chars=self.settings.max_content_chars)
        if session_id is not None:
            validate_identifier(session_id, "session_id")
        try:
            kind_v = MemoryKind(kind)
            scope_v = Scope(scope)
            layer_v = Layer(layer) if layer is not None else DEFAULT_LAYER[kind_v]
            prov_v = Provenance(provenance)
        except ValueError as exc:
            raise ValidationError(str(exc)) from None
        if metadata is not None and not isinstance(metadata, Mapping):
            raise ValidationError("metadata must be a JSON object (a mapping)")
        meta = _check_json(dict(metadata or {}))
        tag_list = sorted({normalize_tag(t) for t in _as_list(tags, "tags")})
        now = utcnow()
        return Memory(
            id=memory_id_for(user_id, text),
            user_id=user_id,
            content=text,
            kind=kind_v,
            layer=layer_v,
            scope=scope_v,
            session_id=session_id,
            created_at=created_at or now,
            updated_at=now,
            last_accessed=now,
            importance=importance,
            provenance=prov_v,
            pinned=bool(pinned),
            file_paths=_as_list(file_paths, "file_paths"),
            trigger_patterns=_as_list(trigger_patterns, "trigger_patterns"),
            metadata=meta,
            tags=tag_list,
            embedding_model=self.settings.embedding_model,
        )

    def remember(
        self,
        content: str,
        *,
        user_id: str,
        kind: MemoryKind | str = MemoryKind.FACT,
        tags: Iterable[str] | None = None,
        scope: Scope | str = Scope.GLOBAL,
        session_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        pinned: bool = False,
        file_paths: Iterable[str] | None = None,
        trigger_patterns: Iterable[str] | None = None,
        embedding: Sequence[float] | None = None,
    ) -> Memory:
        """Store one memory now (explicit: never dropped for low importance). Returns it as stored."""
        return self.remember_many(
            [
                {
                    "content": content,
                    "kind": kind,
                    "tags": tags,
                    "scope": scope,
                    "session_id": session_id,
                    "metadata": metadata,
                    "pinned": pinned,
                    "file_paths": file_paths,
                    "trigger_patterns": trigger_patterns,
                    "embedding": embedding,
                }
            ],
            user_id=user_id,
        )[0]

    def remember_many(self, items: Sequence[Mapping[str, Any] | Memory], *, user_id: str) -> list[Memory]:
        """Many memories in one batched embed and one atomic write: all are stored or none is."""
        owner = validate_owner(user_id)
        memories, matrix, _ = self._prepare(items, owner)
        if not memories:
            return []
        self.store.write(owner, WriteBatch(memories=memories, embeddings=matrix))
        return self.store.get_memories(owner, [m.id for m in memories])

    def _prepare(
        self, items: Sequence[Mapping[str, Any] | Memory], owner: str
    ) -> tuple[list[Memory], np.ndarray, list[str]]:
        """Validate and embed items; returns unique memories, their embeddings, and each item's memory id."""
        memories: list[Memory] = []
        given: list[list[float] | None] = []
        for item in items:
            data = item.model_dump() if isinstance(item, Memory) else dict(item)
            if isinstance(item, Memory) and item.user_id != owner:
                raise ValidationError("remember_many: a Memory of another user was passed")
            vec = data.pop("embedding", None)
            keep = {k: v for k, v in data.items() if k in _BUILD_ARGS and v is not None}
            memories.append(self._build_memory(user_id=owner, **keep))
            given.append(None if vec is None else check_embedding(vec, self.settings.embedding_dim))
        item_ids = [m.id for m in memories]
        # Same content twice in one batch is one memory (the id is the content hash); tags are merged.
        unique: dict[str, int] = {}
        for i, mem in enumerate(memories):
            first = unique.setdefault(mem.id, i)
            if first != i:
                memories[first].tags = sorted(set(memories[first].tags) | set(mem.tags))
        memories = [memories[i] for i in unique.values()]
        given = [given[i] for i in unique.values()]
        matrix = np.zeros((len(memories), self.settings.embedding_dim), dtype=np.float32)
        todo = [i for i, g in enumerate(given) if g is None]
        for i, g in enumerate(given):
            if g is not None:
                matrix[i] = np.asarray(g, dtype=np.float32)
        if todo:
            matrix[todo] = self.embed([memories[i].content for i in todo])
        return memories, matrix, item_ids

    def remember_conversation(
        self,
        turns: Sequence[Mapping[str, Any] | str],
        *,
        user_id: str,
        session_id: str,
        session_date: datetime | None = None,
        tags: Iterable[str] | None = None,
        link_sequence: bool = True,
    ) -> list[Memory]:
        """Store one session of a conversation: a memory per turn (`{"speaker", "text", "metadata"?}`),
        tagged `session:`, `speaker:`, `date:` and `month:`, neighbouring turns joined by
        `RelatesTo {source: sequence}`. One atomic write. Returns the memories in turn order."""
        owner = validate_owner(user_id)
        validate_identifier(session_id, "session_id")
        plan = plan_episode(turns, session_id=session_id, session_date=session_date, tags=_as_list(tags, "tags"))
        memories, matrix, item_ids = self._prepare(plan.items, owner)
        if not memories:
            return []
        links: list[Link] = []
        if link_sequence:
            pairs = dict.fromkeys((item_ids[a], item_ids[b]) for a, b in plan.sequence)
            links = [
                Link(
                    src=a,
                    dst=b,
                    relation=Relation.RELATES_TO,
                    weight=self.settings.sequence_link_weight,
                    source=LinkSource.SEQUENCE,
                    reason=f"next turn in session {session_id}",
                )
                for a, b in pairs
                if a != b
            ]
        self.store.write(owner, WriteBatch(memories=memories, embeddings=matrix, links=links))
        by_id = {m.id: m for m in self.store.get_memories(owner, list(dict.fromkeys(item_ids)))}
        return [by_id[i] for i in dict.fromkeys(item_ids) if i in by_id]

    def get(self, memory_id: str, *, user_id: str, with_embedding: bool = False) -> Memory:
        """One memory of this user; NotFoundError when it does not exist (or is another user's)."""
        owner = validate_owner(user_id)
        validate_identifier(memory_id, "memory_id")
        found = self.store.get_memories(owner, [memory_id], with_embeddings=with_embedding)
        if not found:
            raise NotFoundError(f"no memory {memory_id!r} for user {owner!r}")
        return found[0]

    def forget(self, memory_id: str, *, user_id: str) -> Memory:
        """Soft delete: the memory becomes inactive (kept, restorable with `restore`)."""
        return self._set_active(memory_id, user_id, False)

    def restore(self, memory_id: str, *, user_id: str) -> Memory:
        """Undo `forget` (or a supersede): the memory is active again."""
        return self._set_active(memory_id, user_id, True)

    def _set_active(self, memory_id: str, user_id: str, active: bool) -> Memory:
        owner = validate_owner(user_id)
        self.get(memory_id, user_id=owner)
        self.store.update_memories(
            owner, [MemoryUpdate(id=memory_id, set={"active": active, "updated_at": utcnow()})]
        )
        return self.get(memory_id, user_id=owner)

    def link(
        self,
        src: str,
        dst: str,
        relation: Relation | str = Relation.RELATES_TO,
        *,
        user_id: str,
        weight: float = 1.0,
        reason: str | None = None,
    ) -> Link:
        """Join two memories of the same user. Links across users are refused (NotFoundError)."""
        owner = validate_owner(user_id)
        rel = Relation.parse(relation)
        if rel not in MEMORY_RELATIONS:
            raise ValidationError(f"{rel.value} joins a memory to a tag/cluster; use tag() or the cluster job")
        if src == dst:
            raise ValidationError("a memory cannot be linked to itself")
        if not isinstance(weight, int | float) or not 0.0 <= float(weight) <= 1.0:
            raise ValidationError("weight must be a number between 0 and 1")
        found = {m.id for m in self.store.get_memories(owner, [src, dst])}
        for mid in (src, dst):
            if mid not in found:
                raise NotFoundError(f"no memory {mid!r} for user {owner!r}")
        link = Link(src=src, dst=dst, relation=rel, weight=float(weight), source=LinkSource.EXPLICIT, reason=reason)
        updates = []
        if rel is Relation.SUPERSEDES:
            updates.append(MemoryUpdate(id=dst, set={"active": False, "updated_at": utcnow()}))
        self.store.write(owner, WriteBatch(links=[link], updates=updates))
        return link

    def tag(self, memory_id: str, tags: Iterable[str], *, user_id: str) -> Memory:
        """Add tags (normalised: lowercase, trimmed) to a memory."""
        owner = validate_owner(user_id)
        names = sorted({normalize_tag(t) for t in _as_list(tags, "tags")})
        self.get(memory_id, user_id=owner)
        self.store.add_tags(owner, [HasTag(memory_id=memory_id, tag=n) for n in names])
        return self.get(memory_id, user_id=owner)

    # -- reads --------------------------------------------------------------------------------------------

    def list(
        self,
        *,
        user_id: str,
        kind: MemoryKind | str | None = None,
        tag: str | None = None,
        session_id: str | None = None,
        include_inactive: bool = False,
        include_archived: bool = False,
        limit: int = 100,
        offset: int = 0,
    ) -> list[Memory]:
        """A user's memories, newest first, filtered in the store."""
        owner = validate_owner(user_id)
        try:
            kinds = [MemoryKind(kind)] if kind is not None else None
        except ValueError as exc:
            raise ValidationError(str(exc)) from None
        flt = MemoryFilter(
            kinds=kinds,
            active=None if include_inactive else True,
            include_archived=include_archived,
            include_compressed=True,
            tag=normalize_tag(tag) if tag is not None else None,
            session_id=session_id,
        )
        return self.store.list_memories(owner, flt, limit=max(0, int(limit)), offset=max(0, int(offset)))

    def tags(self, *, user_id: str) -> list[Tag]:
        """A user's tags with their memory counts."""
        return self.store.list_tags(validate_owner(user_id))

    def search(
        self, query: str, *, user_id: str, k: int = 10, kinds: Sequence[MemoryKind | str] | None = None
    ) -> list[SearchHit]:
        """Vector + full-text search fused by reciprocal rank (no graph expansion; see `recall`)."""
        owner = validate_owner(user_id)
        text = clean_text(query, max_chars=self.settings.max_content_chars, what="query")
        try:
            flt = MemoryFilter(kinds=[MemoryKind(x) for x in kinds] if kinds else None)
        except ValueError as exc:
            raise ValidationError(str(exc)) from None
        n = max(1, int(k)) * self.settings.candidate_multiplier
        text_hits = self.store.text_search(owner, text, n, flt=flt)
        vec_hits: list[tuple[str, float]] = []
        try:
            qvec = self.embed([text])[0]
            vec_hits = self.store.vector_search(
                owner, qvec, n, min_similarity=self.settings.similarity_threshold, flt=flt
            )
        except EmbedderUnavailableError:
            pass
        fused = rrf_fuse([vec_hits, text_hits], self.settings.rrf_k)[: max(1, int(k))]
        vs, ts = dict(vec_hits), dict(text_hits)
        mems = {m.id: m for m in self.store.get_memories(owner, [mid for mid, _ in fused])}
        return [
            SearchHit(memory=mems[mid], score=score, vector_score=vs.get(mid), text_score=ts.get(mid))
            for mid, score in fused
            if mid in mems
        ]

    def recall(
        self,
        query: str,
        *,
        user_id: str,
        top_k: int = 5,
        token_budget: int | None = None,
        kinds: Sequence[MemoryKind | str] | None = None,
        scope: Sequence[str] | str | None = None,
        mode: str = "cascade",
        files: Sequence[str] | str | None = None,
        include_archived: bool = False,
    ) -> RecallResult:
        """Cascade retrieval: seeds from vector + full-text search (and the tags the query names), spread
        through the graph, ranked by relevance x confidence x recency x importance, then placed by layer
        (triggered constraints, baseline, contextual, procedures) within `top_k` and `token_budget` tokens.

        `files` (or `scope`, its alias) are the caller's current file paths: project-scoped memories are
        served only when one of their glob patterns matches one of them. `mode`: cascade | hybrid |
        semantic | lexical. Without a usable embedder recall runs lexically and says so in `warnings`.
        Access counts, co-recall links and gaps are updated afterwards in the background (`flush()` waits).
        """
        owner = validate_owner(user_id)
        text = clean_text(query, max_chars=self.settings.max_content_chars, what="query")
        check_mode(mode)
        if not isinstance(top_k, int) or isinstance(top_k, bool) or top_k < 1:
            raise ValidationError("top_k must be a positive integer")
        budget = self.settings.token_budget if token_budget is None else token_budget
        if not isinstance(budget, int) or isinstance(budget, bool) or budget < 1:
            raise ValidationError("token_budget must be a positive integer")
        if scope is not None and files is not None:
            raise ValidationError("give files or scope, not both (scope is an alias of files)")
        paths = files if files is not None else scope
        file_list = _as_list(paths, "files") if paths is not None else None
        return self._recaller.recall(
            RecallRequest(
                user_id=owner,
                query=text,
                top_k=top_k,
                token_budget=budget,
                kinds=memory_kinds(kinds),
                scope_files=file_list,
                mode=mode,
                include_archived=bool(include_archived),
            )
        )

    def feedback(self, memory_id: str, helpful: bool, *, user_id: str) -> Memory:
        """Explicit feedback on a recalled memory (seed 002 "Feedback Loops"): helpful -> strength + 1 and
        confidence + feedback_boost; not helpful -> confidence - feedback_penalty. Applied at once."""
        owner = validate_owner(user_id)
        if not isinstance(helpful, bool):
            raise ValidationError("helpful must be True or False")
        self.get(memory_id, user_id=owner)
        s = self.settings
        inc = {"strength": 1, "confidence": s.feedback_boost} if helpful else {"confidence": -s.feedback_penalty}
        self.store.update_memories(
            owner,
            [MemoryUpdate(id=memory_id, set={"last_accessed": utcnow()}, inc=inc)],
        )
        return self.get(memory_id, user_id=owner)

    def flush(self, timeout: float | None = None) -> None:
        """Wait until background post-recall maintenance has been written."""
        self._maintainer.flush(timeout)

    def stats(self, *, user_id: str | None = None) -> StoreStats:
        """Counts for one user, or for the whole store when user_id is None."""
        return self.store.stats(validate_owner(user_id) if user_id is not None else None)

    def users(self) -> list[str]:
        return self.store.users()


_BUILD_ARGS = frozenset(
    {
        "content",
        "kind",
        "layer",
        "tags",
        "scope",
        "session_id",
        "metadata",
        "pinned",
        "file_paths",
        "trigger_patterns",
        "importance",
        "provenance",
        "created_at",
    }
)


def _as_list(values: Iterable[str] | str | None, what: str) -> list[str]:
    if values is None:
        return []
    if isinstance(values, str):
        values = [values]
    out = list(values)
    for v in out:
        if not isinstance(v, str):
            raise ValidationError(f"{what} must be strings, got {type(v).__name__}")
    return out


def _check_json(meta: dict[str, Any]) -> dict[str, Any]:
    """Metadata must be a JSON object that round-trips (string keys, finite numbers)."""
    import json

    try:
        text = json.dumps(meta, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise ValidationError(f"metadata must be JSON-serialisable with finite numbers: {exc}") from None
    if len(text) > 64_000:
        raise ValidationError("metadata is larger than 64 KB")
    return json.loads(text)
