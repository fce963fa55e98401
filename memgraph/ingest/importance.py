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

import threading
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

from memgraph.config import Settings
from memgraph.ingest import signals
from memgraph.store.base import GraphStore, MemoryFilter
from memgraph.text import stop_words, tokenize


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


@dataclass
class CentroidCache:
    """Per-user centroid of memory embeddings, loaded once and then updated incrementally.

    The first use for a user reads `store.embeddings(user)` (every memory, active or not); after that each
    ingest adds its new vectors. A cheap `count_memories` per call detects writes made elsewhere (another
    process, a delete) and triggers a reload, so 100k vectors are not re-read on every call.
    """

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
                _, matrix = store.embeddings(user_id, flt)
                total = np.zeros(matrix.shape[1] if matrix.ndim == 2 else 0, dtype=np.float64)
                if len(matrix):
                    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
                    norms[norms == 0] = 1.0
                    total = (matrix / norms).sum(axis=0, dtype=np.float64)
                entry = _UserCentroid(total, len(matrix), count)
                self._users[user_id] = entry
            if entry.count == 0:
                return None
            norm = float(np.linalg.norm(entry.total))
            if norm == 0.0:
                return None
            return (entry.total / norm).astype(np.float32)

    def add(self, user_id: str, vectors: np.ndarray, new_memories: int) -> None:
        """Fold the embeddings of memories just written into the user's centroid."""
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

    def forget(self, user_id: str) -> None:
        with self._lock:
            self._users.pop(user_id, None)
