// Cascade hop, part 3: from tags to the memories carrying them that pass the filter. A tag is a hub: at most
// $cap members each, most important (then most recently used) first. The members are ranked per tag in a
// subquery with ORDER BY ... LIMIT, which Neo4j runs as a top-$cap heap; sorting and collecting every member
// (a hub tag of 30k members at 100k memories) was most of a 2-hop expand's time there.
// Parameters: $user_id, $names, $cap, $active, $include_archived, $include_compressed, $kinds, $session_id, $pinned, $min_importance, $tag, $file_patterns
MATCH (t:Tag)
WHERE t.user_id = $user_id
// include: owner(t)
  AND t.name IN $names
CALL {
  WITH t
  MATCH (m:Memory)-[:HasTag]->(t)
// include: memory_filter
  RETURN m
  ORDER BY m.importance DESC, m.last_accessed DESC, m.id
  LIMIT $cap
}
RETURN t.name AS node, 'HasTag' AS relation, m.id AS other, 1.0 AS weight
