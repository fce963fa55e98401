"""cluster: HDBSCAN over each user's embeddings -> Cluster nodes with stable ids and InCluster edges.

Pipeline (docs/design.md "Batch jobs"):
1. the user's recallable memories (active, not archived, not compressed) with finite embeddings;
2. PCA to `cluster_pca_dims` (raw 384-d HDBSCAN is far too slow), then HDBSCAN (`hdbscan` package;
   scikit-learn's HDBSCAN when it is missing). Above `cluster_fit_max` memories HDBSCAN is fitted on a
   deterministic sample and the rest join the cluster of their nearest fitted point;
3. centroids in the ORIGINAL embedding space (unit-normalised mean of the members), sizes, and labels from
   the most distinctive member terms and tags (class-based TF-IDF: each cluster is one document, the noise
   points are one more, so a term common to every cluster scores low);
4. stable ids: new clusters are matched to the previous run's by member overlap (Jaccard, optimal one-to-one
   assignment, >= `cluster_match_overlap`), then by centroid cosine (>= `cluster_match_centroid`); a cluster
   that matches nothing gets a deterministic id (hash of the user and its first members);
5. noise points get no InCluster edge; members carry HDBSCAN's membership probability.
A user whose clustering input (ids, embeddings, settings) did not change since the last applied run is
skipped: the fingerprint lives in store meta `jobs.cluster.fingerprint.<user>`.
"""

from __future__ import annotations

import hashlib
import warnings
from typing import Literal

import numpy as np
from pydantic import BaseModel, Field

from memgraph.config import Settings
from memgraph.jobs.base import JobContext, JobReport, check_user, fingerprint, load_matrix
from memgraph.jobs.consolidate import tag_key
from memgraph.models import Cluster, InCluster, utcnow
from memgraph.store.base import GraphStore, MemoryFilter
from memgraph.text import content_tokens

FINGERPRINT_KEY = "jobs.cluster.fingerprint.{user}"


class ClusterInfo(BaseModel):
    id: str
    label: str
    size: int
    status: Literal["new", "kept", "changed"]
    overlap: float | None = Field(None, description="Jaccard overlap with the previous cluster of this id.")
    mean_probability: float = 0.0


class ClusterReport(JobReport):
    job: str = "cluster"
    memories: int = 0
    clustered: int = 0
    noise: int = 0
    clusters: list[ClusterInfo] = Field(default_factory=list)
    removed: list[str] = Field(default_factory=list, description="Previous cluster ids that no longer exist.")
    algorithm: str = ""
    pca_dims: int = 0
    fitted_on: int = 0
    fingerprint: str = ""


def cluster_user(ctx: JobContext, user_id: str, *, apply: bool = False, force: bool = False) -> ClusterReport:
    """Cluster one user's memories. Plan only unless `apply`; `force` ignores the unchanged-input skip."""
    store, s = ctx.store, ctx.settings
    owner = check_user(store, user_id)
    report = ClusterReport(user_id=owner, applied=apply)
    ctx.tick("loading embeddings", 0, 1)
    ids, matrix, bad = load_matrix(store, owner, MemoryFilter())
    report.invalid_embeddings = bad
    report.memories = len(ids)
    params = {
        "pca": s.cluster_pca_dims,
        "min_size": s.cluster_min_size,
        "min_samples": s.cluster_min_samples,
        "fit_max": s.cluster_fit_max,
    }
    report.fingerprint = fingerprint(ids, matrix, params)
    key = FINGERPRINT_KEY.format(user=owner)
    if not force and store.get_meta(key) == report.fingerprint:
        report.skipped = "unchanged since the last applied cluster run (use --force to recluster)"
        report.clusters = _current(store, owner)
        report.finished_at = utcnow()
        return report
    min_needed = 2 * s.cluster_min_size  # HDBSCAN never returns a single cluster: fewer cannot split
    if len(ids) < min_needed:
        report.skipped = (
            f"not enough memories to cluster: {len(ids)} with usable embeddings, at least {min_needed} "
            f"needed (2 x cluster_min_size)"
        )
        report.finished_at = utcnow()
        return report

    labels, probs, algo, dims, fitted = _hdbscan(ctx, matrix)
    report.algorithm, report.pca_dims, report.fitted_on = algo, dims, fitted
    found: dict[int, list[int]] = {}
    for i, lab in enumerate(labels.tolist()):
        if lab >= 0:
            found.setdefault(lab, []).append(i)
    report.noise = int((labels < 0).sum())
    report.clustered = len(ids) - report.noise
    if not found:
        report.warnings.append(
            f"no cluster found: HDBSCAN needs groups of at least cluster_min_size = {s.cluster_min_size} similar "
            f"memories; lower it (MEMGRAPH_CLUSTER_MIN_SIZE={max(2, s.cluster_min_size - 2)}) or store more"
        )

    ctx.tick("labelling clusters", 0, 1)
    groups = [sorted(found[lab]) for lab in sorted(found)]
    label_texts = _labels(
        store, owner, ids, groups, labels, probs, s.cluster_label_terms, s.cluster_label_sample
    )
    centroids = []
    for rows in groups:
        c = matrix[rows].mean(axis=0)
        centroids.append(c / max(float(np.linalg.norm(c)), 1e-12))

    previous = store.list_clusters(owner)
    prev_members: dict[str, set[str]] = {c.id: set() for c in previous}
    for m in store.cluster_members(owner):
        prev_members.setdefault(m.cluster_id, set()).add(m.memory_id)
    new_sets = [{ids[i] for i in rows} for rows in groups]
    assigned, overlaps = _match(owner, previous, prev_members, new_sets, centroids, s)

    now = utcnow()
    clusters: list[Cluster] = []
    members: list[InCluster] = []
    for gi, rows in enumerate(groups):
        cid = assigned[gi]
        clusters.append(
            Cluster(
                id=cid,
                user_id=owner,
                size=len(rows),
                label=label_texts[gi],
                centroid=centroids[gi].astype(np.float32).tolist(),
                updated_at=now,
            )
        )
        members += [
            InCluster(memory_id=ids[i], cluster_id=cid, probability=float(min(1.0, max(0.0, probs[i]))))
            for i in rows
        ]
        status: Literal["new", "kept", "changed"] = "new"
        if cid in prev_members:
            status = "kept" if prev_members[cid] == new_sets[gi] else "changed"
        report.clusters.append(
            ClusterInfo(
                id=cid,
                label=label_texts[gi],
                size=len(rows),
                status=status,
                overlap=overlaps.get(gi),
                mean_probability=float(np.mean([probs[i] for i in rows])),
            )
        )
    report.removed = sorted(set(prev_members) - set(assigned.values()))
    report.clusters.sort(key=lambda c: (-c.size, c.id))
    if apply:
        ctx.tick("writing clusters", 0, 1)
        store.replace_clusters(owner, clusters, members)
        store.set_meta(key, report.fingerprint)
    report.finished_at = utcnow()
    return report


