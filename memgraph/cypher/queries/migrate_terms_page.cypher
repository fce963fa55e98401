// Schema migration 1 -> 2 (memgraph/store/cypher_migrations.py), read side: one page of memories of every
// user in id order after $after, with their text, so the store can write their new term fields.
// Parameters: $after, $limit
MATCH (m:Memory)
WHERE m.id > $after
RETURN m.id AS id, m.content AS content
ORDER BY id
LIMIT $limit
