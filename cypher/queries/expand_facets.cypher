// Cascade hop, part 1: from memories to their tags and clusters. At most $cap per memory, strongest first
// (HasTag weighs 1.0, InCluster its probability), so one memory cannot flood the next hop.
// Parameters: $user_id, $ids, $cap
MATCH (s:Memory {user_id: $user_id})
WHERE s.id IN $ids
WITH s
MATCH (s)-[r:HasTag|InCluster]->(x)
WITH s, type(r) AS relation,
     CASE type(r) WHEN 'HasTag' THEN x.name ELSE x.id END AS other,
     CASE type(r) WHEN 'HasTag' THEN 1.0 ELSE r.probability END AS weight
ORDER BY weight DESC, other
WITH s, collect({relation: relation, other: other, weight: weight})[..$cap] AS hops
UNWIND hops AS hop
RETURN s.id AS node, hop.relation AS relation, hop.other AS other, hop.weight AS weight
