// One user's full-text statistics: how many memories they have (every state) and how many terms those hold
// in all (fts_len), the N and mean length of the BM25 ranking the store computes (memgraph/store/bm25.py).
// Parameters: $user_id
MATCH (m:Memory)
WHERE m.user_id = $user_id
// include: owner(m)
RETURN count(m) AS n, sum(m.fts_len) AS total
