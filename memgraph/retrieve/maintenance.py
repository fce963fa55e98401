"""After serving a recall: learn from it without making the caller wait, in a way that cannot run away.

The rule: credit only what the caller plausibly used, and bound what credit can do.
- Credited: the top `co_recall_top` (3) hits by score, contextual and procedural. A memory that only rode
  along (lower ranks, triggered constraints, baseline memories, weak hits) gets nothing. Explicit feedback
  (`engine.feedback`) credits the one memory it names, at once.
- A credited memory: access_count + 1 (it slows the decay job's decay), confidence + `recall_confidence_boost`
  (0 by default). Its decay clock (`last_accessed`) restarts on a write, a restatement or helpful feedback, not
  on a serve (`serve_restarts_decay_clock`): the store's expansion walks a tag's most recently accessed members
  first, so restarting it on every serve sent the next recall's walk through what the last one served (LoCoMo
  dev, default configuration, cascade R@10 pass 1 -> pass 2: 0.785 -> 0.783 with it, 0.781 -> 0.781 without,
  the maintenance-off figure). Recency in ranking counts from the last write, not the last serve.
- Co-recall: RelatesTo between memories the caller confirmed it used: helpful `feedback` on two or more
  memories that the user's last recall served links them, `source: co_recall` (`co_recall_from="feedback"`).
  Its weight decays with a half-life of `co_recall_half_life_days` since it was last strengthened, then moves
  `co_recall_increment` of the way to `co_recall_max_weight` (0.3): 0.1, 0.167, 0.211, ... never above 0.3. An
  edge of another source (a conversation's sequence, an explicit link, a discovered similarity) is never changed
  by recall. `co_recall_from="top"` links the top hits without feedback (only those the query's own lists
  found: the graph cannot reinforce its own choices).
- A recall that missed (an information need that no served memory can answer, as the learned `gap_model.judge`
  weighs what the rules of `gaps.judge` read; a plain statement is never a miss): a `Gap` node, or a bump of a
  similar existing gap.

Why: the earlier rule (every served memory +0.05 confidence and a fresh 1.5x recency boost, co-recall links
+0.1 each time up to 1) snowballed. After a few runs of the demo the greeting "Nice to meet you, Priya..." had
13 RelatesTo edges and outranked the correction asked for (its score 1.65 -> 2.94). Measured on LoCoMo dev
(`remember_many` store, the questions asked twice, maintenance drained between the passes, cascade R@10 pass 1
-> pass 2): links among the top 3 without feedback 0.771 -> 0.764, among the top 3 the query itself found
0.772 -> 0.767, none 0.772 -> 0.772 (bench/RESULTS.md, "Reinforcement"). Guessing what was used from the
ranking alone makes the graph repeat its own mistakes; a link needs the caller's word.

These run on one background thread owned by the engine (`flush()` waits for them; `close()` too).
"""

from __future__ import annotations

import hashlib
import itertools
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np

from memgraph.config import Settings
from memgraph.embed.protocol import Embedder
from memgraph.models import Gap, Link, LinkSource, Relation, utcnow
from memgraph.retrieve import gap_model, gaps
from memgraph.store.base import GraphStore, MemoryUpdate

log = logging.getLogger(__name__)

#: Users whose last recall is remembered for feedback (the oldest are forgotten first).
LAST_RECALLS_KEPT = 1024


@dataclass
class ServedRecall:
    """What maintenance needs to know about one served recall."""

    user_id: str
    # the request recall searched for: a pasted message already unwrapped (`gap_question.unwrap`, idempotent), so
    # the gap decision and the Gap read it and its vector as they are (a greeting and a sign-off lowered the served
    # memories' cosine by 0.035 on average, and kept a Gap from matching the same request asked plainly)
    query: str
    served: list[str]  # memory ids in prompt order
    ranked: list[str]  # the query's own hits (contextual and procedural), best score first: the top is credited
    gap: bool  # nothing passed the similarity threshold
    query_vector: np.ndarray | None
    direct: set[str] = field(default_factory=set)  # memories the query's own lists found (seeds)