def _current(store: GraphStore, owner: str) -> list[ClusterInfo]:
    clusters = store.list_clusters(owner)
    return [ClusterInfo(id=c.id, label=c.label, size=c.size, status="kept") for c in clusters]


def _hdbscan(ctx: JobContext, matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray, str, int, int]:
    """(labels, probabilities, algorithm, pca dims, rows fitted). Deterministic for the same input."""
    from sklearn.decomposition import PCA

    s = ctx.settings
    n = len(matrix)
    dims = int(max(2, min(s.cluster_pca_dims, n - 1, matrix.shape[1])))
    ctx.tick("PCA", 0, 1)
    solver = "randomized" if n > 2000 else "full"
    reduced = PCA(n_components=dims, svd_solver=solver, random_state=0).fit_transform(matrix)
    reduced = np.ascontiguousarray(reduced, dtype=np.float64)
    min_samples = s.cluster_min_samples or s.cluster_min_size
    sample = np.arange(n)
    if n > s.cluster_fit_max:
        rng = np.random.default_rng(0)
        sample = np.sort(rng.choice(n, s.cluster_fit_max, replace=False))
    ctx.tick("HDBSCAN", 0, 1)
    try:
        import hdbscan

        algo = "hdbscan"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = hdbscan.HDBSCAN(
                min_cluster_size=s.cluster_min_size, min_samples=min_samples, core_dist_n_jobs=1
            ).fit(reduced[sample])
    except ImportError:  # pragma: no cover - hdbscan is a dependency; scikit-learn's is the fallback
        from sklearn.cluster import HDBSCAN as SkHDBSCAN

        algo = "sklearn-hdbscan"
        model = SkHDBSCAN(min_cluster_size=s.cluster_min_size, min_samples=min_samples).fit(reduced[sample])
    labels = np.full(n, -1, dtype=np.int64)
    probs = np.zeros(n, dtype=np.float64)
    labels[sample] = model.labels_
    probs[sample] = model.probabilities_
    if len(sample) < n:
        # The rest join the cluster of their nearest fitted point (noise if that point is noise) and take
        # its membership probability: one KD-tree query, where hdbscan.approximate_predict's per-point
        # Python loop took 44 of 168 s at 100k memories.
        from sklearn.neighbors import NearestNeighbors

        ctx.tick("assigning the rest", 0, 1)
        rest = np.setdiff1d(np.arange(n), sample)
        _, nearest = NearestNeighbors(n_neighbors=1).fit(reduced[sample]).kneighbors(reduced[rest])
        labels[rest] = labels[sample][nearest[:, 0]]
        probs[rest] = probs[sample][nearest[:, 0]]
    return labels, probs, algo, dims, len(sample)


