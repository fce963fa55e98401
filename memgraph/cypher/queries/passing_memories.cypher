// Which of $ids are memories of $user_id that pass the MemoryFilter: the full-text ranking asks it about its
// best hits, a window at a time (memgraph/store/bm25.py, top_passing), as the SQLite store asks SQL.
// Parameters: $ids, $user_id, $active, $include_archived, $include_compressed, $kinds, $session_id, $pinned, $min_importance, $tag, $file_patterns
MATCH (m:Memory)
WHERE m.id IN $ids
WITH m
// include: memory_filter
RETURN m.id AS id
