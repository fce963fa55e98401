"""links: discover RelatesTo edges between near neighbours, age unsupported ones, analyse the graph.

- discovery: kNN over the user's recallable embeddings (exact, or cell-probed above `knn_exact_max`); a pair
  with cosine >= `link_threshold` becomes `RelatesTo {weight: cosine, source: discovered}`; each memory
  keeps at most `link_k` discovered links (strongest first). Direction is canonical (smaller id -> larger).
- co-recall: recall strengthens `RelatesTo {source: co_recall}` edges when memories are served together
  (DESIGN.md read path step 6); those edges are the co-recall statistics. This job keeps them while recall
  keeps refreshing them, and ages them like discovered links when it stopped.
- ageing: a discovered link not re-found, or a co-recall link not refreshed, is weakened (weight x
  `link_stale_decay`) at most once per `link_stale_days` since it was last confirmed or weakened, and
  dropped below `link_min_weight`. Re-running the job at once changes nothing.
- explicit links (source explicit) and the sequence links of sessions (ingest/structure.py) are never created,
  changed or removed here.
- analysis: networkx over the resulting RelatesTo graph of the recallable memories: connected components,
  the largest one, isolated memories, bridges (edges whose removal splits a component).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

import numpy as np
from pydantic import BaseModel, Field

from memgraph.jobs.base import JobContext, JobReport, age_days, batched, check_user, load_matrix
from memgraph.jobs.neighbours import knn, pairs_from_knn
from memgraph.models import Link, LinkSource, Relation, trusted, utcnow
from memgraph.store.base import MemoryFilter, WriteBatch

_EPS = 1e-6


class GraphAnalysis(BaseModel):
    nodes: int = 0
    edges: int = 0
    components: int = 0
    largest_component: int = 0
    isolated: int = 0
    bridges: int | None = None  # None: skipped (graph above link_analysis_max_edges)
    articulation_points: int | None = None


class LinkChange(BaseModel):
    src: str
    dst: str
    action: str  # create | update | weaken | drop
    source: str
    old: float | None = None
    new: float | None = None


class LinksReport(JobReport):
    job: str = "links"
    memories: int = 0
    pairs_found: int = 0
    created: int = 0
    updated: int = 0
    confirmed: int = 0
    weakened: int = 0
    dropped: int = 0
    explicit_untouched: int = 0
    graph: GraphAnalysis = Field(default_factory=GraphAnalysis)
    examples: list[LinkChange] = Field(default_factory=list, description="At most 20 planned changes.")


def links_user(
    ctx: JobContext, user_id: str, *, apply: bool = False, now: datetime | None = None
) -> LinksReport:
    store, s = ctx.store, ctx.settings
    owner = check_user(store, user_id)
    now = now or utcnow()
    report = LinksReport(user_id=owner, applied=apply)
    ctx.tick("loading embeddings", 0, 1)
    ids, matrix, bad = load_matrix(store, owner, MemoryFilter())
    report.invalid_embeddings = bad
    report.memories = len(ids)
    ctx.tick("nearest neighbours", 0, 1)
    idx, sims = knn(
        matrix,
        s.link_k,
        min_similarity=s.link_threshold,
        exact_max=s.knn_exact_max,
        probe_cells=s.knn_probe_cells,
    )
    lo, hi, pair_sims = pairs_from_knn(idx, sims)
    report.pairs_found = len(lo)

    existing = store.get_links(owner, relations=[Relation.RELATES_TO])
    by_pair: dict[tuple[str, str], list[Link]] = {}
    for ln in existing:
        by_pair.setdefault(_key(ln.src, ln.dst), []).append(ln)
    report.explicit_untouched = sum(1 for ln in existing if ln.source is LinkSource.EXPLICIT)
    # pairs already joined by an explicit or co-recall edge: left as they are
    held = {k for k, lns in by_pair.items() if any(ln.source is not LinkSource.DISCOVERED for ln in lns)}

    # Accept pairs strongest first while both ends have room (at most link_k discovered links per memory).
    # The loop runs over every candidate pair (~2.5 per memory), so it works on row numbers and plain lists.
    degree = [0] * len(ids)
    accepted: dict[tuple[str, str], float] = {}
    cap = s.link_k
    for i, j, sim in zip(lo.tolist(), hi.tolist(), pair_sims.tolist(), strict=True):
        if degree[i] >= cap or degree[j] >= cap:
            continue
        a, b = ids[i], ids[j]
        key = (a, b) if a < b else (b, a)
        if key in held:
            continue
        degree[i] += 1
        degree[j] += 1
        accepted[key] = min(1.0, max(0.0, sim))

    upserts: list[Link] = []
    deletes: list[tuple[str, str, Relation]] = []
    changes: _Changes = _Changes(20)
    created = {"source": LinkSource.DISCOVERED, "reason": "similar embeddings", "created_at": now, "updated_at": now}
    for (a, b), weight in accepted.items():
        present = [ln for ln in by_pair.get((a, b), ()) if ln.source is LinkSource.DISCOVERED]
        if not present:
            fields = {"src": a, "dst": b, "relation": Relation.RELATES_TO, "weight": weight}
            upserts.append(trusted(Link, {**fields, **created}))
            report.created += 1
            changes.add(src=a, dst=b, action="create", source="discovered", new=weight)
            continue
        for ln in present:
            if abs(ln.weight - weight) > _EPS:
                upserts.append(ln.model_copy(update={"weight": weight, "updated_at": now}))
                report.updated += 1
                changes.add(src=ln.src, dst=ln.dst, action="update", source="discovered", old=ln.weight, new=weight)
            else:
                report.confirmed += 1
    for ln in existing:
        if ln.source in (LinkSource.EXPLICIT, LinkSource.SEQUENCE):  # structure, not a statistic: never aged
            continue
        if ln.source is LinkSource.DISCOVERED and _key(ln.src, ln.dst) in accepted:
            continue
        if age_days(now, ln.updated_at) < s.link_stale_days:
            continue  # confirmed (or already weakened) recently
        weight = ln.weight * s.link_stale_decay
        if weight < s.link_min_weight:
            deletes.append((ln.src, ln.dst, Relation.RELATES_TO))
            report.dropped += 1
            changes.add(src=ln.src, dst=ln.dst, action="drop", source=ln.source.value, old=ln.weight)
        else:
            upserts.append(ln.model_copy(update={"weight": weight, "updated_at": now}))
            report.weakened += 1
            changes.add(
                src=ln.src, dst=ln.dst, action="weaken", source=ln.source.value, old=ln.weight, new=weight
            )
    report.examples = changes.kept

    if apply:
        # In key order: consecutive rows land on the same index pages (random order measured ~2x slower
        # on SQLite at 100k: each batch dirtied pages all over the edge indexes).
        upserts.sort(key=lambda ln: (ln.src, ln.dst))
        deletes.sort()
        total = len(upserts) + len(deletes)
        done = 0
        for batch in batched(upserts, s.job_batch_size):
            store.write(owner, WriteBatch(links=list(batch)))
            done += len(batch)
            ctx.tick("writing links", done, total)
        for batch in batched(deletes, s.job_batch_size):
            store.write(owner, WriteBatch(delete_links=list(batch)))
            done += len(batch)
            ctx.tick("writing links", done, total)

    # The graph as it is after this run (planned state for a dry run).
    dropped = {_key(a, b) for a, b, _ in deletes}
    final: dict[tuple[str, str], float] = {}
    for ln in existing:
        k = _key(ln.src, ln.dst)
        if k not in dropped:
            final[k] = ln.weight
    for ln in upserts:
        final[_key(ln.src, ln.dst)] = ln.weight
    ctx.tick("analysing the graph", 0, 1)
    report.graph = analyse(ids, final.keys(), s.link_analysis_max_edges)
    report.finished_at = utcnow()
    return report


class _Changes:
    """The first `limit` planned changes as report examples; the rest are only counted (building a pydantic
    object for each of 100k+ changes cost seconds)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.kept: list[LinkChange] = []

    def add(self, **fields: object) -> None:
        if len(self.kept) < self.limit:
            self.kept.append(LinkChange.model_validate(fields))


