// Edge counts per relationship type (HasTag, InCluster and the memory-to-memory links) for one user, or all
// users when $user_id is null. HasEmbedding is storage, not graph vocabulary, and is not counted.
// Parameters: $user_id
MATCH (m:Memory)-[r]->()
WHERE type(r) <> 'HasEmbedding' AND ($user_id IS NULL OR m.user_id = $user_id
// include: owner(m)
  )
RETURN type(r) AS relation, count(r) AS n
