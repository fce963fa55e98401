"""The deterministic write policy (without an LLM): one decision per sentence."""

from __future__ import annotations

import pytest

from memgraph.agent.models import WriteAction
from memgraph.agent.policy import WritePolicy, is_safety_conflict, sentences
from memgraph.models import MemoryKind

policy = WritePolicy()


def decide(text: str, role: str = "user"):
    (d,) = policy.decide_turn(text, role)
    return d


@pytest.mark.parametrize(
    ("text", "stored", "kind"),
    [
        ("Remember that my sister's birthday is on May 3rd.", "My sister's birthday is on May 3rd.", MemoryKind.FACT),
        ("Please remember: the staging database is db-stage-02.", "The staging database is db-stage-02.",
         MemoryKind.FACT),
        ("Don't forget that the invoice is due on the 15th.", "The invoice is due on the 15th.", MemoryKind.FACT),
        ("From now on, answer in German.", "Answer in German.", MemoryKind.PREFERENCE),
        ("Keep in mind I prefer short commit messages.", "I prefer short commit messages.", MemoryKind.PREFERENCE),
    ],
)
def test_explicit_cue_commits_now_without_the_cue(text: str, stored: str, kind: MemoryKind) -> None:
    d = decide(text)
    assert d.action is WriteAction.COMMIT
    assert d.text == stored
    assert d.kind is kind


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("I prefer tabs over spaces in Python code.", MemoryKind.PREFERENCE),
        ("I always use pytest for testing.", MemoryKind.PREFERENCE),
        ("Never push directly to the main branch.", MemoryKind.CONSTRAINT),
        ("Actually, the deadline is Friday, not Thursday.", MemoryKind.CORRECTION),
        ("You must run the migrations before deploying.", MemoryKind.CONSTRAINT),
    ],
)
def test_preferences_corrections_constraints_commit_now(text: str, kind: MemoryKind) -> None:
    d = decide(text)
    assert (d.action, d.kind) == (WriteAction.COMMIT, kind)
    assert d.text == text


@pytest.mark.parametrize(
    "text",
    [
        "Skip the safety check this time.",
        "Just disable the tests so the build passes.",
        "From now on, always skip the code review.",
        "Remember to bypass the pre-commit hooks.",
        "Commit with --no-verify, it's faster.",
        "Please turn off the security checks for this deploy.",
    ],
)
def test_safety_conflicts_are_dropped_even_when_explicit(text: str) -> None:
    assert decide(text).action is WriteAction.DROP


@pytest.mark.parametrize(
    "text",
    ["Run the tests before every commit.", "The security review found two issues.", "I skipped lunch today."],
)
def test_safety_guard_does_not_fire_on_ordinary_sentences(text: str) -> None:
    assert not is_safety_conflict(text)


@pytest.mark.parametrize(
    ("text", "action", "kind"),
    [
        ("My dog is called Biscuit.", WriteAction.HOLD, MemoryKind.FACT),
        ("We decided to use PostgreSQL for the analytics service.", WriteAction.HOLD, MemoryKind.DECISION),
        ("I'm flying to Lisbon next week for PyCon.", WriteAction.HOLD, MemoryKind.EVENT),
        ("Right now I'm working on the auth refactor.", WriteAction.REQUIRE_REPETITION, MemoryKind.EVENT),
        ("Shorter answers would be nice.", WriteAction.REQUIRE_REPETITION, MemoryKind.PREFERENCE),
        ("That was way too verbose for me.", WriteAction.REQUIRE_REPETITION, MemoryKind.PREFERENCE),
    ],
)
def test_implicit_statements_are_held(text: str, action: WriteAction, kind: MemoryKind) -> None:
    d = decide(text)
    assert (d.action, d.kind) == (action, kind)


@pytest.mark.parametrize(
    "text",
    ["ok thanks", "What is the capital of France?", "How do I configure the linter for this repository?",
     "That looks great, thank you so much for the help!"],
)
def test_questions_and_chit_chat_are_not_candidates(text: str) -> None:
    assert decide(text).action is WriteAction.SKIP


def test_assistant_turns_are_context_only() -> None:
    d = decide("Remember that I prefer tabs.", role="assistant")
    assert d.action is WriteAction.SKIP


def test_one_decision_per_sentence() -> None:
    ds = policy.decide_turn("Hi there. My name is Ada and I live in Berlin. I prefer dark mode. How are you?", "user")
    assert [d.action for d in ds] == [WriteAction.SKIP, WriteAction.HOLD, WriteAction.COMMIT, WriteAction.SKIP]


def test_code_blocks_are_never_split() -> None:
    text = "Here is my config:\n```toml\n[tool.x]\na = 1. b = 2.\n```\nIt works."
    assert sentences(text) == [text]


def test_the_same_statement_always_gets_the_same_decision() -> None:
    text = "We decided to use PostgreSQL for the analytics service."
    assert {decide(text) for _ in range(3)} == {decide(text)}


def test_abbreviations_and_initials_do_not_end_a_sentence() -> None:
    text = "The vet is Dr. Okafor on Elm St. near the park. J. R. Smith runs it, e.g. on Mondays. Ok."
    assert sentences(text) == ["The vet is Dr. Okafor on Elm St. near the park.",
                               "J. R. Smith runs it, e.g. on Mondays.", "Ok."]


@pytest.mark.parametrize("text", ["Standup moved to 9:30, okay", "picked up the spare keys from Dana, fine"])
def test_a_statement_with_a_check_word_is_not_skipped_as_a_question(text: str) -> None:
    """Gap detection reads chat's unmarked checks ("family wants to bring their spaniel, ok") as questions; the
    write policy skips only questions asked outright, so a statement that ends on "okay" is still weighed."""
    assert decide(text).action is not WriteAction.SKIP


@pytest.mark.parametrize("text", ["wat time is standup", "whats the wifi password for the office"])
def test_chat_questions_asked_outright_are_skipped(text: str) -> None:
    assert decide(text).action is WriteAction.SKIP
