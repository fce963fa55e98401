"""SQLite store: the embedded default. One file per data directory, no server.

Why SQLite (DESIGN.md "Stores"): the embeddable Cypher engines measured here reopen slowly, corrupt indexes
or lack offline vector search. Layout: `memories` (embedding as a float32 blob), `tags`, `clusters`, `gaps`,
`job_runs`, `meta`, and one typed `edges` table indexed both ways. Full text is BM25 on each user's own
statistics over per-user postings in memory, built from `memories.content` and kept in step through a change
log that triggers write (`fulltext`). Vector search is exact cosine over an in-memory float32 matrix per user,
loaded lazily on first use and kept in step with every committed write, this process's and other processes'.

One concern per module, lower ones first:
- `connection`: the writer and per-thread reader connections, transactions, busy/locked retries, WAL;
- `migrations`: the schema, its versions and the migrations between them, applied when a store opens;
- `rows`: model values <-> column values, rows -> `Memory`, `MemoryFilter` -> WHERE clause;
- `mirror`: the in-memory read structures and the one place that learns of committed writes;
- `writes`: the SQL of every write, inside one transaction, recording what the read structures must learn;
- `graph`: `expand`'s neighbour queries;
- `fulltext`: full-text search: per-user postings, their change log, BM25 (`store/bm25.py`);
- `store`: `SQLiteStore`, the `GraphStore` protocol over all of these: lifecycle, meta, reads and searches.
"""

from memgraph.store.sqlite.graph import HUB_SORT_LIMIT
from memgraph.store.sqlite.migrations import SCHEMA_VERSION
from memgraph.store.sqlite.store import DB_FILE, SQLiteStore

__all__ = ["DB_FILE", "HUB_SORT_LIMIT", "SCHEMA_VERSION", "SQLiteStore"]
