"""The texts and vectors the bulk benches write (bench/bulk_load.py, bench/bulk_batches.py), synthetic or real.

- `synthetic` (the default, every round before the fifteenth): bench/jobs.py's notes ("note 60001 topicN ...")
  with hash-made topic vectors. Every pair the reconciler compares sits at cosine 0.65-0.79 and shares the frame
  words "note" and "topicN" with a changed number: a worst case no user writes.
- `real`: bench/recall_scale.py's corpus, written as plain texts (no speaker: every rule runs, as in
  bench/bulk_decisions.py's `plain` variant): the LoCoMo dev turns verbatim (~3k), then turns of one to three
  Multi-Session Chat persona sentences. Vectors are the real model's, cached under bench/.cache/recall_scale (a
  turn of several sentences gets the normalised mean of theirs: no model runs). There are ~34k distinct units, so
  past ~31k turns single-sentence turns repeat texts already written: those are the same text again (the
  write path's exact-id path, in both modes), which `corpus` counts and the benches print.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import numpy as np

KINDS = ("synthetic", "real")


def corpus(kind: str, n: int, data: str | None = None) -> tuple[list[tuple[str, datetime]], np.ndarray, int]:
    """(texts with their dates, unit vectors, how many texts are distinct) for the first `n` writes."""
    if kind == "synthetic":
        from bench.jobs import synth

        mems, vecs = synth(n, seed=1)
        texts = [(m.content, m.created_at) for m in mems]
        return texts, vecs, len({t for t, _ in texts})
    if kind != "real":
        raise ValueError(f"unknown corpus {kind!r}: one of {', '.join(KINDS)}")
    from bench import recall_scale as rs

    if data:
        rs.DATA = Path(data)
    locomo, sentences, _ = rs.load_corpus()
    units = list(dict.fromkeys([u for s in locomo for _, us in s.turns for u in us] + sentences))
    table = rs.embed_units(units)
    texts = []
    vectors = []
    for s in rs.sessions_for(n, locomo, sentences):
        for _, us in s.turns:
            texts.append((" ".join(us), s.date))
            vectors.append(rs.turn_vector(us, table))
    return texts, np.stack(vectors).astype(np.float32), len({t for t, _ in texts})
