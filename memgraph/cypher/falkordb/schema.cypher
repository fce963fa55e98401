// memgraph schema for FalkorDB: exact-match indexes, the HNSW vector index and the full-text index.
// FalkorDB has no IF NOT EXISTS: the store ignores "already indexed" errors, so applying it again is a no-op.
// Uniqueness constraints are not Cypher in FalkorDB (GRAPH.CONSTRAINT CREATE); the store creates them after
// these indexes (memgraph/store/dialect.py, FALKORDB_CONSTRAINTS).
// The store substitutes the integer parameters before it runs a statement (index options take literals).
// Parameters: $embedding_dim, $hnsw_m, $hnsw_ef_construction, $hnsw_ef_runtime

CREATE INDEX FOR (m:Memory) ON (m.id);
CREATE INDEX FOR (m:Memory) ON (m.user_id);
CREATE INDEX FOR (m:Memory) ON (m.session_id);
CREATE INDEX FOR (m:Memory) ON (m.kind);
CREATE INDEX FOR (m:Memory) ON (m.active);
CREATE INDEX FOR (v:MemoryVector) ON (v.id);
CREATE INDEX FOR (v:MemoryVector) ON (v.user_id);
CREATE INDEX FOR (t:Tag) ON (t.user_id);
CREATE INDEX FOR (t:Tag) ON (t.name);
CREATE INDEX FOR (c:Cluster) ON (c.id);
CREATE INDEX FOR (c:Cluster) ON (c.user_id);
CREATE INDEX FOR (g:Gap) ON (g.id);
CREATE INDEX FOR (g:Gap) ON (g.user_id);
CREATE INDEX FOR (j:JobRun) ON (j.id);
CREATE INDEX FOR (x:Meta) ON (x.key);
// No index on (:User {id}) (write_batch MERGEs one per user): FalkorDB's range index trims surrounding whitespace,
// so a MERGE through it would take 'ada ' (an id stored before the identifier rule) for 'ada' and the users()
// read would lose it. FalkorDB runs one write at a time, so the MERGE needs no constraint; a store holds one
// :User node per user, and the label scan compares ids exactly.

// HNSW parameters are explicit: FalkorDB's default efRuntime gives poor recall (tests/conformance checks it).
// cypher-lint: falkordb-only (Neo4j takes vector options inside indexConfig; see ../schema.cypher)
CREATE VECTOR INDEX FOR (v:MemoryVector) ON (v.embedding)
OPTIONS {dimension: $embedding_dim, similarityFunction: 'cosine', M: $hnsw_m,
         efConstruction: $hnsw_ef_construction, efRuntime: $hnsw_ef_runtime};

// Exact terms: memgraph stems them itself (memgraph.text.fts_document); no stemming here, no stop words dropped.
CALL db.idx.fulltext.createNodeIndex({label: 'Memory', stopwords: []}, {field: 'fts', nostem: true});
