// Full-text search (Neo4j) over memgraph's own tokens (property fts, whitespace analyzer): this user's hits
// that pass the filter, with each hit's token document (fts). The store ranks them by BM25 itself
// (memgraph/store/bm25.py), the same way on every store: Lucene's own score differs from SQLite's FTS5 (another
// idf, index-wide statistics), so it only orders which $limit hits are returned. $query is built by the store
// from query tokens, each quoted, joined by OR: Lucene syntax in user text never reaches the parser.
// Parameters: $query, $limit, $user_id, $active, $include_archived, $include_compressed, $kinds, $session_id, $pinned, $min_importance, $tag, $file_patterns
CALL db.index.fulltext.queryNodes('memory_fts', $query) YIELD node, score
WITH node AS m, score
MATCH (m:Memory)
// include: memory_filter
RETURN m.id AS id, score, m.fts AS fts
ORDER BY score DESC, id
LIMIT $limit
