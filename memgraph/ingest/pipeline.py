"""`IngestPipeline`: the write path, one stage per module, one store write per call.

    clean -> secrets -> chunk -> embed (one batch, cached) -> importance -> classify -> tags -> reconcile -> write

The secret filter runs on the whole cleaned text before chunking (DESIGN.md lists it after chunking): a secret
can then never straddle a chunk boundary, and chunk sizes are measured on the text that is stored. Nothing has
been embedded, cached, stored or logged at that point. Everything a call writes (new memories with their tags,
reinforcements, Supersedes/Contradicts edges, deactivations) goes to the store in ONE `WriteBatch`, i.e. one
transaction: a failure leaves nothing half-written.

`explicit=True` is `remember`: one memory per item (no chunking beyond `max_content_chars`), never dropped for
low importance, kind as given; the secret filter and dedup/reconcile still run.
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

import numpy as np

from memgraph.config import Settings
from memgraph.embed import CachedEmbedder, Embedder
from memgraph.errors import SecretDetectedError, ValidationError
from memgraph.ingest import importance as imp
from memgraph.ingest.chunk import chunk_text
from memgraph.ingest.classify import KIND_LAYER, Classification, classify, parse_hint
from memgraph.ingest.clean import check_text, clean
from memgraph.ingest.embedding import encode
from memgraph.ingest.reconcile import Action, Neighbour, Reconciler, RuleReconciler
from memgraph.ingest.report import Decision, Dropped, DropReason, IngestReport
from memgraph.ingest.secrets import SecretFilter, only_redactions
from memgraph.ingest.tags import infer_tags, normalise_tags
from memgraph.models import (
    HasTag,
    Layer,
    Link,
    LinkSource,
    Memory,
    MemoryKind,
    Provenance,
    Relation,
    Scope,
    check_embedding,
    memory_id_for,
    utcnow,
    validate_identifier,
)
from memgraph.store.base import GraphStore, MemoryFilter, MemoryUpdate, WriteBatch

log = logging.getLogger("memgraph.ingest")

#: Kinds kept even below `min_importance_stored`: seed 001 ranks corrections high and policies critical.
ALWAYS_KEEP = frozenset({MemoryKind.CORRECTION, MemoryKind.CONSTRAINT})


@dataclass
class IngestItem:
    """One input: a text (a document, a conversation turn, or one explicit memory) and what comes with it."""

    text: Any
    session_id: Any = None
    kind: Any = None  # a kind or a layer name; wins over classification
    layer: Any = None
    tags: Any = None
    scope: Any = Scope.GLOBAL
    files: Any = None
    metadata: Any = None
    pinned: bool = False
    trigger_patterns: Any = None
    created_at: Any = None
    importance: Any = None
    provenance: Any = None
    embedding: Any = None

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> IngestItem:
        """From `remember_many`'s dicts (key `content`) or ingest dicts (key `text`)."""
        data = dict(data)
        text = data.pop("content", None)
        if text is None:
            text = data.pop("text", None)
        else:
            data.pop("text", None)
        if "file_paths" in data:
            data["files"] = data.pop("file_paths")
        unknown = set(data) - _ITEM_FIELDS
        if unknown:
            raise ValidationError(f"unknown memory field(s): {', '.join(sorted(unknown))}")
        return cls(text=text, **{k: v for k, v in data.items() if v is not None})


_ITEM_FIELDS = frozenset(
    {
        "session_id",
        "kind",
        "layer",
        "tags",
        "scope",
        "files",
        "metadata",
        "pinned",
        "trigger_patterns",
        "created_at",
        "importance",
        "provenance",
        "embedding",
        "id",
        "user_id",
    }
)


@dataclass
class _Prepared:
    """An item after validation and the secret filter."""

    index: int
    text: str
    session_id: str | None
    kind_hint: MemoryKind | None
    layer_hint: Layer | None
    scope: Scope
    tags: list[str]
    files: list[str]
    metadata: dict[str, Any]
    pinned: bool
    trigger_patterns: list[str] | None
    created_at: datetime | None
    importance: float | None
    provenance: Provenance | None
    embedding: list[float] | None


@dataclass
class _Candidate:
    item: _Prepared
    chunk: int
    text: str
    memory: Memory | None = None
    vector: np.ndarray | None = None
    klass: Classification | None = None
    novelty: float = 1.0
    salience: imp.Salience | None = None
    importance: float = 0.0
    low: bool = False  # below min_importance_stored: dropped unless it reconciles with an existing memory
    inferred: list[str] = field(default_factory=list)


