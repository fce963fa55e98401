// Create a user's Tag nodes (no HasTag edges), or update the description of existing ones when a row gives
// one (import restores tags that no memory carries yet). Returns how many rows were applied.
// Parameters: $user_id, $tags
UNWIND $tags AS row
MERGE (t:Tag {user_id: $user_id, name: row.name})
SET t.description = coalesce(row.description, t.description)
RETURN count(t) AS upserted
