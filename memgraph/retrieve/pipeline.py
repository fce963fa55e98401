"""Recall, end to end: seeds -> cascade -> rank -> layers and budget -> result with a trace per memory.

Modes: `cascade` (default: vector + full text + the tags the query names, then the graph),
`hybrid` (vector + full text fused, no graph), `semantic` (vector only), `lexical` (full text only). If the
embedder cannot be loaded, recall runs in lexical mode and says so in `RecallResult.warnings`; it never fails
for that reason.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from datetime import datetime
from typing import overload

import numpy as np

from memgraph.config import Settings
from memgraph.embed import Embedder
from memgraph.errors import EmbedderUnavailableError
from memgraph.models import Memory, MemoryKind, RecallResult, RecallTrace, WeakHits, utcnow
from memgraph.retrieve import bases, disputes, validity, window
from memgraph.retrieve import layers as layer_mod
from memgraph.retrieve.cascade import Activation, combine_relevance, seed_strengths
from memgraph.retrieve.cues import QueryCues, find_cues
from memgraph.retrieve.gap_question import unwrap
from memgraph.retrieve.maintenance import Maintainer, ServedRecall
from memgraph.retrieve.rank import Scored, is_question, rank, score, score_many
from memgraph.retrieve.reach import walk_factors
from memgraph.retrieve.replies import reply_factors
from memgraph.retrieve.rerank import RerankerUnavailable, rerank_scores
from memgraph.retrieve.seeds import (
    Seed,
    fuse,
    handed_out,
    read_memories,
    resolve_superseded,
    search_lists,
    text_lists,
)
from memgraph.retrieve.spread import EMPTY, Activations, spread
from memgraph.retrieve.subject import subject_factors
from memgraph.store.base import GraphStore, MemoryFilter
from memgraph.text import tokenize

MODES: tuple[str, ...] = ("cascade", "hybrid", "semantic", "lexical")
#: Threads that embed questions beside the recalls running full-text search (one recall uses one; more let
#: concurrent recalls of a server embed at once rather than queue).
EMBED_THREADS = 2


@dataclass
class RecallRequest:
    user_id: str
    query: str
    top_k: int
    token_budget: int
    kinds: list[MemoryKind] | None
    scope_files: list[str] | None
    mode: str
    include_archived: bool
    session_id: str | None = None  # the caller's session: its first recall catches up on the latest summary
    include_old: bool = False  # also summaries older than the episode window
    now: datetime | None = None  # the moment the recall is asked at (default: the current time)


class Recaller:
    """Runs recalls against one store; the engine owns it (and its maintenance thread)."""

    def __init__(
        self,
        store: GraphStore,
        settings: Settings,
        embedder: Callable[[], Embedder],
        maintainer: Maintainer,
    ) -> None:
        self.store = store
        self.settings = settings
        self._embedder = embedder
        self.maintainer = maintainer
        self._pool: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()

    # -- helpers --------------------------------------------------------------------------------------------

    def _embed(self, texts: Sequence[str]) -> np.ndarray:
        return self._embedder().encode(list(texts))

    def _embed_async(self, texts: Sequence[str]) -> Future[np.ndarray]:
        """`_embed` on the recaller's embedding thread (started on first use)."""
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=EMBED_THREADS, thread_name_prefix="memgraph-embed")
            return self._pool.submit(self._embed, texts)

    def close(self) -> None:
        """Stop the embedding threads (the engine's `close`)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True)

    def _count_tokens(self, warnings: list[str]) -> Callable[[str], int]:
        try:
            emb = self._embedder()
            emb.count_tokens("probe")
            return emb.count_tokens
        except EmbedderUnavailableError:
            if "token counts are approximate (model tokenizer unavailable)" not in warnings:
                warnings.append("token counts are approximate (model tokenizer unavailable)")
            # ~1.3 word pieces per word for English under WordPiece
            return lambda text: max(1, round(len(tokenize(text)) * 1.3))

    # -- the pipeline ----------------------------------------------------------------------------------------

    def recall(self, req: RecallRequest) -> RecallResult:
        # a pasted message is searched for the request inside it: its greeting and sign-off are no part of what is
        # asked ("Hi Sam, when is standup?\n\nThanks,\nNoor" would seed on Sam and Noor); ~20 us a query, and no
        # LoCoMo question changes (`gap_question.unwrap`)
        request = unwrap(req.query)
        if request != req.query:
            req = replace(req, query=request)
        s = self.settings
        warnings: list[str] = []
        mode = req.mode
        now = req.now or utcnow()
        flt = MemoryFilter(
            kinds=req.kinds,
            include_archived=req.include_archived,
            min_importance=s.min_importance_retrieved,
            files=req.scope_files,
        )
        # Seeds are searched over inactive memories too: a superseded hit resolves to its successor.
        seed_flt = flt.model_copy(update={"active": None})
        n = max(1, req.top_k) * s.candidate_multiplier

        cues = QueryCues(stripped_query=req.query)
        if mode == "cascade":
            cues = find_cues(self.store, req.user_id, req.query, max_tags=s.max_cue_tags)

        # The question (and its cue-stripped form) is embedded on the recaller's thread while this one runs the
        # full-text searches, which need no vector: the model releases the GIL, so the two overlap.
        embedding: Future[np.ndarray] | None = None
        if mode != "lexical":
            embedding = self._embed_async([req.query, *([cues.stripped_query] if cues.tags else [])])
        use_text = mode in ("cascade", "hybrid", "lexical")
        texts = (
            text_lists(
                self.store,
                req.user_id,
                query=req.query,
                n=n,
                flt=seed_flt,
                scoped=[(t.name, cues.stripped_query) for t in cues.tags],
            )
            if use_text
            else None
        )
        # Constraints whose trigger patterns match are surfaced whatever their similarity (also while the
        # question is embedded).
        triggered = [
            m
            for m in self.store.list_memories(
                req.user_id,
                flt.model_copy(update={"kinds": [MemoryKind.CONSTRAINT]}),
                limit=s.max_triggered_scan,
            )
            if (req.kinds is None or MemoryKind.CONSTRAINT in req.kinds)
            and layer_mod.is_triggered(m, req.query)
        ]
        pinned = self.store.list_memories(
            req.user_id, flt.model_copy(update={"pinned": True}), limit=s.max_baseline
        )
        qvec: np.ndarray | None = None
        scoped_vecs: list[np.ndarray | None] = [None] * len(cues.tags)
        if embedding is not None:
            try:
                vecs = embedding.result()
                qvec = vecs[0]
                scoped_vecs = [vecs[-1]] * len(cues.tags)
            except EmbedderUnavailableError as exc:
                warnings.append(f"embedder unavailable ({exc}); recalled in lexical mode")
                mode = "lexical"
                cues = QueryCues(stripped_query=req.query)
                scoped_vecs = []
                use_text = True  # the cue tags' text lists searched meanwhile go unused: `scoped` is empty now

        lists = search_lists(
            self.store,
            req.user_id,
            query=req.query,
            qvec=qvec,
            n=n,
            flt=seed_flt,
            min_similarity=s.similarity_threshold,
            use_vector=mode in ("cascade", "hybrid", "semantic"),
            use_text=use_text,
            scoped=[(t.name, cues.stripped_query, v) for t, v in zip(cues.tags, scoped_vecs, strict=True)],
            scoped_min_similarity=s.cue_similarity_threshold,
            texts=texts,
        )
        seeds = resolve_superseded(self.store, req.user_id, fuse(lists, s), flt, now)
        vector_hits = len(lists.get("vector", []))
        gap = qvec is not None and vector_hits == 0

        strength = seed_strengths(seeds, s.seed_score_weight)
        activations: Activations = EMPTY
        if mode == "cascade" and seeds:
            # every seed starts the cascade (up to the latency guard), passing on activation scaled by its
            # strength: weak seeds add little alone, but agreeing ones lift each other
            starters = seeds[: max(s.max_initial_hits, req.top_k)]
            activations = spread(self.store, req.user_id, starters, flt, s, strengths=strength)

        # seeds first, then the memories only the cascade reached, in its order; relevance as arrays, ids read
        # only for the pool (`top_relevance`): ~1,600 reached memories at 10k, ~120 in the pool
        seed_ids = list(strength)
        at = activations.positions(seed_ids)
        reached = np.ones(len(activations), dtype=bool)
        reached[at[at >= 0]] = False
        only = np.flatnonzero(reached)
        seed_graph = np.zeros(len(at), dtype=np.float64)
        seed_graph[at >= 0] = activations.total[at[at >= 0]]
        combined = combine_relevance(
            np.concatenate([np.fromiter(strength.values(), np.float64, len(strength)), np.zeros(len(only))]),
            np.concatenate([seed_graph, activations.total[only]]),
            s,
        )
        # Only the most relevant candidates are loaded and scored in full.
        relevance = top_relevance(
            _Candidates(seed_ids, activations, only), combined, n * s.pool_multiplier
        )

        pool_ids = list(relevance)
        mems = {m.id: m for m in read_memories(self.store, req.user_id, pool_ids)}  # read only: see handed_out
        catch_up = window.catch_up(self.store, req.user_id, req.session_id) if req.session_id else None
        for m in (*triggered, *pinned, *([catch_up] if catch_up else [])):
            mems.setdefault(m.id, m)
            relevance.setdefault(m.id, 0.0)
        if not req.include_old:
            for mid in window.outside_window(self.store, req.user_id, mems.values(), req.query, s):
                if catch_up is None or mid != catch_up.id:
                    del mems[mid]

        cue_names = set(cues.tag_names)
        # a memory a change that starts later replaced is served until that day (validity.py)
        gone = validity.lapsed(self.store, req.user_id, mems.values(), now)
        active = {mid: m for mid, m in mems.items() if m.active and mid not in gone}
        for mid in validity.covered(active.values(), active):  # ... and says its remainders itself till then
            del active[mid]
        # A question gives way to its answer, which only the cascade reaches (the sequence link to the next turn);
        # the questions are found once, for this and for the reply rule.
        cascading = mode == "cascade"
        questions = {mid for mid, m in active.items() if is_question(m.content)} if cascading else set()
        asks = s.question_relevance if cascading else 1.0
        # ... and the answer to a question like the query's is lifted (replies.py; cascade only, as above).
        replies = (
            reply_factors(self.store, req.user_id, active, qvec, s.reply_weight, questions)
            if cascading and qvec is not None
            else {}
        )
        # ... and of two speakers the question names, the one it asks about comes first (subject.py; cue tags
        # are cascade's only).
        about = subject_factors(req.query, cue_names, mems, s.subject_relevance)
        # ... and a memory only the walk reached counts as far as it is near the query itself (reach.py).
        walked = (
            walk_factors(
                self.store,
                req.user_id,
                (mid for mid in active if relevance[mid] > 0.0),
                strength,
                qvec,
                s.walk_cosine_floor,
                s.walk_cosine_slope,
            )
            if cascading and qvec is not None
            else {}
        )
        scored = score_many(
            (
                (
                    m,
                    relevance[mid]
                    * (asks if mid in questions else 1.0)
                    * replies.get(mid, 1.0)
                    * about.get(mid, 1.0)
                    * walked.get(mid, 1.0),
                )
                for mid, m in active.items()
            ),
            now,
            s,
            cue_names,
        )
        notes_all: list[str] = []
        if s.reranker_model_path:
            scored, note = self._rerank(req.query, scored, now)
            notes_all.append(note)
        else:
            notes_all.append("rerank: weighted blend (no cross-encoder configured)")
        ranked = rank(scored)
        count_tokens = self._count_tokens(warnings)
        placed = layer_mod.assemble(
            ranked,
            query=req.query,
            top_k=max(0, req.top_k),
            token_budget=max(0, req.token_budget),
            count_tokens=count_tokens,
            max_procedures=s.max_procedures,
            baseline_importance=s.baseline_importance,
            max_baseline=s.max_baseline,
            fixed_share=s.fixed_section_share,
            first=[catch_up.id] if catch_up else None,
        )
        weak: WeakHits | None = None
        if qvec is not None and (gap or len(ranked) < req.top_k):  # not when a cap or the token budget cut
            considered = {sc.memory.id for sc in ranked}  # a memory the sections left out (a cap) stays out
            placed, weak = self._weak_hits(req, qvec, flt, placed, considered, count_tokens, now, nothing_passed=gap)
            if weak is not None and gap:
                warnings.append(weak.hint)
        seed_by_id = {sd.id: sd for sd in seeds}
        traces = [
            self._trace(p, seed_by_id.get(p.scored.memory.id), activations.find(p.scored.memory.id), notes_all)
            for p in placed
        ]
        if catch_up is not None:
            for t in traces:
                if t.memory_id == catch_up.id:
                    t.notes.append("catch-up: the latest session summary, on the first recall of this session")
        served = [p.scored.memory for p in placed]
        total = sum(p.tokens for p in placed)
        disputes.mark(served, traces)
        validity.mark(self.store, req.user_id, served, traces, now)
        based = bases.bases(self.store, req.user_id, served)
        if based:
            served, traces = bases.with_bases(served, traces, based, count_tokens, max(0, req.token_budget) - total)
            total = sum(t.tokens for t in traces)
        result = RecallResult(
            memories=handed_out(self.store, served),
            total_tokens=total,
            budget_used=(total / req.token_budget) if req.token_budget > 0 else 0.0,
            trace=traces,
            mode=mode,
            warnings=warnings,
            cue_tags=sorted(cue_names),
            weak=weak,
        )
        # a superseded base is shown, never credited (bases.py)
        credited = [(m.id, t.section) for m, t in zip(result.memories, traces, strict=True)
                    if t.section != layer_mod.SUPERSEDED]
        self.maintainer.note_served(req.user_id, [mid for mid, _ in credited])
        if s.recall_maintenance:
            self.maintainer.submit(
                ServedRecall(
                    user_id=req.user_id,
                    query=req.query,
                    # the gap decision judges what was served but the slots-left weak hits: it was fitted on
                    # recalls without them, and with them its precision on the read gap cases fell 0.892 -> 0.878
                    served=[mid for mid, section in credited if section != layer_mod.WEAK or gap],
                    ranked=[
                        p.scored.memory.id
                        for p in sorted(placed, key=lambda p: -p.scored.final)
                        if p.section in (layer_mod.CONTEXTUAL, layer_mod.PROCEDURAL)
                    ],
                    direct=set(seed_by_id),
                    gap=gap,
                    query_vector=qvec,
                )
            )
        return result

    def _weak_hits(
        self,
        req: RecallRequest,
        qvec: np.ndarray,
        flt: MemoryFilter,
        placed: list[layer_mod.Placed],
        considered: set[str],
        count_tokens: Callable[[str], int],
        now: datetime,
        *,
        nothing_passed: bool,
    ) -> tuple[list[layer_mod.Placed], WeakHits | None]:
        """Nothing (`nothing_passed`) or fewer than `top_k` passed the similarity threshold: the closest memories
        below it, in section `weak`, in the slots left (the threshold still decides what seeds the cascade). With
        nothing passed, rather than an empty block; with some, only those closer than unrelated text usually is
        (`weak_fill_min_similarity`), so a small store's top k is not padded with noise. A memory the recall already
        ranked (`considered`) is never a weak hit: the sections left it out on purpose (the procedure cap)."""
        s = self.settings
        room = min(s.weak_hits, max(0, req.top_k) - len(placed))
        if room <= 0:
            return placed, None
        have = {p.scored.memory.id for p in placed} | considered
        near = [
            (mid, sim)
            for mid, sim in self.store.vector_search(req.user_id, qvec, room + len(have), min_similarity=-1.0, flt=flt)
            if mid not in have and sim >= (s.weak_min_similarity if nothing_passed else s.weak_fill_min_similarity)
        ][:room]
        if not near:
            return placed, None
        mems = {m.id: m for m in self.store.get_memories(req.user_id, [mid for mid, _ in near])}
        for mid in validity.lapsed(self.store, req.user_id, mems.values(), now) | validity.covered(mems.values(), have):
            del mems[mid]
        if not req.include_old:  # the episode window holds for weak hits too (an old summary stays out)
            for mid in window.outside_window(self.store, req.user_id, list(mems.values()), req.query, s):
                del mems[mid]
        used = sum(p.tokens for p in placed)
        out = list(placed)
        for mid, sim in near:
            m = mems.get(mid)
            if m is None:
                continue
            tokens = count_tokens(m.content)
            if used + tokens > req.token_budget:
                continue
            used += tokens
            out.append(layer_mod.Placed(scored=score(m, max(0.0, sim), now, s), section=layer_mod.WEAK, tokens=tokens))
        served = len(out) - len(placed)
        if not served:
            return placed, None
        best = max(sim for _, sim in near)
        if nothing_passed:
            # three decimals: a best score just under the threshold must not print as the threshold itself
            shown = (
                "the closest is shown as a weak hit" if served == 1 else f"the {served} closest are shown as weak hits"
            )
            hint = (
                f"no memory passed the similarity threshold ({s.similarity_threshold:.2f}; the closest scored "
                f"{best:.3f}): {shown}. Rephrase the query, or try "
                "mode='lexical' (CLI: --mode lexical) to match exact words."
            )
        else:
            hint = (
                f"{len(placed)} of the {req.top_k} requested passed the similarity threshold "
                f"({s.similarity_threshold:.2f}): the {served} closest below it are added as weak hits."
            )
        return out, WeakHits(
            best_score=round(best, 4), threshold=s.similarity_threshold, count=served, hint=hint, passed=len(placed)
        )

    def _rerank(self, query: str, scored: list[Scored], now: datetime) -> tuple[list[Scored], str]:
        """Replace the relevance of the top candidates by cross-encoder scores, or keep the blend."""
        s = self.settings
        assert s.reranker_model_path is not None
        top = rank(scored)[: s.rerank_candidates]
        try:
            ce = rerank_scores(s.reranker_model_path, query, [x.memory.content for x in top])
        except RerankerUnavailable as exc:
            return scored, f"rerank: weighted blend ({exc})"
        new = {
            x.memory.id: score(x.memory, c, now, s, set(x.matched_tags) or None)
            for x, c in zip(top, ce, strict=True)
        }
        # candidates outside the reranked top keep their order below the reranked ones
        floor = min((v.final for v in new.values()), default=0.0)
        rest = [x for x in scored if x.memory.id not in new]
        for x in rest:
            x.final = min(x.final, floor * 0.999)
        return [*new.values(), *rest], "rerank: cross-encoder"

    def _trace(
        self, p: layer_mod.Placed, seed: Seed | None, act: Activation | None, notes: list[str]
    ) -> RecallTrace:
        sc = p.scored
        t_notes = list(notes)
        if seed is not None and seed.resolved_from:
            t_notes.append(f"resolved from superseded memory {seed.resolved_from}")
        if seed is not None:
            t_notes.append("found by: " + ", ".join(f"{k}#{v}" for k, v in seed.lists.items()))
        if p.section == layer_mod.WEAK:
            t_notes.append(f"weak: cosine {sc.relevance:.3f}, below the similarity threshold")
        return RecallTrace(
            memory_id=sc.memory.id,
            from_seed=act.seed_id if act else None,
            seed_rank=seed.rank if seed else None,
            seed_score=seed.score if seed else None,
            vector_score=seed.vector_score if seed else (sc.relevance if p.section == layer_mod.WEAK else None),
            text_score=seed.text_score if seed else None,
            depth=act.depth if (act and seed is None) else 0,
            path=act.path if act else [],
            cascade_score=act.total if act else 0.0,
            confidence=sc.confidence,
            recency_boost=sc.recency,
            importance=sc.memory.importance,
            cue_boost=sc.cue_factor,
            matched_tags=sc.matched_tags,
            final_score=sc.final,
            section=p.section,
            tokens=p.tokens,
            notes=t_notes,
        )


class _Candidates(Sequence[str]):
    """A recall's candidate ids, read when asked: the seeds', then those of the memories only the cascade reached
    (positions `only` among its activations)."""

    def __init__(self, seeds: list[str], acts: Activations, only: np.ndarray) -> None:
        self._seeds = seeds
        self._acts = acts
        self._only = only

    def __len__(self) -> int:
        return len(self._seeds) + len(self._only)

    @overload
    def __getitem__(self, i: int) -> str: ...

    @overload
    def __getitem__(self, i: slice) -> list[str]: ...

    def __getitem__(self, i: int | slice) -> str | list[str]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        n = len(self._seeds)
        return self._seeds[i] if i < n else self._acts.name(int(self._only[i - n]))

    def __iter__(self) -> Iterator[str]:
        return iter(self.take(np.arange(len(self))))

    def take(self, at: np.ndarray) -> list[str]:
        """The ids at these positions (ascending: the seeds' come first)."""
        n = len(self._seeds)
        cut = int(np.searchsorted(at, n))
        seeds = self._seeds
        return [seeds[i] for i in at[:cut].tolist()] + self._acts.names_at(self._only[at[cut:] - n])


def top_relevance(ids: Sequence[str], relevance: np.ndarray, k: int) -> dict[str, float]:
    """The k most relevant of `ids` (best first, ties by id: the same pool in every process and on every store)
    as {id: relevance}. Only the candidates at or above the k-th best value are sorted (np.partition first):
    a cascade at 100k memories gathers ~10-20k candidates for a pool of ~120, and sorting all of them by a
    Python key was ~2 ms a recall."""
    if k <= 0 or not ids:
        return {}
    if len(ids) > k:
        kth = np.partition(relevance, len(relevance) - k)[len(relevance) - k]
        picked = np.flatnonzero(relevance >= kth)
        take = getattr(ids, "take", None)  # `_Candidates`: the ids of the picked only, in one pass
        names = take(picked) if take is not None else [ids[i] for i in picked.tolist()]
        values = relevance[picked].tolist()
    else:
        names, values = list(ids), relevance.tolist()
    order = sorted(range(len(names)), key=lambda j: (-values[j], names[j]))[:k]
    return {names[j]: values[j] for j in order}


def check_mode(mode: str) -> str:
    from memgraph.errors import ValidationError

    if mode not in MODES:
        raise ValidationError(f"unknown recall mode {mode!r}; use one of: {', '.join(MODES)}")
    return mode


def memory_kinds(kinds: Sequence[MemoryKind | str] | None) -> list[MemoryKind] | None:
    from memgraph.errors import ValidationError

    if kinds is None:
        return None
    if isinstance(kinds, str | MemoryKind):
        kinds = [kinds]
    try:
        return [MemoryKind(k) for k in kinds]
    except ValueError as exc:
        raise ValidationError(str(exc)) from None


__all__ = ["MODES", "Memory", "RecallRequest", "Recaller", "check_mode", "memory_kinds", "top_relevance"]
