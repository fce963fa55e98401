// Apply one WriteBatch as ONE statement, so it is atomic on Neo4j (inside its write transaction) and on
// FalkorDB (one query is all-or-nothing; a failing query is undone): upsert memories by id (MERGE), their
// embeddings on a separate :MemoryVector node (with its packed copy, see embeddings.cypher), HasTag edges, memory-to-memory links and field updates, then
// remove HasTag edges and delete memory-to-memory links (consolidation moves a merged memory's tags and links
// to the kept one in one atomic write).
// Field updates are idempotent too: each write carries a fresh $batch id, resent unchanged by a retry, and a
// memory remembers the last batch it applied (applied_batch), so a retry after a lost reply does not add the
// increments (access_count, strength, confidence, importance) twice. Updates that only set fields ($sets:
// decay, archive, deactivate) are idempotent as they are and skip that bookkeeping (decay at 20k on
// FalkorDB: one property write per field instead of six more per memory).
// Each guard `WHERE 1 / CASE ... ELSE 0 END = 1` aborts the whole statement (division by zero) when a memory
// id already belongs to another user or a link endpoint is not one of this user's memories; the store then
// reports which one with a typed error and nothing of the batch is written.
// Links: each endpoint is looked up once; the guard and the MERGE of the row's relation type (one FOREACH per
// type, as a relationship type cannot be a parameter) share those lookups (one pass instead of a guard pass
// plus a pass per type: ~250 -> ~130 ms for 5000 links on FalkorDB). A guard failure on a later row undoes the
// earlier rows' MERGEs with the rest of the statement.
// Memories are looked up as `{id: ...}` WHERE user_id = ...: the same rows, and on FalkorDB one index seek
// instead of two intersected index scans (half the time of a 5000-link batch's lookups).
// The MERGEd Tag is guarded by the owner re-check (include/owner.cypher): an index that matched a look-alike
// owner's tag aborts the statement (division by zero) and the store reports it; nothing is written.
// A batch that writes memories MERGEs the user's (:User {id}) node once (after the part's count, one row): the
// record of users that `users.cypher` reads instead of a scan of every memory.
// $once (null for an ordinary write) makes the whole batch idempotent: when (:Meta {key: $once}) exists the
// batch was applied before and nothing runs (no rows come back); otherwise the batch runs and creates that
// marker in the same statement. The outbox resends a queued batch with it after a crash (WriteBatch.batch_id).
// (`WITH count(done)` then UNWIND, not `WITH done WHERE done IS NULL`: FalkorDB 4.x keeps the row of the
// latter even when the marker exists.)
// A part `CALL { UNWIND $list AS row ... }` whose list is empty is sent as `CALL { RETURN 0 AS <its results> }`
// (store/dialect.py, without_parts): Neo4j plans the statement again whenever a young graph's statistics move,
// and the whole statement costs ~3x the server CPU to plan of the three parts a `remember` uses. Keep each part
// in that form: `CALL {`, then `UNWIND $list AS row` on its first line, its results named in its last RETURN.
// Parameters: $user_id, $memories, $vectors, $tags, $links, $updates, $sets, $remove_tags, $delete_links, $now, $batch, $once
OPTIONAL MATCH (done:Meta {key: $once})
WITH count(done) AS applied
UNWIND CASE WHEN applied = 0 THEN [1] ELSE [] END AS go
CALL {
  UNWIND $memories AS row
  MERGE (m:Memory {id: row.id})
  ON CREATE SET m.user_id = $user_id
  WITH m, row
  WHERE 1 / CASE WHEN coalesce(m.user_id, '') = $user_id THEN 1 ELSE 0 END = 1
  SET m += row.props
  WITH count(m) AS memories
  MERGE (u:User {id: $user_id})
  RETURN memories AS memories
}
CALL {
  UNWIND $vectors AS row
  MATCH (m:Memory {id: row.id}) WHERE m.user_id = $user_id
  // include: owner(m)
  MERGE (v:MemoryVector {id: row.id})
  ON CREATE SET v.user_id = $user_id
  SET v.embedding = toFloatList(row.embedding), v.embedding_b64 = row.packed
  MERGE (m)-[:HasEmbedding]->(v)
  RETURN count(v) AS vectors
}
CALL {
  UNWIND $tags AS row
  MATCH (m:Memory {id: row.memory_id}) WHERE m.user_id = $user_id
  // include: owner(m)
  OPTIONAL MATCH (m)-[old:HasTag]->(:Tag {user_id: $user_id, name: row.tag})
  WITH m, row, old
  MERGE (t:Tag {user_id: $user_id, name: row.tag})
  WITH m, row, old, t
  WHERE 1 / CASE WHEN coalesce(t.user_id, '') = $user_id THEN 1 ELSE 0 END = 1
  MERGE (m)-[r:HasTag]->(t)
  ON CREATE SET r.created_at = $now
  RETURN sum(CASE WHEN old IS NULL THEN 1 ELSE 0 END) AS tags_added
}
CALL {
  UNWIND $links AS row
  OPTIONAL MATCH (a:Memory {id: row.src}) WHERE a.user_id = $user_id
  // include: owner(a)
  OPTIONAL MATCH (b:Memory {id: row.dst}) WHERE b.user_id = $user_id
  // include: owner(b)
  WITH row, a, b
  WHERE 1 / CASE WHEN a IS NULL OR b IS NULL THEN 0 ELSE 1 END = 1
  FOREACH (_ IN CASE WHEN row.relation = 'RelatesTo' THEN [1] ELSE [] END |
    MERGE (a)-[r:RelatesTo]->(b)
    ON CREATE SET r.created_at = row.created_at
    SET r.weight = row.weight, r.source = row.source, r.reason = row.reason, r.updated_at = row.updated_at)
  FOREACH (_ IN CASE WHEN row.relation = 'Supersedes' THEN [1] ELSE [] END |
    MERGE (a)-[r:Supersedes]->(b)
    ON CREATE SET r.created_at = row.created_at
    SET r.weight = row.weight, r.source = row.source, r.reason = row.reason, r.updated_at = row.updated_at)
  FOREACH (_ IN CASE WHEN row.relation = 'Contradicts' THEN [1] ELSE [] END |
    MERGE (a)-[r:Contradicts]->(b)
    ON CREATE SET r.created_at = row.created_at
    SET r.weight = row.weight, r.source = row.source, r.reason = row.reason, r.updated_at = row.updated_at)
  FOREACH (_ IN CASE WHEN row.relation = 'DerivedFrom' THEN [1] ELSE [] END |
    MERGE (a)-[r:DerivedFrom]->(b)
    ON CREATE SET r.created_at = row.created_at
    SET r.weight = row.weight, r.source = row.source, r.reason = row.reason, r.updated_at = row.updated_at)
  RETURN count(row) AS links_checked,
         sum(CASE WHEN row.relation = 'RelatesTo' THEN 1 ELSE 0 END) AS relates_to,
         sum(CASE WHEN row.relation = 'Supersedes' THEN 1 ELSE 0 END) AS supersedes,
         sum(CASE WHEN row.relation = 'Contradicts' THEN 1 ELSE 0 END) AS contradicts,
         sum(CASE WHEN row.relation = 'DerivedFrom' THEN 1 ELSE 0 END) AS derived_from
}
CALL {
  UNWIND $updates AS row
  MATCH (m:Memory {id: row.id})
  WHERE m.user_id = $user_id
  // include: owner(m)
    AND (m.applied_batch IS NULL OR m.applied_batch <> $batch)
  SET m += row.set
  SET m.applied_batch = $batch
  SET m.access_count = m.access_count + row.inc.access_count,
      m.strength = m.strength + row.inc.strength,
      m.confidence = CASE
        WHEN m.confidence + row.inc.confidence > 1.0 THEN 1.0
        WHEN m.confidence + row.inc.confidence < 0.0 THEN 0.0
        ELSE m.confidence + row.inc.confidence END,
      m.importance = CASE
        WHEN m.importance + row.inc.importance > 1.0 THEN 1.0
        WHEN m.importance + row.inc.importance < 0.0 THEN 0.0
        ELSE m.importance + row.inc.importance END
  RETURN count(m) AS updated
}
CALL {
  UNWIND $sets AS row
  MATCH (m:Memory {id: row.id})
  WHERE m.user_id = $user_id
  // include: owner(m)
  SET m += row.set
  RETURN count(m) AS set_only
}
CALL {
  UNWIND $remove_tags AS row
  MATCH (m:Memory {id: row.memory_id})-[r:HasTag]->(:Tag {user_id: $user_id, name: row.tag})
  WHERE m.user_id = $user_id
  // include: owner(m)
  DELETE r
  RETURN count(*) AS tags_removed
}
CALL {
  UNWIND $delete_links AS row
  MATCH (a:Memory {id: row.src})-[r]->(b:Memory {id: row.dst})
  WHERE a.user_id = $user_id
  // include: owner(a)
    AND b.user_id = $user_id
  // include: owner(b)
    AND type(r) = row.relation
  DELETE r
  RETURN count(*) AS links_deleted
}
CALL {
  FOREACH (_ IN CASE WHEN $once IS NULL THEN [] ELSE [1] END |
    MERGE (marker:Meta {key: $once})
    SET marker.value = $batch)
  RETURN count(*) AS marked
}
RETURN memories, vectors, tags_added, links_checked, relates_to, supersedes, contradicts, derived_from,
       updated + set_only AS updated, tags_removed, links_deleted
