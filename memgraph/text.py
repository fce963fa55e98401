"""Unicode-aware lexical tokens, shared by full-text search, dedup (Jaccard) and salience.

Written here rather than taken from a library because the rule is small and must be identical in every store:
words are runs of letters/digits (accents kept, case folded), and each CJK ideograph, kana or hangul syllable
is its own token (seed 004: CJK split per character), so Chinese and Japanese text gets meaningful tokens.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

# CJK Unified Ideographs (+ext A, compatibility), Hiragana, Katakana, Hangul syllables.
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
_TOKEN = re.compile(rf"[{_CJK}]|[^\W_{_CJK}]+(?:['’][^\W_{_CJK}]+)*", re.UNICODE)


def tokenize(text: str) -> list[str]:
    """Lowercased word tokens in order; CJK characters one per token."""
    return [t.replace("’", "'") for t in _TOKEN.findall(unicodedata.normalize("NFC", text).casefold())]


@lru_cache(maxsize=1)
def stop_words() -> frozenset[str]:
    """English stop words (scikit-learn's list) plus contractions' stems; kept out of full-text queries."""
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    return frozenset(ENGLISH_STOP_WORDS) | {"i'm", "it's", "don't", "i've", "that's", "what's", "s", "t"}


def content_tokens(text: str) -> list[str]:
    """Tokens without stop words: what full-text queries and Jaccard dedup compare."""
    stops = stop_words()
    return [t for t in tokenize(text) if t not in stops]


def jaccard(a: str, b: str) -> float:
    """Token-set Jaccard similarity (seed 004 dedup uses 0.85)."""
    sa, sb = set(tokenize(a)), set(tokenize(b))
    if not sa and not sb:
        return 1.0
    return len(sa & sb) / len(sa | sb)


def fts_document(text: str) -> str:
    """The text indexed by a full-text index: our tokens joined by spaces, so every store tokenizes alike."""
    return " ".join(tokenize(text))
