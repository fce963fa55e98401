// Replace the embeddings of existing memories of one user (reindex with a new model): the vector on each
// memory's :MemoryVector node (created when missing) and the memory's embedding_model. Memories that are not
// the user's are left alone. Returns how many memories matched. The user's stored novelty centroid
// (user_centroid.cypher) summed the old vectors: it is dropped, and the next write reads the new ones whole.
// Parameters: $user_id, $rows, $model
UNWIND $rows AS row
MATCH (m:Memory {id: row.id})
WHERE m.user_id = $user_id
// include: owner(m)
SET m.embedding_model = $model
MERGE (v:MemoryVector {id: row.id})
ON CREATE SET v.user_id = $user_id
SET v.embedding = toFloatList(row.embedding), v.embedding_b64 = row.packed
MERGE (m)-[:HasEmbedding]->(v)
WITH count(m) AS updated
OPTIONAL MATCH (u:User {id: $user_id})
FOREACH (x IN CASE WHEN u IS NULL THEN [] ELSE [u] END | SET x.centroid_sum = null, x.centroid_memories = null)
RETURN updated
