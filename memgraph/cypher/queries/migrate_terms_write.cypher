// Schema migration 1 -> 2 (memgraph/store/cypher_migrations.py), write side: the term field (Snowball stems)
// and its term count of each memory in $rows, unless its text changed since the page was read (a writer of
// the new release has then written both already).
// Parameters: $rows
UNWIND $rows AS r
MATCH (m:Memory {id: r.id})
WHERE m.content = r.content
SET m.fts = r.fts, m.fts_len = r.fts_len
RETURN count(m) AS written
