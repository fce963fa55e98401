// Hard delete (prune --apply only): the memories, their :MemoryVector nodes and every edge touching them.
// Tag nodes stay (a tag may be reused); their HasTag edges from these memories go.
// Parameters: $user_id, $ids
MATCH (m:Memory)
WHERE m.user_id = $user_id
// include: owner(m)
  AND m.id IN $ids
OPTIONAL MATCH (m)-[:HasEmbedding]->(v:MemoryVector)
WITH m, v, m.id AS id
DETACH DELETE m, v
RETURN count(DISTINCT id) AS deleted
