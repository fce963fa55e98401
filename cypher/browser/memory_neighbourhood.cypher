// One memory's neighbourhood: every edge in or out (tags, clusters, links, supersede and contradiction
// edges, evidence), with what sits on the other end. Set :param memory_id => 'm_...'.
// Parameters: $user, $memory_id
MATCH (m:Memory {user_id: $user, id: $memory_id})-[r]-(x)
WHERE coalesce(m.user_id, '') = $user AND (x:Memory OR x:Tag OR x:Cluster)
RETURN type(r) AS relation,
       CASE WHEN startNode(r) = m THEN 'out' ELSE 'in' END AS direction,
       labels(x)[0] AS node,
       coalesce(x.content, x.name, x.label) AS what,
       r.weight AS weight
ORDER BY relation, weight DESC;
