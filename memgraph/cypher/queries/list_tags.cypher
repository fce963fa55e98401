// A user's tags with how many memories carry each, by name.
// Parameters: $user_id
MATCH (t:Tag)
WHERE t.user_id = $user_id
// include: owner(t)
OPTIONAL MATCH (m:Memory)-[:HasTag]->(t)
RETURN t.name AS name, t.description AS description, count(m) AS count
ORDER BY name
