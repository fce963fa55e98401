// Cascade hop, part 3: from tags to the memories carrying them that pass the filter. A tag is a hub: at most
// $cap members each, most important (then most recently used) first. The frontier's tags share most of their
// members (a speaker's tag, a session's, a date's), so the filter and the ranking keys are read once per
// distinct member, not once per (tag, member) pair: the memberships are collected per member first, the passing
// members sorted once, then dealt back to their tags in that order and cut at $cap. One row: the tags and
// each one's members in order (a record per member, or per tag, cost the client more than the query did). On one LoCoMo
// conversation (387 tags, 3,963 memberships, 419 memories) the per-pair form read 36,840 db hits, this one ~8k.
// Only memories carry HasTag, so the member's label is not checked (the filter compares its owner).
// Parameters: $user_id, $names, $cap, $active, $include_archived, $include_compressed, $kinds, $session_id, $pinned, $min_importance, $tag, $file_patterns
MATCH (t:Tag)
WHERE t.user_id = $user_id
// include: owner(t)
  AND t.name IN $names
MATCH (m)-[:HasTag]->(t)
WITH m, collect(t.name) AS tags
// include: memory_filter
WITH m, tags
ORDER BY m.importance DESC, m.last_accessed DESC, m.id
UNWIND tags AS tag
WITH tag, collect(m.id) AS members
RETURN collect(tag) AS nodes, collect(members[..$cap]) AS others
