// The embeddings of given memories of one user, as (id, embedding, packed) rows: recall's reply rule takes the
// cosine of a few question candidates to the query from them (GraphStore.similarities), without reading the
// memories' properties and tags. A vector with a packed copy (embedding_b64, written by the FalkorDB store) is
// returned as that string only, as embeddings.cypher does.
// Parameters: $user_id, $ids
MATCH (m:Memory)
WHERE m.user_id = $user_id
// include: owner(m)
  AND m.id IN $ids
MATCH (m)-[:HasEmbedding]->(v:MemoryVector)
RETURN m.id AS id, CASE WHEN v.embedding_b64 IS NULL THEN v.embedding END AS embedding, v.embedding_b64 AS packed
