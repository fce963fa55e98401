"""After serving a recall: learn from it without making the caller wait (seed 002 "Post-Retrieval
Maintenance", "Feedback Loops").

- every served memory: access_count + 1, last_accessed = now, confidence + feedback_boost;
- the top `co_recall_top` served memories: RelatesTo strengthened pairwise by co_recall_increment
  (capped at 1);
  an existing edge keeps its source (explicit, sequence...), a new one is `co_recall`;
- a recall that missed (`gaps.judge`: an information need that no served memory can answer; a plain statement
  is never a miss): a `Gap` node, or a bump of a similar existing gap.
These run on one background thread owned by the engine (`flush()` waits for them; `close()` too). Explicit
feedback (`engine.feedback`) is applied at once.
"""

from __future__ import annotations

import hashlib
import itertools
import logging
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from memgraph.config import Settings
from memgraph.models import Gap, Link, LinkSource, Relation, utcnow
from memgraph.retrieve import gaps
from memgraph.store.base import GraphStore, MemoryUpdate

log = logging.getLogger(__name__)


@dataclass
class ServedRecall:
    """What maintenance needs to know about one served recall."""

    user_id: str
    query: str
    served: list[str]  # memory ids in prompt order
    ranked: list[str]  # contextual ranking, best first (co-recall uses its top)
    gap: bool  # nothing passed the similarity threshold
    query_vector: np.ndarray | None


class Maintainer:
    """Owns the background executor; all store writes of post-recall maintenance go through it."""

    def __init__(self, store: GraphStore, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self._executor: ThreadPoolExecutor | None = None
        self._pending: set[Future[None]] = set()
        self._lock = threading.Lock()
        self.errors: list[str] = []

    def submit(self, recall: ServedRecall) -> None:
        """Queue maintenance for a served recall (returns immediately)."""
        with self._lock:
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
        with self._lock:
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
        if recall.served:
            self.touch(recall.user_id, recall.served)
            top = recall.ranked[: self.settings.co_recall_top]
            if len(top) >= 2:
                self.strengthen(recall.user_id, top)
        if self.is_miss(recall).miss:  # the Gap keeps what was asked, not the statements around it
            self.record_gap(recall.user_id, gaps.asked(recall.query), recall.query_vector)

    def is_miss(self, recall: ServedRecall) -> gaps.GapVerdict:
        """The gap decision for a served recall (`retrieve/gaps.py`), on the served memories' cosine to the query."""
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
        return gaps.judge(
            recall.query, hits, answer_cosine=s.gap_answer_cosine, answer_margin=s.gap_answer_margin, need=True
        )

    def touch(self, user_id: str, ids: list[str]) -> None:
        now = utcnow()
        self.store.update_memories(
            user_id,
            [
                MemoryUpdate(
                    id=mid,
                    set={"last_accessed": now},
                    inc={"access_count": 1, "confidence": self.settings.feedback_boost},
                )
                for mid in dict.fromkeys(ids)
            ],
        )

    def strengthen(self, user_id: str, ids: list[str]) -> None:
        """+co_recall_increment on RelatesTo between every pair (an edge either way is the pair's edge)."""
        ids = list(dict.fromkeys(ids))
        existing = {
            (lk.src, lk.dst): lk
            for lk in self.store.get_links(user_id, ids, relations=[Relation.RELATES_TO], direction="out")
            if lk.dst in ids
        }
        now = utcnow()
        links = []
        for a, b in itertools.combinations(ids, 2):
            link = existing.get((a, b)) or existing.get((b, a))
            if link is None:
                src, dst = sorted((a, b))
                links.append(
                    Link(
                        src=src,
                        dst=dst,
                        relation=Relation.RELATES_TO,
                        weight=min(1.0, self.settings.co_recall_increment),
                        source=LinkSource.CO_RECALL,
                        created_at=now,
                        updated_at=now,
                    )
                )
            else:
                links.append(
                    link.model_copy(
                        update={
                            "weight": min(1.0, link.weight + self.settings.co_recall_increment),
                            "updated_at": now,
                        }
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
