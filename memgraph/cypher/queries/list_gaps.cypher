// A user's gaps, most frequent (then most recent) first.
// Parameters: $user_id
MATCH (g:Gap)
WHERE g.user_id = $user_id
// include: owner(g)
RETURN properties(g) AS gap
ORDER BY g.count DESC, g.last_seen DESC