@dataclass
class IngestResult:
    """The report plus, per input item, the ids of the memories it resolved to (created or existing)."""

    report: IngestReport
    item_ids: list[list[str]]


class IngestPipeline:
    """Runs the write path for one engine; holds the per-user centroid cache and the secret filter."""

    def __init__(
        self,
        store: GraphStore,
        settings: Settings,
        embedder: Callable[[], Embedder],
        reconciler: Reconciler | None = None,
    ) -> None:
        self.store = store
        self.settings = settings
        self._embedder = embedder
        self.reconciler: Reconciler = reconciler or RuleReconciler(settings)
        self.secrets = SecretFilter.from_settings(settings)
        self.centroids = imp.CentroidCache()
        self._rarity: imp.TokenRarity | None | bool = False

    # -- public -----------------------------------------------------------------------------------------------

    def run(
        self,
        user_id: str,
        items: Sequence[IngestItem],
        *,
        explicit: bool,
        reconcile: bool = True,
        on_secret_reject: Literal["raise", "drop"] = "raise",
        source: str = "ingest",
        extra_links: Callable[[list[list[str]]], list[Link]] | None = None,
    ) -> IngestResult:
        """Validate everything first (typed errors, nothing written), then run the stages and write once.

        `extra_links` gets the memory ids each item resolved to and returns links to add to the same atomic
        write (e.g. the turn-order edges of a conversation)."""
        report = IngestReport(user_id=user_id, items=len(items))
        item_ids: list[list[str]] = [[] for _ in items]
        redactions: Counter[str] = Counter()
        prepared: list[_Prepared] = []
        for i, item in enumerate(items):
            p = self._prepare(
                i,
                item,
                explicit=explicit,
                redactions=redactions,
                report=report,
                on_secret_reject=on_secret_reject,
                many=len(items) > 1,
            )
            if p is not None:
                prepared.append(p)
        report.redactions = dict(redactions)
        candidates = self._chunk(prepared, explicit=explicit, report=report)
        report.chunks = len(candidates)
        candidates = self._dedup_ids(user_id, candidates, report, item_ids)
        if not candidates:
            return IngestResult(report, item_ids)
        self._embed(candidates, report)
        self._score(user_id, candidates, explicit=explicit, report=report)
        candidates = [c for c in candidates if c.memory is not None]
        batch = WriteBatch()
        self._reconcile(
            user_id,
            candidates,
            batch,
            report,
            item_ids,
            explicit=explicit,
            reconcile=reconcile,
            source=source,
        )
        if extra_links is not None:
            batch.links.extend(extra_links(item_ids))
        if not batch.is_empty():
            self.store.write(user_id, batch)
            if batch.memories and batch.embeddings is not None:
                self.centroids.add(user_id, batch.embeddings, len(batch.memories))
        log.debug(
            "ingest user=%s items=%d chunks=%d created=%d reinforced=%d superseded=%d dropped=%d redacted=%d",
            user_id,
            report.items,
            report.chunks,
            len(report.created),
            len(report.reinforced),
            len(report.superseded),
            len(report.dropped),
            sum(report.redactions.values()),
        )
        return IngestResult(report, item_ids)

    # -- stage 1: validate, clean, filter secrets -----------------------------------------------------------

    def _prepare(
        self,
        index: int,
        item: IngestItem,
        *,
        explicit: bool,
        redactions: Counter[str],
        report: IngestReport,
        on_secret_reject: str,
        many: bool,
    ) -> _Prepared | None:
        s = self.settings
        where = f"item {index}: " if many else ""
        what = "content" if explicit else "text"
        raw = check_text(
            item.text,
            what=f"{where}{what}",
            max_chars=s.max_content_chars if explicit else s.max_ingest_chars,
        )
        text = clean(raw)
        if not text:
            raise ValidationError(f"{where}{what} is empty")
        if explicit and len(text) > s.max_content_chars:
            raise ValidationError(
                f"{where}content has {len(text)} characters; the maximum is {s.max_content_chars} "
                "(use ingest() to chunk long text, or raise MEMGRAPH_MAX_CONTENT_CHARS)"
            )
        try:
            session_id = None if item.session_id is None else validate_identifier(item.session_id, "session_id")
        except ValidationError as exc:
            raise ValidationError(f"{where}{exc}") from None
        try:
            kind_hint, layer_hint = parse_hint(item.kind)
            if item.layer is not None:
                layer_hint = Layer(item.layer)
            scope = Scope(item.scope if item.scope is not None else Scope.GLOBAL)
            provenance = None if item.provenance is None else Provenance(item.provenance)
        except ValueError as exc:
            raise ValidationError(f"{where}{exc}") from None
        if item.metadata is not None and not isinstance(item.metadata, Mapping):
            raise ValidationError(f"{where}metadata must be a JSON object (a mapping)")
        metadata = check_json(dict(item.metadata or {}))
        tags = as_str_list(item.tags, "tags")
        files = as_str_list(item.files, "file_paths")
        triggers = None if item.trigger_patterns is None else as_str_list(item.trigger_patterns, "trigger_patterns")
        importance = _unit(item.importance, "importance") if item.importance is not None else None
        created_at = _datetime(item.created_at)
        embedding = None if item.embedding is None else check_embedding(item.embedding, s.embedding_dim)
        if not isinstance(item.pinned, bool):
            raise ValidationError(f"{where}pinned must be true or false")

        # The secret filter: text, tags, file paths, trigger patterns and metadata (keys and values).
        found: Counter[str] = Counter()
        try:
            res = self.secrets.text(text, what=f"{where}{what}")
            found.update(res.counts)
            text = res.text
            kept_tags = []
            for tag in tags:
                r = self.secrets.text(tag, what=f"{where}a tag")
                found.update(r.counts)
                if not r.found:
                    kept_tags.append(tag)  # a tag holding a secret is dropped, not stored redacted
            tags = normalise_tags(kept_tags)
            files = [self.secrets.value(f, found, what=f"{where}a file path") for f in files]
            if triggers is not None:
                triggers = [self.secrets.value(t, found, what=f"{where}a trigger pattern") for t in triggers]
            metadata = self.secrets.value(metadata, found, what=f"{where}metadata")
        except SecretDetectedError:
            if on_secret_reject == "raise":
                raise
            report.dropped.append(
                Dropped(item=index, reason=DropReason.SECRET_REJECTED, detail="secret found; policy is reject")
            )
            return None
        redactions.update(found)
        if found and only_redactions(text):
            if explicit:
                raise SecretDetectedError(
                    f"{where}content consists only of secrets ({', '.join(sorted(found))}); nothing was stored"
                )
            report.dropped.append(
                Dropped(
                    item=index,
                    reason=DropReason.ONLY_SECRETS,
                    detail=f"only secrets: {', '.join(sorted(found))}",
                )
            )
            return None
        return _Prepared(
            index,
            text,
            session_id,
            kind_hint,
            layer_hint,
            scope,
            tags,
            files,
            metadata,
            item.pinned,
            triggers,
            created_at,
            importance,
            provenance,
            embedding,
        )

    # -- stage 2: chunk -------------------------------------------------------------------------------------

    def _chunk(self, prepared: list[_Prepared], *, explicit: bool, report: IngestReport) -> list[_Candidate]:
        out: list[_Candidate] = []
        s = self.settings
        for p in prepared:
            if explicit:
                out.append(_Candidate(p, 0, p.text))
                continue
            count = self._embedder().count_tokens
            chunks = chunk_text(
                p.text,
                count,
                max_tokens=s.chunk_max_tokens,
                min_tokens=s.chunk_min_tokens,
                code_max_tokens=s.chunk_code_max_tokens,
            )
            if p.embedding is not None and len(chunks) > 1:
                raise ValidationError(f"item {p.index}: a precomputed embedding needs text that is one chunk")
            for j, ch in enumerate(chunks):
                if only_redactions(ch.text):
                    report.dropped.append(
                        Dropped(
                            item=p.index,
                            chunk=j,
                            reason=DropReason.ONLY_SECRETS,
                            detail="chunk holds only redacted secrets",
                        )
                    )
                    continue
                if len(ch.text) > s.max_content_chars:
                    raise ValidationError(
                        f"item {p.index}: a chunk has {len(ch.text)} characters, over max_content_chars "
                        f"({s.max_content_chars}); lower chunk_code_max_tokens or raise MEMGRAPH_MAX_CONTENT_CHARS"
                    )
                out.append(_Candidate(p, j, ch.text))
        return out

    def _dedup_ids(
        self, user_id: str, candidates: list[_Candidate], report: IngestReport, item_ids: list[list[str]]
    ) -> list[_Candidate]:
        """Identical text twice in one call is one memory (its id is the content hash): drop before embedding."""
        seen: dict[str, _Candidate] = {}
        out: list[_Candidate] = []
        for c in candidates:
            mid = memory_id_for(user_id, c.text)
            if mid in seen:
                report.dropped.append(
                    Dropped(
                        item=c.item.index,
                        chunk=c.chunk,
                        reason=DropReason.DUPLICATE_IN_BATCH,
                        detail=f"same text as {mid}",
                        preview=_preview(c.text),
                    )
                )
                item_ids[c.item.index].append(mid)
                continue
            seen[mid] = c
            out.append(c)
        return out

    # -- stage 3: embed ---------------------------------------------------------------------------------------

    def _embed(self, candidates: list[_Candidate], report: IngestReport) -> None:
        todo = [c for c in candidates if c.item.embedding is None]
        for c in candidates:
            if c.item.embedding is not None:
                c.vector = np.asarray(c.item.embedding, dtype=np.float32)
        if not todo:
            return
        embedder = self._embedder()
        hits0, misses0 = _cache_counters(embedder)
        vecs = encode(embedder, [c.text for c in todo], self.settings.embedding_dim)
        hits1, misses1 = _cache_counters(embedder)
        if misses1 is not None and misses0 is not None:
            report.embedded += misses1 - misses0
            report.cache_hits += (hits1 or 0) - (hits0 or 0)
        else:
            report.embedded += len(todo)
        for c, v in zip(todo, vecs, strict=True):
            c.vector = v

    # -- stages 4-6: importance, classify, tags -------------------------------------------------------------

    def _score(self, user_id: str, candidates: list[_Candidate], *, explicit: bool, report: IngestReport) -> None:
        s = self.settings
        centroid = self.centroids.centroid(self.store, user_id)
        rarity = self.rarity()
        now = utcnow()
        for c in candidates:
            p = c.item
            assert c.vector is not None
            c.novelty = imp.novelty(c.vector, centroid)
            c.salience = imp.salience(c.text, s, rarity)
            c.importance = imp.importance(c.novelty, c.salience.score, s)
            hint = p.kind_hint if p.kind_hint is not None else p.layer_hint
            c.klass = classify(c.text, hint, max_triggers=s.constraint_max_triggers)
            kind = c.klass.kind
            layer = p.layer_hint if (p.layer_hint is not None and p.kind_hint is not None) else c.klass.layer
            if explicit:
                value = p.importance if p.importance is not None else max(c.importance, s.explicit_min_importance)
            else:
                value = p.importance if p.importance is not None else c.importance
                # Below the floor a chunk is not stored as a new memory; it may still reinforce, supersede or
                # contradict an existing one (a restatement has low novelty by definition), so the drop is
                # decided after reconcile.
                c.low = value < s.min_importance_stored and kind not in ALWAYS_KEEP
            if explicit and not s.remember_infer_tags:
                tags, files, c.inferred = p.tags, p.files, []
            else:
                res = infer_tags(c.text, s, explicit=p.tags, files=p.files)
                tags, files, c.inferred = res.tags, res.file_paths, res.inferred
            triggers = p.trigger_patterns if p.trigger_patterns is not None else c.klass.trigger_patterns
            c.memory = Memory(
                id=memory_id_for(user_id, c.text),
                user_id=user_id,
                content=c.text,
                kind=kind,
                layer=layer if layer is not None else KIND_LAYER[kind],
                scope=p.scope,
                session_id=p.session_id,
                created_at=p.created_at or now,
                updated_at=now,
                last_accessed=now,
                importance=round(float(value), 6),
                provenance=p.provenance or c.klass.provenance,
                pinned=p.pinned,
                file_paths=list(files),
                trigger_patterns=list(triggers),
                metadata=dict(p.metadata),
                tags=sorted(set(tags)),
                embedding_model=s.embedding_model,
            )

    def rarity(self) -> imp.TokenRarity | None:
        if self._rarity is False:
            self._rarity = imp.rarity_for(
                self.settings.embedding_model_path, self.settings.salience_rarity_whole_word_weight
            )
        return self._rarity  # type: ignore[return-value]

    # -- stage 7: reconcile, then one write ------------------------------------------------------------------

    def _reconcile(
        self,
        user_id: str,
        candidates: list[_Candidate],
        batch: WriteBatch,
        report: IngestReport,
        item_ids: list[list[str]],
        *,
        explicit: bool,
        reconcile: bool,
        source: str,
    ) -> None:
        s = self.settings
        now = utcnow()
        existing = {m.id: m for m in self.store.get_memories(user_id, [c.memory.id for c in candidates if c.memory])}
        # neighbours from the store, fetched for every candidate before any decision
        store_hits: dict[str, list[tuple[str, float]]] = {}
        if reconcile:
            # one batched search: the per-candidate searches re-scanned the user's vectors once each, which
            # made bulk loads quadratic (100k memories: 809 s, 75% of it here)
            fresh = [c for c in candidates if c.memory.id not in existing]
            if fresh:
                found = self.store.vector_search_many(
                    user_id,
                    np.stack([c.vector for c in fresh]),
                    s.reconcile_neighbours,
                    min_similarity=s.reconcile_slot_cosine,
                    flt=MemoryFilter(),
                )
                store_hits = {c.memory.id: hits for c, hits in zip(fresh, found, strict=True)}
            wanted = {mid for hits in store_hits.values() for mid, _ in hits}
            neighbours = {m.id: m for m in self.store.get_memories(user_id, list(wanted))}
        else:
            neighbours = {}
        edits: dict[str, _Edit] = {}  # changes to stored memories, merged into one update each
        batch_units = np.zeros((len(candidates), s.embedding_dim), dtype=np.float32)  # unit rows of `created`
        created: list[_Candidate] = []
        deactivated: set[str] = set()

        def edit(mid: str, base: Memory) -> _Edit:
            return edits.setdefault(mid, _Edit(base))

        for c in candidates:
            mem = c.memory
            assert mem is not None and c.vector is not None and c.klass is not None
            idx = c.item.index
            decision_base = dict(
                item=idx,
                chunk=c.chunk,
                memory_id=mem.id,
                kind=mem.kind.value,
                rule=c.klass.rule,
                importance=mem.importance,
                novelty=round(c.novelty, 4),
                salience=round(c.salience.score, 4) if c.salience else None,
                signals=c.salience.signals() if c.salience else [],
                tags=c.inferred,
            )
            old = existing.get(mem.id)
            if old is not None:
                self._same_text(
                    old, c, edit, report, item_ids, decision_base, explicit=explicit, now=now, source=source
                )
                if explicit:  # remembering it again may add tags or pin it
                    batch.tags += [HasTag(memory_id=old.id, tag=t) for t in mem.tags if t not in old.tags]
                    if mem.pinned and not old.pinned:
                        edit(old.id, old).pin()
                continue
            cands: list[Neighbour] = []
            if reconcile:
                for mid, sim in store_hits.get(mem.id, []):
                    if mid in neighbours and mid not in deactivated:
                        cands.append(Neighbour(neighbours[mid], float(sim)))
                if created:
                    unit = c.vector / max(float(np.linalg.norm(c.vector)), 1e-12)
                    sims = batch_units[: len(created)] @ unit
                    for x, sim in zip(created, sims, strict=True):
                        if sim >= s.reconcile_slot_cosine and x.memory.active:
                            cands.append(Neighbour(x.memory, float(sim), in_batch=True))
                cands.sort(key=lambda n: -n.similarity)
                cands = cands[: max(1, s.reconcile_neighbours)]
            decision = self.reconciler.decide(mem, cands) if cands else None
            if decision is not None and decision.action is not Action.CREATE:
                target = next((n for n in cands if n.memory.id == decision.target_id), None)
                if target is None:
                    raise ValidationError(
                        f"reconciler chose {decision.target_id!r}, which is not one of the neighbours it was given"
                    )
            else:
                target = None
            action = Action.CREATE if decision is None else decision.action
            reason = "new: no similar memory" if decision is None else decision.reason
            scores = {} if decision is None else dict(decision.scores)
            if action is Action.REINFORCE and target is not None:
                if target.in_batch:
                    report.dropped.append(
                        Dropped(
                            item=idx,
                            chunk=c.chunk,
                            reason=DropReason.DUPLICATE_IN_BATCH,
                            detail=f"{reason} of {target.memory.id} (cosine {target.similarity:.3f})",
                            importance=mem.importance,
                            preview=_preview(mem.content),
                        )
                    )
                else:
                    e = edit(target.memory.id, target.memory)
                    e.reinforce(c.item.session_id, now, target.similarity, source)
                    report.reinforced.append(target.memory.id)
                    report.decisions.append(
                        Decision(
                            action="reinforced",
                            target_id=target.memory.id,
                            reason=reason,
                            scores=scores,
                            **decision_base,
                        )
                    )
                item_ids[idx].append(target.memory.id)
                continue
            if action is Action.CREATE and c.low:
                s_ = c.salience.score if c.salience else 0.0
                report.dropped.append(
                    Dropped(
                        item=idx,
                        chunk=c.chunk,
                        reason=DropReason.LOW_IMPORTANCE,
                        importance=round(mem.importance, 4),
                        detail=f"importance {mem.importance:.3f} < {s.min_importance_stored} "
                        f"(novelty {c.novelty:.3f}, salience {s_:.2f})",
                        preview=_preview(mem.content),
                    )
                )
                continue
            # the new memory is created in every remaining case
            batch_units[len(created)] = c.vector / max(float(np.linalg.norm(c.vector)), 1e-12)
            created.append(c)
            item_ids[idx].append(mem.id)
            report.created.append(mem.id)
            if action is Action.SUPERSEDE and target is not None:
                batch.links.append(
                    Link(
                        src=mem.id,
                        dst=target.memory.id,
                        relation=Relation.SUPERSEDES,
                        source=LinkSource.DISCOVERED,
                        reason=reason,
                        created_at=now,
                        updated_at=now,
                    )
                )
                deactivated.add(target.memory.id)
                if target.in_batch:
                    target.memory.active = False
                else:
                    edit(target.memory.id, target.memory).deactivate()
                report.superseded.append(target.memory.id)
                report.decisions.append(
                    Decision(
                        action="superseded",
                        target_id=target.memory.id,
                        reason=reason,
                        scores=scores,
                        **decision_base,
                    )
                )
            elif action is Action.CONTRADICT and target is not None:
                batch.links.append(
                    Link(
                        src=mem.id,
                        dst=target.memory.id,
                        relation=Relation.CONTRADICTS,
                        source=LinkSource.DISCOVERED,
                        reason=reason,
                        created_at=now,
                        updated_at=now,
                    )
                )
                mem.metadata.setdefault("contradicts", []).append(target.memory.id)
                if target.in_batch:
                    target.memory.metadata.setdefault("contradicted_by", []).append(mem.id)
                else:
                    edit(target.memory.id, target.memory).flag_contradiction(mem.id)
                report.contradicted.append(target.memory.id)
                report.decisions.append(
                    Decision(
                        action="contradicted",
                        target_id=target.memory.id,
                        reason=reason,
                        scores=scores,
                        **decision_base,
                    )
                )
            else:
                report.decisions.append(Decision(action="created", reason=reason, scores=scores, **decision_base))
        if created:
            batch.memories = [c.memory for c in created]
            batch.embeddings = np.stack([c.vector for c in created]).astype(np.float32)
        batch.updates = [e.update(mid, s.reinforcement_breadcrumbs_max) for mid, e in edits.items()]
        batch.updates = [u for u in batch.updates if u.set or u.inc]

    def _same_text(
        self,
        old: Memory,
        c: _Candidate,
        edit: Callable[[str, Memory], _Edit],
        report: IngestReport,
        item_ids: list[list[str]],
        base: dict[str, Any],
        *,
        explicit: bool,
        now: datetime,
        source: str,
    ) -> None:
        """The exact text is already stored (its id exists): re-ingest is a no-op; a new session reinforces."""
        idx = c.item.index
        item_ids[idx].append(old.id)
        session = c.item.session_id
        crumbs = old.metadata.get("reinforcements", []) if isinstance(old.metadata, dict) else []
        seen = session == old.session_id or any(isinstance(b, dict) and b.get("session_id") == session for b in crumbs)
        if not old.active or old.archived:
            if explicit:
                e = edit(old.id, old)
                e.reactivate()
                e.reinforce(session, now, 1.0, source)
                report.reinforced.append(old.id)
                report.decisions.append(
                    Decision(
                        action="reinforced",
                        target_id=old.id,
                        scores={"cosine": 1.0},
                        reason="remembered again: reactivated",
                        **base,
                    )
                )
                return
            report.unchanged.append(old.id)
            report.decisions.append(
                Decision(
                    action="unchanged",
                    target_id=old.id,
                    scores={"cosine": 1.0},
                    reason="identical to an inactive memory (superseded or forgotten); engine.restore() revives it",
                    **base,
                )
            )
            return
        if seen:
            report.unchanged.append(old.id)
            report.decisions.append(
                Decision(
                    action="unchanged",
                    target_id=old.id,
                    scores={"cosine": 1.0},
                    reason="already stored from this session",
                    **base,
                )
            )
            return
        edit(old.id, old).reinforce(session, now, 1.0, source)
        report.reinforced.append(old.id)
        report.decisions.append(
            Decision(
                action="reinforced",
                target_id=old.id,
                scores={"cosine": 1.0},
                reason="same text from another session",
                **base,
            )
        )


