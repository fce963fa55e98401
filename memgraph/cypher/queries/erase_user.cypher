// Erase everything stored under one user (GraphStore.erase_user): memories with their :MemoryVector nodes and
// every edge, then any vector, tag, cluster, gap, job-run and :User node left with that owner (the user's id and
// its stored novelty centroid). One statement: all or
// nothing. Returns how many of each were deleted.
// Parameters: $user_id
CALL {
  MATCH (m:Memory)
  WHERE m.user_id = $user_id
  // include: owner(m)
  OPTIONAL MATCH (m)-[:HasEmbedding]->(v:MemoryVector)
  WITH m, v, m.id AS id
  DETACH DELETE m, v
  RETURN count(DISTINCT id) AS memories
}
CALL {
  MATCH (v:MemoryVector)
  WHERE v.user_id = $user_id
  // include: owner(v)
  WITH v, v.id AS id
  DETACH DELETE v
  RETURN count(id) AS vectors
}
CALL {
  MATCH (t:Tag)
  WHERE t.user_id = $user_id
  // include: owner(t)
  WITH t, t.name AS name
  DETACH DELETE t
  RETURN count(name) AS tags
}
CALL {
  MATCH (c:Cluster)
  WHERE c.user_id = $user_id
  // include: owner(c)
  WITH c, c.id AS id
  DETACH DELETE c
  RETURN count(id) AS clusters
}
CALL {
  MATCH (g:Gap)
  WHERE g.user_id = $user_id
  // include: owner(g)
  WITH g, g.id AS id
  DETACH DELETE g
  RETURN count(id) AS gaps
}
CALL {
  MATCH (u:User)
  WHERE u.id = $user_id
  WITH u, u.id AS id
  DETACH DELETE u
  RETURN count(id) AS users
}
CALL {
  MATCH (j:JobRun)
  WHERE j.user_id = $user_id
  // include: owner(j)
  WITH j, j.id AS id
  DETACH DELETE j
  RETURN count(id) AS job_runs
}
RETURN memories, tags, clusters, gaps, job_runs
