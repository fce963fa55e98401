// Who owns these memory ids (any user): after write_batch's guard refused a batch, the store uses this to
// tell the caller that an id belongs to another user. Returns ids and owners only, never content.
// Parameters: $ids
MATCH (m:Memory)
WHERE m.id IN $ids
RETURN m.id AS id, m.user_id AS user_id
