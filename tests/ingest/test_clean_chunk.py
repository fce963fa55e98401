"""Clean (docs/design.md §3.1) and chunk (§3.3): real text, the model's own tokenizer, and property tests."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from memgraph.embed import TokenCounter
from memgraph.errors import ValidationError
from memgraph.ingest.chunk import chunk_text, looks_like_turn
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
        ("\u200b\u200b \u2060\ufeff", "invisible"),  # zero-width space, word joiner, BOM: nothing shows
    ],
)
def test_clean_text_typed_errors(value: object, message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        clean_text(value, what="text", max_chars=100)


def test_format_characters_inside_text_are_kept() -> None:
    """Zero-width joiners and direction marks carry meaning inside text (emoji sequences, mixed scripts)."""
    assert clean_text("deploy \u202egnp\u202c now", what="text", max_chars=100) == "deploy \u202egnp\u202c now"
    assert clean_text("\u200bhi", what="text", max_chars=100) == "\u200bhi"


def test_clean_text_is_the_canonical_form() -> None:
    assert clean_text("  Caf\u0065\u0301\r\nnext\x00 line  ", what="text", max_chars=100) == "Caf\u00e9\nnext line"


def _nonspace(s: str) -> str:
    return re.sub(r"\s+", "", s)


def test_short_text_is_one_chunk(counter: TokenCounter) -> None:
    chunks = chunk_text(SEED_EXAMPLES[0], counter.count, max_tokens=300)
    assert [c.text for c in chunks] == [SEED_EXAMPLES[0]]
    assert chunks[0].tokens == counter.count(SEED_EXAMPLES[0])


def _texts(text: str, counter: TokenCounter, **kw: object) -> list[str]:
    return [c.text for c in chunk_text(text, counter.count, max_tokens=300, **kw)]  # type: ignore[arg-type]


def test_paragraphs_and_sentences_with_separate_facts_are_separate(counter: TokenCounter) -> None:
    # the README snippet: one correction and one constraint, not one correction
    assert _texts("Actually, the standup moved to 9:30.\n\nNever push to main on Fridays.", counter) == [
        "Actually, the standup moved to 9:30.",
        "Never push to main on Fridays.",
    ]
    assert _texts("\n\n".join(SEED_EXAMPLES), counter) == SEED_EXAMPLES  # short paragraphs no longer merge
    assert _texts("The launch is on 12 March. Never deploy Atlas on Fridays.", counter) == [
        "The launch is on 12 March.",
        "Never deploy Atlas on Fridays.",
    ]


def test_a_sentence_that_leans_on_the_one_before_stays_with_it(counter: TokenCounter) -> None:
    assert _texts("Priya owns the onboarding flow. It ships in the next release. Dr. Okafor reviews it.", counter) == [
        "Priya owns the onboarding flow. It ships in the next release.",
        "Dr. Okafor reviews it.",  # "Dr." does not end a sentence
    ]
    assert _texts("The deploy freeze starts Friday. But hotfixes are allowed. Thanks!", counter) == [
        "The deploy freeze starts Friday. But hotfixes are allowed. Thanks!"
    ]


def test_lists_code_and_headings_stay_whole(counter: TokenCounter) -> None:
    steps = "To release Atlas:\n1. Bump the version.\n2. Run make release.\n3. Announce it in the channel."
    code = "```bash\nmake release\n```"
    text = f"# Release notes\n\n{steps}\n\nCheers, Ada\n\n{code}"
    # the heading joins the list after it, a fragment the unit before it, and the code block stays apart
    assert _texts(text, counter) == [f"# Release notes\n\n{steps}\n\nCheers, Ada", code]
    table = "| day | host |\n|---|---|\n| Mon | Ada |\n| Tue | Grace |"
    assert _texts(table, counter) == [table]


def test_jotted_lines_with_their_own_label_are_separate(counter: TokenCounter) -> None:
    """A newcomer's notes file: three jotted lines became one memory (a lower-case line read as a wrapped one)."""
    lines = ["car - MOT due 14 March, garage is Patel Motors on Hill Rd", "vet: Dr Osei, jabs every 12 months",
             "kitchen budget: ~12k (was 10k)"]
    assert _texts("\n".join(lines), counter) == lines
    # a wrapped sentence and a connective's label still continue the line before
    assert _texts("The meeting moved\nto Thursday at 10.", counter) == ["The meeting moved\nto Thursday at 10."]
    assert len(_texts("We agreed on three things today\nalso: bring the charger", counter)) == 1


