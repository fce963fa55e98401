// Named properties of every filtered memory of one user, newest first (list_memories order), for batch jobs
// that need a few fields of every memory (decay): no content, tags or embeddings leave the server.
// $fields are stored Memory property names, checked by the store (memgraph.store.base.field_readers);
// values come back as one list per memory, in the order of $fields.
// Parameters: $user_id, $active, $include_archived, $include_compressed, $kinds, $session_id, $pinned, $min_importance, $tag, $file_patterns, $fields
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
WITH m
ORDER BY m.created_at DESC, m.id
RETURN [f IN $fields | m[f]] AS values
