// Every memory-to-memory link of one user (RelatesTo, Supersedes, Contradicts, DerivedFrom, as asked).
// Parameters: $user_id, $relations
MATCH (a:Memory)-[r]->(b:Memory)
WHERE a.user_id = $user_id
// include: owner(a)
  AND b.user_id = $user_id
// include: owner(b)
  AND type(r) IN $relations
RETURN type(r) AS relation, a.id AS src, b.id AS dst, r.weight AS weight, r.source AS source,
       r.reason AS reason, r.created_at AS created_at, r.updated_at AS updated_at
ORDER BY relation, src, dst
