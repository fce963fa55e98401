// A user's graph at a glance: how many memories of each kind, how many are active, archived or pinned,
// and their mean confidence. Set the parameter first in Browser:  :param user => 'demo'
// Parameters: $user
MATCH (m:Memory {user_id: $user})
WHERE coalesce(m.user_id, '') = $user
RETURN m.kind AS kind,
       count(m) AS memories,
       sum(CASE WHEN m.active THEN 1 ELSE 0 END) AS active,
       sum(CASE WHEN m.archived THEN 1 ELSE 0 END) AS archived,
       sum(CASE WHEN m.pinned THEN 1 ELSE 0 END) AS pinned,
       round(avg(m.confidence) * 1000) / 1000 AS mean_confidence
ORDER BY memories DESC;
