// Keep a user's novelty centroid on the user's :User node for the next process (user_centroid.cypher): the
// sum of unit embeddings ($total, float64), how many vectors it sums, the memory count it is consistent with,
// and the count at the last whole read. No :User node (the user has written nothing): nothing is kept.
// Parameters: $user_id, $total, $vectors, $memories, $read_at
MATCH (u:User {id: $user_id})
SET u.centroid_sum = $total, u.centroid_vectors = $vectors, u.centroid_memories = $memories,
    u.centroid_read_at = $read_at
RETURN count(u) AS kept
