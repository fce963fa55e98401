// Every user that owns at least one memory.
// Parameters: none
MATCH (m:Memory)
RETURN DISTINCT m.user_id AS user_id
ORDER BY user_id
