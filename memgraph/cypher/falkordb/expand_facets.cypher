// FalkorDB override of cypher/queries/expand_facets.cypher (same rows, same order): the member count of a tag
// or cluster is `indegree(x)`, which FalkorDB reads from its adjacency matrix; the shared statement's
// COUNT { } subquery is Neo4j 5 syntax, and matching the members instead walks every member of a hub tag
// (2.3x slower expand at 10k memories). Only memories point at tags (HasTag) and clusters (InCluster).
// Cascade hop, part 1: from memories to their tags and clusters, at most $cap per memory, rarest first
// (fewest members), then strongest (HasTag 1.0, InCluster its probability), then by name.
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
     indegree(x) AS degree
ORDER BY degree, weight DESC, other
WITH s, collect(relation) AS relations, collect(other) AS others, collect(weight) AS weights,
     collect(degree) AS degrees
RETURN collect(s.id) AS nodes, collect(relations[..$cap]) AS relations, collect(others[..$cap]) AS others,
       collect(weights[..$cap]) AS weights, collect(degrees[..$cap]) AS degrees
