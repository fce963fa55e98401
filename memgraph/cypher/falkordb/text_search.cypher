// Full-text search (FalkorDB override of queries/text_search.cypher): RediSearch over the fts property of
// :Memory (no stemming, no stop words). $query is built by the store from query tokens, each quoted, joined
// by |, so RediSearch syntax in user text never reaches the parser. RediSearch's own score ignores term
// frequency and changes when the graph is reloaded, so this returns each hit's token document (fts) and the
// store ranks the hits by BM25 itself (memgraph/store/bm25.py); $limit bounds the hits ranked.
// The node is matched again (MATCH (m:Memory)) because FalkorDB 4.22 cannot evaluate a pattern predicate
// (the tag filter) on a node that comes straight from a procedure.
// Parameters: $query, $limit, $user_id, $active, $include_archived, $include_compressed, $kinds, $session_id, $pinned, $min_importance, $tag, $file_patterns
CALL db.idx.fulltext.queryNodes('Memory', $query) YIELD node, score
WITH node AS m, score
MATCH (m:Memory)
// include: memory_filter
RETURN m.id AS id, score, m.fts AS fts
ORDER BY score DESC, id
LIMIT $limit
