"""The read-only guard of `memgraph cypher`: a user statement that writes is refused with a typed error before
it reaches a server. The servers refuse writes too (Neo4j: a READ transaction; FalkorDB: GRAPH.RO_QUERY); this
check gives the clear message and covers words a server might allow in a read (procedures that write)."""

from __future__ import annotations

import re

from memgraph.errors import ReadOnlyQueryError, ValidationError

#: Words that write (or change schema) in Cypher; user queries holding one outside strings/comments are
#: refused before they reach the server (which refuses them too: READ transaction / GRAPH.RO_QUERY).
_WRITE_WORDS = re.compile(
    r"(?<![\w.$`])(CREATE|MERGE|SET|DELETE|DETACH|REMOVE|DROP|FOREACH|LOAD\s+CSV|ALTER|RENAME|GRANT|DENY|REVOKE)\b"
    r"|\bCALL\s+[\w.]*?(create|drop|set|delete|remove|await|kill|terminate)\w*",
    re.IGNORECASE,
)
_STRINGS_AND_COMMENTS = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|`[^`]*`|//[^\n]*|/\*.*?\*/", re.DOTALL)


def check_read_only(statement: str) -> None:
    """Refuse a user statement that writes, with a typed error, before it reaches the server."""
    if not isinstance(statement, str) or not statement.strip():
        raise ValidationError("the Cypher statement is empty")
    code = _STRINGS_AND_COMMENTS.sub(" ", statement)
    hit = _WRITE_WORDS.search(code)
    if hit:
        raise ReadOnlyQueryError(
            f"`memgraph cypher` runs read-only statements; this one writes ({hit.group(0).strip()!r}). "
            "Change the graph through memgraph's commands (remember, forget, link, tag, jobs)."
        )


