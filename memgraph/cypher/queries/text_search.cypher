// Full-text hits (Neo4j) of one user: every memory of $user_id holding any query term, each with its term
// field (fts: memgraph.text.fts_document, Snowball stems split on whitespace by the index's analyzer). The
// index only finds them: the store counts each term's document frequency and each hit's term frequencies from
// `fts` and ranks them by BM25 on the user's own statistics (memgraph/store/bm25.py), the same way on every
// store; Lucene's own score (another idf, every user's statistics) only decides which $limit hits come back
// when a user has more. No MemoryFilter on the hits: document frequencies count every memory of the user; each
// hit says whether it passes the filter (`passes`), and the store keeps the best hits that do. The user's BM25
// statistics (n: memories in every state, total: their term count, fts_len) come in the same reply. One round
// trip where three were (hits, text_stats.cypher, passing_memories.cypher: ~4 ms each at load 7); the filter is
// evaluated on every hit, which costs less than reading its fts. $query is built by the store from the query
// terms, each quoted, joined by OR: Lucene syntax in user text never reaches the parser.
// Parameters: $query, $limit, $user_id, $active, $include_archived, $include_compressed, $kinds, $session_id, $pinned, $min_importance, $tag, $file_patterns
CALL {
  MATCH (u:Memory)
  WHERE u.user_id = $user_id
// include: owner(u)
  RETURN count(u) AS n, sum(u.fts_len) AS total
}
CALL db.index.fulltext.queryNodes('memory_fts', $query) YIELD node, score
WITH n, total, node AS m, score
WHERE m.user_id = $user_id
// include: owner(m)
WITH n, total, m, m.id AS id, score
ORDER BY score DESC, id
LIMIT $limit
CALL {
  WITH m
  WITH m
// include: memory_filter
  RETURN count(m) > 0 AS passes
}
RETURN n, total, collect(id) AS ids, collect(coalesce(m.fts, '')) AS fts, collect(passes) AS passes
