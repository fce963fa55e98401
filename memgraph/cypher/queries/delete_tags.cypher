// Delete a user's Tag nodes by name together with their HasTag edges (tag cleanup after a merge). Returns how
// many tags were removed.
// Parameters: $user_id, $names
UNWIND $names AS name
MATCH (t:Tag {name: name})
WHERE t.user_id = $user_id
// include: owner(t)
DETACH DELETE t
RETURN count(*) AS removed
