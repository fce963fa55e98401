// A user's novelty centroid as the write path last kept it on the user's :User node (set_user_centroid.cypher;
// memgraph/ingest/importance.py, CentroidCache): the sum of the unit embeddings of $vectors memories, the count
// of memories it is consistent with, and the count when the vectors were last read whole. One node read, where
// a new process (each CLI command) read every vector of the user (embeddings.cypher) to score one memory.
// Parameters: $user_id
MATCH (u:User {id: $user_id})
RETURN u.centroid_sum AS total, u.centroid_vectors AS vectors, u.centroid_memories AS memories,
       u.centroid_read_at AS read_at
