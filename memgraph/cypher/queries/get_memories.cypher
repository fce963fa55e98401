// Memories of one user by id, with their tag names and (when asked) their embedding. Unknown ids, and ids of
// another user's memories, return nothing.
// Parameters: $user_id, $ids, $with_embeddings
MATCH (m:Memory)
WHERE m.user_id = $user_id
// include: owner(m)
  AND m.id IN $ids
OPTIONAL MATCH (m)-[:HasTag]->(t:Tag)
WITH m, collect(t.name) AS tags
OPTIONAL MATCH (m)-[:HasEmbedding]->(v:MemoryVector)
RETURN properties(m) AS memory, tags, CASE WHEN $with_embeddings THEN v.embedding ELSE null END AS embedding
