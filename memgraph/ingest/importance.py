"""Step 4: importance = novelty_weight·novelty + salience_weight·salience (0.6 / 0.4).

novelty  = cosine distance between the chunk's embedding and the centroid of the user's existing memory
           embeddings, clamped to [0, 1]; 1.0 for a user with no memories yet.
salience = named entity +0.3, number or date +0.2, preference signal +0.4, technical term +0.1; at most 1.0.

"Technical term by average token rarity": WordPiece vocabularies (the model's own `tokenizer.json`) list whole
words roughly by corpus frequency after the special tokens, and split rare words into `##` pieces. A word's
rarity is the mean of its pieces' rarities (a whole word: `salience_rarity_whole_word_weight` x its rank among
whole words / their number, since any word the vocabulary holds whole is a known word; a `##` continuation: 1.0,
except inflections like `##s`, which are left out);
"kubernetes" (ku ##ber ##net ##es) scores 0.74, "roast" 0.40, "camping" 0.20. A chunk holds a technical term when one of
its words reaches `salience_rarity_threshold`.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

from memgraph.config import Settings
from memgraph.errors import StoreError
from memgraph.ingest import signals
from memgraph.store.base import GraphStore, MemoryFilter, StoredCentroid
from memgraph.text import stop_words, tokenize

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Salience:
    """Salience score and which signals fired (kept in the report, so a user can see why)."""

    score: float
    entity: bool
    number: bool
    preference: bool
    technical: bool

    def signals(self) -> list[str]:
        return [n for n in ("entity", "number", "preference", "technical") if getattr(self, n)]


class TokenRarity:
    """Word rarity from the model's WordPiece vocabulary (offline: reads tokenizer.json only, no torch)."""

    def __init__(self, model_path: str | Path | None = None, whole_word_weight: float = 0.5) -> None:
        from tokenizers import Tokenizer

        from memgraph.embed import default_model_path

        path = Path(model_path).expanduser() if model_path else default_model_path()
        self._tok = Tokenizer.from_file(str(path / "tokenizer.json"))
        self._tok.no_padding()
        self._tok.no_truncation()
        self._size = float(self._tok.get_vocab_size())
        # whole words start after the special tokens and single characters ("the" is the first, in BERT)
        self._first = float(self._tok.token_to_id("the") or 0)
        self._whole = whole_word_weight
        self._lock = threading.Lock()
        self.word_rarity = lru_cache(maxsize=65536)(self._word_rarity)

    def _word_rarity(self, word: str) -> float:
        with self._lock:
            enc = self._tok.encode(word, add_special_tokens=False)
        if not enc.ids:
            return 0.0
        parts = [
            1.0
            if tok.startswith("##")
            else self._whole * min(1.0, max(0.0, i - self._first) / (self._size - self._first))
            for tok, i in zip(enc.tokens, enc.ids, strict=True)
            if tok not in _INFLECTIONS  # "tabs" = tab ##s is a common word, not a rare one
        ]
        return sum(parts) / len(parts) if parts else 0.0

    def max_rarity(self, words: list[str]) -> float:
        return max((self.word_rarity(w) for w in words), default=0.0)


_INFLECTIONS = frozenset({"##s", "##es", "##ed", "##d", "##ing", "##er", "##ers", "##ly", "##'s"})


@lru_cache(maxsize=4)
def rarity_for(model_path: str | None, whole_word_weight: float = 0.5) -> TokenRarity | None:
    """One shared rarity table per model directory; None when the tokenizer cannot be read."""
    try:
        return TokenRarity(model_path, whole_word_weight)
    except Exception:  # noqa: BLE001 - salience then simply has no technical-term signal
        return None


def salience(text: str, settings: Settings, rarity: TokenRarity | None) -> Salience:
    entity = bool(signals.entities(text))
    number = signals.has_number_or_date(text)
    preference = signals.has_preference(text)
    technical = False
    if rarity is not None:
        stops = stop_words()
        words = [
            t
            for t in dict.fromkeys(tokenize(text))
            if len(t) >= settings.salience_rarity_min_chars and t.isascii() and t.isalpha() and t not in stops
        ]
        technical = rarity.max_rarity(words) >= settings.salience_rarity_threshold
    score = (
        settings.salience_entity * entity
        + settings.salience_number * number
        + settings.salience_preference * preference
        + settings.salience_technical * technical
    )
    return Salience(min(1.0, score), entity, number, preference, technical)


def novelty(vector: np.ndarray, centroid: np.ndarray | None) -> float:
    """Cosine distance to the (unit) centroid, clamped to [0, 1]; 1.0 without a centroid."""
    if centroid is None:
        return 1.0
    norm = float(np.linalg.norm(vector))
    if norm == 0.0:
        return 1.0
    return float(min(1.0, max(0.0, 1.0 - float(vector @ centroid) / norm)))


def weighed_novelty(novelty_score: float, *, memories: int, prior: int) -> float:
    """`novelty_score` of a centroid of `memories` memories, weighed against a `prior` of that many memories'
    worth of 1.0 (a user without memories; `novelty_prior_memories`): the centroid of one or two memories is those
    memories, not what the user usually says."""
    if prior <= 0:
        return novelty_score
    return novelty_score + (1.0 - novelty_score) * prior / (max(0, memories) + prior)


