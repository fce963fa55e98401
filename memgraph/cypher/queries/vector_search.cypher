// Vector kNN (Neo4j): ask the shared index for $candidates nearest vectors, keep this user's memories that
// pass the filter, best first. The index holds every user's vectors, so the store asks for more than k and
// widens when the filter leaves fewer than k (see cypher/README.md). Neo4j's cosine score is (1 + cos) / 2.
// Parameters: $vector, $candidates, $k, $user_id, $active, $include_archived, $include_compressed, $kinds, $session_id, $pinned, $min_importance, $tag, $file_patterns
CALL db.index.vector.queryNodes('memory_vector', $candidates, $vector) YIELD node, score
WITH node AS v, score
WHERE v.user_id = $user_id
// include: owner(v)
MATCH (m:Memory)-[:HasEmbedding]->(v)
// include: memory_filter
RETURN m.id AS id, score
ORDER BY score DESC, id
LIMIT $k
