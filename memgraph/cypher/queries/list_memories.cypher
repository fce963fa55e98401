// One page of a user's memories, newest first, filtered inside the query (MemoryFilter).
// Parameters: $user_id, $active, $include_archived, $include_compressed, $kinds, $session_id, $pinned, $min_importance, $tag, $file_patterns, $offset, $limit
MATCH (m:Memory)
// include: memory_filter
WITH m
ORDER BY m.created_at DESC, m.id
SKIP $offset
LIMIT $limit
OPTIONAL MATCH (m)-[:HasTag]->(t:Tag)
WITH m, collect(t.name) AS tags
ORDER BY m.created_at DESC, m.id
RETURN properties(m) AS memory, tags
