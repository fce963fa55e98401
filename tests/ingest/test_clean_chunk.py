"""Clean (seed 000 §1.2) and chunk (§1.3): real text, the model's own tokenizer, and property tests."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from memgraph.embed import TokenCounter
from memgraph.errors import ValidationError
from memgraph.ingest.chunk import chunk_text
from memgraph.ingest.clean import clean, clean_text, split_code

from .conftest import SEED_EXAMPLES


def test_clean_normalises_without_touching_content() -> None:
    decomposed = "Cafe\u0301 au lait"  # e + combining acute
    assert clean("  " + decomposed + "  ") == "Café au lait"
    assert clean("a\r\nb\rc") == "a\nb\nc"
    assert clean("one\n\n\n\n\ntwo\n \n\t\nthree") == "one\n\ntwo\n\nthree"
    assert clean("bell\x07 and nul\x00 gone, tab\tkept") == "bell and nul gone, tab\tkept"
    assert clean("**bold** _it_ `code` # Heading") == "**bold** _it_ `code` # Heading"


def test_clean_keeps_code_blocks_verbatim() -> None:
    code = "```python\ndef f():\n\n\n\n    return 1\n```"
    text = f"Intro\n\n\n\n{code}\n\n\n\nOutro"
    out = clean(text)
    assert code in out  # blank lines inside the fence survive
    assert out.startswith("Intro\n\n```") and out.endswith("```\n\nOutro")
    assert [is_code for is_code, _ in split_code(out)] == [False, True, False]


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (None, "must be a string"),
        (42, "must be a string"),
        ("bad \ud800 x", "surrogate"),
        ("x" * 101, "maximum"),
        (" \x00\r\n\t ", "empty"),
    ],
)
def test_clean_text_typed_errors(value: object, message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        clean_text(value, what="text", max_chars=100)


def test_clean_text_is_the_canonical_form() -> None:
    assert clean_text("  Caf\u0065\u0301\r\nnext\x00 line  ", what="text", max_chars=100) == "Caf\u00e9\nnext line"


def _nonspace(s: str) -> str:
    return re.sub(r"\s+", "", s)


def test_short_text_is_one_chunk(counter: TokenCounter) -> None:
    chunks = chunk_text(SEED_EXAMPLES[0], counter.count, max_tokens=300, min_tokens=50)
    assert [c.text for c in chunks] == [SEED_EXAMPLES[0]]
    assert chunks[0].tokens == counter.count(SEED_EXAMPLES[0])


def test_paragraphs_first_then_small_ones_merge(counter: TokenCounter) -> None:
    text = "\n\n".join(SEED_EXAMPLES)  # five short paragraphs (~15 tokens each)
    chunks = chunk_text(text, counter.count, max_tokens=40, min_tokens=20)
    assert len(chunks) > 1
    assert all(c.tokens <= 40 for c in chunks)
    for c in chunks:  # merged chunks keep whole paragraphs
        assert all((p in c.text) or (p not in text[c.start : c.end]) for p in SEED_EXAMPLES)
    assert _nonspace("".join(c.text for c in chunks)) == _nonspace(text)


def test_long_paragraph_splits_at_sentence_ends(counter: TokenCounter) -> None:
    sentences = [f"Sentence number {i} talks about PostgreSQL migrations and Alembic." for i in range(40)]
    text = " ".join(sentences)
    chunks = chunk_text(text, counter.count, max_tokens=60, min_tokens=10)
    assert len(chunks) > 5
    for c in chunks:
        assert c.tokens <= 60
        assert c.text.endswith(".") and c.text[0].isupper()  # cut between sentences, never inside one


def test_code_block_is_not_split(counter: TokenCounter) -> None:
    code = "```python\n" + "\n".join(f"x_{i} = compute({i}, 'value')  # step {i}" for i in range(30)) + "\n```"
    text = f"Here is the script we use.\n\n{code}\n\nRun it nightly."
    chunks = chunk_text(text, counter.count, max_tokens=50, min_tokens=5, code_max_tokens=2000)
    assert any(c.text == code and c.code for c in chunks)


def test_sentence_without_boundaries_still_respects_max(counter: TokenCounter) -> None:
    text = " ".join(["word"] * 700) + " " + "x" * 3000
    chunks = chunk_text(text, counter.count, max_tokens=100, min_tokens=10)
    assert all(c.tokens <= 100 for c in chunks)
    assert _nonspace("".join(c.text for c in chunks)) == _nonspace(text)


def test_cjk_text_chunks(counter: TokenCounter) -> None:
    text = "我喜欢在早上喝咖啡。" * 80
    chunks = chunk_text(text, counter.count, max_tokens=100, min_tokens=20)
    assert len(chunks) > 1 and all(c.tokens <= 100 for c in chunks)
    assert "".join(c.text for c in chunks) == text


# -- property tests ----------------------------------------------------------------------------------------

_word = st.one_of(
    st.sampled_from(
        [
            "memory",
            "graph",
            "Neo4j",
            "SQLite",
            "embedding",
            "user",
            "prefers",
            "tabs",
            "42",
            "2024-05-01",
            "café",
            "naïve",
            "東京",
            "😀",
            "e.g.",
            "Dr.",
            "U.S.",
            "x" * 40,
            "https://example.com/a?b=c",
        ]
    ),
    st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=12),
)
_sentence = st.builds(
    lambda ws, end: " ".join(ws).capitalize() + end,
    st.lists(_word, min_size=1, max_size=25),
    st.sampled_from([".", "!", "?", "", "。"]),
)
_paragraph = st.builds(" ".join, st.lists(_sentence, min_size=1, max_size=12))
_code = st.builds(lambda body: f"```\n{body}\n```", st.text(alphabet="abc =()\n\t", max_size=200))
_document = st.builds("\n\n".join, st.lists(st.one_of(_paragraph, _paragraph, _code), min_size=1, max_size=8))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@example(doc="Memory. Memory https://example.com/a?b=c.", max_tokens=8, frac=0.5)  # a cut inside a URL
@given(doc=_document, max_tokens=st.integers(min_value=8, max_value=120), frac=st.floats(0.0, 0.9))
def test_chunking_loses_nothing_and_respects_bounds(
    counter: TokenCounter, doc: str, max_tokens: int, frac: float
) -> None:
    text = clean(doc)
    min_tokens = int(max_tokens * frac)
    chunks = chunk_text(text, counter.count, max_tokens=max_tokens, min_tokens=min_tokens, code_max_tokens=400)
    # no character of content lost, order kept: chunks are slices with only whitespace between them
    pos = 0
    for c in chunks:
        assert text[c.start : c.end] == c.text and c.text == c.text.strip() and c.text
        assert text[pos : c.start].strip() == ""
        pos = c.end
    assert text[pos:].strip() == ""
    assert _nonspace("".join(c.text for c in chunks)) == _nonspace(text)
    # bounds: every chunk within max (a fenced code block may reach code_max_tokens, never more)
    for i, c in enumerate(chunks):
        assert c.tokens == counter.count(c.text)
        limit = 400 if c.code else max_tokens
        assert c.tokens <= limit
        if c.tokens < min_tokens and len(chunks) > 1:
            # a small chunk stays only where merging it with a neighbour would break the max
            prev_ok = i > 0 and counter.count(text[chunks[i - 1].start : c.end]) <= max_tokens
            next_ok = i + 1 < len(chunks) and counter.count(text[c.start : chunks[i + 1].end]) <= max_tokens
            assert not prev_ok and not next_ok
