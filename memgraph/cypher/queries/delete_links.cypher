// Delete memory-to-memory links of one user by (src, dst, relation). Returns how many were removed.
// Parameters: $user_id, $keys
UNWIND $keys AS row
MATCH (a:Memory {id: row.src, user_id: $user_id})-[r]->(b:Memory {id: row.dst, user_id: $user_id})
WHERE type(r) = row.relation
DELETE r
RETURN count(*) AS removed
