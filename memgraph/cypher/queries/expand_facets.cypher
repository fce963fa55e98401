// Cascade hop, part 1: from memories to their tags and clusters. At most $cap per memory, the most specific
// first (fewest members: they say the most about a memory, and the walk then reaches a neighbour through the
// rarest thing the two share), then the strongest (HasTag weighs 1.0, InCluster its probability). Each row
// carries the tag's / cluster's member count (degree): the cascade passes less activation through hubs. Only
// memories point at tags (HasTag) and clusters (InCluster), so the degree is the count of incoming edges,
// which Neo4j answers from its degree store without walking a hub's members.
// One row: per memory, its hops as aligned lists in order (a row per hop cost the client more than the query).
// Parameters: $user_id, $ids, $cap
MATCH (s:Memory)
WHERE s.user_id = $user_id
// include: owner(s)
  AND s.id IN $ids
WITH s
MATCH (s)-[r:HasTag|InCluster]->(x)
WITH s, type(r) AS relation,
     CASE type(r) WHEN 'HasTag' THEN x.name ELSE x.id END AS other,
     CASE type(r) WHEN 'HasTag' THEN 1.0 ELSE r.probability END AS weight,
     COUNT { (x)<-[:HasTag|InCluster]-() } AS degree
ORDER BY degree, weight DESC, other
WITH s, collect(relation) AS relations, collect(other) AS others, collect(weight) AS weights,
     collect(degree) AS degrees
RETURN collect(s.id) AS nodes, collect(relations[..$cap]) AS relations, collect(others[..$cap]) AS others,
       collect(weights[..$cap]) AS weights, collect(degrees[..$cap]) AS degrees
