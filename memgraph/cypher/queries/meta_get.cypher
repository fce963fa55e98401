// Read one store-level setting (schema version, embedding model and dimension) from its :Meta node.
// Parameters: $key
MATCH (x:Meta {key: $key})
RETURN x.value AS value
