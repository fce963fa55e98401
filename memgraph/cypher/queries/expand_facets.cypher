// Cascade hop, part 1: from memories to their tags and clusters. At most $cap per memory, the most specific
// first (fewest members: they say the most about a memory, and the walk then reaches a neighbour through the
// rarest thing the two share), then the strongest (HasTag weighs 1.0, InCluster its probability). Each row
// carries the tag's / cluster's member count (degree): the cascade passes less activation through hubs. Only
// memories point at tags (HasTag) and clusters (InCluster), so the degree is the count of incoming edges,
// which Neo4j answers from its degree store without walking a hub's members.
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
WITH s, collect({relation: relation, other: other, weight: weight, degree: degree})[..$cap] AS hops
UNWIND hops AS hop
RETURN s.id AS node, hop.relation AS relation, hop.other AS other, hop.weight AS weight, hop.degree AS degree
