"""Where a server target's outbox file lives: `<outbox_dir>/<scheme>-<host>-<port>-<database>.sqlite3`.

One file per target, shared by every process on this machine that writes to it (so a process that starts
after a crash finds, and replays, what an earlier one queued). The name never holds a user name or password
from the URI; characters outside `[A-Za-z0-9._+-]` become `_`. An embedded FalkorDB (falkordb+dir://) has no
outbox: memgraph starts that server itself, from local files, like SQLite.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs, urlparse

from memgraph.config import Settings
from memgraph.store import is_cypher_target

_UNSAFE = re.compile(r"[^A-Za-z0-9._+-]")
_DEFAULT_PORTS = {"bolt": 7687, "neo4j": 7687, "falkordb": 6379}


def outbox_name(target: str, settings: Settings) -> str:
    """The file name (without folder) for a server target."""
    url = urlparse(target)
    scheme = url.scheme.lower()
    query = parse_qs(url.query)
    base = scheme.split("+")[0]
    host = url.hostname or "localhost"
    port = str(url.port or _DEFAULT_PORTS.get(base, 0))
    if base == "falkordb":
        db = (query["graph"][0] if query.get("graph") else url.path.strip("/")) or settings.falkordb_graph
    else:
        db = settings.neo4j_database
    parts = [_UNSAFE.sub("_", part) for part in (scheme, host, port, db)]
    return "-".join(parts) + ".sqlite3"


def outbox_path(settings: Settings) -> Path | None:
    """The outbox file of the configured store, or None when it has none (SQLite, embedded FalkorDB, or
    `outbox=False`). The file is created when an engine first opens on that server."""
    target = settings.store
    if not settings.outbox or not is_cypher_target(target) or target.startswith("falkordb+dir"):
        return None
    return Path(settings.outbox_dir).expanduser() / outbox_name(settings.store, settings)