@dataclass
class _Edit:
    """All changes to one stored memory in this call, merged into a single `MemoryUpdate`."""

    base: Memory
    strength: int = 0
    crumbs: list[dict[str, Any]] = field(default_factory=list)
    contradicted_by: list[str] = field(default_factory=list)
    active: bool | None = None
    pinned: bool = False
    touched: datetime | None = None

    def reinforce(self, session_id: str | None, now: datetime, similarity: float, source: str) -> None:
        self.strength += 1
        self.touched = now
        self.crumbs.append(
            {
                "session_id": session_id,
                "at": now.isoformat(),
                "similarity": round(similarity, 4),
                "source": source,
            }
        )

    def pin(self) -> None:
        self.pinned = True

    def deactivate(self) -> None:
        self.active = False

    def reactivate(self) -> None:
        self.active = True

    def flag_contradiction(self, new_id: str) -> None:
        self.contradicted_by.append(new_id)

    def update(self, mid: str, max_crumbs: int) -> MemoryUpdate:
        sets: dict[str, Any] = {}
        inc: dict[str, float] = {}
        now = self.touched or utcnow()
        if self.strength:
            inc["strength"] = self.strength
            sets["last_accessed"] = now
        if self.crumbs or self.contradicted_by:
            meta = dict(self.base.metadata or {})
            if self.crumbs:
                meta["reinforcements"] = [*meta.get("reinforcements", []), *self.crumbs][-max_crumbs:]
            if self.contradicted_by:
                meta["contradicted_by"] = list(dict.fromkeys([*meta.get("contradicted_by", []), *self.contradicted_by]))
            sets["metadata"] = meta
        if self.pinned:
            sets["pinned"] = True
        if self.active is not None:
            sets["active"] = self.active
            if self.active:
                sets["archived"] = False
        if sets or inc:
            sets["updated_at"] = utcnow()
        return MemoryUpdate(id=mid, set=sets, inc=inc)


