"""SQLite store: the embedded default. One file per data directory, no server.

Why SQLite: the embeddable Cypher engines measured here reopen slowly, corrupt indexes
or lack offline vector search. Layout: `memories` (embedding as a float32 blob), `tags`, `clusters`, `gaps`,
`job_runs`, `meta`, and one typed `edges` table indexed both ways. Full text is BM25 on each user's own
statistics over per-user postings in memory, built from `memories.content` and kept in step through a change
log that triggers write (`fulltext`). Vector search, filters and the cascade run on per-user in-memory
structures (the float32 matrix, filter columns, the graph as adjacency arrays, an ANN index for large users),
loaded lazily on first use and kept in step with every committed write, this process's and other processes',
by a change log.

One concern per module, lower ones first:
- `connection`: the writer and per-thread reader connections, transactions, busy/locked retries, WAL;
- `migrations`: the schema, its versions and the migrations between them, applied when a store opens;
- `rows`: model values <-> column values, rows -> `Memory`, `MemoryFilter` -> WHERE clause;
- `changelog`: which memories each write touched, written in its transaction, read by every reader;
- `columns`, `csr`, `ann`: one user's memories as columns (vectors, filter fields), its graph as adjacency
  arrays with the cascade's walk, and the faiss index for large users;
- `mirror`: those structures per user, loaded on first use and caught up from the change log;
- `search`: exact vector search over the columns;
- `fulltext`: full-text search: per-user postings, their change log, BM25 (`store/bm25.py`);
- `writes`: the SQL of every write, inside one transaction, recording the memories it touches;
- `reads`: the reads by SQL (memories, fields, links, tags, clusters, gaps, jobs, stats);
- `store`: `SQLiteStore`, the `GraphStore` protocol over all of these: lifecycle, meta, writes, searches.
"""

from memgraph.store.sqlite.migrations import SCHEMA_VERSION
from memgraph.store.sqlite.store import DB_FILE, SQLiteStore

__all__ = ["DB_FILE", "SCHEMA_VERSION", "SQLiteStore"]
