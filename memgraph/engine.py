"""`MemoryEngine`: the public facade. It validates input, embeds, and talks to one `GraphStore`.

    with MemoryEngine.open("~/.memgraph") as mem:
        mem.remember("I prefer tabs over spaces", user_id="ada")
        hits = mem.search("indentation", user_id="ada")
"""

from __future__ import annotations

import builtins
import functools
import inspect
import logging
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from memgraph.config import Settings
from memgraph.embed import CachedEmbedder, Embedder, default_embedder
from memgraph.errors import (
    EmbedderUnavailableError,
    EngineClosedError,
    ModelMismatchError,
    NotFoundError,
    SecretDetectedError,
    TransientStoreError,
    ValidationError,
)
from memgraph.ids import invalid_id_problems, report_invalid_user_ids, secret_in
from memgraph.ingest.clean import CHUNK_ADVICE, clean_text
from memgraph.ingest.embedding import encode
from memgraph.ingest.episodes import plan_episode
from memgraph.ingest.items import IngestItem, as_str_list, memory_items
from memgraph.ingest.pipeline import IngestPipeline
from memgraph.ingest.reconcile import Reconciler
from memgraph.ingest.report import IngestReport
from memgraph.models import (
    HasTag,
    Link,
    LinkSource,
    Memory,
    MemoryKind,
    RecallResult,
    Relation,
    Scope,
    SearchHit,
    StoreStats,
    Tag,
    normalize_tag,
    utcnow,
    validate_identifier,
    validate_owner,
)
from memgraph.outbox import WriteOutbox, open_or_defer, outbox_path
from memgraph.retrieve.fusion import fuse_lists
from memgraph.retrieve.maintenance import Maintainer
from memgraph.retrieve.pipeline import Recaller, RecallRequest, check_mode, memory_kinds
from memgraph.store import GraphStore, MemoryFilter, MemoryUpdate, WriteBatch
from memgraph.validation import checked, utc_datetime
from memgraph.writes import WritePath

if TYPE_CHECKING:
    from memgraph.jobs import Jobs
    from memgraph.jobs.erase import EraseReport

log = logging.getLogger("memgraph")


