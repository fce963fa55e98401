// Exact vector kNN (Neo4j) over one user's filtered vectors: the fallback when widening the index search
// reaches vector_max_candidates (a small user in a big shared index). Score is (1 + cos) / 2 as above.
// Parameters: $vector, $k, $user_id, $active, $include_archived, $include_compressed, $kinds, $session_id, $pinned, $min_importance, $tag, $file_patterns
MATCH (m:Memory)
// include: memory_filter
MATCH (m)-[:HasEmbedding]->(v:MemoryVector)
WITH m, vector.similarity.cosine(v.embedding, $vector) AS score
RETURN m.id AS id, score
ORDER BY score DESC, id
LIMIT $k
