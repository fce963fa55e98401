// Schema migration 2 -> 3 (memgraph/store/cypher_migrations.py): one (:User {id}) node per user who owns a
// memory, the record that write_batch keeps from version 3 on and users.cypher reads. Idempotent (MERGE).
// Parameters: none
MATCH (m:Memory)
WITH DISTINCT m.user_id AS id
MERGE (u:User {id: id})
RETURN count(u) AS users
