// Read several store-level settings in one round trip (meta_get.cypher reads one): an open asks for the
// schema version, the embedding dimension and the embedding model at once (CypherStore, `_OPEN_KEYS`).
// Parameters: $keys
UNWIND $keys AS key
OPTIONAL MATCH (x:Meta {key: key})
RETURN key, x.value AS value
