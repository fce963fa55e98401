// Compare-and-set one store-level setting (the job lock is built on it): when the current value equals
// $expected ($expected null: the key is absent), set it to $value ($value null: delete the key) and return
// ok = true; otherwise change nothing and return ok = false. MERGE locks the key (Neo4j: the uniqueness
// constraint; FalkorDB: one query at a time), so two concurrent callers cannot both win. A node that MERGE
// created only to hold the lock is deleted again when the swap fails or deletes the key.
// Parameters: $key, $expected, $value
MERGE (x:Meta {key: $key})
WITH x, coalesce(x.value = $expected, x.value IS NULL AND $expected IS NULL) AS ok
SET x.value = CASE WHEN ok THEN $value ELSE x.value END
WITH x, ok
FOREACH (gone IN CASE WHEN x.value IS NULL THEN [x] ELSE [] END | DELETE gone)
RETURN ok
