// Gaps: questions recall could not answer, most often asked first (topics to capture next).
// Parameters: $user
MATCH (g:Gap {user_id: $user})
WHERE coalesce(g.user_id, '') = $user
RETURN g.query AS asked, g.count AS times, g.first_seen AS first_seen, g.last_seen AS last_seen
ORDER BY times DESC, last_seen DESC;
