// The most recent maintenance job runs, newest first (`memgraph history`).
// Parameters: $limit
MATCH (j:JobRun)
RETURN properties(j) AS job
ORDER BY j.started_at DESC
LIMIT $limit
