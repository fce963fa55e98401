// A user's clusters (found by the cluster job), by id.
// Parameters: $user_id
MATCH (c:Cluster {user_id: $user_id})
RETURN properties(c) AS cluster
ORDER BY c.id
