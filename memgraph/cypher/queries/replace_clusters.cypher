// Atomically replace a user's clusters: delete the old :Cluster nodes (and so their InCluster edges), create
// the new ones, and join each member memory of this user to its cluster. One statement: all or nothing.
// Parameters: $user_id, $clusters, $members, $now
CALL {
  MATCH (c:Cluster)
  WHERE c.user_id = $user_id
  // include: owner(c)
  DETACH DELETE c
  RETURN count(*) AS removed
}
CALL {
  UNWIND $clusters AS row
  CREATE (c:Cluster {id: row.id, user_id: $user_id})
  SET c.size = row.size, c.label = row.label, c.centroid = row.centroid, c.updated_at = row.updated_at
  RETURN count(c) AS created
}
CALL {
  UNWIND $members AS row
  MATCH (m:Memory {id: row.memory_id})
  WHERE m.user_id = $user_id
  // include: owner(m)
  MATCH (c:Cluster {id: row.cluster_id})
  WHERE c.user_id = $user_id
  // include: owner(c)
  MERGE (m)-[r:InCluster]->(c)
  SET r.probability = row.probability, r.created_at = $now, r.updated_at = $now
  RETURN count(r) AS joined
}
RETURN removed, created, joined
