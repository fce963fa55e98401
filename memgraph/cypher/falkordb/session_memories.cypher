// One page of a session's memories (FalkorDB override of queries/session_memories.cypher): the same statement
// without Neo4j's index hint (FalkorDB has none); the session is found by FalkorDB's session_id index, not by
// walking every memory of the user (the write path asks for a session's newest memory on every write).
// Parameters: $user_id, $active, $include_archived, $include_compressed, $kinds, $session_id, $pinned, $min_importance, $tag, $file_patterns, $offset, $limit
MATCH (m:Memory {user_id: $user_id, session_id: $session_id})
// include: memory_filter
WITH m
ORDER BY m.created_at DESC, m.id
SKIP $offset
LIMIT $limit
OPTIONAL MATCH (m)-[:HasTag]->(t:Tag)
WITH m, collect(t.name) AS tags
ORDER BY m.created_at DESC, m.id
RETURN properties(m) AS memory, tags
