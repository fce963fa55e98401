// A user's clusters (found by the cluster job), by id.
// Parameters: $user_id
MATCH (c:Cluster)
WHERE c.user_id = $user_id
// include: owner(c)
RETURN properties(c) AS cluster
ORDER BY c.id