def _key(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


def analyse(nodes: list[str], edges: Iterable[tuple[str, str]], max_edges: int) -> GraphAnalysis:
    """Components, isolated nodes and bridges of the undirected RelatesTo graph over `nodes`.

    networkx does the analysis up to `max_edges` edges; above that its pure-Python bridge search costs tens of
    seconds, so components come from scipy's compiled connected_components and bridges are left out (None)."""
    index = {n: i for i, n in enumerate(nodes)}
    pairs = [(index[a], index[b]) for a, b in edges if a in index and b in index and a != b]
    out = GraphAnalysis(nodes=len(nodes))
    if not nodes:
        return out
    if len(pairs) <= max_edges:
        import networkx as nx

        g = nx.Graph()
        g.add_nodes_from(range(len(nodes)))
        g.add_edges_from(pairs)
        out.edges = g.number_of_edges()
        sizes = [len(c) for c in nx.connected_components(g)]
        out.isolated = sum(1 for _, d in g.degree() if d == 0)
        out.bridges = sum(1 for _ in nx.bridges(g))
        out.articulation_points = sum(1 for _ in nx.articulation_points(g))
    else:
        from scipy.sparse import coo_matrix
        from scipy.sparse.csgraph import connected_components

        arr = np.unique(np.sort(np.asarray(pairs, dtype=np.int64), axis=1), axis=0)
        out.edges = len(arr)
        adj = coo_matrix((np.ones(len(arr)), (arr[:, 0], arr[:, 1])), shape=(len(nodes), len(nodes)))
        _, labels = connected_components(adj, directed=False)
        sizes = np.bincount(labels).tolist()
        degree = np.bincount(arr.ravel(), minlength=len(nodes))
        out.isolated = int((degree == 0).sum())
    out.components = len(sizes)
    out.largest_component = int(max(sizes))
    return out
