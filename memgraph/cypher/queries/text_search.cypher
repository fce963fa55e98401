// Full-text hits (Neo4j) of one user: every memory of $user_id holding any query term, each with its term
// field (fts: memgraph.text.fts_document, Snowball stems split on whitespace by the index's analyzer). The
// index only finds them: the store counts each term's document frequency and each hit's term frequencies from
// `fts` and ranks them by BM25 on the user's own statistics (memgraph/store/bm25.py), the same way on every
// store; Lucene's own score (another idf, every user's statistics) only decides which $limit hits come back
// when a user has more. No MemoryFilter here: document frequencies count every memory of the user, and the
// store asks passing_memories which of its best hits pass the filter. $query is built by the store from the
// query terms, each quoted, joined by OR: Lucene syntax in user text never reaches the parser.
// Parameters: $query, $limit, $user_id
CALL db.index.fulltext.queryNodes('memory_fts', $query) YIELD node, score
WITH node AS m, score
WHERE m.user_id = $user_id
// include: owner(m)
RETURN m.id AS id, m.fts AS fts
ORDER BY score DESC, id
LIMIT $limit
