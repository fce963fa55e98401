// Write one store-level setting; MERGE on the key, so setting it again overwrites.
// Parameters: $key, $value
MERGE (x:Meta {key: $key})
SET x.value = $value
