// When a kNN request comes back short of k: how many vectors the shared index holds (total: every user's;
// widening stops when it has asked for all of them) and how many of them belong to memories of $user_id that
// pass the filter (mine). A request that already returned `mine` rows returned every memory the search could
// find, so widening it would return the same rows: a new or small user's searches (every search of the write
// path's reconciliation until the user has k memories) stop there instead of asking the index again, 4x wider.
// Parameters: $user_id, $active, $include_archived, $include_compressed, $kinds, $session_id, $pinned, $min_importance, $tag, $file_patterns
CALL {
  MATCH (v:MemoryVector)
  RETURN count(v) AS total
}
CALL {
  MATCH (m:Memory)-[:HasEmbedding]->(:MemoryVector)
// include: memory_filter
  RETURN count(m) AS mine
}
RETURN total, mine