def _labels(
    store: GraphStore,
    owner: str,
    ids: list[str],
    groups: list[list[int]],
    labels: np.ndarray,
    probs: np.ndarray,
    n_terms: int,
    sample: int,
) -> list[str]:
    """Class-based TF-IDF: each cluster's members (content terms plus tags) are one document, the noise
    points one more; a cluster's label is its top terms/tags. Each document is built from at most `sample`
    members (the most probable ones), so labelling 100k memories reads a few thousand."""
    if not groups:
        return []
    from sklearn.feature_extraction.text import TfidfVectorizer

    def top(rows: list[int]) -> list[int]:
        return sorted(rows, key=lambda i: (-probs[i], ids[i]))[:sample]

    picked = [top(rows) for rows in groups]
    noise = top(np.nonzero(labels < 0)[0].tolist())
    wanted = [ids[i] for rows in [*picked, noise] for i in rows]
    mems = {m.id: m for m in store.get_memories(owner, wanted)}
    docs: list[list[str]] = []

    def terms(mid: str) -> list[str]:
        m = mems.get(mid)
        if m is None:
            return []
        words = [t for t in content_tokens(m.content) if len(t) > 2 and not t.isdigit()]
        return words + [f"#{t}" for t in m.tags] * 2  # a tag is strong evidence of the topic

    for rows in picked:
        docs.append([t for i in rows for t in terms(ids[i])])
    docs.append([t for i in noise for t in terms(ids[i])])
    vec = TfidfVectorizer(analyzer=lambda d: d, sublinear_tf=True)
    try:
        tfidf = vec.fit_transform(docs)
    except ValueError:  # every document empty
        return ["" for _ in groups]
    vocab = np.asarray(vec.get_feature_names_out())
    out = []
    for gi in range(len(groups)):
        row = tfidf.getrow(gi).toarray().ravel()
        label: list[str] = []
        keys: set[str] = set()
        for i in np.lexsort((vocab, -row)):
            if row[i] <= 0 or len(label) >= n_terms:
                break
            term = str(vocab[i]).lstrip("#")
            if tag_key(term) not in keys:  # "coffee" and the tag "coffees" are one label term
                keys.add(tag_key(term))
                label.append(term)
        out.append(", ".join(label))
    return out


def _match(
    owner: str,
    previous: list[Cluster],
    prev_members: dict[str, set[str]],
    new_sets: list[set[str]],
    centroids: list[np.ndarray],
    s: Settings,
) -> tuple[dict[int, str], dict[int, float]]:
    """New cluster index -> id: optimal one-to-one Jaccard matching, then centroid cosine, then a new id."""
    from scipy.optimize import linear_sum_assignment

    prev_ids = [c.id for c in previous]
    assigned: dict[int, str] = {}
    overlaps: dict[int, float] = {}
    if prev_ids and new_sets:
        jac = np.zeros((len(new_sets), len(prev_ids)))
        for i, ns in enumerate(new_sets):
            for j, pid in enumerate(prev_ids):
                ps = prev_members.get(pid, set())
                union = len(ns | ps)
                jac[i, j] = len(ns & ps) / union if union else 0.0
        rows, cols = linear_sum_assignment(-jac)
        for i, j in zip(rows.tolist(), cols.tolist(), strict=True):
            if jac[i, j] >= s.cluster_match_overlap:
                assigned[i] = prev_ids[j]
                overlaps[i] = round(float(jac[i, j]), 4)
        free_prev = [j for j, pid in enumerate(prev_ids) if pid not in assigned.values()]
        free_new = [i for i in range(len(new_sets)) if i not in assigned]
        cents = {j: previous[j].centroid for j in free_prev if previous[j].centroid is not None}
        if free_new and cents:
            pj = list(cents)
            pc = np.asarray([cents[j] for j in pj], dtype=np.float32)
            pc /= np.maximum(np.linalg.norm(pc, axis=1, keepdims=True), 1e-12)
            sim = np.stack([centroids[i] for i in free_new]) @ pc.T
            r, c = linear_sum_assignment(-sim)
            for a, b in zip(r.tolist(), c.tolist(), strict=True):
                if sim[a, b] >= s.cluster_match_centroid:
                    assigned[free_new[a]] = prev_ids[pj[b]]
                    ps = prev_members.get(prev_ids[pj[b]], set())
                    ns = new_sets[free_new[a]]
                    overlaps[free_new[a]] = round(len(ns & ps) / max(1, len(ns | ps)), 4)
    used = set(assigned.values()) | set(prev_ids)
    for i, ns in enumerate(new_sets):
        if i in assigned:
            continue
        first = sorted(ns)[:8]
        base = hashlib.blake2b(("\x00".join([owner, *first])).encode(), digest_size=8).hexdigest()
        cid, n = f"c_{base}", 1
        while cid in used:
            n += 1
            cid = f"c_{base}_{n}"
        used.add(cid)
        assigned[i] = cid
    return assigned, overlaps
