// Named properties of every filtered memory of one user, newest first (list_memories order), for batch jobs
// that need a few fields of every memory (decay): no content, tags or embeddings leave the server.
// $fields are stored Memory property names, checked by the store (memgraph.store.base.field_readers);
// values come back as one list per memory, in the order of $fields.
// Parameters: $user_id, $active, $include_archived, $include_compressed, $kinds, $session_id, $pinned, $min_importance, $tag, $file_patterns, $fields
MATCH (m:Memory)
// include: memory_filter
WITH m
ORDER BY m.created_at DESC, m.id
RETURN [f IN $fields | m[f]] AS values
