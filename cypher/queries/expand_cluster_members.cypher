// Cascade hop, part 4: from clusters to their member memories that pass the filter. At most $cap members
// each, most important (then most recently used) first; the step weighs the membership probability.
// Parameters: $user_id, $ids, $cap, $active, $include_archived, $include_compressed, $kinds, $session_id, $pinned, $min_importance, $tag, $file_patterns
MATCH (c:Cluster {user_id: $user_id})
WHERE c.id IN $ids
WITH c
MATCH (m:Memory)-[r:InCluster]->(c)
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
WITH c, m, r.probability AS weight
ORDER BY m.importance DESC, m.last_accessed DESC, m.id
WITH c, collect({other: m.id, weight: weight})[..$cap] AS members
UNWIND members AS member
RETURN c.id AS node, 'InCluster' AS relation, member.other AS other, member.weight AS weight
