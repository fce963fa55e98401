// All filtered embeddings of one user, for batch jobs (clustering, novelty, link discovery).
// A vector with a packed copy (embedding_b64: base64 of its little-endian float32 bytes, written by the
// FalkorDB store) is returned as that string only: FalkorDB formats a vector as text doubles, ~10x slower to
// send than the string. Neo4j sends floats in binary and is given no packed copy (embedding_b64 is null).
// Parameters: $user_id, $active, $include_archived, $include_compressed, $kinds, $session_id, $pinned, $min_importance, $tag, $file_patterns
MATCH (m:Memory)
// include: memory_filter
MATCH (m)-[:HasEmbedding]->(v:MemoryVector)
RETURN m.id AS id, CASE WHEN v.embedding_b64 IS NULL THEN v.embedding END AS embedding, v.embedding_b64 AS packed
ORDER BY m.created_at, m.id
