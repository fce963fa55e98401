// Memory-to-memory links of one user arriving at the given memories.
// Parameters: $user_id, $ids, $relations
MATCH (b:Memory)
WHERE b.user_id = $user_id
// include: owner(b)
  AND b.id IN $ids
WITH b
MATCH (a:Memory)-[r]->(b)
WHERE a.user_id = $user_id
// include: owner(a)
  AND type(r) IN $relations
RETURN type(r) AS relation, a.id AS src, b.id AS dst, r.weight AS weight, r.source AS source,
       r.reason AS reason, r.created_at AS created_at, r.updated_at AS updated_at
ORDER BY relation, src, dst
