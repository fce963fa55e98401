// Cascade hop, part 2: from memories along memory-to-memory links in either direction to memories that
// pass the filter. At most $cap per memory: heaviest link first, then the more important memory. A discovered
// (similarity) RelatesTo link weighs $discovered of its stored weight: vector seeds already cover similarity.
// Parameters: $user_id, $ids, $cap, $discovered, $active, $include_archived, $include_compressed, $kinds, $session_id, $pinned, $min_importance, $tag, $file_patterns
MATCH (s:Memory)
WHERE s.user_id = $user_id
// include: owner(s)
  AND s.id IN $ids
WITH s
MATCH (s)-[r:RelatesTo|Supersedes|Contradicts|DerivedFrom]-(m:Memory)
// include: memory_filter
WITH s, type(r) AS relation, m,
     coalesce(r.weight, 1.0)
       * CASE WHEN type(r) = 'RelatesTo' AND r.source = 'discovered' THEN $discovered ELSE 1.0 END AS weight
ORDER BY weight DESC, m.importance DESC, m.id, relation
WITH s, collect({relation: relation, other: m.id, weight: weight})[..$cap] AS hops
UNWIND hops AS hop
RETURN s.id AS node, hop.relation AS relation, hop.other AS other, hop.weight AS weight
