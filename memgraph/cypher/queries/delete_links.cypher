// Delete memory-to-memory links of one user by (src, dst, relation). Returns how many were removed.
// Parameters: $user_id, $keys
UNWIND $keys AS row
MATCH (a:Memory {id: row.src})-[r]->(b:Memory {id: row.dst})
WHERE a.user_id = $user_id
// include: owner(a)
  AND b.user_id = $user_id
// include: owner(b)
  AND type(r) = row.relation
DELETE r
RETURN count(*) AS removed
