"""False supersedes and contradictions on one person's consistent facts (Multi-Session Chat personas).

Why: the labelled pairs (bench/decisions.py) hold few compatible statements of one speaker, so a rule written
for a contradiction can look precise there and still fire on ordinary self-descriptions. Within one MSC persona
("I like Mexican food." / "I am not Mexican.") the sentences are one person's facts, written to be consistent: a
supersede or a contradiction between two of them is almost always false. Every ordered pair of a persona's
sentences at cosine >= `reconcile_slot_cosine` (the neighbours the write path reads; from `reconcile_cue_cosine` when
the new one says a change or a correction: `reconcile.neighbour_floor`) goes through
`RuleReconciler.decide` as a `remember`-d fact (no speaker), and the decisions are counted and printed.

    python bench/msc_false_positives.py [--personas 6000] [--show 40] [--out fired.jsonl]

The data file is ../shared/data/msc_personas.json beside the repository (or --data); vectors are cached by the
embedder's cache.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from memgraph import Settings  # noqa: E402
from memgraph.embed import default_embedder  # noqa: E402
from memgraph.ingest.reconcile import Neighbour, ReconcileAction, RuleReconciler, neighbour_floor  # noqa: E402
from memgraph.models import Memory  # noqa: E402

#: The personas file beside the repository (../shared/data), as bench/locomo.py finds its data.
DATA = next(
    (b / "shared" / "data" / "msc_personas.json" for b in (ROOT.parent, ROOT.parent.parent)
     if (b / "shared" / "data" / "msc_personas.json").exists()),
    ROOT.parent / "shared" / "data" / "msc_personas.json",
)


def personas(path: Path, limit: int) -> list[list[str]]:
    """Each speaker's persona sentences, in file order (train, valid, test), the first `limit`."""
    d = json.loads(path.read_text(encoding="utf-8"))
    out = [s for split in d.values() for conv in split for k, s in conv.items() if k.startswith("Speaker")]
    return out[:limit]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--personas", type=int, default=6000, help="personas read (file order)")
    ap.add_argument("--show", type=int, default=40, help="decisions printed at most")
    ap.add_argument("--out", type=Path, help="write every supersede and contradiction here (JSON Lines), to diff")
    args = ap.parse_args()
    t0 = time.process_time()
    settings = Settings(store=":memory:")
    people = personas(args.data, args.personas)
    texts = sorted({s for p in people for s in p})
    embedder = default_embedder(settings)
    vecs = np.asarray(embedder.encode(texts), dtype=np.float32)
    index = {t: i for i, t in enumerate(texts)}
    rules = RuleReconciler(settings)
    mems = {t: Memory(id=str(i), user_id="msc", content=t) for t, i in index.items()}
    counts: Counter[str] = Counter()
    shown: list[str] = []
    fired: list[dict[str, str]] = []
    pairs = 0
    for sents in people:
        for old, new in itertools.permutations(dict.fromkeys(sents), 2):
            cos = float(vecs[index[old]] @ vecs[index[new]])
            if cos < settings.reconcile_slot_cosine and cos < neighbour_floor(mems[new], settings):
                continue
            pairs += 1
            d = rules.decide(mems[new], [Neighbour(mems[old], cos)])
            if d.action in (ReconcileAction.SUPERSEDE, ReconcileAction.CONTRADICT):
                counts[d.action.value] += 1
                fired.append({"action": d.action.value, "old": old, "new": new, "reason": d.reason})
                if len(shown) < args.show:
                    shown.append(f"{d.action.value:10} {old!r} / {new!r} ({d.reason})")
            elif d.action is ReconcileAction.REINFORCE:
                counts["reinforce"] += 1
    print(f"personas {len(people)}, sentences {len(texts)}, ordered pairs at cosine >= "
          f"{settings.reconcile_slot_cosine} (or a cued one's floor): {pairs}")
    print("decisions:", dict(sorted(counts.items())))
    for line in shown:
        print(" ", line)
    if args.out:
        args.out.write_text("".join(json.dumps(f) + "\n" for f in fired), encoding="utf-8")
    print(f"{time.process_time() - t0:.0f} s CPU, load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