# -- helpers ------------------------------------------------------------------------------------------------


def _cache_counters(embedder: Embedder) -> tuple[int | None, int | None]:
    if isinstance(embedder, CachedEmbedder):
        return embedder.hits, embedder.misses
    return None, None


def _preview(text: str, n: int = 80) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"


def _unit(value: Any, what: str) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ValidationError(f"{what} must be a number between 0 and 1") from None
    if not 0.0 <= v <= 1.0:
        raise ValidationError(f"{what} must be between 0 and 1")
    return v


def _datetime(value: Any) -> datetime | None:
    if value is None or isinstance(value, datetime):
        return value
    if isinstance(value, str):
        try:
            return datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            raise ValidationError(f"created_at {value[:40]!r} is not an ISO 8601 timestamp") from None
    raise ValidationError(f"created_at must be a datetime or an ISO 8601 string, got {type(value).__name__}")


def as_str_list(values: Any, what: str) -> list[str]:
    """A list of strings (a single string counts as one); anything else is a typed error."""
    if values is None:
        return []
    if isinstance(values, str):
        values = [values]
    try:
        out = list(values)
    except TypeError:
        raise ValidationError(f"{what} must be a list of strings") from None
    for v in out:
        if not isinstance(v, str):
            raise ValidationError(f"{what} must be strings, got {type(v).__name__}")
    return out


def check_json(meta: dict[str, Any]) -> dict[str, Any]:
    """Metadata must be a JSON object that round-trips (string keys, finite numbers), at most 64 KB."""
    try:
        text = json.dumps(meta, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise ValidationError(f"metadata must be JSON-serialisable with finite numbers: {exc}") from None
    if len(text) > 64_000:
        raise ValidationError("metadata is larger than 64 KB")
    return json.loads(text)
