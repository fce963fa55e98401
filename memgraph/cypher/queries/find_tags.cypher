// A user's tags whose name is one of $names, or whose value after the first ':' (the facet prefix, as in
// `speaker:ada`) is: recall matches query terms to tags with it. With member counts, by name.
// Parameters: $user_id, $names
MATCH (t:Tag)
WHERE t.user_id = $user_id
// include: owner(t)
  AND (t.name IN $names
       OR (t.name CONTAINS ':' AND substring(t.name, size(split(t.name, ':')[0]) + 1) IN $names))
OPTIONAL MATCH (m:Memory)-[:HasTag]->(t)
RETURN t.name AS name, t.description AS description, count(m) AS count
ORDER BY name
