"""`--store neo4j` for the benchmarks: the Neo4j named by MEMGRAPH_NEO4J_URI (with MEMGRAPH_NEO4J_USER /
MEMGRAPH_NEO4J_PASSWORD; a throwaway database: every run empties it), or else a Neo4j 5.26 Community server
started here from tools/neo4j-server (Java 17+ and Maven; see its README) with its home in the run's work folder,
an explicit heap and page cache, and stopped at the end."""

from __future__ import annotations

import os
import secrets
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools" / "neo4j-server"))
from neo4j_launcher import Neo4jServer, missing_tools  # noqa: E402

#: Defaults sized for the 100k runs (vectors 100k x 384 x 4 B = 150 MB; the page cache holds the whole store).
HEAP = "2g"
PAGECACHE = "2g"


@contextmanager
def neo4j_server(workdir: Path, *, heap: str = HEAP, pagecache: str = PAGECACHE) -> Iterator[Neo4jServer]:
    uri = os.environ.get("MEMGRAPH_NEO4J_URI")
    if uri:
        yield Neo4jServer(
            uri, os.environ.get("MEMGRAPH_NEO4J_USER", "neo4j"), os.environ.get("MEMGRAPH_NEO4J_PASSWORD", "")
        )
        return
    reason = missing_tools()
    if reason:
        raise SystemExit(f"--store neo4j: {reason}")
    server = Neo4jServer(
        "", "neo4j", "b-" + secrets.token_hex(8), workdir / "neo4j-home", heap=heap, pagecache=pagecache
    )
    print(f"starting Neo4j (tools/neo4j-server, heap {heap}, page cache {pagecache}) ...", flush=True)
    server.start()
    print(f"Neo4j at {server.uri}, started in {server.start_seconds[-1]:.1f} s", flush=True)
    try:
        yield server
    finally:
        server.stop()
