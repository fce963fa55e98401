// Record a recall miss as a :Gap node (MERGE by id): a new gap is created, a known one gets the new count,
// last_seen and query.
// Parameters: $gap
MERGE (g:Gap {id: $gap.id})
ON CREATE SET g.user_id = $gap.user_id, g.first_seen = $gap.first_seen, g.embedding = $gap.embedding
SET g.count = $gap.count, g.last_seen = $gap.last_seen, g.query = $gap.query
