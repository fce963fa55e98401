// Unresolved contradictions: pairs of active memories joined by Contradicts, both kept and flagged for a
// person (or `memgraph consolidate`) to decide.
// Parameters: $user
MATCH (a:Memory {user_id: $user})-[r:Contradicts]->(b:Memory)
WHERE coalesce(a.user_id, '') = $user AND a.active AND b.active
RETURN a.id AS memory, a.content AS says, b.id AS other, b.content AS other_says, r.reason AS reason
ORDER BY a.created_at DESC;
