// Attach tags to memories of one user (MERGE: tagging twice is a no-op); returns how many edges are new.
// Pairs naming another user's memory or an unknown id are skipped.
// The MERGEd Tag is guarded by the owner re-check (include/owner.cypher): an index that matched a look-alike
// owner's tag aborts the statement (division by zero) and the store reports it; nothing is written.
// Parameters: $user_id, $tags, $now
UNWIND $tags AS row
MATCH (m:Memory {id: row.memory_id})
WHERE m.user_id = $user_id
// include: owner(m)
OPTIONAL MATCH (m)-[old:HasTag]->(:Tag {user_id: $user_id, name: row.tag})
WITH m, row, old
MERGE (t:Tag {user_id: $user_id, name: row.tag})
WITH m, row, old, t
WHERE 1 / CASE WHEN coalesce(t.user_id, '') = $user_id THEN 1 ELSE 0 END = 1
MERGE (m)-[r:HasTag]->(t)
ON CREATE SET r.created_at = $now
RETURN sum(CASE WHEN old IS NULL THEN 1 ELSE 0 END) AS added