def test_a_conversation_turn_stays_one_unit(counter: TokenCounter) -> None:
    turn = "Caroline: Hey Mel! Good to see you. I went to a support group yesterday."
    assert _texts(turn, counter, sentences=False) == [turn]
    assert looks_like_turn(turn) and not looks_like_turn("Note: the standup moved to 9:30.")


def test_ten_paragraph_notes_are_not_one_memory(counter: TokenCounter) -> None:
    notes = "\n\n".join(
        [
            "Notes from the Atlas weekly, Monday 3 March.",
            "Priya demoed the new onboarding flow; it is ready for review.",
            "The Atlas launch deadline is Wednesday 12 March.",
            "Never deploy Atlas on Fridays.",
            "Marco will draft the release announcement.",
            "The staging database moves to PostgreSQL 16 next week.",
            "We agreed to keep the standup at 9:30.",
            "The Atlas app icon must use the brand blue.",
            "Budget for the launch party is 800 euros.",
            "Next meeting: Monday 10 March.",
        ]
    )
    assert len(chunk_text(notes, counter.count, max_tokens=300)) == 10


def test_long_paragraph_splits_at_sentence_ends(counter: TokenCounter) -> None:
    sentences = [f"Sentence number {i} talks about PostgreSQL migrations and Alembic." for i in range(40)]
    text = " ".join(sentences)
    chunks = chunk_text(text, counter.count, max_tokens=60)
    assert [c.text for c in chunks] == sentences  # one statement each
    long_turn = chunk_text(text, counter.count, max_tokens=60, sentences=False)
    assert len(long_turn) > 5
    for c in long_turn:
        assert c.tokens <= 60
        assert c.text.endswith(".") and c.text[0].isupper()  # cut between sentences, never inside one


def test_code_block_is_not_split(counter: TokenCounter) -> None:
    code = "```python\n" + "\n".join(f"x_{i} = compute({i}, 'value')  # step {i}" for i in range(30)) + "\n```"
    text = f"Here is the script we use.\n\n{code}\n\nRun it nightly."
    chunks = chunk_text(text, counter.count, max_tokens=50, code_max_tokens=2000)
    assert any(c.text == code and c.code for c in chunks)


def test_sentence_without_boundaries_still_respects_max(counter: TokenCounter) -> None:
    text = " ".join(["word"] * 700) + " " + "x" * 3000
    chunks = chunk_text(text, counter.count, max_tokens=100)
    assert all(c.tokens <= 100 for c in chunks)
    assert _nonspace("".join(c.text for c in chunks)) == _nonspace(text)


def test_cjk_text_chunks(counter: TokenCounter) -> None:
    text = "我喜欢在早上喝咖啡。" * 80
    chunks = chunk_text(text, counter.count, max_tokens=100)
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
@example(doc="Memory. Memory https://example.com/a?b=c.", max_tokens=8, sentences=False)  # a cut inside a URL
@given(doc=_document, max_tokens=st.integers(min_value=8, max_value=120), sentences=st.booleans())
def test_chunking_loses_nothing_and_respects_bounds(
    counter: TokenCounter, doc: str, max_tokens: int, sentences: bool
) -> None:
    text = clean(doc)
    chunks = chunk_text(text, counter.count, max_tokens=max_tokens, code_max_tokens=400, sentences=sentences)
    # no character of content lost, order kept: chunks are slices with only whitespace between them
    pos = 0
    for c in chunks:
        assert text[c.start : c.end] == c.text and c.text == c.text.strip() and c.text
        assert text[pos : c.start].strip() == ""
        pos = c.end
    assert text[pos:].strip() == ""
    assert _nonspace("".join(c.text for c in chunks)) == _nonspace(text)
    # bounds: every chunk within max (a fenced code block may reach code_max_tokens, never more)
    for c in chunks:
        assert c.tokens == counter.count(c.text)
        limit = 400 if c.code else max_tokens
        assert c.tokens <= limit
