// Every user that owns at least one memory (FalkorDB): a scan of every memory's user_id, as before schema 3.
// The shared statement confirms each (:User) node through the user_id index, and FalkorDB's range index cannot
// find an id with surrounding whitespace ('ada ', stored before the identifier rule) at all: the users() read
// is what the open's identifier-rule warning reports such ids from, so FalkorDB keeps the scan (a local server).
// Parameters: none
MATCH (m:Memory)
RETURN DISTINCT m.user_id AS user_id
ORDER BY user_id
