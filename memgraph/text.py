"""Unicode-aware lexical tokens, shared by full-text search, dedup (Jaccard) and salience.

Written here rather than taken from a library because the rule is small and must be identical in every store:
words are runs of letters/digits (accents kept, case folded), and each CJK ideograph, kana or hangul syllable
is its own token (seed 004: CJK split per character), so Chinese and Japanese text gets meaningful tokens.
"""

from __future__ import annotations

import re
import unicodedata

# CJK Unified Ideographs (+ext A, compatibility), Hiragana, Katakana, Hangul syllables.
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
_TOKEN = re.compile(rf"[{_CJK}]|[^\W_{_CJK}]+(?:['’][^\W_{_CJK}]+)*", re.UNICODE)


def tokenize(text: str) -> list[str]:
    """Lowercased word tokens in order; CJK characters one per token."""
    return [t.replace("’", "'") for t in _TOKEN.findall(unicodedata.normalize("NFC", text).casefold())]


# English stop words: scikit-learn's ENGLISH_STOP_WORDS list (BSD-3), kept here as data because importing
# scikit-learn costs seconds and every full-text query needs the list.
_STOP_WORDS = frozenset(
    """
    a about above across after afterwards again against all almost alone along already also although always am
    among amongst amoungst amount an and another any anyhow anyone anything anyway anywhere are around as at
    back be became because become becomes becoming been before beforehand behind being below beside besides
    between beyond bill both bottom but by call can cannot cant co con could couldnt cry de describe detail do
    done down due during each eg eight either eleven else elsewhere empty enough etc even ever every everyone
    everything everywhere except few fifteen fifty fill find fire first five for former formerly forty found
    four from front full further get give go had has hasnt have he hence her here hereafter hereby herein
    hereupon hers herself him himself his how however hundred i ie if in inc indeed interest into is it its
    itself keep last latter latterly least less ltd made many may me meanwhile might mill mine more moreover
    most mostly move much must my myself name namely neither never nevertheless next nine no nobody none noone
    nor not nothing now nowhere of off often on once one only onto or other others otherwise our ours ourselves
    out over own part per perhaps please put rather re same see seem seemed seeming seems serious several she
    should show side since sincere six sixty so some somehow someone something sometime sometimes somewhere
    still such system take ten than that the their them themselves then thence there thereafter thereby
    therefore therein thereupon these they thick thin third this those though three through throughout thru thus
    to together too top toward towards twelve twenty two un under until up upon us very via was we well were
    what whatever when whence whenever where whereafter whereas whereby wherein whereupon wherever whether which
    while whither who whoever whole whom whose why will with within without would yet you your yours yourself
    yourselves
    """.split()
) | {"i'm", "it's", "don't", "i've", "that's", "what's", "s", "t"}


def stop_words() -> frozenset[str]:
    """English stop words, kept out of full-text queries and lexical overlap."""
    return _STOP_WORDS


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
