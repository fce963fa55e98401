// The MemoryFilter predicate over `m`, written once: every statement that filters memories holds the line
// `// include: memory_filter` where this WHERE clause goes, and the store's statement loader
// (memgraph/store/dialect.py) puts the lines below there before it runs or lints the statement. A null
// parameter switches its clause off. $file_patterns holds the user's stored glob patterns that match the
// caller's files (the store matches them with fnmatch; Cypher has no glob). The owner comparison is followed by
// the owner re-check (include/owner.cypher).
// Parameters: $user_id, $active, $include_archived, $include_compressed, $kinds, $session_id, $pinned, $min_importance, $tag, $file_patterns
WHERE m.user_id = $user_id
// include: owner(m)
  AND ($active IS NULL OR m.active = $active)
  AND ($include_archived OR NOT m.archived)
  AND ($include_compressed OR NOT m.compressed)
  AND ($kinds IS NULL OR m.kind IN $kinds)
  AND ($session_id IS NULL OR m.session_id = $session_id)
  AND ($pinned IS NULL OR m.pinned = $pinned)
  AND ($min_importance IS NULL OR m.importance >= $min_importance OR m.pinned)
  AND ($tag IS NULL OR (m)-[:HasTag]->(:Tag {name: $tag}))
  AND ($file_patterns IS NULL OR m.scope <> 'project' OR any(p IN m.file_paths WHERE p IN $file_patterns))
