// Every memory-to-memory link of one user (RelatesTo, Supersedes, Contradicts, DerivedFrom, as asked).
// Parameters: $user_id, $relations
MATCH (a:Memory {user_id: $user_id})-[r]->(b:Memory {user_id: $user_id})
WHERE type(r) IN $relations
RETURN type(r) AS relation, a.id AS src, b.id AS dst, r.weight AS weight, r.source AS source,
       r.reason AS reason, r.created_at AS created_at, r.updated_at AS updated_at
ORDER BY relation, src, dst
