"""Where the Cypher statements come from, and what differs between Neo4j 5 and FalkorDB (memgraph/cypher/README.md,
"Dialects").

The statements the stores run ship inside the package (`memgraph/cypher/`, read with importlib.resources, so an
installed wheel has them): `queries/` (Neo4j 5 syntax, shared by both), `schema.cypher`, and `falkordb/`, whose
files override a shared statement of the same name where the difference is more than a name (the vector and
full-text procedures, and FalkorDB scoring cosine *distance* where Neo4j scores (1 + cos) / 2). One function is
renamed in the shared text for FalkorDB: `toFloatList(...)`, which turns an embedding into a Neo4j float list,
becomes `vecf32(...)`, FalkorDB's indexed float32 vector type.

A line `// include: NAME` in a statement is replaced by the statement lines of `include/NAME.cypher` (its `//`
comment lines left out, the include line's indentation put before each): the MemoryFilter predicate is written
once there. `// include: NAME(v)` passes a node variable: the fragment writes its node as `x`, and `x.` becomes
`v.` (the owner re-check, `// include: owner(m)`, follows every owner comparison this way). A fragment may
include another. tools/cypher-lint expands includes by the same rule before it lints.

The exploration queries for people (`cypher/browser/` in the repository) ship too, as `memgraph.browser`:
`browser_query("user_overview")` returns one.

Timestamps are fixed-width UTC ISO-8601 strings in both (as in SQLite), so text order is time order and no
`datetime()` conversion differs between the two; `datetime(m.created_at)` works in Neo4j Browser.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path

from memgraph.errors import StoreError, ValidationError

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
_INCLUDE = re.compile(r"^([ \t]*)// include: (\w+)(?:\((\w+)\))?[ \t]*$", re.MULTILINE)
#: How a fragment names the node variable it is given (`// include: owner(m)` turns `x.` into `m.`).
_FRAGMENT_NODE = re.compile(r"\bx\.")
_NAME = re.compile(r"[a-z][a-z0-9_]*")
#: A statement's part that runs over one list parameter: a top-level `CALL {` whose first line is
#: `UNWIND $list AS row`, up to its closing `}` at the start of a line (write_batch.cypher).
_LIST_PART = re.compile(r"^CALL \{\n[ \t]*UNWIND \$(\w+) AS row\n.*?^\}[ \t]*\n", re.DOTALL | re.MULTILINE)
_RESULT_NAME = re.compile(r"\bAS\s+(\w+)")


def statements_root() -> Traversable:
    """The package's statement folder (memgraph/cypher/)."""
    return files("memgraph") / "cypher"


def _read(node: Traversable, what: str) -> str:
    try:
        return node.read_text(encoding="utf-8")
    except OSError as exc:
        raise StoreError(f"Cypher statement file missing: {what} ({exc})") from exc


@cache
def _fragment(name: str) -> str:
    """A fragment's statement lines, its own includes expanded first."""
    text = expand_includes(_read(statements_root() / "include" / f"{name}.cypher", f"include/{name}.cypher"))
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))


def _included(match: re.Match[str]) -> str:
    indent, name, node = match.group(1), match.group(2), match.group(3)
    text = _fragment(name)
    if node is not None:
        text = _FRAGMENT_NODE.sub(f"{node}.", text)
    return "\n".join(indent + line for line in text.splitlines())


def expand_includes(text: str) -> str:
    """The statement with every `// include: NAME` (or `NAME(v)`) line replaced by that fragment's statement
    lines (see the module docstring)."""
    return _INCLUDE.sub(_included, text)


@cache
def _statement_file(relative: str) -> str | None:
    """A statement file's expanded text, or None when the package has no such file."""
    node = statements_root().joinpath(*relative.split("/"))
    if not node.is_file():
        return None
    return expand_includes(_read(node, relative))


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


@cache
def _renamed(text: str, renames: tuple[tuple[str, str], ...]) -> str:
    for old, new in renames:
        text = re.sub(rf"\b{re.escape(old)}\(", f"{new}(", text)
    return text


