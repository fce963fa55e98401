"""A reply to a matching question: cascade recall lifts a memory whose previous turn asks what the query asks.

In a conversation the answer rarely repeats the question: "Edinburgh, Scotland would be great for a magical
vibe" answers "We're still deciding on the destination. Do you have any suggestions?", and only the question
shares the words and the meaning of "What city did Tim suggest for the team trip?". A memory's previous turn is
its session predecessor (the `RelatesTo {source: sequence}` link ingest writes between a session's memories,
whichever way they were written); when that turn is a question (`rank.is_question`), the memory's relevance
counts 1 + `reply_weight` x the cosine between the query and the question. A memory whose predecessor states
something gets nothing: lifting every memory by its predecessor's cosine lowered R@10 on LoCoMo dev.

Only questions and replies among the candidates scored in full are read (a question outside them is too far
from the query to lift anything: the same R@10 on LoCoMo dev), so it costs two small store reads: the questions'
outgoing sequence links, then the vectors of the questions that have a reply among the candidates. Links,
memories and vectors are what every store keeps: the same on SQLite, FalkorDB and Neo4j. Measured on LoCoMo
dev: see `Settings.reply_weight`.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from memgraph.models import LinkSource, Memory, Relation
from memgraph.retrieve.rank import is_question
from memgraph.store.base import GraphStore


def reply_factors(
    store: GraphStore, user_id: str, candidates: Mapping[str, Memory], qvec: np.ndarray, weight: float
) -> dict[str, float]:
    """{memory id: 1 + weight x max(0, cosine(query, its previous turn))} for the candidates whose previous
    turn (session predecessor) is a question among the candidates; the others are left out (factor 1)."""
    if weight <= 0.0:
        return {}
    questions = sorted(mid for mid, m in candidates.items() if is_question(m.content))
    if not questions:
        return {}
    reply_to: dict[str, str] = {}  # reply -> the question before it
    for link in store.get_links(user_id, questions, relations=[Relation.RELATES_TO], direction="out"):
        if link.source != LinkSource.SEQUENCE or link.dst not in candidates or link.src == link.dst:
            continue
        # one predecessor per memory; should a store hold two, the smaller id decides (the same everywhere)
        if link.dst not in reply_to or link.src < reply_to[link.dst]:
            reply_to[link.dst] = link.src
    if not reply_to:
        return {}
    asked = sorted(set(reply_to.values()))
    q = np.asarray(qvec, dtype=np.float64)
    qn = float(np.linalg.norm(q)) or 1.0
    cos: dict[str, float] = {}
    for m in store.get_memories(user_id, asked, with_embeddings=True):
        if m.embedding is not None:
            v = np.asarray(m.embedding, dtype=np.float64)
            cos[m.id] = max(0.0, float(v @ q) / ((float(np.linalg.norm(v)) or 1.0) * qn))
    return {mid: 1.0 + weight * cos[qid] for mid, qid in reply_to.items() if qid in cos}
