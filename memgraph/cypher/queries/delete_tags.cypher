// Delete a user's Tag nodes by name together with their HasTag edges (tag cleanup after a merge). Returns how
// many tags were removed.
// Parameters: $user_id, $names
UNWIND $names AS name
MATCH (t:Tag {user_id: $user_id, name: name})
DETACH DELETE t
RETURN count(*) AS removed
