// All filtered embeddings of one user, for batch jobs (clustering, novelty, link discovery).
// A vector with a packed copy (embedding_b64: base64 of its little-endian float32 bytes, written by the
// FalkorDB store) is returned as that string only: FalkorDB formats a vector as text doubles, ~10x slower to
// send than the string. Neo4j sends floats in binary and is given no packed copy (embedding_b64 is null).
// Parameters: $user_id, $active, $include_archived, $include_compressed, $kinds, $session_id, $pinned, $min_importance, $tag, $file_patterns
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
RETURN m.id AS id, CASE WHEN v.embedding_b64 IS NULL THEN v.embedding END AS embedding, v.embedding_b64 AS packed
ORDER BY m.created_at, m.id