class Maintainer:
    """Owns the background executor; all store writes of post-recall maintenance go through it."""

    def __init__(self, store: GraphStore, settings: Settings, embedder: Callable[[], Embedder] | None = None) -> None:
        self.store = store
        self.settings = settings
        #: the engine's embedder (lazy): gap detection tests whether a served memory covers the question's focus
        #: words (`gaps.uncovered`); without one only the lexical tests run
        self._embedder = embedder
        self._executor: ThreadPoolExecutor | None = None
        self._pending: set[Future[None]] = set()
        self._lock = threading.Lock()
        self._closed = False
        self.errors: list[str] = []
        #: per user: the memories the user's last recall served, and those feedback has confirmed since
        self._last: OrderedDict[str, tuple[frozenset[str], set[str]]] = OrderedDict()

    def note_served(self, user_id: str, served: list[str]) -> None:
        """Remember what the user's last recall served, for `confirm` (kept in memory, per engine)."""
        with self._lock:
            self._last[user_id] = (frozenset(served), set())
            self._last.move_to_end(user_id)
            while len(self._last) > LAST_RECALLS_KEPT:
                self._last.popitem(last=False)

    def submit(self, recall: ServedRecall) -> None:
        """Queue maintenance for a served recall (returns immediately)."""
        with self._lock:
            if self._closed:  # a recall that finished while the engine closed: its store is closing too
                log.debug("post-recall maintenance skipped: the engine is closed")
                return
            if self._executor is None:
                self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="memgraph-maint")
            fut = self._executor.submit(self._run, recall)
            self._pending.add(fut)
        fut.add_done_callback(self._done)

    def _done(self, fut: Future[None]) -> None:
        with self._lock:
            self._pending.discard(fut)

    def flush(self, timeout: float | None = None) -> None:
        """Wait for every queued maintenance task."""
        with self._lock:
            pending = list(self._pending)
        for fut in pending:
            fut.result(timeout=timeout)

    def close(self) -> None:
        """Run what is queued, then accept nothing more (the engine closes its store next)."""
        with self._lock:
            self._closed = True
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True)

    def _run(self, recall: ServedRecall) -> None:
        try:
            self.apply(recall)
        except Exception as exc:
            log.warning("post-recall maintenance failed: %s", exc)
            self.errors.append(str(exc))

    # -- the work (synchronous; tests may call it directly) ---------------------------------------------

    def apply(self, recall: ServedRecall) -> None:
        credited = list(dict.fromkeys(recall.ranked))[: self.settings.co_recall_top]
        if credited:
            self.touch(recall.user_id, credited)
            if self.settings.co_recall_from == "top":
                pair = [m for m in credited if m in recall.direct]
                if len(pair) >= 2:
                    self.strengthen(recall.user_id, pair)
        if self.is_miss(recall).miss:  # the Gap keeps what was asked, not the statements around it
            self.record_gap(recall.user_id, gaps.asked(recall.query), recall.query_vector)
        refresh = getattr(self.store, "refresh", None)  # SQLite: catch its read structures up here, not in
        if refresh is not None:  # the next recall
            refresh(recall.user_id)

    def is_miss(self, recall: ServedRecall) -> gaps.GapVerdict:
        """The gap decision for a served recall, on the served memories' cosine to the query: the learned one
        (`retrieve/gap_model.py`, `gap_model`) or the rules (`retrieve/gaps.py`; also without an embedder)."""
        if not gaps.information_need(recall.query):
            return gaps.judge(recall.query, [], answer_cosine=0.0, answer_margin=0.0, need=False)
        served = self.store.get_memories(recall.user_id, list(dict.fromkeys(recall.served)), with_embeddings=True)
        q = recall.query_vector
        hits = []
        for m in served:
            sim: float | None = None
            if q is not None and m.embedding is not None:
                v = np.asarray(m.embedding, dtype=np.float32)
                sim = float(v @ q / ((np.linalg.norm(v) * np.linalg.norm(q)) or 1.0))
            hits.append(gaps.ServedHit(m.content, sim))
        s = self.settings
        focus = None
        if self._embedder is not None:
            focus = gaps.FocusTest(
                self._embedder().encode,
                s.gap_focus_word_cosine,
                s.gap_focus_drop,
                s.gap_weak_cosine,
                s.gap_weak_word_cosine,
            )
        if s.gap_model and focus is not None:
            return gap_model.judge(
                recall.query,
                hits,
                focus=focus,
                answer_cosine=s.gap_answer_cosine,
                weak_cosine=s.gap_weak_cosine,
                threshold=s.gap_model_threshold,
            )
        return gaps.judge(
            recall.query,
            hits,
            answer_cosine=s.gap_answer_cosine,
            answer_margin=s.gap_answer_margin,
            need=True,
            focus=focus,
        )

    def confirm(self, user_id: str, memory_id: str) -> None:
        """Helpful feedback on `memory_id`: when the user's last recall served it, it was used, and it is linked
        (co-recall) with the other memories of that recall that feedback confirmed. Applied at once."""
        with self._lock:
            last = self._last.get(user_id)
            if last is None or memory_id not in last[0] or memory_id in last[1]:
                return
            others = sorted(last[1])
            last[1].add(memory_id)
        for other in others:
            self.strengthen(user_id, [other, memory_id])

    def touch(self, user_id: str, ids: list[str]) -> None:
        """access_count + 1, confidence + recall_confidence_boost, and last_accessed = now only with
        `serve_restarts_decay_clock` (the store's expansion prefers recently accessed members of a tag)."""
        sets: dict[str, object] = {"last_accessed": utcnow()} if self.settings.serve_restarts_decay_clock else {}
        inc: dict[str, float] = {"access_count": 1}
        if self.settings.recall_confidence_boost > 0:
            inc["confidence"] = self.settings.recall_confidence_boost
        self.store.update_memories(
            user_id, [MemoryUpdate(id=mid, set=dict(sets), inc=dict(inc)) for mid in dict.fromkeys(ids)]
        )

    def co_recall_weight(self, old: float | None, since_days: float) -> float:
        """The weight after one more co-recall: the old weight decayed by its half-life, then
        `co_recall_increment` of the way to `co_recall_max_weight`."""
        s = self.settings
        cap = s.co_recall_max_weight
        if cap <= 0:
            return 0.0
        w = 0.0
        if old is not None:
            half = s.co_recall_half_life_days
            w = min(cap, old) * (0.5 ** (max(0.0, since_days) / half) if half > 0 else 1.0)
        return min(cap, w + s.co_recall_increment * (cap - w) / cap)

    def strengthen(self, user_id: str, ids: list[str]) -> None:
        """Co-recall RelatesTo between every pair of `ids` (an edge either way is the pair's edge); pairs joined
        by an edge of another source are left alone."""
        ids = list(dict.fromkeys(ids))
        existing: dict[frozenset[str], list[Link]] = {}
        for lk in self.store.get_links(user_id, ids, relations=[Relation.RELATES_TO], direction="out"):
            if lk.dst in ids:
                existing.setdefault(frozenset((lk.src, lk.dst)), []).append(lk)
        now = utcnow()
        links = []
        for a, b in itertools.combinations(ids, 2):
            present = existing.get(frozenset((a, b)), [])
            if any(lk.source is not LinkSource.CO_RECALL for lk in present):
                continue  # a sequence, explicit or discovered link: recall never changes it
            if present:
                link = present[0]
                days = (now - link.updated_at).total_seconds() / 86400.0
                links.append(
                    link.model_copy(update={"weight": self.co_recall_weight(link.weight, days), "updated_at": now})
                )
            else:
                src, dst = sorted((a, b))
                links.append(
                    Link(
                        src=src,
                        dst=dst,
                        relation=Relation.RELATES_TO,
                        weight=self.co_recall_weight(None, 0.0),
                        source=LinkSource.CO_RECALL,
                        reason="recalled together",
                        created_at=now,
                        updated_at=now,
                    )
                )
        if links:
            self.store.upsert_links(user_id, links)

    def record_gap(self, user_id: str, query: str, vector: np.ndarray | None) -> Gap:
        """A new Gap, or +1 on an existing gap of this user at least gap_dedup_cosine similar (same query text
        counts as similar when there is no vector)."""
        now = utcnow()
        best: Gap | None = None
        best_sim = -1.0
        for gap in self.store.list_gaps(user_id):
            if vector is not None and gap.embedding is not None:
                g = np.asarray(gap.embedding, dtype=np.float32)
                sim = float(g @ vector / ((np.linalg.norm(g) * np.linalg.norm(vector)) or 1.0))
            else:
                sim = 1.0 if gap.query.strip().casefold() == query.strip().casefold() else 0.0
            if sim > best_sim:
                best, best_sim = gap, sim
        if best is not None and best_sim >= self.settings.gap_dedup_cosine:
            gap = best.model_copy(update={"count": best.count + 1, "last_seen": now})
        else:
            digest = hashlib.blake2b(f"{user_id}\x00{query}\x00{now.isoformat()}".encode(), digest_size=12)
            gap = Gap(
                id=f"g_{digest.hexdigest()}",
                user_id=user_id,
                query=query,
                count=1,
                first_seen=now,
                last_seen=now,
                embedding=None if vector is None else [float(x) for x in vector],
            )
        self.store.upsert_gap(gap)
        return gap
