// Replace the embeddings of existing memories of one user (reindex with a new model): the vector on each
// memory's :MemoryVector node (created when missing) and the memory's embedding_model. Memories that are not
// the user's are left alone. Returns how many memories matched.
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
RETURN count(m) AS updated
