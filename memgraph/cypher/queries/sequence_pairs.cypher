// The session order among given memories of one user: (earlier, later) for every sequence link (RelatesTo with
// source 'sequence', written by ingest from each turn of a session to the next) whose two ends are both given.
// Recall's reply rule reads a candidate's previous turn with it (retrieve/replies.py): ids only, no link records.
// $ids: the memories whose outgoing links are read (a chunk); $among: every given memory (the later ends).
// Parameters: $user_id, $ids, $among
MATCH (a:Memory)
WHERE a.user_id = $user_id
// include: owner(a)
  AND a.id IN $ids
WITH a
MATCH (a)-[r:RelatesTo]->(b:Memory)
WHERE b.user_id = $user_id
// include: owner(b)
  AND r.source = 'sequence' AND b.id IN $among
RETURN a.id AS src, b.id AS dst
