// Full-text hits (FalkorDB override of queries/text_search.cypher): RediSearch over the fts property of
// :Memory (no stemming, no stop words: the terms are memgraph's own Snowball stems), every memory of
// $user_id holding any query term, with its term field. The store ranks them by BM25 itself
// (memgraph/store/bm25.py): RediSearch's own score ignores term frequency and changes when the graph is
// reloaded, so it only decides which $limit hits come back when a user has more. $query is built by the store
// from the query terms, each quoted, joined by |, so RediSearch syntax in user text never reaches the parser.
// Parameters: $query, $limit, $user_id
CALL db.idx.fulltext.queryNodes('Memory', $query) YIELD node, score
WITH node AS m, score
WHERE m.user_id = $user_id
// include: owner(m)
RETURN m.id AS id, m.fts AS fts
ORDER BY score DESC, id
LIMIT $limit