class MemoryEngine:
    """Long-term memory for agents, scoped per user, on SQLite (embedded), Neo4j or FalkorDB."""

    def __init__(
        self,
        store: GraphStore,
        settings: Settings,
        embedder: Embedder | None = None,
        *,
        reconciler: Reconciler | None = None,
        check_model: bool = True,
    ) -> None:
        self.store = store
        self.settings = settings
        self._closed = False
        self._embedder = embedder
        self._embedder_lock = threading.Lock()
        self._jobs: Jobs | None = None
        #: The write path (memgraph/ingest); `reconciler` replaces the rule-based dedup/conflict decisions.
        self.pipeline = IngestPipeline(store, settings, lambda: self.embedder, reconciler)
        deferred_check: Callable[[], None] | None = None
        if check_model:
            try:
                self._check_model()
            except TransientStoreError:
                if outbox_path(settings) is None:
                    raise
                deferred_check = self._check_model  # checked before the first replay, once the server answers
        self._writes = WritePath(store, self.pipeline)
        self._outbox = self._writes.outbox = WriteOutbox.open(
            settings, store, self.pipeline, before_first=deferred_check, prefetch=self.embed,
            eraser=self._replay_erasure,
        )
        try:
            report_invalid_user_ids(self.store.name, self.store.users())
        except TransientStoreError:
            pass  # the server is down (writes queue in the outbox): reported on the next open
        self._maintainer = Maintainer(store, settings, lambda: self.embedder)
        self._recaller = Recaller(store, settings, lambda: self.embedder, self._maintainer)
        # looked up on the class: a deferred store forwards attribute reads to its server
        if settings.compiled_walk and getattr(type(store), "walks_compiled", False):
            from memgraph.store.sqlite import compiled_walk

            compiled_walk.warm_in_background()

    # -- lifecycle ----------------------------------------------------------------------------------------

    @classmethod
    @checked
    def open(
        cls,
        target: str | Path | None = None,
        *,
        settings: Settings | None = None,
        embedder: Embedder | None = None,
        reconciler: Reconciler | None = None,
        check_model: bool = True,
        **overrides: Any,
    ) -> MemoryEngine:
        """Open a store: a directory (SQLite), ":memory:" (incognito), bolt:// / neo4j:// (Neo4j),
        falkordb://host:port or falkordb+dir:///path (FalkorDB). Keyword overrides go to `Settings`.
        `check_model=False` opens a store built with another embedding model (only for `jobs.reindex`)."""
        unknown = sorted(set(overrides) - set(Settings.model_fields))
        if unknown:
            raise ValidationError(f"open(): unknown setting(s): {', '.join(unknown)} (see memgraph.Settings)")
        if settings is None:
            settings = Settings(**overrides)
        elif overrides:  # validated like the settings themselves (model_copy would not check them)
            settings = Settings(**{**settings.model_dump(), **overrides})
        if target is not None:
            settings = settings.model_copy(update={"store": str(target)})
        if "\x00" in settings.store:  # os.* would raise a bare ValueError ("embedded null byte")
            raise ValidationError("open(): the store target contains a NUL character")
        store = open_or_defer(settings)
        return cls(store, settings, embedder, reconciler=reconciler, check_model=check_model)

    @checked
    def close(self) -> None:
        """Finish background maintenance, then close the store (and the embedding cache file). Writes still
        queued in the outbox stay there: the next engine on this store replays them. Closing twice does nothing;
        any other call after it raises `EngineClosedError`."""
        if self._closed:
            return
        self._closed = True
        self._maintainer.close()
        self._recaller.close()
        if self._outbox is not None:
            self._outbox.close()
        if isinstance(self._embedder, CachedEmbedder):
            self._embedder.close()
        self.store.close()

    def __enter__(self) -> MemoryEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def jobs(self) -> Jobs:
        """The maintenance jobs (cluster, decay, links, gaps, consolidate, compress, reindex, export/import)."""
        if self._jobs is None:
            from memgraph.jobs import Jobs  # late: only commands that run a job load the job modules

            self._jobs = Jobs(self.store, self.settings, lambda: self.embedder)
        return self._jobs

    @property
    def embedder(self) -> Embedder:
        """The embedder, created on first use (cheap: the model loads on the first text, or `warm()`); thread-safe."""
        if self._embedder is not None:
            return self._embedder
        with self._embedder_lock:
            if self._embedder is None:
                self._embedder = default_embedder(self.settings)
            return self._embedder

    # -- the outbox (README "When the graph server is down"; memgraph/outbox) ---------------------------------

    @property
    def outbox(self) -> WriteOutbox | None:
        """The local outbox of a server store (None on SQLite or with `outbox=False`): `pending()`, `status()`,
        `replay()`, `wait()`, `drop()`, `erase()`."""
        return self._outbox

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

    @checked
    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed texts in batches (cached by content hash)."""
        return encode(self.embedder, texts, self.settings.embedding_dim)

    # -- writes -------------------------------------------------------------------------------------------

    @checked
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
        reconcile: bool = True,
    ) -> Memory:
        """Store one memory now (explicit: never dropped for low importance). Returns it as stored.

        It goes through the write path: secrets are redacted (or rejected), and a near-duplicate of an existing
        memory reinforces that memory, which is then what is returned. `reconcile=False` skips the
        near-neighbour step (dedup, supersede, contradict); the exact same text is still one memory."""
        item = dict(content=content, kind=kind, tags=tags, scope=scope, session_id=session_id, metadata=metadata,
                    pinned=pinned, file_paths=file_paths, trigger_patterns=trigger_patterns, embedding=embedding)
        return self.remember_many([item], user_id=user_id, reconcile=reconcile)[0]

    @checked
    def remember_report(
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
        reconcile: bool = True,
    ) -> IngestReport:
        """`remember`, returning what the write did instead of the memory: created or reinforced (and which
        memory), what it superseded or contradicted and why, and which secrets were redacted. For callers that
        show the user what happened (the CLI does); `report.decisions[0].memory_id` is the memory."""
        owner = validate_owner(user_id)
        item = dict(content=content, kind=kind, tags=tags, scope=scope, session_id=session_id, metadata=metadata,
                    pinned=pinned, file_paths=file_paths, trigger_patterns=trigger_patterns, embedding=embedding)
        parsed = memory_items([item], owner, "remember")
        return self._writes.run(owner, parsed, reconcile=reconcile, source="remember")[0].report

    @checked
    def remember_many(
        self, items: Sequence[Mapping[str, Any] | Memory | str], *, user_id: str, reconcile: bool = True
    ) -> list[Memory]:
        """Many memories in one batched embed and one atomic write: all are stored or none is.

        Items are strings (the content) or dicts with `content` and optionally kind, layer, tags, scope,
        session_id, metadata, pinned, file_paths, trigger_patterns, embedding (skips the model), created_at,
        importance, provenance. Returns the resulting memories in input order, each once (a duplicate resolves
        to the memory it reinforced). Reconciliation finds every item's `reconcile_neighbours` nearest stored
        memories in one batched search and decides against those; it costs ~2.5-3x the CPU of
        `reconcile=False` on a 100k load, which still merges exact duplicates by content id (bench/RESULTS.md,
        "Bulk writes")."""
        owner = validate_owner(user_id)
        parsed = memory_items(items, owner, "remember_many")
        if not parsed:
            return []
        ids, queued = self._writes.write(owner, parsed, reconcile=reconcile, source="remember")
        return self._writes.read_back(owner, ids, queued)

    @checked
    def remember_linked(
        self,
        items: Sequence[Mapping[str, Any] | Memory | str],
        *,
        user_id: str,
        links: Callable[[list[str]], Iterable[Link]] | None = None,
        reconcile: bool = True,
        source: str = "remember",
    ) -> list[str]:
        """`remember_many` that also writes links between what it stored, in the same atomic write.

        Returns, per item, the id of the memory it became: the one created, or the existing memory it
        reinforced. `links` is called with that list before anything is written and returns the links to store
        with the memories (e.g. a summary's DerivedFrom edges to its evidence; a link from a memory to itself
        or twice is left out; Supersedes, which also deactivates a memory, is `link()`'s). `source` names the
        writer in the breadcrumbs of reinforced memories."""
        owner = validate_owner(user_id)
        validate_identifier(source, "source")  # a writer's name, kept in breadcrumbs: the id rule, no secret
        parsed = memory_items(items, owner, "remember_linked")
        if not parsed:
            return []
        return self._writes.write(owner, parsed, reconcile=reconcile, source=source, links=links)[0]

    @checked
    def ingest(
        self,
        text: str,
        *,
        user_id: str,
        session_id: str | None,
        kind_hint: MemoryKind | str | None = None,
        tags: Iterable[str] | None = None,
        scope: Scope | str = Scope.GLOBAL,
        files: Iterable[str] | None = None,
        metadata: Mapping[str, Any] | None = None,
        created_at: Any = None,
    ) -> IngestReport:
        """Run text through the write path: clean, secret filter, chunk, embed (one batch,
        cached), importance, classify, tag, reconcile, one atomic write. Chunks below the importance floor are
        dropped; the report says what was created, reinforced, superseded, contradicted or dropped, and why."""
        item = dict(text=text, session_id=session_id, kind=kind_hint, tags=tags, scope=scope, files=files,
                    metadata=metadata, created_at=created_at)
        return self.ingest_many([item], user_id=user_id)

    @checked
    def ingest_many(
        self,
        items: Sequence[Mapping[str, Any] | str],
        *,
        user_id: str,
        on_secret_reject: Literal["raise", "drop"] = "raise",
    ) -> IngestReport:
        """Several texts (e.g. conversation turns, each chunked on its own) in one embed batch and one write.

        Items are strings (the text) or dicts with `text` and optionally session_id, kind, tags, scope, files,
        metadata, created_at.
        Under the `reject` secret policy an item holding a secret raises SecretDetectedError (nothing stored),
        or with `on_secret_reject="drop"` is left out and reported."""
        owner = validate_owner(user_id)
        if on_secret_reject not in ("raise", "drop"):
            raise ValidationError("on_secret_reject must be 'raise' or 'drop'")
        if isinstance(items, str | bytes) or not isinstance(items, Sequence):
            raise ValidationError(f"ingest_many takes a list of texts (dicts with a 'text' key, or strings), "
                                  f"not a single {type(items).__name__}")
        parsed = []
        for item in items:
            if isinstance(item, str):
                item = {"text": item}
            elif not isinstance(item, Mapping):
                raise ValidationError(f"ingest_many items must be dicts or strings, got {type(item).__name__}")
            parsed.append(IngestItem.from_mapping(item))
        if not parsed:
            return IngestReport(user_id=owner)
        return self._writes.queueable(
            owner,
            lambda: self.pipeline.run(owner, parsed, explicit=False, on_secret_reject=on_secret_reject).report,
            lambda box: box.write(owner, parsed, explicit=False, source="ingest", on_secret_reject=on_secret_reject)[1],
        )

    @checked
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
        if session_date is not None:
            session_date = utc_datetime(session_date, "session_date")
        for i, turn in enumerate(turns):
            meta = turn.get("metadata") if isinstance(turn, Mapping) else None
            if meta is not None and not isinstance(meta, Mapping):
                raise ValidationError(f"turn {i}: metadata must be a mapping (a dict), got {type(meta).__name__}")
            speaker = turn.get("speaker") if isinstance(turn, Mapping) else None
            # a speaker name becomes a `speaker:` tag (lowercased: a vendor key would no longer be found there)
            if isinstance(speaker, str) and secret_in(speaker):
                raise SecretDetectedError(
                    f"turn {i}: the speaker name holds a secret ({', '.join(secret_in(speaker))}); nothing was stored"
                )
        # Checked before plan_episode lowercases them (the filter knows vendor keys in their own case).
        extra = [t for t in as_str_list(tags, "tags") if not self._writes.secret_tag(t)]
        plan = plan_episode(
            turns,
            session_id=session_id,
            session_date=session_date,
            tags=extra,
            max_topic_tags=self.settings.structure_max_topic_tags,
        )
        parsed = [
            IngestItem.from_mapping({**item, "kind": item.get("kind") or MemoryKind.EVENT}) for item in plan.items
        ]
        if not parsed:
            return []

        def sequence_links(ids: list[str]) -> list[Link]:
            return [
                Link(
                    src=ids[a],
                    dst=ids[b],
                    relation=Relation.RELATES_TO,
                    weight=self.settings.sequence_link_weight,
                    source=LinkSource.SEQUENCE,
                    reason=f"next turn in session {session_id}",
                )
                for a, b in plan.sequence
            ]

        # Explicit (turns are never dropped for low importance), still secret-filtered and deduplicated;
        # the sequence links go into the same atomic write.
        ids, queued = self._writes.write(
            owner,
            parsed,
            reconcile=True,
            source="conversation",
            links=sequence_links if link_sequence else None,
            link_sessions=link_sequence,
        )
        return self._writes.read_back(owner, ids, queued)

    @checked
    def get(self, memory_id: str, *, user_id: str, with_embedding: bool = False) -> Memory:
        """One memory of this user; NotFoundError when it does not exist (or is another user's).

        On a server store, calls queued in the outbox for this memory are shown applied, with `queued=True`
        (a memory only queued so far comes from the outbox, also while the server is down)."""
        owner = validate_owner(user_id)
        validate_identifier(memory_id, "memory_id")
        box = self._outbox
        try:
            found = self.store.get_memories(owner, [memory_id], with_embeddings=with_embedding)
        except TransientStoreError:
            if box is None or (view := box.overlay(owner, memory_id, None)) is None:
                raise
            return view
        mem = found[0] if found else None
        if box is not None:
            mem = box.overlay(owner, memory_id, mem)
        if mem is None:
            raise NotFoundError(f"no memory {memory_id!r} for user {owner!r}")
        return mem

    @checked
    def forget(self, memory_id: str, *, user_id: str) -> Memory:
        """Soft delete: the memory becomes inactive (kept, restorable with `restore`)."""
        return self._set_active(memory_id, user_id, False)

    @checked
    def restore(self, memory_id: str, *, user_id: str) -> Memory:
        """Undo `forget` (or a supersede): the memory is active again."""
        return self._set_active(memory_id, user_id, True)

    def _set_active(self, memory_id: str, user_id: str, active: bool) -> Memory:
        owner = validate_owner(user_id)
        validate_identifier(memory_id, "memory_id")

        def online() -> Memory | None:
            self.get(memory_id, user_id=owner)
            self.store.update_memories(
                owner, [MemoryUpdate(id=memory_id, set={"active": active, "updated_at": utcnow()})]
            )
            return None

        queued = self._writes.queueable(
            owner, online, lambda box: box.update(owner, memory_id, "restore" if active else "forget", active=active)
        )
        return queued if queued is not None else self.get(memory_id, user_id=owner)

    @checked
    def erase(self, memory_ids: Sequence[str], *, user_id: str) -> EraseReport:
        """Erase memories for good (a user's request, or a secret stored by mistake); `forget` is the soft delete.
        Also erased: the memories merged into them, derived summaries left with no other evidence, their tags
        and clusters, cache entries; a summary with other evidence loses what it quoted of them; supersede
        chains are joined across them. Then the store's files are rewritten (memgraph/jobs/erase.py; Neo4j
        keeps transaction logs: README, "Identifiers, secrets and erasure"). Ids that are not this user's are
        listed in the report's `not_found`."""
        self._maintainer.flush()  # post-recall updates of these memories land before, not after
        owner = validate_owner(user_id)
        ids = list(memory_ids)
        return self._writes.erasing(
            owner, ids, lambda: self.jobs.erase(owner, ids), lambda: _queued_erasure(ids)
        )

    @checked
    def erase_user(self, user_id: str) -> EraseReport:
        """Erase everything stored for one user: memories, tags, clusters, gaps, job history, open agent session
        buffers, cache entries; then rewrite the store's files (see `erase`). Irreversible."""
        self._maintainer.flush()
        owner = validate_owner(user_id)
        return self._writes.erasing(owner, None, lambda: self.jobs.erase_user(owner), lambda: _queued_erasure(None))

    def _replay_erasure(self, user_id: str, memory_ids: list[str] | None) -> object:
        """The outbox's eraser: a queued erasure replays as the full one (derived data included)."""
        if memory_ids is None:
            return self.jobs.erase_user(user_id)
        return self.jobs.erase(user_id, memory_ids)

    @checked
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
        validate_identifier(src, "src")
        validate_identifier(dst, "dst")
        rel = Relation.parse(relation)
        if src == dst:
            raise ValidationError("a memory cannot be linked to itself")
        if not 0.0 <= weight <= 1.0:
            raise ValidationError("weight must be a number between 0 and 1")
        given = Link(src=src, dst=dst, relation=rel, weight=float(weight), source=LinkSource.EXPLICIT, reason=reason)

        def online() -> Link:
            [link] = self._writes.checked_links(owner, [given])
            updates = []
            if rel is Relation.SUPERSEDES:
                updates.append(MemoryUpdate(id=dst, set={"active": False, "updated_at": utcnow()}))
            self.store.write(owner, WriteBatch(links=[link], updates=updates))
            return link

        def queued(box: WriteOutbox) -> Link:
            validate_identifier(src, "src")
            validate_identifier(dst, "dst")
            return box.link(owner, self._writes.clean_links([given])[0])

        return self._writes.queueable(owner, online, queued)

    @checked
    def tag(self, memory_id: str, tags: Iterable[str], *, user_id: str) -> Memory:
        """Add tags (normalised: lowercase, trimmed) to a memory."""
        owner = validate_owner(user_id)
        validate_identifier(memory_id, "memory_id")
        names = sorted({normalize_tag(t) for t in as_str_list(tags, "tags") if not self._writes.secret_tag(t)})

        def online() -> Memory | None:
            self.get(memory_id, user_id=owner)
            self.store.add_tags(owner, [HasTag(memory_id=memory_id, tag=n) for n in names])
            return None

        queued = self._writes.queueable(owner, online, lambda box: box.tag(owner, memory_id, names))
        return queued if queued is not None else self.get(memory_id, user_id=owner)

    # -- reads --------------------------------------------------------------------------------------------

    @checked
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
        if limit < 0 or offset < 0:
            raise ValidationError("limit and offset must be zero or more")
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
            session_id=None if session_id is None else validate_identifier(session_id, "session_id"),
        )
        found = self.store.list_memories(owner, flt, limit=limit, offset=offset)
        self._writes.warn_queued(owner)
        return found

    @checked
    def tags(self, *, user_id: str) -> builtins.list[Tag]:
        """A user's tags with their memory counts."""
        return self.store.list_tags(validate_owner(user_id))

    @checked
    def search(
        self, query: str, *, user_id: str, k: int = 10, kinds: Sequence[MemoryKind | str] | None = None
    ) -> builtins.list[SearchHit]:
        """Vector + full-text search fused like recall's seeds (`Settings.fusion`; no graph, see `recall`)."""
        owner = validate_owner(user_id)
        text = self._query(query)
        if k < 1:
            raise ValidationError("k must be a positive integer")
        try:
            flt = MemoryFilter(kinds=[MemoryKind(x) for x in kinds] if kinds else None)
        except ValueError as exc:
            raise ValidationError(str(exc)) from None
        n = k * self.settings.candidate_multiplier
        text_hits = self.store.text_search(owner, text, n, flt=flt)
        vec_hits: list[tuple[str, float]] = []
        try:
            qvec = self.embed([text])[0]
            vec_hits = self.store.vector_search(
                owner, qvec, n, min_similarity=self.settings.similarity_threshold, flt=flt
            )
        except EmbedderUnavailableError:
            pass
        fused = fuse_lists({"vector": vec_hits, "text": text_hits}, self.settings)[:k]
        vs, ts = dict(vec_hits), dict(text_hits)
        mems = {m.id: m for m in self.store.get_memories(owner, [mid for mid, _ in fused])}
        self._writes.warn_queued(owner)
        return [
            SearchHit(memory=mems[mid], score=score, vector_score=vs.get(mid), text_score=ts.get(mid))
            for mid, score in fused
            if mid in mems
        ]

    def _query(self, query: object) -> str:
        """A query under the same text rules as content, then redacted: queries are embedded (and cached), and
        a recall that finds nothing keeps its query in a Gap node."""
        text = clean_text(query, what="query", max_chars=self.settings.max_content_chars, advice=CHUNK_ADVICE)
        return self.redact(text)

    @checked
    def redact(self, text: str) -> str:
        """`text` with secrets replaced by `[REDACTED:type]`, whatever the policy: for queries, which are
        embedded (and cached) but never stored, so refusing them would help nobody."""
        return self.pipeline.secrets.redacted(text)

    @checked
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
        session_id: str | None = None,
        include_old: bool = False,
        now: datetime | None = None,
    ) -> RecallResult:
        """Cascade retrieval: seeds from vector + full-text search (and the tags the query names), spread
        through the graph, ranked by relevance x confidence x recency x importance, then placed by section
        (triggered constraints and baseline memories in at most half of `top_k`, then the query's best hits,
        contextual and procedural together) within `top_k` and `token_budget` tokens.

        `files` (or `scope`, its alias) are the caller's current file paths: project-scoped memories are
        served only when one of their glob patterns matches one of them. `mode`: cascade | hybrid |
        semantic | lexical. Without a usable embedder recall runs lexically and says so in `warnings`. When no
        memory passes the similarity threshold, the closest ones come back in section `weak`, with a warning
        (`result.weak`). `session_id`: the caller's session; its first recall also brings the latest session
        summary. Session summaries older than `episodic_window_days` are left out unless the query names their
        period or `include_old` is set. The top hits are credited afterwards in the background (access counts,
        co-recall links; gaps), `flush()` waits. `now`: the moment the recall is asked at, for an agent replaying a
        dated conversation and for tests (default: the current time; naive is UTC). It decides which changes that
        start later have begun ("From next week the bakery opens at 7:30") and how recent each memory is.
        """
        owner = validate_owner(user_id)
        text = self._query(query)
        check_mode(mode)
        if not isinstance(top_k, int) or isinstance(top_k, bool) or top_k < 1:
            raise ValidationError("top_k must be a positive integer")
        budget = self.settings.token_budget if token_budget is None else token_budget
        if not isinstance(budget, int) or isinstance(budget, bool) or budget < 1:
            raise ValidationError("token_budget must be a positive integer")
        if scope is not None and files is not None:
            raise ValidationError("give files or scope, not both (scope is an alias of files)")
        paths = files if files is not None else scope
        file_list = as_str_list(paths, "files") if paths is not None else None
        if session_id is not None:
            validate_identifier(session_id, "session_id")
        result = self._recaller.recall(
            RecallRequest(
                user_id=owner,
                query=text,
                top_k=top_k,
                token_budget=budget,
                kinds=memory_kinds(kinds),
                scope_files=file_list,
                mode=mode,
                include_archived=bool(include_archived),
                session_id=session_id,
                include_old=bool(include_old),
                now=None if now is None else utc_datetime(now, "now"),
            )
        )
        note = self._outbox.note(owner) if self._outbox is not None else None
        if note is not None:
            result.warnings.append(note)
        return result

    @checked
    def feedback(self, memory_id: str, helpful: bool, *, user_id: str) -> Memory:
        """Explicit feedback on a recalled memory (a feedback loop): helpful -> strength + 1 and
        confidence + feedback_boost, and a co-recall link to the other memories of the user's last recall that
        feedback called helpful; not helpful -> confidence - feedback_penalty. Applied at once."""
        owner = validate_owner(user_id)
        validate_identifier(memory_id, "memory_id")
        s = self.settings
        inc = {"strength": 1, "confidence": s.feedback_boost} if helpful else {"confidence": -s.feedback_penalty}

        def online() -> Memory | None:
            self.get(memory_id, user_id=owner)
            self.store.update_memories(
                owner,
                [MemoryUpdate(id=memory_id, set={"last_accessed": utcnow()}, inc=inc)],
            )
            if helpful and s.co_recall_from == "feedback":
                self._maintainer.confirm(owner, memory_id)
            return None

        queued = self._writes.queueable(owner, online, lambda box: box.update(owner, memory_id, "feedback", inc=inc))
        return queued if queued is not None else self.get(memory_id, user_id=owner)

    @checked
    def flush(self, timeout: float | None = None) -> None:
        """Wait until background post-recall maintenance has been written."""
        self._maintainer.flush(timeout)

    @checked
    def stats(self, *, user_id: str | None = None) -> StoreStats:
        """Counts for one user, or for the whole store when user_id is None."""
        if user_id is not None:
            owner = validate_owner(user_id)
            found = self.store.stats(owner)
            self._writes.warn_queued(owner)
            return found
        st = self.store.stats(None)
        st.invalid_user_ids = sum(invalid_id_problems(self.store.users()).values())
        return st

    @checked
    def users(self) -> builtins.list[str]:
        """Every user with memories in this store."""
        return self.store.users()


def _open_only(fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def call(self: MemoryEngine, *args: Any, **kwargs: Any) -> Any:
        if self._closed:
            raise EngineClosedError(f"{fn.__name__}(): this engine is closed; open the store again (MemoryEngine.open)")
        return fn(self, *args, **kwargs)

    return call


# A closed engine refuses every call with a typed error: without this, a call after `close()` (or after its `with`
# block) failed deep in the store with sqlite3's "Cannot operate on a closed database". `close` and `flush` (its
# background work is already finished) stay harmless.
for _name, _fn in list(vars(MemoryEngine).items()):
    if inspect.isfunction(_fn) and not _name.startswith("_") and _name not in ("close", "flush"):
        setattr(MemoryEngine, _name, _open_only(_fn))


def _queued_erasure(memory_ids: list[str] | None) -> EraseReport:
    """What `erase` returns while the graph server is down: nothing erased yet; the erasure waits in the outbox
    (the queued copies of those memories already left it) and runs, derived data included, on replay."""
    from memgraph.jobs.erase import EraseReport

    what = "these memories" if memory_ids is not None else "this user"
    return EraseReport(
        warnings=[f"the graph server is unreachable: the erasure of {what} is queued and runs when it answers"]
    )
