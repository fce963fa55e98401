// Attach tags to memories of one user (MERGE: tagging twice is a no-op); returns how many edges are new.
// Pairs naming another user's memory or an unknown id are skipped.
// Parameters: $user_id, $tags, $now
UNWIND $tags AS row
MATCH (m:Memory {id: row.memory_id, user_id: $user_id})
OPTIONAL MATCH (m)-[old:HasTag]->(:Tag {user_id: $user_id, name: row.tag})
WITH m, row, old
MERGE (t:Tag {user_id: $user_id, name: row.tag})
MERGE (m)-[r:HasTag]->(t)
ON CREATE SET r.created_at = $now
RETURN sum(CASE WHEN old IS NULL THEN 1 ELSE 0 END) AS added
