// The indexes that exist, with their state: what an open reads before it applies schema.cypher, so that it runs
// only the statements whose index or constraint is missing (memgraph/store/cypher_schema.py). A uniqueness
// constraint shows here as the index it owns, under the constraint's own name (`owningConstraint`), so one
// statement covers both. Neo4j only: FalkorDB applies its schema file whole on every open.
// Parameters: none
SHOW INDEXES YIELD name, state, owningConstraint
RETURN name, state, owningConstraint
