// Every user that owns at least one memory: the (:User) nodes that write_batch keeps (one per user who ever
// wrote a memory; the schema migration to version 3 made them for older graphs), each confirmed by one
// memory of that user through the user_id index (a user whose memories were all deleted keeps a node until
// erase_user). One index seek per user: a CLI command reads this on every open (the identifier-rule warning),
// where `MATCH (m:Memory) RETURN DISTINCT m.user_id` read every memory of the store.
// (`CALL { WITH u ... LIMIT 1 }`, not `EXISTS { ... }`: FalkorDB has no EXISTS subquery.)
// Parameters: none
MATCH (u:User)
CALL {
  WITH u
  MATCH (m:Memory)
  WHERE m.user_id = u.id
  RETURN m.id AS owned
  LIMIT 1
}
RETURN u.id AS user_id
ORDER BY user_id