@dataclass(frozen=True)
class Dialect:
    """One Cypher dialect: where its statements come from and how to read its scores."""

    name: str
    override_dir: str | None = None
    function_renames: dict[str, str] = field(default_factory=dict)
    #: The statement that lists the indexes present (a file next to schema.cypher), so an open applies only the
    #: missing schema statements (memgraph/store/cypher_schema.py); None: the schema file is applied whole.
    schema_check: str | None = None

    def statement(self, name: str) -> str:
        """The text of a named statement: the dialect's override when it has one, else the shared file (with
        the dialect's function renames); includes expanded."""
        if self.override_dir is not None:
            own = _statement_file(f"{self.override_dir}/{name}.cypher")
            if own is not None:
                return own
        text = _statement_file(f"queries/{name}.cypher")
        if text is None:
            raise StoreError(f"Cypher statement file missing: queries/{name}.cypher")
        return _renamed(text, tuple(self.function_renames.items()))

    def schema(self) -> list[str]:
        """Schema statements in order (constraints/indexes, vector index, full-text index)."""
        relative = f"{self.override_dir}/schema.cypher" if self.override_dir else "schema.cypher"
        text = _statement_file(relative)
        if text is None:
            raise StoreError(f"Cypher statement file missing: {relative}")
        return split_statements(text)

    def schema_indexes(self) -> str | None:
        """The statement listing the indexes present (name, state, owningConstraint), or None for a dialect
        that applies its schema file whole on every open."""
        if self.schema_check is None:
            return None
        text = _statement_file(f"{self.schema_check}.cypher")
        if text is None:
            raise StoreError(f"Cypher statement file missing: {self.schema_check}.cypher")
        return text

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


@cache
def without_parts(statement: str, empty: frozenset[str]) -> str:
    """`statement` with each part over a list parameter named in `empty` (`CALL { UNWIND $list AS row ... }`)
    replaced by `CALL { RETURN 0 AS <its results> }`: the same rows and results, as that part ran over no rows.

    Why: Neo4j plans a statement again when the graph's statistics have moved enough since its plan
    (`dbms.cypher.statistics_divergence_threshold`, checked at most every `dbms.cypher.min_replan_interval`), which
    a young graph's do with nearly every command. The whole write_batch.cypher took ~1.8-2.0 s of server CPU to
    plan (its links and updates parts ~0.6 and ~0.5 s of it), the parts a `remember` sends (memories, vectors,
    tags) ~0.6 s (load 11, 2 cores; bench/RESULTS.md, "A Neo4j user's first minutes"). Each shape is its own
    entry in the server's plan cache."""
    if not empty:
        return statement

    def replace(part: re.Match[str]) -> str:
        if part.group(1) not in empty:
            return part.group(0)
        body = part.group(0)
        results = _RESULT_NAME.findall(body[body.rindex("RETURN") :])
        return "CALL { RETURN " + ", ".join(f"0 AS {name}" for name in results) + " }\n"

    return _LIST_PART.sub(replace, statement)


NEO4J = Dialect("neo4j", schema_check="schema_indexes")
FALKORDB = Dialect("falkordb", override_dir="falkordb", function_renames={"toFloatList": "vecf32"})


# -- the exploration queries for people (cypher/browser/ in the repository) ---------------------------------


def browser_root() -> Traversable:
    """The exploration queries: the repository's cypher/browser/ in a source checkout, else the installed
    `memgraph.browser` package (the wheel ships that folder under this name; pyproject.toml, package-dir)."""
    checkout = Path(__file__).resolve().parents[2]
    if (checkout / "pyproject.toml").is_file() and (checkout / "cypher" / "browser").is_dir():
        return checkout / "cypher" / "browser"
    return files("memgraph.browser")


def browser_queries() -> list[str]:
    """Names of the shipped exploration queries (file names without .cypher), sorted."""
    return sorted(n.name.removesuffix(".cypher") for n in browser_root().iterdir() if n.name.endswith(".cypher"))


def browser_query(name: str) -> str:
    """The text of one shipped exploration query, e.g. `browser_query("user_overview")`."""
    if not isinstance(name, str) or not _NAME.fullmatch(name) or name not in browser_queries():
        raise ValidationError(
            f"no exploration query named {name!r}; the shipped ones: {', '.join(browser_queries())}"
        )
    return (browser_root() / f"{name}.cypher").read_text(encoding="utf-8")
