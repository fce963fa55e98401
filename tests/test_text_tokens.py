"""`tokenize` (and `tokenize_many`) gives exactly the Unicode rule's tokens, ASCII fast path or not."""

from __future__ import annotations

import json
from pathlib import Path

from memgraph.text import _tokenize_unicode, surface, tokenize, tokenize_many

TEXTS = [
    "Caroline went to the LGBTQ support group on 7 May 2023.",
    "don't stop: it's Melanie's 2nd o'clock ''quote'' rock'n'roll 'lead' trail' under_score a_b __x__",
    "Café naïve résumé — ÉCOLE Straße ß ﬁne",
    "東京に行きました。서울 여행! 中文 mixed with English",
    "curly ’apostrophe’ it’s Caroline’s",
    "tabs\tand\nnewlines\r\n 42 3.14 x-y a/b e-mail@host.com #tag @user",
    "",
    "   ",
    "'''",
    "a'b'c 'a' b''c 9'9 _'_",
    "Ⅻ ① ²³ ½ fullwidth ＡＢＣ１２３",
]


def test_tokenize_many_equals_tokenize_on_every_text() -> None:
    corpus = list(TEXTS)
    data = Path(__file__).parent / "data" / "secrets_corpus.json"
    if data.exists():  # varied real-world strings (keys, urls, prose)
        raw = json.loads(data.read_text())
        corpus += [s for s in _strings(raw)][:2000]
    assert tokenize_many(corpus) == [_tokenize_unicode(t) for t in corpus]
    assert [tokenize(t) for t in corpus] == [_tokenize_unicode(t) for t in corpus]
    assert any(not t.isascii() for t in corpus) and any(t.isascii() and tokenize(t) for t in corpus)


def _strings(obj: object) -> list[str]:
    if isinstance(obj, str):
        return [obj]
    if isinstance(obj, dict):
        return [s for v in obj.values() for s in _strings(v)]
    if isinstance(obj, list):
        return [s for v in obj for s in _strings(v)]
    return []


def test_a_reason_names_the_words_as_written_not_their_stems() -> None:
    """A decision's reason read "replaced argocd -> canari, day" on the CLI: the stems, not the user's words."""
    text = "The billing service can be deployed any day now that we have canaries."
    assert surface(frozenset({"canari", "day"}), text) == ["day", "canaries"]
    assert surface(frozenset({"argocd"}), "Deploys go through ArgoCD; never on Fridays.") == ["ArgoCD"]
    assert surface(frozenset({"absent"}), "nothing here") == ["absent"]
