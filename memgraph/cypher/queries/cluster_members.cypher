// A user's InCluster edges with their probability, by cluster then memory.
// Parameters: $user_id
MATCH (m:Memory)-[r:InCluster]->(c:Cluster)
WHERE m.user_id = $user_id
// include: owner(m)
  AND c.user_id = $user_id
// include: owner(c)
RETURN m.id AS memory_id, c.id AS cluster_id, r.probability AS probability
ORDER BY cluster_id, memory_id
