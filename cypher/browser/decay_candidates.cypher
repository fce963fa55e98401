// Decay candidates: active, unpinned memories whose confidence fell below the archive threshold (0.1 by
// default; `memgraph decay --apply` archives them), weakest first.
// Parameters: $user, $threshold
MATCH (m:Memory {user_id: $user})
WHERE coalesce(m.user_id, '') = $user AND m.active AND NOT m.archived AND NOT m.pinned AND m.confidence < $threshold
RETURN m.id AS memory, m.kind AS kind, m.content AS content, m.confidence AS confidence,
       m.strength AS strength, m.last_accessed AS last_accessed
ORDER BY confidence
LIMIT 100;