def importance(novelty_score: float, salience_score: float, settings: Settings) -> float:
    value = settings.novelty_weight * novelty_score + settings.salience_weight * salience_score
    return float(min(1.0, max(0.0, value)))


@dataclass
class _UserCentroid:
    total: np.ndarray  # sum of unit embeddings (float64)
    count: int
    store_count: int  # how many memories the store held when `total` was last consistent with it
    read_at: int  # how many memories the store held when its vectors were last read whole


@dataclass
class CentroidCache:
    """Per-user centroid of memory embeddings, loaded once and then updated incrementally.

    The first use for a user reads `store.embeddings(user)` (every memory, active or not); after that each
    ingest adds its new vectors. A cheap `count_memories` per call detects writes made elsewhere (another
    process, a delete) and triggers a reload, so 100k vectors are not re-read on every call.

    A store that keeps centroids (Neo4j, FalkorDB: `GraphStore.stored_centroid`) is also given the centroid after
    each ingest, so the next process (each CLI command is one) starts from it instead of reading every vector
    over the network: at 10k memories that read was 3.8 million floats per `remember`. A kept centroid is used
    only when it is consistent with the store's count, for users of at least `stored_from` memories (below, the
    read is smaller than the write that keeps it), and until the store holds `refresh` more memories than at the
    last whole read (then the vectors are read whole again: what the count does not see, an edited memory's new
    vector or a delete and an add elsewhere, lasts at most that long). `stored_from=0` keeps none.
    """

    stored_from: int = 0
    refresh: float = 0.1
    _users: dict[str, _UserCentroid] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def memories(self, user_id: str) -> int:
        """How many memories the user's centroid (as last read by `centroid`) averages."""
        with self._lock:
            entry = self._users.get(user_id)
            return entry.count if entry is not None else 0

    def centroid(self, store: GraphStore, user_id: str) -> np.ndarray | None:
        """The user's unit centroid, or None for a user without embeddings."""
        flt = MemoryFilter.everything()
        count = store.count_memories(user_id, flt)
        with self._lock:
            entry = self._users.get(user_id)
            if entry is None or entry.store_count != count:
                entry = self._kept(store, user_id, count) or self._read(store, user_id, count)
                self._users[user_id] = entry
            if entry.count == 0:
                return None
            norm = float(np.linalg.norm(entry.total))
            if norm == 0.0:
                return None
            return (entry.total / norm).astype(np.float32)

    def _keeps(self, count: int) -> bool:
        return 0 < self.stored_from <= count

    def _kept(self, store: GraphStore, user_id: str, count: int) -> _UserCentroid | None:
        """The store's kept centroid when it is consistent with `count` and not due for a whole read."""
        if not self._keeps(count):
            return None
        try:
            kept = store.stored_centroid(user_id)
        except StoreError as exc:
            log.debug("novelty centroid of %s not read (%s): reading the vectors", user_id, exc)
            return None
        # a centroid kept since the user's first memories (read whole at a count under `stored_from`) is read
        # whole first at 1 + refresh times `stored_from`
        due = max(kept.read_at, self.stored_from) * (1.0 + self.refresh) if kept is not None else 0.0
        if kept is None or kept.memories != count or count > due:
            return None
        return _UserCentroid(np.array(kept.total, dtype=np.float64), kept.vectors, count, kept.read_at)

    def _read(self, store: GraphStore, user_id: str, count: int) -> _UserCentroid:
        """Every vector of the user, summed (and kept in the store for the next process)."""
        _, matrix = store.embeddings(user_id, MemoryFilter.everything())
        total = np.zeros(matrix.shape[1] if matrix.ndim == 2 else 0, dtype=np.float64)
        if len(matrix):
            norms = np.linalg.norm(matrix, axis=1, keepdims=True)
            norms[norms == 0] = 1.0
            total = (matrix / norms).sum(axis=0, dtype=np.float64)
        entry = _UserCentroid(total, len(matrix), count, count)
        self._keep(store, user_id, entry)
        return entry

    def _keep(self, store: GraphStore | None, user_id: str, entry: _UserCentroid) -> None:
        if store is None or not self._keeps(entry.store_count) or entry.total.size == 0:
            return
        try:
            store.store_centroid(user_id, StoredCentroid(entry.total, entry.count, entry.store_count, entry.read_at))
        except StoreError as exc:  # a cache: the next process reads the vectors
            log.debug("novelty centroid of %s not kept (%s)", user_id, exc)

    def add(self, user_id: str, vectors: np.ndarray, new_memories: int, store: GraphStore | None = None) -> None:
        """Fold the embeddings of memories just written into the user's centroid (and keep it in `store`)."""
        with self._lock:
            entry = self._users.get(user_id)
            if entry is None:
                return
            if len(vectors):
                norms = np.linalg.norm(vectors, axis=1, keepdims=True)
                norms[norms == 0] = 1.0
                unit = (vectors / norms).sum(axis=0, dtype=np.float64)
                entry.total = unit if entry.total.size == 0 else entry.total + unit
                entry.count += len(vectors)
            entry.store_count += new_memories
            self._keep(store, user_id, entry)

    def forget(self, user_id: str) -> None:
        with self._lock:
            self._users.pop(user_id, None)
