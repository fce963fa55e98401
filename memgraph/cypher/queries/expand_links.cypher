// Cascade hop, part 2: from memories along memory-to-memory links in either direction to memories that
// pass the filter. At most $cap per memory: heaviest link first, then the more important memory. A discovered
// (similarity) RelatesTo link weighs $discovered of its stored weight: vector seeds already cover similarity.
// The walk starts at each of $ids (a subquery per memory): written as one pattern, Neo4j's planner started from
// the filter's side instead, every memory of the user, and expanded all their links (14,630 db hits for 123
// memories of one LoCoMo conversation; ~5,700 this way). One row: per memory, its hops as aligned lists in order.
// Parameters: $user_id, $ids, $cap, $discovered, $active, $include_archived, $include_compressed, $kinds, $session_id, $pinned, $min_importance, $tag, $file_patterns
MATCH (s:Memory)
WHERE s.user_id = $user_id
// include: owner(s)
  AND s.id IN $ids
CALL {
  WITH s
  MATCH (s)-[r:RelatesTo|Supersedes|Contradicts|DerivedFrom]-(m:Memory)
// include: memory_filter
  WITH type(r) AS relation, m.id AS other, m.importance AS importance,
       coalesce(r.weight, 1.0)
         * CASE WHEN type(r) = 'RelatesTo' AND r.source = 'discovered' THEN $discovered ELSE 1.0 END AS weight
  ORDER BY weight DESC, importance DESC, other, relation
  LIMIT $cap
  RETURN collect(relation) AS relations, collect(other) AS others, collect(weight) AS weights
}
WITH s, relations, others, weights
WHERE size(others) > 0
RETURN collect(s.id) AS nodes, collect(relations) AS relations, collect(others) AS others,
       collect(weights) AS weights
