// Clusters found by HDBSCAN (`memgraph cluster --apply`) with their labels, sizes and a few members,
// strongest members (membership probability) first.
// Parameters: $user
MATCH (c:Cluster {user_id: $user})<-[r:InCluster]-(m:Memory)
WHERE coalesce(c.user_id, '') = $user
WITH c, m, r
ORDER BY r.probability DESC
WITH c, collect(m.content) AS members
RETURN c.id AS cluster, c.label AS label, c.size AS size, members[0..3] AS examples
ORDER BY size DESC;
