// How many vectors the shared vector index holds (all users): widening the kNN stops when it has asked for
// all of them.
// Parameters: none
MATCH (v:MemoryVector)
RETURN count(v) AS n
