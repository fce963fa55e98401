// How many memories a user has (every state): the document count N of the BM25 ranking the store computes
// for the full-text hits (memgraph/store/bm25.py).
// Parameters: $user_id
MATCH (m:Memory)
WHERE m.user_id = $user_id
// include: owner(m)
RETURN count(m) AS n
