// A user's InCluster edges with their probability, by cluster then memory.
// Parameters: $user_id
MATCH (m:Memory {user_id: $user_id})-[r:InCluster]->(c:Cluster {user_id: $user_id})
RETURN m.id AS memory_id, c.id AS cluster_id, r.probability AS probability
ORDER BY cluster_id, memory_id
