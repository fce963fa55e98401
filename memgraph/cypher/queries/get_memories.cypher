// Memories of one user by id, with their tag names and (when asked) their embedding. Unknown ids, and ids of
// another user's memories, return nothing. Tags and embedding are pattern comprehensions: evaluated per memory
// and the vector only when asked (an OPTIONAL MATCH expanded every memory's HasEmbedding either way, and the
// tags' aggregation held every row back: 12,364 db hits for a recall's 120 memories). One row: a [properties,
// tag names, embedding or null] triple per memory (a record per memory cost the client more than the query).
// Parameters: $user_id, $ids, $with_embeddings
MATCH (m:Memory)
WHERE m.user_id = $user_id
// include: owner(m)
  AND m.id IN $ids
WITH properties(m) AS memory, [(m)-[:HasTag]->(t:Tag) | t.name] AS tags,
     CASE WHEN $with_embeddings THEN head([(m)-[:HasEmbedding]->(v:MemoryVector) | v.embedding]) ELSE null END
       AS embedding
RETURN collect([memory, tags, embedding]) AS memories
