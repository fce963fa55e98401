// Cascade hop, part 3: from tags to the memories carrying them that pass the filter. A tag is a hub: at most
// $cap members each, most important (then most recently used) first.
// Parameters: $user_id, $names, $cap, $active, $include_archived, $include_compressed, $kinds, $session_id, $pinned, $min_importance, $tag, $file_patterns
MATCH (t:Tag {user_id: $user_id})
WHERE t.name IN $names
WITH t
MATCH (m:Memory)-[:HasTag]->(t)
WHERE m.user_id = $user_id
  AND ($active IS NULL OR m.active = $active)
  AND ($include_archived OR NOT m.archived)
  AND ($include_compressed OR NOT m.compressed)
  AND ($kinds IS NULL OR m.kind IN $kinds)
  AND ($session_id IS NULL OR m.session_id = $session_id)
  AND ($pinned IS NULL OR m.pinned = $pinned)
  AND ($min_importance IS NULL OR m.importance >= $min_importance OR m.pinned)
  AND ($tag IS NULL OR (m)-[:HasTag]->(:Tag {name: $tag}))
  AND ($file_patterns IS NULL OR m.scope <> 'project' OR any(p IN m.file_paths WHERE p IN $file_patterns))
WITH t, m
ORDER BY m.importance DESC, m.last_accessed DESC, m.id
WITH t, collect(m.id)[..$cap] AS members
UNWIND members AS member
RETURN t.name AS node, 'HasTag' AS relation, member AS other, 1.0 AS weight
