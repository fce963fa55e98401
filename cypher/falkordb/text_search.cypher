// Full-text search (FalkorDB override of queries/text_search.cypher): RediSearch over the fts property of
// :Memory (no stemming, no stop words). $query is built by the store from query tokens, each quoted, joined
// by |, so RediSearch syntax in user text never reaches the parser. RediSearch's own score ignores term
// frequency and changes when the graph is reloaded, so this returns each hit's token document (fts) and the
// store ranks the hits by BM25 itself (memgraph/store/cypher.py, _bm25); $limit bounds the hits ranked.
// The node is matched again (MATCH (m:Memory)) because FalkorDB 4.22 cannot evaluate a pattern predicate
// (the tag filter) on a node that comes straight from a procedure.
// Parameters: $query, $limit, $user_id, $active, $include_archived, $include_compressed, $kinds, $session_id, $pinned, $min_importance, $tag, $file_patterns
CALL db.idx.fulltext.queryNodes('Memory', $query) YIELD node, score
WITH node AS m, score
MATCH (m:Memory)
WHERE m.user_id = $user_id
  AND ($active IS NULL OR m.active = $active)
  AND ($include_archived OR NOT m.archived)
  AND ($include_compressed OR NOT m.compressed)
  AND ($kinds IS NULL OR m.kind IN $kinds)
  AND ($session_id IS NULL OR m.session_id = $session_id)
  AND ($pinned IS NULL OR m.pinned = $pinned)
  AND ($min_importance IS NULL OR m.importance >= $min_importance OR m.pinned)
  AND ($tag IS NULL OR (m)-[:HasTag]->(:Tag {name: $tag}))
  AND ($file_patterns IS NULL OR m.scope <> 'project' OR any(p IN m.file_paths WHERE p IN $file_patterns))
RETURN m.id AS id, score, m.fts AS fts
ORDER BY score DESC, id
LIMIT $limit
