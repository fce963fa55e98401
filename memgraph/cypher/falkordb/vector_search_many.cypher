// Vector kNN for many query vectors in one round trip (FalkorDB override of queries/vector_search_many.cypher):
// the procedure takes label and attribute, each query vector must be a vecf32, and the score is cosine DISTANCE
// (1 - cos, lower is closer), so the order is ascending. Same filter and widening as vector_search.cypher.
// Parameters: $vectors, $candidates, $k, $user_id, $active, $include_archived, $include_compressed, $kinds, $session_id, $pinned, $min_importance, $tag, $file_patterns
UNWIND range(0, size($vectors) - 1) AS i
CALL {
  WITH i
  CALL db.idx.vector.queryNodes('MemoryVector', 'embedding', $candidates, vecf32($vectors[i])) YIELD node, score
  WITH node AS v, score
  WHERE v.user_id = $user_id
// include: owner(v)
  MATCH (m:Memory)-[:HasEmbedding]->(v)
// include: memory_filter
  RETURN m.id AS id, score
  ORDER BY score ASC, id
  LIMIT $k
}
RETURN i, id, score
