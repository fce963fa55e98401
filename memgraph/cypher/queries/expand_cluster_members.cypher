// Cascade hop, part 4: from clusters to their member memories that pass the filter. At most $cap members
// each, most important (then most recently used) first; the step weighs the membership probability. One row:
// per cluster, its members as aligned lists in order.
// Parameters: $user_id, $ids, $cap, $active, $include_archived, $include_compressed, $kinds, $session_id, $pinned, $min_importance, $tag, $file_patterns
MATCH (c:Cluster)
WHERE c.user_id = $user_id
// include: owner(c)
  AND c.id IN $ids
WITH c
MATCH (m:Memory)-[r:InCluster]->(c)
// include: memory_filter
WITH c, m, r.probability AS weight
ORDER BY m.importance DESC, m.last_accessed DESC, m.id
WITH c, collect(m.id) AS others, collect(weight) AS weights
RETURN collect(c.id) AS nodes, collect(others[..$cap]) AS others, collect(weights[..$cap]) AS weights
