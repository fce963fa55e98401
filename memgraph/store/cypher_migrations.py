"""Versioned migrations of a Cypher store's graph (Neo4j, FalkorDB), the twin of store/sqlite/migrations.py.

The version is the `schema_version` key of the graph's `:Meta` nodes. Constraints and indexes are not
versioned: every open brings them to `schema.cypher` (on Neo4j it runs only the missing ones, cypher_schema.py).
What is versioned is the data those do not cover, the properties a release derives from others. Version 1 is
the first release's graph; a new, empty graph is written at `SCHEMA_VERSION` directly.

`migrate` runs when a store opens: a graph at `SCHEMA_VERSION` reads one Meta key and writes nothing; an older
one runs each missing step, then records the version with a compare-and-set. Steps are idempotent (they
re-derive a property from the text), so two processes opening an old graph at once both run them and one
records the version; a crash between steps leaves the old version and the next open runs them again. A
version above `SCHEMA_VERSION` (written by a newer memgraph) is refused with `SchemaVersionError`.

Adding a step: write a function taking the store's `read` and `write` statement runners and append it to
`MIGRATIONS`, with a docstring saying what changes and why. Never edit or remove a released step.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from memgraph.errors import SchemaVersionError
from memgraph.text import terms

log = logging.getLogger(__name__)

#: Runs one named statement with its parameters and returns its rows (CypherStore._read / _write).
Run = Callable[..., list[dict[str, Any]]]
Step = Callable[[Run, Run], None]

#: Memories re-derived per round trip by the term migration.
_PAGE = 1000


def _stemmed_terms(read: Run, write: Run) -> None:
    """Version 2: full text ranks the same on every store. Each memory's `fts` becomes its Snowball-stemmed
    terms (memgraph.text.fts_document; version 1 held plain tokens, so "supports" never found "supported"),
    and `fts_len` its term count, which the BM25 statistics sum (text_stats.cypher). The full-text index
    updates itself as the property changes. Reads and writes 1,000 memories per round trip."""
    after = ""
    while True:
        rows = read("migrate_terms_page", after=after, limit=_PAGE)
        if not rows:
            return
        out = []
        for r in rows:
            words = terms(str(r["content"] or ""))
            out.append({"id": r["id"], "content": r["content"], "fts": " ".join(words), "fts_len": len(words)})
        write("migrate_terms_write", rows=out)
        after = str(rows[-1]["id"])


def _user_nodes(read: Run, write: Run) -> None:
    """Version 3: a (:User {id}) node per user who owns a memory. Every open lists the users (the identifier-rule
    warning), and that read scanned every memory of the store; write_batch now MERGEs the writer's node and
    `users.cypher` reads those. One statement over every memory, once."""
    write("migrate_users")


#: MIGRATIONS[n - 1] takes a graph from version n to n + 1. Append only.
MIGRATIONS: tuple[Step, ...] = (_stemmed_terms, _user_nodes)
SCHEMA_VERSION = len(MIGRATIONS) + 1


def migrate(
    get_meta: Callable[[str], str | None],
    compare_and_set: Callable[[str, str | None, str | None], bool],
    read: Run,
    write: Run,
    where: str,
    is_empty: Callable[[], bool],
) -> tuple[int, int]:
    """Bring the graph to SCHEMA_VERSION (module docstring); returns (version found, version now). `is_empty`
    says whether the graph holds no memory yet (a new store is written at the latest version)."""
    stored = get_meta("schema_version")
    if stored is None:
        if is_empty():
            compare_and_set("schema_version", None, str(SCHEMA_VERSION))
            return SCHEMA_VERSION, SCHEMA_VERSION
        stored = "1"  # memories without a version: written before versions were recorded
    found = int(stored)
    if found > SCHEMA_VERSION:
        raise SchemaVersionError(
            f"{where} has schema version {found}, and this memgraph knows versions up to {SCHEMA_VERSION}: it was "
            "written by a newer memgraph. Upgrade memgraph (pip install -U memgraph) to open it."
        )
    if found == SCHEMA_VERSION:
        return found, found
    for version in range(found, SCHEMA_VERSION):
        MIGRATIONS[version - 1](read, write)
    compare_and_set("schema_version", get_meta("schema_version"), str(SCHEMA_VERSION))
    log.info("%s: upgraded the graph from schema version %d to %d", where, found, SCHEMA_VERSION)
    return found, SCHEMA_VERSION
