"""`IngestPipeline`: the write path, one stage per module, one store write per call.

    clean -> secrets -> chunk -> embed (one batch, cached) -> importance -> classify -> tags -> reconcile -> write

The secret filter runs on the whole cleaned text before chunking: a secret
can then never straddle a chunk boundary, and chunk sizes are measured on the text that is stored. Nothing has
been embedded, cached, stored or logged at that point. Everything a call writes (new memories with their tags,
reinforcements, Supersedes/Contradicts edges, deactivations) goes to the store in ONE `WriteBatch`, i.e. one
transaction: a failure leaves nothing half-written.

`explicit=True` is `remember`: one memory per item (no chunking beyond `max_content_chars`), never dropped for
low importance, kind as given; the secret filter and dedup/reconcile still run. The caller chose the unit and
gets one memory back for it. `explicit=False` is `ingest`: text whose structure memgraph finds, one memory per
fact (`chunk.py`), each classified on its own; a conversation turn stays one memory.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from memgraph.confidence import DECAY_STATE_KEY
from memgraph.config import Settings
from memgraph.embed import CachedEmbedder, Embedder
from memgraph.errors import ValidationError
from memgraph.ids import normalize_tag
from memgraph.ingest import followups, plans, remainders, rules, signals, starts, structure
from memgraph.ingest import importance as imp
from memgraph.ingest.chunk import chunk_text, looks_like_turn
from memgraph.ingest.classify import KIND_LAYER, classify
from memgraph.ingest.collector import full_collections_held
from memgraph.ingest.embedding import encode
from memgraph.ingest.items import Candidate, IngestItem, Prepared, prepare
from memgraph.ingest.pairing import neighbour_floor
from memgraph.ingest.reconcile import Reconciler, RuleReconciler
from memgraph.ingest.report import Dropped, DropReason, IngestReport, preview
from memgraph.ingest.resolve import Neighbourhood, Outcome, Resolution, apply, decide, record
from memgraph.ingest.secrets import SecretFilter, only_redactions
from memgraph.ingest.tags import infer_tags
from memgraph.models import Link, LinkSource, Memory, MemoryKind, Relation, memory_id_for, utcnow
from memgraph.store.base import GraphStore, MemoryFilter, WriteBatch

log = logging.getLogger("memgraph.ingest")

#: Metadata keys the engine keeps about a memory (not the caller's): a remainder does not inherit them.
_BOOKKEEPING = frozenset(
    {DECAY_STATE_KEY, "merged_into", "contradicts", "contradicted_by", "reinforcements", remainders.REMAINDER_OF,
     remainders.AMENDS, *starts.KEYS}
)
#: The `source` of what a superseded memory still says (`_keep_remainders`).
REMAINDER_SOURCE = "remainder"

#: Kinds kept even below `min_importance_stored`: corrections and policies matter whatever their wording.
ALWAYS_KEEP = frozenset({MemoryKind.CORRECTION, MemoryKind.CONSTRAINT})


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
        self.centroids = imp.CentroidCache(settings.novelty_centroid_stored_from, settings.novelty_centroid_refresh)
        self._rarity: imp.TokenRarity | None = None
        self._rarity_loaded = False

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
        batch_id: str | None = None,
        link_sessions: bool = True,
    ) -> IngestResult:
        """Validate everything first (typed errors, nothing written), then run the stages and write once.

        `extra_links` gets the memory ids each item resolved to and returns links to add to the same atomic
        write (e.g. the turn-order edges of a conversation). `batch_id` is the write's idempotency key
        (`WriteBatch.batch_id`: the outbox replays a queued write under its entry id). `link_sessions`: chain new
        session memories to their session (ingest/structure.py); off for a conversation stored without its
        sequence. A reconciled write holds back the collector's full collections until it is written
        (ingest/collector.py)."""
        with full_collections_held(reconcile and self.settings.reconcile_hold_full_collections):
            return self._run(user_id, items, explicit=explicit, reconcile=reconcile,
                             on_secret_reject=on_secret_reject, source=source, extra_links=extra_links,
                             batch_id=batch_id, link_sessions=link_sessions)

    def _run(
        self,
        user_id: str,
        items: Sequence[IngestItem],
        *,
        explicit: bool,
        reconcile: bool,
        on_secret_reject: Literal["raise", "drop"],
        source: str,
        extra_links: Callable[[list[list[str]]], list[Link]] | None,
        batch_id: str | None,
        link_sessions: bool,
    ) -> IngestResult:
        report = IngestReport(user_id=user_id, items=len(items))
        item_ids: list[list[str]] = [[] for _ in items]
        built = self._build(user_id, items, report, item_ids, explicit=explicit, reconcile=reconcile,
                            on_secret_reject=on_secret_reject, source=source)
        if built is None:
            return IngestResult(report, item_ids)
        batch, resolutions = built
        if reconcile:
            self._keep_remainders(user_id, resolutions, batch, report)
        if extra_links is not None:
            batch.links.extend(extra_links(item_ids))
        batch.batch_id = batch_id
        if link_sessions:
            batch.links.extend(structure.session_links(self.store, user_id, batch.memories, self.settings, batch.links))
        report.archived = [a.memory.id for a in rules.cap_batch(self.store, self.settings, user_id, batch, utcnow())]
        if not batch.is_empty():
            self.store.write(user_id, batch)
            if batch.memories and batch.embeddings is not None:
                self.centroids.add(user_id, batch.embeddings, len(batch.memories), self.store)
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

    def _build(
        self,
        user_id: str,
        items: Sequence[IngestItem],
        report: IngestReport,
        item_ids: list[list[str]],
        *,
        explicit: bool,
        reconcile: bool,
        on_secret_reject: Literal["raise", "drop"],
        source: str,
        exclude: frozenset[str] = frozenset(),
    ) -> tuple[WriteBatch, list[Resolution]] | None:
        """Every stage but the write: the rows to store and each candidate's resolution (None: nothing left to
        write). `exclude`: stored memories the decisions must not see as neighbours."""
        redactions: Counter[str] = Counter()
        prepared: list[Prepared] = []
        for i, item in enumerate(items):
            p = prepare(
                i,
                item,
                settings=self.settings,
                secrets=self.secrets,
                explicit=explicit,
                many=len(items) > 1,
                on_secret_reject=on_secret_reject,
                redactions=redactions,
                report=report,
            )
            if p is not None:
                prepared.append(p)
        report.redactions = dict(redactions)
        candidates = self._chunk(prepared, explicit=explicit, report=report)
        report.chunks = len(candidates)
        candidates = self._dedup_ids(user_id, candidates, report, item_ids)
        if not candidates:
            return None
        self._embed(candidates, report)
        self._score(user_id, candidates, explicit=explicit, report=report)
        candidates = [c for c in candidates if c.memory is not None]
        structure.add_structure(
            [c.memory for c in candidates if c.memory is not None],
            [c.item.dated for c in candidates if c.memory is not None],
            self.settings,
        )
        return self._reconcile(
            user_id, candidates, report, item_ids, explicit=explicit, reconcile=reconcile, source=source,
            exclude=exclude,
        )

    def _keep_remainders(
        self, user_id: str, resolutions: Sequence[Resolution], batch: WriteBatch, report: IngestReport
    ) -> None:
        """Add to `batch` what each superseded memory still says beside the slot a new memory replaced
        (`remainders.remainder`): "My sister Lena lives in Porto and works as a nurse." superseded by "Lena moved to
        Lisbon." keeps "My sister Lena works as a nurse." as a memory of its own, DerivedFrom the old one, in the
        same write. Without it recall loses every other fact of a compound statement when one of them changes
        (the superseded memory only comes back as its successor)."""
        olds: list[Memory] = []
        items: list[IngestItem] = []
        for r in resolutions:
            if r.outcome is not Outcome.SUPERSEDED or r.target is None or r.target.in_batch:
                continue
            old = r.target.memory
            rest = remainders.remainder(r.memory.content, old.content)
            if rest is None:
                if starts.VALID_FROM not in old.metadata and remainders.leaves_values(r.memory.content, old.content):
                    # nothing to cut out, but the old one still says values the new one does not: recall serves it
                    # beside its replacement (retrieve/bases.py); not a plan that was moved or called off (plans.py),
                    # whose old day is all it would bring back
                    r.memory.metadata.setdefault(remainders.AMENDS, []).append(old.id)
                continue
            olds.append(old)
            items.append(
                IngestItem(
                    text=rest,
                    session_id=old.session_id,
                    kind=old.kind,
                    scope=old.scope,
                    created_at=old.created_at,
                    # dated as the original was: its date facets, not ones from a time only kept for order
                    dated=any(t in old.tags for t in structure.date_facets(old.created_at)),
                    importance=old.importance,
                    # the old memory's own metadata (a turn's speaker and ids: what it still says is still its
                    # turn), not the engine's bookkeeping of it
                    metadata={**{k: v for k, v in old.metadata.items() if k not in _BOOKKEEPING},
                              remainders.REMAINDER_OF: old.id},
                )
            )
        if not items:
            return
        sub = IngestReport(user_id=user_id, items=len(items))
        sub_ids: list[list[str]] = [[] for _ in items]
        built = self._build(
            user_id, items, sub, sub_ids, explicit=True, reconcile=True, on_secret_reject="drop",
            source=REMAINDER_SOURCE, exclude=frozenset(o.id for o in olds),
        )
        if built is None:
            return
        batch.extend(built[0])
        now = utcnow()
        for old, ids in zip(olds, sub_ids, strict=True):
            for mid in ids:
                batch.links.append(
                    Link(src=mid, dst=old.id, relation=Relation.DERIVED_FROM, source=LinkSource.DISCOVERED,
                         reason="what the superseded memory still says", created_at=now, updated_at=now)
                )
        report.remainders += sub.created

    # -- stage 2: chunk -------------------------------------------------------------------------------------

    def _chunk(self, prepared: list[Prepared], *, explicit: bool, report: IngestReport) -> list[Candidate]:
        out: list[Candidate] = []
        s = self.settings
        for p in prepared:
            if explicit:
                out.append(Candidate(p, 0, p.text))
                continue
            count = self._embedder().count_tokens
            chunks = chunk_text(
                p.text,
                count,
                max_tokens=s.chunk_max_tokens,
                min_words=s.chunk_min_words,
                code_max_tokens=s.chunk_code_max_tokens,
                sentences=not _is_turn(p),
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
                out.append(Candidate(p, j, ch.text))
        return out

    def _dedup_ids(
        self, user_id: str, candidates: list[Candidate], report: IngestReport, item_ids: list[list[str]]
    ) -> list[Candidate]:
        """Identical text twice in one call is one memory (its id is the content hash): drop before embedding."""
        seen: dict[str, Candidate] = {}
        out: list[Candidate] = []
        for c in candidates:
            mid = memory_id_for(user_id, c.text)
            if mid in seen:
                report.dropped.append(
                    Dropped(
                        item=c.item.index,
                        chunk=c.chunk,
                        reason=DropReason.DUPLICATE_IN_BATCH,
                        detail=f"same text as {mid}",
                        preview=preview(c.text),
                    )
                )
                item_ids[c.item.index].append(mid)
                continue
            seen[mid] = c
            out.append(c)
        return out

    # -- stage 3: embed ---------------------------------------------------------------------------------------

    def _embed(self, candidates: list[Candidate], report: IngestReport) -> None:
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

    def _score(self, user_id: str, candidates: list[Candidate], *, explicit: bool, report: IngestReport) -> None:
        s = self.settings
        centroid = self.centroids.centroid(self.store, user_id)
        seen = self.centroids.memories(user_id)
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
            if kind is MemoryKind.CORRECTION and p.importance is None:
                value = max(value, s.correction_min_importance)  # given as a correction or read as one
            if not explicit:
                # Below the floor a chunk is not stored as a new memory; it may still reinforce, supersede or
                # contradict an existing one (a restatement has low novelty by definition), so the drop is
                # decided after reconcile.
                # Only a chunk the floor would drop is scored again with the centroid weighed by how many
                # memories it averages (`novelty_prior_memories`); the rest keep the plain importance, which
                # ranks recall (with the prior in every score, every user's early memories ranked higher: LoCoMo
                # dev cascade R@10 0.787 -> 0.786).
                if p.importance is None and value < s.min_importance_stored:
                    sure = imp.weighed_novelty(c.novelty, memories=seen, prior=s.novelty_prior_memories)
                    value = max(value, imp.importance(sure, c.salience.score, s))
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
        if s.tag_infer_entities and (s.remember_infer_tags or not explicit):
            self._tag_known_initial_names(user_id, candidates)

    def _tag_known_initial_names(self, user_id: str, candidates: list[Candidate]) -> None:
        """A sentence's first word is tagged as a name when it is one of the user's tags already, or a tag of
        another memory of this batch ("Priya owns the release." beside "ask Priya about it"). Text alone cannot
        tell "Priya" from "Yesterday" there: on the LoCoMo dev turns such words are mostly ordinary ("Life is",
        "Art is", "Let's"), so an unknown one stays untagged; a name said once is no link anyway. A name said
        first at a sentence's start and only later mid-sentence is not tagged back."""
        limit = self.settings.max_inferred_tags
        weak: dict[int, list[str]] = {}
        for i, c in enumerate(candidates):
            names = signals.initial_names(c.text) if c.memory is not None else []
            tags = []
            for name in names:
                try:
                    tags.append(normalize_tag(name))
                except ValidationError:
                    continue
            if tags:
                weak[i] = tags
        if not weak:
            return
        in_batch = {t for c in candidates if c.memory is not None for t in c.memory.tags}
        wanted = sorted({t for tags in weak.values() for t in tags} - in_batch)
        known = in_batch | ({t.name for t in self.store.find_tags(user_id, wanted)} if wanted else set())
        for i, tags in weak.items():
            c = candidates[i]
            assert c.memory is not None
            new = [t for t in tags if t in known and t not in c.memory.tags][: max(0, limit - len(c.inferred))]
            if new:
                c.inferred = [*c.inferred, *new]
                c.memory.tags = sorted({*c.memory.tags, *new})

    def rarity(self) -> imp.TokenRarity | None:
        """The model vocabulary's token rarity (salience), loaded on first use; None without a tokenizer."""
        if not self._rarity_loaded:
            self._rarity = imp.rarity_for(
                self.settings.embedding_model_path, self.settings.salience_rarity_whole_word_weight
            )
            self._rarity_loaded = True
        return self._rarity

    # -- stage 7: reconcile -------------------------------------------------------------------------------------

    def _reconcile(
        self,
        user_id: str,
        candidates: list[Candidate],
        report: IngestReport,
        item_ids: list[list[str]],
        *,
        explicit: bool,
        reconcile: bool,
        source: str,
        exclude: frozenset[str] = frozenset(),
    ) -> tuple[WriteBatch, list[Resolution]]:
        """Read the candidates' neighbourhood, decide each candidate's outcome, record it, and return the rows
        with the resolutions."""
        now = utcnow()
        near = self._neighbourhood(user_id, candidates, reconcile=reconcile, exclude=exclude)
        resolutions = decide(candidates, near, self.reconciler, self.settings, explicit=explicit, reconcile=reconcile)
        # the memories of the plans a target takes part in (a change that starts later: plans.py); no read for most
        changed = (Outcome.SUPERSEDED, Outcome.CONTRADICTED)
        targets = [r.target.memory for r in resolutions if r.target is not None and r.outcome in changed]
        batch = apply(
            resolutions,
            explicit=explicit,
            now=now,
            source=source,
            max_crumbs=self.settings.reinforcement_breadcrumbs_max,
            related=plans.related(lambda ids: self.store.get_memories(user_id, list(ids)), targets),
        )
        record(resolutions, report, item_ids)  # after apply: a change that starts later has its day by then
        return batch, resolutions

    def _neighbourhood(
        self, user_id: str, candidates: list[Candidate], *, reconcile: bool, exclude: frozenset[str] = frozenset()
    ) -> Neighbourhood:
        """What the decisions read from the store, all of it before any decision: stored memories with a
        candidate's id and, when reconciling, each fresh candidate's nearest stored memories."""
        s = self.settings
        ids = [c.memory.id for c in candidates if c.memory is not None]
        existing = {m.id: m for m in self.store.get_memories(user_id, ids)}
        if not reconcile:
            return Neighbourhood(existing)
        fresh = [c for c in candidates if c.memory is not None and c.memory.id not in existing]
        hits: dict[str, list[tuple[str, float]]] = {}
        if fresh:
            # one batched search: the per-candidate searches re-scanned the user's vectors once each, which
            # made bulk loads quadratic (100k memories: 809 s, 75% of it here)
            found = self.store.vector_search_many(
                user_id,
                np.stack([c.vector for c in fresh if c.vector is not None]),
                s.reconcile_neighbours,
                min_similarity=min(s.reconcile_slot_cosine, s.reconcile_cue_cosine),
                flt=MemoryFilter(),
                rerank=s.reconcile_ann_rerank,
            )
            hits = {
                c.memory.id: [
                    x for x in h
                    if x[0] not in exclude and (x[1] >= s.reconcile_slot_cosine or x[1] >= neighbour_floor(c.memory, s))
                ]
                for c, h in zip(fresh, found, strict=True)
                if c.memory is not None
            }
        wanted = {mid for h in hits.values() for mid, _ in h}
        neighbours = {m.id: m for m in self._read_neighbours(user_id, list(wanted))}
        recent = self._latest(user_id, fresh, exclude, neighbours)
        return Neighbourhood(existing, hits, neighbours, recent)

    def _latest(
        self, user_id: str, fresh: list[Candidate], exclude: frozenset[str], neighbours: dict[str, Memory]
    ) -> dict[str, list[str]]:
        """Each follow-up's (`followups.followup`: a change that names no subject of its own) latest stored
        memories, newest first, added to `neighbours`: ONE store read per write (`list_memories`, newest first),
        of the follow-ups' session when they share one (of the user when they have none), else of the user's
        `reconcile_followup_latest` newest per session, each follow-up keeping its own session's. Which of them
        it is compared with (and the window) is `resolve._with_recent`'s; the batch's own earlier texts come first
        there. Nothing is read for a write without a follow-up."""
        n = self.settings.reconcile_followup_latest
        follow = [c.memory for c in fresh if c.memory is not None and n and followups.followup(c.memory.content)]
        if not follow:
            return {}
        sessions = {m.session_id for m in follow}
        only = next(iter(sessions)) if len(sessions) == 1 else None
        latest = [m for m in self.store.list_memories(user_id, MemoryFilter(session_id=only), limit=n * len(sessions))
                  if m.id not in exclude]
        for m in latest:
            neighbours.setdefault(m.id, m)
        return {
            f.id: [m.id for m in latest if f.session_id is None or m.session_id == f.session_id][:n] for f in follow
        }

    def _read_neighbours(self, user_id: str, ids: list[str]) -> list[Memory]:
        """The stored neighbours, as the store's shared row objects where it offers them (`read_memories`, SQLite's
        row cache) and the reconciler is the rule one, which only reads them; `apply` changes a stored memory
        through `MemoryUpdate` rows, never the object. A copy each (~7 objects the garbage collector tracks) for
        ~25k neighbours of a 5,000-memory batch was ~0.7 s of copying and collection per batch at 60k
        (bench/RESULTS.md, "Bulk writes, ninth round"). Another reconciler gets copies it may keep or change."""
        reader = getattr(self.store, "read_memories", None)
        if reader is None or type(self.reconciler) is not RuleReconciler:
            return self.store.get_memories(user_id, ids)
        shared: list[Memory] = reader(user_id, ids)
        return shared


# -- helpers ------------------------------------------------------------------------------------------------


def _is_turn(p: Prepared) -> bool:
    """A conversation turn (a speaker in metadata or a "Name: " label) is one unit; a document is cut per fact."""
    meta = p.metadata if isinstance(p.metadata, dict) else {}
    return bool(meta.get("speaker") or meta.get("role")) or looks_like_turn(p.text)


def _cache_counters(embedder: Embedder) -> tuple[int | None, int | None]:
    if isinstance(embedder, CachedEmbedder):
        return embedder.hits, embedder.misses
    return None, None
