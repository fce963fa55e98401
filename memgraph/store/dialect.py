"""What differs between Neo4j 5 and FalkorDB, and nothing else (cypher/README.md, "Dialects").

Every statement lives in `cypher/queries/` (Neo4j 5 syntax, shared by both). A dialect may override a
whole statement with a file of the same name in its own folder (`cypher/falkordb/`) where the difference is
more than a name: the vector and full-text procedures (names, arguments, and FalkorDB scoring cosine
*distance* where Neo4j scores (1 + cos) / 2). One function is renamed in the shared text for FalkorDB:
`toFloatList(...)`, which turns an embedding into a Neo4j float list, becomes `vecf32(...)`, FalkorDB's
indexed float32 vector type.

Timestamps are fixed-width UTC ISO-8601 strings in both (as in SQLite), so text order is time order and no
`datetime()` conversion differs between the two; `datetime(m.created_at)` works in Neo4j Browser.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from memgraph.errors import StoreError

#: The repository's cypher/ folder (next to the package).
CYPHER_DIR = Path(__file__).resolve().parents[2] / "cypher"

#: Uniqueness constraints for FalkorDB (GRAPH.CONSTRAINT CREATE is a server command, not Cypher); each needs
#: the exact-match index that cypher/falkordb/schema.cypher creates first. Mirrors schema.cypher.
FALKORDB_CONSTRAINTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Memory", ("id",)),
    ("MemoryVector", ("id",)),
    ("Cluster", ("id",)),
    ("Gap", ("id",)),
    ("JobRun", ("id",)),
    ("Meta", ("key",)),
)

_PARAM = re.compile(r"\$(\w+)")


@cache
def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise StoreError(f"Cypher statement file missing: {path} ({exc})") from exc


def split_statements(text: str) -> list[str]:
    """Statements of a schema file: `;`-terminated, `//` comment lines dropped (no `;` inside our strings)."""
    body = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))
    return [s.strip() for s in body.split(";") if s.strip()]


def render_ints(statement: str, values: dict[str, int]) -> str:
    """Schema commands take no runtime parameters: substitute validated integers for `$name` (never user
    data)."""

    def sub(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in values:
            raise StoreError(f"schema statement needs ${name}, which the store does not provide")
        return str(int(values[name]))

    return _PARAM.sub(sub, statement)


@dataclass(frozen=True)
class Dialect:
    """One Cypher dialect: where its statements come from and how to read its scores."""

    name: str
    override_dir: str | None = None
    function_renames: dict[str, str] = field(default_factory=dict)
    #: The full-text procedure's score is not a usable rank (FalkorDB): the store ranks hits by BM25 itself.
    rank_fulltext: bool = False

    def statement(self, name: str) -> str:
        """The text of a named statement: the dialect's override when it has one, else the shared file."""
        if self.override_dir is not None:
            own = CYPHER_DIR / self.override_dir / f"{name}.cypher"
            if own.exists():
                return _read(own)
        text = _read(CYPHER_DIR / "queries" / f"{name}.cypher")
        for old, new in self.function_renames.items():
            text = re.sub(rf"\b{re.escape(old)}\(", f"{new}(", text)
        return text

    def schema(self) -> list[str]:
        """Schema statements in order (constraints/indexes, vector index, full-text index)."""
        path = (
            CYPHER_DIR / self.override_dir / "schema.cypher"
            if self.override_dir
            else CYPHER_DIR / "schema.cypher"
        )
        return split_statements(_read(path))

    def similarity(self, score: float) -> float:
        """Cosine similarity from a vector-procedure score: Neo4j (1 + cos) / 2, FalkorDB distance 1 - cos."""
        if self.name == "falkordb":
            return 1.0 - float(score)
        return 2.0 * float(score) - 1.0

    def fulltext_query(self, tokens: list[str]) -> str:
        """A full-text query matching any token. Tokens are memgraph word tokens (letters, digits,
        apostrophes); each is double-quoted so no query syntax in them is interpreted (and RediSearch does not
        stem them). Lucene ORs with `OR`, RediSearch with `|`."""
        quoted = ['"' + t.replace("\\", "\\\\").replace('"', '\\"') + '"' for t in tokens]
        return " | ".join(quoted) if self.name == "falkordb" else " OR ".join(quoted)


NEO4J = Dialect("neo4j")
FALKORDB = Dialect(
    "falkordb", override_dir="falkordb", function_renames={"toFloatList": "vecf32"}, rank_fulltext=True
)
