// The distinct file_paths globs of a user's project-scoped memories. The store matches them against the
// caller's files (fnmatch, as SQLite does) and passes the matching globs to the filter as $file_patterns.
// Parameters: $user_id
MATCH (m:Memory)
WHERE m.user_id = $user_id
// include: owner(m)
  AND m.scope = 'project'
UNWIND m.file_paths AS pattern
RETURN DISTINCT pattern
