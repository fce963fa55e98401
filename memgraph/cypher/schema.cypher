// memgraph schema for Neo4j 5: constraints, range indexes, the vector index and the full-text index.
// Applied by the store on open, statement by statement, those whose index or constraint is missing (the store
// lists the present ones first: schema_indexes.cypher); every statement is idempotent (IF NOT EXISTS).
// The store substitutes the integer parameters ($embedding_dim) before it runs a statement (schema commands
// take no runtime parameters); to paste this file into Neo4j Browser, replace $embedding_dim by 384.
// Parameters: $embedding_dim

// -- uniqueness (MERGE by id relies on these: a retried batch never writes twice) --------------------------
CREATE CONSTRAINT memory_id IF NOT EXISTS FOR (m:Memory) REQUIRE m.id IS UNIQUE;
CREATE CONSTRAINT memory_vector_id IF NOT EXISTS FOR (v:MemoryVector) REQUIRE v.id IS UNIQUE;
CREATE CONSTRAINT tag_user_name IF NOT EXISTS FOR (t:Tag) REQUIRE (t.user_id, t.name) IS UNIQUE;
CREATE CONSTRAINT cluster_id IF NOT EXISTS FOR (c:Cluster) REQUIRE c.id IS UNIQUE;
CREATE CONSTRAINT gap_id IF NOT EXISTS FOR (g:Gap) REQUIRE g.id IS UNIQUE;
CREATE CONSTRAINT job_run_id IF NOT EXISTS FOR (j:JobRun) REQUIRE j.id IS UNIQUE;
CREATE CONSTRAINT meta_key IF NOT EXISTS FOR (x:Meta) REQUIRE x.key IS UNIQUE;
CREATE CONSTRAINT user_id IF NOT EXISTS FOR (u:User) REQUIRE u.id IS UNIQUE;

// -- range indexes: every query is scoped by user_id; filters on kind/active; lists sort by created_at -----
// (user_id, session_id) finds one session's memories (queries/session_memories.cypher)
CREATE INDEX memory_user IF NOT EXISTS FOR (m:Memory) ON (m.user_id);
CREATE INDEX memory_user_created IF NOT EXISTS FOR (m:Memory) ON (m.user_id, m.created_at);
CREATE INDEX memory_user_session IF NOT EXISTS FOR (m:Memory) ON (m.user_id, m.session_id);
CREATE INDEX memory_kind IF NOT EXISTS FOR (m:Memory) ON (m.kind);
CREATE INDEX memory_active IF NOT EXISTS FOR (m:Memory) ON (m.active);
CREATE INDEX memory_vector_user IF NOT EXISTS FOR (v:MemoryVector) ON (v.user_id);
CREATE INDEX tag_user IF NOT EXISTS FOR (t:Tag) ON (t.user_id);
CREATE INDEX cluster_user IF NOT EXISTS FOR (c:Cluster) ON (c.user_id);
CREATE INDEX gap_user IF NOT EXISTS FOR (g:Gap) ON (g.user_id);

// -- vector index on the separate :MemoryVector node (see cypher/README.md for why it is separate) --------
// Quantization off: Neo4j 5.26 turns it on by default, and its scores then differ from exact cosine by ~0.01
// (the conformance suite checks vector_search against exact search on every store).
CREATE VECTOR INDEX memory_vector IF NOT EXISTS
FOR (v:MemoryVector) ON (v.embedding)
OPTIONS {indexConfig: {`vector.dimensions`: $embedding_dim, `vector.similarity_function`: 'cosine',
                       `vector.quantization.enabled`: false}};

// -- full text over memgraph's own terms (memgraph.text.fts_document: Snowball stems), split on whitespace ---
CREATE FULLTEXT INDEX memory_fts IF NOT EXISTS
FOR (m:Memory) ON EACH [m.fts]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'whitespace'}};

// -- wait until every index is online. session_memories.cypher hints the (user_id, session_id) index, and a
// hint on an index still populating fails to plan: a new store waits a moment, a store that gains an index on
// upgrade waits once while Neo4j fills it from the existing memories.
CALL db.awaitIndexes(300);
