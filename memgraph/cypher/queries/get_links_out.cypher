// Memory-to-memory links of one user leaving the given memories.
// Parameters: $user_id, $ids, $relations
MATCH (a:Memory)
WHERE a.user_id = $user_id
// include: owner(a)
  AND a.id IN $ids
WITH a
MATCH (a)-[r]->(b:Memory)
WHERE b.user_id = $user_id
// include: owner(b)
  AND type(r) IN $relations
RETURN type(r) AS relation, a.id AS src, b.id AS dst, r.weight AS weight, r.source AS source,
       r.reason AS reason, r.created_at AS created_at, r.updated_at AS updated_at
ORDER BY relation, src, dst
