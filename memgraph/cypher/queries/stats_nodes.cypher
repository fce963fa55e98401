// Tag, cluster, gap and user counts for one user, or all users when $user_id is null.
// Parameters: $user_id
CALL {
  MATCH (t:Tag)
  WHERE $user_id IS NULL OR t.user_id = $user_id
  // include: owner(t)
  RETURN count(t) AS tags
}
CALL {
  MATCH (c:Cluster)
  WHERE $user_id IS NULL OR c.user_id = $user_id
  // include: owner(c)
  RETURN count(c) AS clusters
}
CALL {
  MATCH (g:Gap)
  WHERE $user_id IS NULL OR g.user_id = $user_id
  // include: owner(g)
  RETURN count(g) AS gaps
}
CALL {
  MATCH (m:Memory)
  WHERE $user_id IS NULL OR m.user_id = $user_id
  // include: owner(m)
  RETURN count(DISTINCT m.user_id) AS users
}
RETURN tags, clusters, gaps, users
