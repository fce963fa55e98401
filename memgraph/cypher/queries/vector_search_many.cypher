// Vector kNN for many query vectors in one round trip (Neo4j): for each row i of $vectors, the same search as
// vector_search.cypher (ask the shared index for $candidates, keep this user's memories that pass the filter,
// best $k), returned with its row number. The write path's reconciliation asks one search per new memory: one
// statement per batch saves the round trips (22 searches on the test server under load 11-21: 2.8 -> 2.0 s and
// 2.2-7.4 -> 1.0-2.0 s; the index search itself is most of what is left). Rows that come back short of $k are
// widened one by one by the store, as vector_search does.
// Parameters: $vectors, $candidates, $k, $user_id, $active, $include_archived, $include_compressed, $kinds, $session_id, $pinned, $min_importance, $tag, $file_patterns
UNWIND range(0, size($vectors) - 1) AS i
CALL {
  WITH i
  CALL db.index.vector.queryNodes('memory_vector', $candidates, $vectors[i]) YIELD node, score
  WITH node AS v, score
  WHERE v.user_id = $user_id
// include: owner(v)
  MATCH (m:Memory)-[:HasEmbedding]->(v)
// include: memory_filter
  RETURN m.id AS id, score
  ORDER BY score DESC, id
  LIMIT $k
}
RETURN i, id, score
