// Memory counts per kind (with how many are active and archived) for one user, or all users when $user_id
// is null.
// Parameters: $user_id
MATCH (m:Memory)
WHERE $user_id IS NULL OR m.user_id = $user_id
// include: owner(m)
RETURN m.kind AS kind, count(m) AS n,
       sum(CASE WHEN m.active THEN 1 ELSE 0 END) AS active,
       sum(CASE WHEN m.archived THEN 1 ELSE 0 END) AS archived
