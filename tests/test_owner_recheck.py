"""Every Cypher statement that selects by owner re-checks the owner in a way no index can answer.

FalkorDB's range index trims surrounding whitespace, so `m.user_id = 'ada'` also finds `'ada '` once user_id is
indexed (tests/conformance/test_owner_lookalikes.py shows it on a real store). The re-check is written once,
`memgraph/cypher/include/owner.cypher` (`AND coalesce(x.user_id, '') = $user_id`), and included after every owner
comparison as `// include: owner(m)`; the exploration queries people paste into Browser (cypher/browser/) have
no includes, so they spell the same expression out. This lint reads every statement file as the store runs it
(includes expanded) and fails a comparison of an owner that is not followed by its re-check:

- in a MATCH (or a WHERE after it), the re-check of the same variable must come before the next clause;
- a MERGE that matches on the owner must be followed, anywhere later in the statement, by a re-check of the
  merged node (a guard that aborts the statement when the index matched a look-alike);
- CREATE and SET assign an owner and compare nothing.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from memgraph.store.dialect import expand_includes

ROOT = Path(__file__).resolve().parents[1]
CYPHER_DIR = ROOT / "memgraph" / "cypher"
BROWSER_DIR = ROOT / "cypher" / "browser"
STATEMENTS = sorted(p for p in CYPHER_DIR.rglob("*.cypher") if p.parent.name != "include" and p.stem != "schema")
BROWSER = sorted(BROWSER_DIR.glob("*.cypher"))

_PARAM = r"\$(?:user_id|user)\b"
#: `(m:Memory {..., user_id: $user_id, ...})`: the variable and the pattern
_PATTERN = re.compile(rf"\((\w+):\w+\s*\{{[^}}]*\buser_id:\s*{_PARAM}[^}}]*\}}")
#: `m.user_id = $user_id` (not the re-check itself, `coalesce(m.user_id, '') = ...`, whose `user_id,` has a comma)
_COMPARE = re.compile(rf"\b(\w+)\.user_id\s*=\s*{_PARAM}")
_CLAUSE = re.compile(
    r"^\s*(?:OPTIONAL\s+MATCH|MATCH|WITH|RETURN|CALL|UNWIND|MERGE|CREATE|SET|ON\s+CREATE|ON\s+MATCH|DELETE|"
    r"DETACH|FOREACH|ORDER|SKIP|LIMIT|UNION|\})\b",
    re.MULTILINE,
)


def _recheck(var: str) -> re.Pattern[str]:
    return re.compile(rf"\bcoalesce\(\s*{var}\.user_id\s*,\s*''\s*\)\s*=\s*{_PARAM}")


def _code(text: str) -> str:
    """The statement without its comment lines (a comment may quote a comparison)."""
    return "\n".join("" if line.lstrip().startswith("//") else line for line in text.splitlines())


def _clause_of(code: str, pos: int) -> str:
    """The keyword of the clause that position `pos` is in (the last clause start at or before it)."""
    starts = [m for m in _CLAUSE.finditer(code) if m.start() <= pos]
    line_start = code.rfind("\n", 0, pos) + 1
    line = code[line_start:pos]
    if re.search(r"\bSET\b", line):
        return "SET"
    return starts[-1].group(0).strip().split()[0].upper() if starts else "MATCH"


def missing_rechecks(text: str) -> list[str]:
    """Owner comparisons in `text` (a statement, includes expanded) that are not followed by their re-check."""
    code = _code(text)
    problems: list[str] = []
    found = [(m.start(), m.group(1)) for m in _PATTERN.finditer(code)]
    found += [(m.start(), m.group(1)) for m in _COMPARE.finditer(code)]
    for pos, var in sorted(found):
        clause = _clause_of(code, pos)
        if clause in ("CREATE", "SET", "ON"):
            continue
        rest = code[pos:]
        if clause == "MERGE":
            if not _recheck(var).search(rest):
                problems.append(f"MERGE of `{var}` by owner without a later re-check of `{var}`")
            continue
        nxt = _CLAUSE.search(code, code.find("\n", pos) + 1 if "\n" in code[pos:] else len(code))
        segment = code[pos : nxt.start() if nxt else len(code)]
        if not _recheck(var).search(segment):
            line = code.count("\n", 0, pos) + 1
            problems.append(f"line {line}: `{var}`'s owner compared without `coalesce({var}.user_id, '') = ...` after")
    return problems


@pytest.mark.parametrize("path", STATEMENTS + BROWSER, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_owner_comparison_is_rechecked(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert not missing_rechecks(expand_includes(text)), missing_rechecks(expand_includes(text))


def test_the_recheck_is_written_once_and_included() -> None:
    owner = (CYPHER_DIR / "include" / "owner.cypher").read_text(encoding="utf-8")
    body = [line for line in owner.splitlines() if not line.startswith("//")]
    assert body == ["  AND coalesce(x.user_id, '') = $user_id"]
    pasted = [p.name for p in STATEMENTS if re.search(r"coalesce\(\w+\.user_id", _code(p.read_text(encoding="utf-8")))]
    # statement files use the include; only guards (a CASE inside an expression) spell it out
    for name in pasted:
        assert "CASE WHEN" in (CYPHER_DIR / "queries" / name).read_text(encoding="utf-8"), name
    assert sum("// include: owner(" in p.read_text(encoding="utf-8") for p in STATEMENTS) >= 15


@pytest.mark.parametrize(
    "text",
    [
        "MATCH (m:Memory {user_id: $user_id})\nRETURN m",
        "MATCH (m:Memory)\nWHERE m.user_id = $user_id\nRETURN m",
        "MATCH (m:Memory)\nWHERE m.user_id = $user_id\nMATCH (t:Tag)\n"
        "WHERE coalesce(t.user_id, '') = $user_id\nRETURN m",
        "MERGE (t:Tag {user_id: $user_id, name: $n})\nRETURN t",
        "MATCH (a:Memory {user_id: $user})-[r]->(b)\nRETURN a",
    ],
)
def test_the_lint_finds_a_missing_recheck(text: str) -> None:
    """The lint itself: each statement compares an owner and does not re-check it (so the test can fail)."""
    assert missing_rechecks(text)


@pytest.mark.parametrize(
    "text",
    [
        "MATCH (m:Memory {user_id: $user_id})\nWHERE coalesce(m.user_id, '') = $user_id\nRETURN m",
        "CREATE (c:Cluster {id: $id, user_id: $user_id})",
        "MERGE (m:Memory {id: $id})\nON CREATE SET m.user_id = $user_id\nWITH m\n"
        "WHERE 1 / CASE WHEN coalesce(m.user_id, '') = $user_id THEN 1 ELSE 0 END = 1\nRETURN m",
    ],
)
def test_the_lint_accepts_a_rechecked_statement(text: str) -> None:
    assert not missing_rechecks(text)
