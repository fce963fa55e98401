// One page of a session's memories, newest first, filtered like every list (MemoryFilter): list_memories for
// a filter naming a session. The session is matched by the (user_id, session_id) index, not by walking every
// memory of the user: the write path asks for a session's newest memory on every write that carries one. The
// hint makes the seek certain: on a small or freshly written graph the planner otherwise scans (FalkorDB has no
// hints: falkordb/session_memories.cypher).
// Parameters: $user_id, $active, $include_archived, $include_compressed, $kinds, $session_id, $pinned, $min_importance, $tag, $file_patterns, $offset, $limit
MATCH (m:Memory {user_id: $user_id, session_id: $session_id})
USING INDEX m:Memory(user_id, session_id)
// include: memory_filter
WITH m
ORDER BY m.created_at DESC, m.id
SKIP $offset
LIMIT $limit
OPTIONAL MATCH (m)-[:HasTag]->(t:Tag)
WITH m, collect(t.name) AS tags
ORDER BY m.created_at DESC, m.id
RETURN properties(m) AS memory, tags
