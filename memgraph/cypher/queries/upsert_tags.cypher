// Create a user's Tag nodes (no HasTag edges), or update the description of existing ones when a row gives
// one (import restores tags that no memory carries yet). Returns how many rows were applied.
// The MERGEd Tag is guarded by the owner re-check (include/owner.cypher): an index that matched a look-alike
// owner's tag aborts the statement (division by zero) and the store reports it; nothing is written.
// Parameters: $user_id, $tags
UNWIND $tags AS row
MERGE (t:Tag {user_id: $user_id, name: row.name})
WITH row, t
WHERE 1 / CASE WHEN coalesce(t.user_id, '') = $user_id THEN 1 ELSE 0 END = 1
SET t.description = coalesce(row.description, t.description)
RETURN count(t) AS upserted
