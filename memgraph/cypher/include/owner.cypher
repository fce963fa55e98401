// The owner re-check, written once: it follows every owner comparison (`x.user_id = $user_id`, or
// `{user_id: $user_id}` in a pattern), as `// include: owner(m)` right after it, where `m` is the node compared
// (the loader turns `x.` into `m.`). A range index may answer the first comparison loosely: FalkorDB's trims
// surrounding whitespace, so `WHERE m.user_id = 'ada'` also returns the nodes of `'ada '`, `' ada'` and
// `'ada\t'` once user_id is indexed, and the planner does not check the equality again. A function of the
// property is something no index can answer, so it is evaluated on every node the index returns; the plan still
// starts from the index (bench/owner_recheck.py). `coalesce(x.user_id, '')` is the cheapest such function
// measured on FalkorDB 4.22 (per node ~0.9 us against ~2.8 us for `x.user_id + ''`, ~1.6 us for toString);
// `x.user_id = $user_id + ''` is no re-check at all: the planner folds the right side into the index lookup.
// tests/test_owner_recheck.py fails any statement that compares an owner without it;
// tests/conformance/test_owner_lookalikes.py plants look-alike owners and reads on every store.
// Parameters: $user_id
  AND coalesce(x.user_id, '') = $user_id
