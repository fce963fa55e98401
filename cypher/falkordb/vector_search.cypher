// Vector kNN (FalkorDB override of queries/vector_search.cypher): the procedure takes label and attribute,
// the query vector must be a vecf32, and the score is cosine DISTANCE (1 - cos, lower is closer), so the
// order is ascending. Same filter and widening as the Neo4j statement.
// Parameters: $vector, $candidates, $k, $user_id, $active, $include_archived, $include_compressed, $kinds, $session_id, $pinned, $min_importance, $tag, $file_patterns
CALL db.idx.vector.queryNodes('MemoryVector', 'embedding', $candidates, vecf32($vector)) YIELD node, score
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
ORDER BY score ASC, id
LIMIT $k
