// Vector kNN (Neo4j): ask the shared index for $candidates nearest vectors, keep this user's memories that
// pass the filter, best first. The index holds every user's vectors, so the store asks for more than k and
// widens when the filter leaves fewer than k (see cypher/README.md). Neo4j's cosine score is (1 + cos) / 2.
// Parameters: $vector, $candidates, $k, $user_id, $active, $include_archived, $include_compressed, $kinds, $session_id, $pinned, $min_importance, $tag, $file_patterns
CALL db.index.vector.queryNodes('memory_vector', $candidates, $vector) YIELD node, score
WITH node AS v, score
WHERE v.user_id = $user_id
MATCH (m:Memory)-[:HasEmbedding]->(v)
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
RETURN m.id AS id, score
ORDER BY score DESC, id
LIMIT $k
