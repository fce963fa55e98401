// Supersede chains: the newest statement of a subject and the older statements it replaced (inactive,
// kept for audit, restorable with `memgraph restore`).
// Parameters: $user
MATCH p = (newest:Memory {user_id: $user})-[:Supersedes*1..5]->(older:Memory)
WHERE coalesce(newest.user_id, '') = $user AND newest.active
RETURN newest.content AS current,
       older.content AS replaced,
       length(p) AS steps,
       older.active AS replaced_still_active
ORDER BY newest.created_at DESC, steps;
