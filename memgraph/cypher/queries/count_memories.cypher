// How many of a user's memories pass the filter (MemoryFilter).
// Parameters: $user_id, $active, $include_archived, $include_compressed, $kinds, $session_id, $pinned, $min_importance, $tag, $file_patterns
MATCH (m:Memory)
// include: memory_filter
RETURN count(m) AS n
