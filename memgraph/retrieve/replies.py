"""A reply to a matching question: cascade recall lifts a memory whose previous turn asks what the query asks.

In a conversation the answer rarely repeats the question: "Edinburgh, Scotland would be great for a magical
vibe" answers "We're still deciding on the destination. Do you have any suggestions?", and only the question
shares the words and the meaning of "What city did Tim suggest for the team trip?". A memory's previous turn is
its session predecessor (the `RelatesTo {source: sequence}` link ingest writes between a session's memories,
whichever way they were written); when that turn is a question (`rank.is_question`), the memory's relevance
counts 1 + `reply_weight` x the cosine between the query and the question. A memory whose predecessor states
something gets nothing: lifting every memory by its predecessor's cosine lowered R@10 on LoCoMo dev.

Only questions and replies among the candidates scored in full are read (a question outside them is too far
from the query to lift anything: the same R@10 on LoCoMo dev), in two small store reads that build no models: the
sequence links among the candidates (`GraphStore.sequence_pairs`), then the cosines of the questions that have a
reply among them (`GraphStore.similarities`). SQLite answers both from its read structures in memory (the
previous turns its graph holds, the normalised vectors), the Cypher stores in one statement each. Through
`get_links` and `get_memories(with_embeddings=True)` the same reads cost ~3.8-4.8 ms of CPU per cascade recall.
Measured on LoCoMo dev: see `Settings.reply_weight`.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from memgraph.models import Memory
from memgraph.retrieve.rank import is_question
from memgraph.store.base import GraphStore


def reply_factors(
    store: GraphStore,
    user_id: str,
    candidates: Mapping[str, Memory],
    qvec: np.ndarray,
    weight: float,
    questions: set[str] | None = None,
) -> dict[str, float]:
    """{memory id: 1 + weight x max(0, cosine(query, its previous turn))} for the candidates whose previous
    turn (session predecessor) is a question among the candidates; the others are left out (factor 1).
    `questions`: the candidates that are questions (`is_question`), when the caller has found them already."""
    if weight <= 0.0:
        return {}
    if questions is None:
        questions = {mid for mid, m in candidates.items() if is_question(m.content)}
    if not questions:
        return {}
    reply_to: dict[str, str] = {}  # reply -> the question before it
    for src, dst in store.sequence_pairs(user_id, list(candidates)):
        if src not in questions or src == dst:
            continue
        # one predecessor per memory; should a store hold two, the smaller id decides (the same everywhere)
        if dst not in reply_to or src < reply_to[dst]:
            reply_to[dst] = src
    if not reply_to:
        return {}
    cos = store.similarities(user_id, sorted(set(reply_to.values())), qvec)
    return {mid: 1.0 + weight * max(0.0, cos[qid]) for mid, qid in reply_to.items() if qid in cos}
