"""Unicode-aware lexical tokens, shared by full-text search, dedup (Jaccard) and salience, and the full-text
analyzer every store indexes and queries with.

Tokens are written here rather than taken from a library because the rule is small and must be identical in
every store: words are runs of letters/digits (accents kept, case folded), and each CJK ideograph, kana or
hangul syllable is its own token (CJK split per character), so Chinese and Japanese text gets meaningful tokens.

Full-text terms are those tokens stemmed by the Snowball English stemmer (PyStemmer, the C build of
snowballstem.org's algorithms: "supported" and "supports" meet at "support"). The stemmer runs here, in
Python, before anything reaches a store, so SQLite, FalkorDB and Neo4j index and query the very same terms
(their own analyzers would each stem differently). Stemming a token that is not an English word leaves it as
it is (CJK characters, digits, "café").
"""

from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Sequence
from typing import Protocol

import Stemmer  # PyStemmer ships no type information (pyproject: mypy override)

# CJK Unified Ideographs (+ext A, compatibility), Hiragana, Katakana, Hangul syllables.
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
_TOKEN = re.compile(rf"[{_CJK}]|[^\W_{_CJK}]+(?:['’][^\W_{_CJK}]+)*", re.UNICODE)


#: `_TOKEN` on ASCII text, where it reduces to this: NFC and casefold leave ASCII as it is (lowercased), `\w`
#: without `_` is [a-z0-9] once lowercased, and neither CJK nor the curly apostrophe can occur.
_ASCII_TOKEN = re.compile(r"[a-z0-9]+(?:'[a-z0-9]+)*")


def tokenize(text: str) -> list[str]:
    """Lowercased word tokens in order; CJK characters one per token. ASCII text takes the equivalent ASCII
    pattern, which Python's regex engine runs ~1.6x faster, with no normalisation pass (a reconciled write
    tokenizes each new text ~4 times; tests/test_text_tokens.py checks both paths agree)."""
    return _ASCII_TOKEN.findall(text.lower()) if text.isascii() else _tokenize_unicode(text)


def _tokenize_unicode(text: str) -> list[str]:
    return [t.replace("’", "'") for t in _TOKEN.findall(unicodedata.normalize("NFC", text).casefold())]


def tokenize_many(texts: Sequence[str]) -> list[list[str]]:
    """`tokenize` of each text (a full-text index build tokenizes every memory of the user)."""
    return [tokenize(t) for t in texts]


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
) | {"i'm", "it's", "don't", "i've", "that's", "what's", "s", "t"} | frozenset(
    # a pronoun with its auxiliary contracted says no more than the two words it joins, both stop words
    # above: read as content, "we'll do four nights in Kyoto, not three" had "we'll" for its subject and shared
    # no subject with "We want to spend at least three nights in Kyoto."
    """
    i'll you'll he'll she'll it'll we'll they'll you're we're they're you've we've they've i'd you'd he'd she'd
    we'd they'd he's she's let's there's here's who's
    """.split()
)


# The full-text query's stop words: the Snowball English stop list (snowballstem.org, BSD-3), the companion of the
# stemmer above and the list IR engines use. scikit-learn's list (above) also holds content words: "call", "fire",
# "bill", "system", "move", "find", "show", "name", "part", "detail", "interest", "first", "last", "full", "empty".
# Dropped from a query, "who is on call for heron?" searched for "heron" alone, and the one memory saying who is
# "on call" ranked 7th of 7 lexical hits (a newcomer's notes, 2026-11-27). On LoCoMo dev the change is measured in
# bench/RESULTS.md ("The merged main, seventeenth round"). The write path's other uses (dedup, salience, cues) keep
# scikit-learn's list: their thresholds were tuned with it.
_QUERY_STOP_WORDS = frozenset(
    """
    i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself
    it its itself they them their theirs themselves what which who whom this that these those am is are was were be
    been being have has had having do does did doing would should could ought i'm you're he's she's it's we're
    they're i've you've we've they've i'd you'd he'd she'd we'd they'd i'll you'll he'll she'll we'll they'll isn't
    aren't wasn't weren't hasn't haven't hadn't doesn't don't didn't won't wouldn't shan't shouldn't can't cannot
    couldn't mustn't let's that's who's what's here's there's when's where's why's how's a an the and but if or
    because as until while of at by for with about against between into through during before after above below to
    from up down in out on off over under again further then once here there when where why how all any both each
    few more most other some such no nor not only own same so than too very s t
    """.split()
)


def stop_words() -> frozenset[str]:
    """English stop words, kept out of full-text queries and lexical overlap."""
    return _STOP_WORDS


def content_tokens(text: str) -> list[str]:
    """Tokens without stop words: what dedup, salience and the write path's overlaps compare."""
    stops = stop_words()
    return [t for t in tokenize(text) if t not in stops]


def jaccard(a: str, b: str) -> float:
    """Token-set Jaccard similarity (near-duplicate detection compares it with a threshold)."""
    sa, sb = set(tokenize(a)), set(tokenize(b))
    if not sa and not sb:
        return 1.0
    return len(sa & sb) / len(sa | sb)


class _Stemmer(Protocol):
    def stemWords(self, words: list[str]) -> list[str]: ...  # noqa: N802 (PyStemmer's name)


_local = threading.local()


def _stemmer() -> _Stemmer:
    """This thread's stemmer (a PyStemmer object is not safe to share between threads; each keeps a cache)."""
    stemmer: _Stemmer | None = getattr(_local, "stemmer", None)
    if stemmer is None:
        stemmer = _local.stemmer = Stemmer.Stemmer("english")
    return stemmer


def stem(tokens: list[str]) -> list[str]:
    """Snowball English stems of tokens, in order."""
    return _stemmer().stemWords(tokens)


def surface(stems: frozenset[str] | set[str], text: str) -> list[str]:
    """The words of `text` as written whose stems are `stems`, in the text's order (a stem the text does not hold is
    left as it is): a decision's reason names "canaries", not the stem "canari"."""
    words = re.findall(r"[\w'.-]*\w", text)
    seen: dict[str, str] = {}
    for w in words:
        for s in stem(tokenize(w)):
            seen.setdefault(s, w)
    found = [seen[s] for s in stems if s in seen]
    order = {w: i for i, w in reversed(list(enumerate(words)))}
    return sorted(dict.fromkeys(found), key=order.__getitem__) + sorted(s for s in stems if s not in seen)


def terms(text: str) -> list[str]:
    """The full-text terms of a memory's text, in order, stop words included (they count in its length)."""
    return stem(tokenize(text))


def query_terms(text: str, limit: int) -> list[str]:
    """The distinct full-text terms a query searches for, in order of first use: its tokens without the
    query's stop words (`_QUERY_STOP_WORDS`), stemmed; at most `limit` of them."""
    return list(dict.fromkeys(stem([t for t in tokenize(text) if t not in _QUERY_STOP_WORDS])))[:limit]


def fts_document(text: str) -> str:
    """The term field a full-text index holds: the terms joined by single spaces, so every store's own
    tokenizer (whitespace) finds exactly these terms."""
    return " ".join(terms(text))
