// Erase memories of one user (GraphStore.erase_memories; memgraph/jobs/erase.py decides what to erase), as ONE
// statement, so it is all or nothing: first the clusters that held one of them (their labels and centroids
// derive from the members; the cluster job rebuilds them), then the memories with their :MemoryVector nodes and
// every edge touching them, then the user's tags named in $tags (the erased memories' tags, read by the store
// first) that no memory points at any more. Returns how many of each were deleted.
// Parameters: $user_id, $ids, $tags
CALL {
  MATCH (m:Memory)
  WHERE m.user_id = $user_id
  // include: owner(m)
    AND m.id IN $ids
  MATCH (m)-[:InCluster]->(c:Cluster)
  WITH DISTINCT c
  WITH c, c.id AS cluster
  DETACH DELETE c
  RETURN count(cluster) AS clusters
}
CALL {
  MATCH (m:Memory)
  WHERE m.user_id = $user_id
  // include: owner(m)
    AND m.id IN $ids
  OPTIONAL MATCH (m)-[:HasEmbedding]->(v:MemoryVector)
  WITH m, v, m.id AS id
  DETACH DELETE m, v
  RETURN count(DISTINCT id) AS memories
}
CALL {
  UNWIND $tags AS name
  MATCH (t:Tag {name: name})
  WHERE t.user_id = $user_id
  // include: owner(t)
    AND NOT (t)<-[:HasTag]-(:Memory)
  WITH t, t.name AS tag
  DETACH DELETE t
  RETURN count(tag) AS tags
}
RETURN memories, tags, clusters
