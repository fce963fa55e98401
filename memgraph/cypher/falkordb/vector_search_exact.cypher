// Exact vector kNN (FalkorDB override of queries/vector_search_exact.cypher): brute-force cosine DISTANCE
// over one user's filtered vectors, closest first.
// Parameters: $vector, $k, $user_id, $active, $include_archived, $include_compressed, $kinds, $session_id, $pinned, $min_importance, $tag, $file_patterns
MATCH (m:Memory)
// include: memory_filter
MATCH (m)-[:HasEmbedding]->(v:MemoryVector)
WITH m, vec.cosineDistance(v.embedding, vecf32($vector)) AS score
RETURN m.id AS id, score
ORDER BY score ASC, id
LIMIT $k
