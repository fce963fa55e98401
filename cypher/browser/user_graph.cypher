// Draw a user's memories with their tags and clusters (Browser renders the graph; cap with $limit).
// Parameters: $user, $limit
MATCH (m:Memory {user_id: $user})
WHERE coalesce(m.user_id, '') = $user AND m.active
WITH m
ORDER BY m.importance DESC
LIMIT $limit
MATCH p = (m)-[:HasTag|InCluster]->(x)
RETURN p;
