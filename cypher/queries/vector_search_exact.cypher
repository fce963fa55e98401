// Exact vector kNN (Neo4j) over one user's filtered vectors: the fallback when widening the index search
// reaches vector_max_candidates (a small user in a big shared index). Score is (1 + cos) / 2 as above.
// Parameters: $vector, $k, $user_id, $active, $include_archived, $include_compressed, $kinds, $session_id, $pinned, $min_importance, $tag, $file_patterns
MATCH (m:Memory)
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
MATCH (m)-[:HasEmbedding]->(v:MemoryVector)
WITH m, vector.similarity.cosine(v.embedding, $vector) AS score
RETURN m.id AS id, score
ORDER BY score DESC, id
LIMIT $k
