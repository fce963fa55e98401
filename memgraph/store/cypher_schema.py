"""Which statements of the schema file an open still has to run (Neo4j).

Every open used to run all of schema.cypher: 18 `CREATE ... IF NOT EXISTS` and `CALL db.awaitIndexes`, one
round trip each, ~0.45 s of a 1.2 s `MemoryEngine.open` at load 14 on an unchanged graph. The store now reads
the indexes that exist first (schema_indexes.cypher, one round trip) and runs only the CREATE statements whose
index or constraint is missing, so an index dropped by hand is still recreated on the next open. The statements
without a name (the index wait) run when anything was created or one of the schema's indexes is not ONLINE yet
(still populating, or FAILED: the wait then reports it, as it did on every open before)."""

from __future__ import annotations

import re
from typing import Any

#: `CREATE [VECTOR|FULLTEXT|RANGE|TEXT|POINT] INDEX|CONSTRAINT <name> IF NOT EXISTS ...`
_NAMED = re.compile(
    r"^CREATE\s+(?:(?:VECTOR|FULLTEXT|RANGE|TEXT|POINT)\s+)?(INDEX|CONSTRAINT)\s+(\w+)\s+IF\s+NOT\s+EXISTS\b",
    re.IGNORECASE,
)


def schema_name(statement: str) -> tuple[str, bool] | None:
    """(name, is a constraint) of a named `CREATE ... IF NOT EXISTS` schema statement, else None."""
    match = _NAMED.match(statement.lstrip())
    if match is None:
        return None
    return match.group(2), match.group(1).upper() == "CONSTRAINT"


def statements_to_apply(statements: list[str], present: list[dict[str, Any]]) -> list[str]:
    """The statements (in file order) an open must run, given the rows of schema_indexes.cypher (name, state,
    owningConstraint). A constraint counts as present when an index it owns carries its name; an index of the
    same name owned by nothing does not enforce it, so its statement runs (and Neo4j says what conflicts)."""
    indexes = {str(row["name"]): row for row in present}
    named = {stmt: schema_name(stmt) for stmt in statements}
    missing: set[str] = set()
    waiting = False
    for stmt, found in named.items():
        if found is None:
            continue
        name, constraint = found
        row = indexes.get(name)
        if row is None or (constraint and row.get("owningConstraint") != name):
            missing.add(stmt)
        elif row.get("state") != "ONLINE":
            waiting = True
    if not missing and not waiting:
        return []
    return [stmt for stmt in statements if stmt in missing or named[stmt] is None]
