"""The kept novelty centroid gives the importance a whole read gives, on real text (the `neo4jgrow` check).

Two copies of the cached recall_scale store (~10k LoCoMo and MSC memories of user `scale`, their real-model
vectors): on one, each new text is remembered by a new engine (a new process's empty in-process cache) that starts
from the centroid the previous one kept (ingest/importance.py, `CentroidCache`, as Neo4j and FalkorDB keep it on the
:User node; SQLite keeps none, so a subclass keeps it in memory here); on the other, by a new engine that reads
every vector (what every CLI command did). Prints the largest difference in novelty and importance, and how many
whole reads each side made.

    python bench/novelty_kept.py --texts 30      # the first 30 notes of bench/neo4j_cold_notes.md
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from memgraph import MemoryEngine, Settings  # noqa: E402
from memgraph.embed import CachedEmbedder, SentenceTransformerEmbedder  # noqa: E402
from memgraph.store.base import StoredCentroid  # noqa: E402
from memgraph.store.sqlite import SQLiteStore  # noqa: E402

STORE = ROOT / "bench" / ".cache" / "recall_scale" / "store-schema4-gen1-10000-reconciled"


class Counting(SQLiteStore):
    """SQLite counting whole reads of the vectors; with `keeps`, keeping centroids as a Cypher store does."""

    keeps = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.kept: dict[str, StoredCentroid] = {}
        self.loads = 0

    def embeddings(self, user_id: str, flt: Any = None) -> Any:
        self.loads += 1
        return super().embeddings(user_id, flt)

    def stored_centroid(self, user_id: str) -> StoredCentroid | None:
        return self.kept.get(user_id) if self.keeps else None

    def store_centroid(self, user_id: str, centroid: StoredCentroid) -> None:
        if self.keeps:
            self.kept[user_id] = centroid


class Keeping(Counting):
    keeps = True


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--texts", type=int, default=30, help="new texts remembered, one engine each")
    args = ap.parse_args()
    notes = (ROOT / "bench" / "neo4j_cold_notes.md").read_text().splitlines()
    texts = [line[2:] for line in notes if line.startswith("- ")][: args.texts]
    embedder = CachedEmbedder(SentenceTransformerEmbedder())
    settings = Settings(store=":memory:", recall_maintenance=False)
    with tempfile.TemporaryDirectory(prefix="novelty-kept-") as tmp:
        stores: dict[str, Counting] = {}
        for name, cls in (("kept", Keeping), ("whole", Counting)):
            shutil.copytree(STORE, Path(tmp) / name)
            stores[name] = cls(Path(tmp) / name)
        got: dict[str, list[tuple[float, float]]] = {"kept": [], "whole": []}
        for text in texts:
            for name, store in stores.items():
                engine = MemoryEngine(store, settings, embedder)  # a new process: an empty in-process cache
                d = engine.ingest(text, user_id="scale", session_id="novelty-kept").decisions
                got[name].append((d[0].novelty, d[0].importance) if d else (-1.0, -1.0))
    pairs = list(zip(got["kept"], got["whole"], strict=True))
    dn = max(abs(a[0] - b[0]) for a, b in pairs)
    di = max(abs(a[1] - b[1]) for a, b in pairs)
    print(f"{len(texts)} texts on ~10k memories: max |novelty diff| {dn:.2e}, max |importance diff| {di:.2e}")
    print(f"whole reads of the vectors: kept {stores['kept'].loads}, whole {stores['whole'].loads}")
    print("novelty range", min(n for n, _ in got["whole"]), max(n for n, _ in got["whole"]))


if __name__ == "__main__":
    main()
