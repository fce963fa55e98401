// Cascade hop, part 3: from tags to the memories carrying them that pass the filter. A tag is a hub: at most
// $cap members each, most important (then most recently used) first.
// Parameters: $user_id, $names, $cap, $active, $include_archived, $include_compressed, $kinds, $session_id, $pinned, $min_importance, $tag, $file_patterns
MATCH (t:Tag)
WHERE t.user_id = $user_id
// include: owner(t)
  AND t.name IN $names
WITH t
MATCH (m:Memory)-[:HasTag]->(t)
// include: memory_filter
WITH t, m
ORDER BY m.importance DESC, m.last_accessed DESC, m.id
WITH t, collect(m.id)[..$cap] AS members
UNWIND members AS member
RETURN t.name AS node, 'HasTag' AS relation, member AS other, 1.0 AS weight
