// Record one maintenance job run (MERGE by id: recording the same run again overwrites it).
// Parameters: $job
MERGE (j:JobRun {id: $job.id})
SET j.job = $job.job, j.user_id = $job.user_id, j.started_at = $job.started_at,
    j.finished_at = $job.finished_at, j.applied = $job.applied, j.counts = $job.counts
