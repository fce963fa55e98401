"""The model's own tokenizer through `tokenizers` (Rust, no torch): counting tokens, and the batches the ONNX
encoder takes."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from memgraph.errors import EmbedderUnavailableError

if TYPE_CHECKING:
    from tokenizers import Tokenizer


def load_tokenizer(model_dir: Path) -> tuple[Tokenizer, int]:
    """tokenizer.json with its own padding and truncation switched off (the shipped file pads and truncates to
    128; callers decide both), and the pad token's id it declares (0 for BERT, 1 for RoBERTa-style models)."""
    from tokenizers import Tokenizer

    file = Path(model_dir) / "tokenizer.json"
    if not file.exists():
        raise EmbedderUnavailableError(f"no tokenizer.json in {model_dir}")
    tok = Tokenizer.from_file(str(file))
    padding = tok.padding
    tok.no_padding()
    tok.no_truncation()
    return tok, int(padding["pad_id"]) if padding else 0


#: Texts whose token counts a `TokenCounter` keeps. Recall counts the ~10 memories it places each time, mostly
#: the same ones from one recall to the next: tokenizing them again was ~1.3 ms a recall (10k memories, load
#: ~1); a few thousand short texts hold well under a megabyte.
COUNTS_KEPT = 4096


class TokenCounter:
    """Counts tokens with the model's `tokenizer.json` (no special tokens, no truncation: long text counts in
    full). The last `COUNTS_KEPT` texts' counts are kept (least recently counted dropped first)."""

    def __init__(self, model_path: Path) -> None:
        self._tok, _ = load_tokenizer(model_path)
        self._counts: OrderedDict[str, int] = OrderedDict()
        self._lock = threading.Lock()

    def count(self, text: str) -> int:
        with self._lock:
            n = self._counts.get(text)
            if n is not None:
                self._counts.move_to_end(text)
                return n
        n = len(self._tok.encode(text, add_special_tokens=False).ids)
        with self._lock:
            self._counts[text] = n
            if len(self._counts) > COUNTS_KEPT:
                self._counts.popitem(last=False)
        return n


class EncoderInputs:
    """Texts to the encoder's input arrays exactly as sentence-transformers builds them: special tokens added,
    truncated at the model's window (`max_length`, 256 for all-MiniLM-L6-v2), lower-cased first when the model
    asks for it, padded to the longest text of the batch (the attention mask hides the padding)."""

    def __init__(self, model_dir: Path, max_length: int, *, do_lower_case: bool = False) -> None:
        from tokenizers import normalizers

        tok, self.pad_id = load_tokenizer(model_dir)
        if do_lower_case:
            # as sentence-transformers does: a Lowercase step in front unless one is there already
            current = tok.normalizer
            steps: list[Any] = (
                list(current) if isinstance(current, normalizers.Sequence) else [current] if current else []  # type: ignore[call-overload]
            )
            if not any(isinstance(n, normalizers.Lowercase) for n in steps):
                tok.normalizer = normalizers.Sequence([normalizers.Lowercase(), *steps])
        tok.enable_truncation(max_length, strategy="longest_first", direction="right")
        self._tok = tok
        self.max_length = max_length

    def ids(self, texts: Sequence[str]) -> list[list[int]]:
        """Token ids per text (special tokens included, truncated), unpadded."""
        return [e.ids for e in self._tok.encode_batch(list(texts))]

    def pad(self, rows: Sequence[Sequence[int]]) -> tuple[np.ndarray, np.ndarray]:
        """(input_ids, attention_mask) as int64, right-padded with the pad token to the longest row."""
        width = max((len(r) for r in rows), default=0)
        ids = np.full((len(rows), width), self.pad_id, dtype=np.int64)
        mask = np.zeros((len(rows), width), dtype=np.int64)
        for i, row in enumerate(rows):
            ids[i, : len(row)] = row
            mask[i, : len(row)] = 1
        return ids, mask
