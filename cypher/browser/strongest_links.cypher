// The strongest RelatesTo links (explicit, discovered by `memgraph links`, strengthened by co-recall).
// Parameters: $user, $limit
MATCH (a:Memory {user_id: $user})-[r:RelatesTo]->(b:Memory)
WHERE coalesce(a.user_id, '') = $user AND a.active AND b.active
RETURN a.content AS memory, b.content AS related, r.weight AS weight, r.source AS source
ORDER BY weight DESC
LIMIT $limit;
