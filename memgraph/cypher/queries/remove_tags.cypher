// Detach tags from memories of one user; the Tag nodes stay. Returns how many edges were removed.
// Parameters: $user_id, $tags
UNWIND $tags AS row
MATCH (m:Memory {id: row.memory_id})-[r:HasTag]->(:Tag {user_id: $user_id, name: row.tag})
WHERE m.user_id = $user_id
// include: owner(m)
DELETE r
RETURN count(*) AS removed
