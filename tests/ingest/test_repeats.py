"""The shapes that make two close statements no repeat (memgraph/ingest/repeats.py): the rules read one of them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memgraph import MemoryEngine, Settings
from memgraph.ingest import repeats

DATA = Path(__file__).resolve().parent.parent / "data" / "decisions"
#: The labelled parts that have been read (never a blind one).
READ = ("dev", "heldout", "heldout3", "heldout4", "heldout5", "heldout6", "heldout7", "neighbours")
MAX_COVERED = Settings(store=":memory:").dedup_sentence_max_covered


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I enjoy driving. I'm a woman.", "I enjoy driving."),  # cosine 0.84: the rules' paraphrase shape
        ("I like heavy metal.", "I like heavy metal. I like talking to anyone that is nice."),
    ],
)
def test_rules_never_reinforce_a_text_with_a_sentence_more(embedder, tmp_path, old: str, new: str) -> None:  # type: ignore[no-untyped-def]
    """With the default settings (no learned gate), a repeat of one sentence of two, or one with a sentence more,
    is stored: a reinforcement would lose the sentence (and did, before `one_says_more`)."""
    with MemoryEngine.open(str(tmp_path / "store"), embedder=embedder) as engine:
        first = engine.remember(old, user_id="u")
        second = engine.remember(new, user_id="u")
        assert second.id != first.id
        assert len(engine.list(user_id="u")) == 2


def test_no_labelled_duplicate_is_vetoed() -> None:
    """Every written duplicate of the read labelled parts passes all three vetoes (the wording of a repeat varies:
    "Dr.", "Grandma" / "Gran", "my partner's" / "my partner"). Not the chat turns among the neighbour pairs: 4 of
    their 4 repeats are the same thanks said in other sentences, which "one says more" holds back (the price of it)."""
    for part in READ:
        for line in (DATA / f"pairs_{part}.jsonl").read_text(encoding="utf-8").splitlines():
            pair = json.loads(line)
            if pair["label"] == "duplicate" and pair["domain"] != "chat":
                assert repeats.veto(pair["new"], pair["old"], MAX_COVERED) is None, pair["id"]


def test_people_groups_and_sentences() -> None:
    assert repeats.people("My partner's name is Jordan.") == repeats.people("Jordan is my partner.")
    assert repeats.people("Grandpa lives in Cork.") == repeats.people("My grandfather lives in Cork.")
    assert repeats.people("Kasper streams when he is free.") == frozenset()
    assert not repeats.says_more("Dr. Okafor's clinic hours are 2 to 6 pm.", "Dr Okafor sees patients 14:00-18:00.",
                                 MAX_COVERED)
    assert repeats.says_more("I like the movie. I drive a truck.", "I like the movie.", MAX_COVERED)
    assert not repeats.says_more("Thanks, Maria! I appreciate your support, it really means a lot.",
                                 "Thanks, Maria. Your support means a lot.", MAX_COVERED)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("My aunt's flat is on the fourth floor.", "My cousin's flat is on the fourth floor."),
        ("Her husband's train leaves at 7:10.", "Her daughter's train leaves at 7:10."),
        ("My boss drives a grey Skoda.", "My neighbour drives a grey Skoda."),
    ],
)
def test_the_same_words_of_another_person_are_no_repeat(embedder, tmp_path, old: str, new: str) -> None:  # type: ignore[no-untyped-def]
    """Each side names a person the other does not: two facts, both kept (a reinforcement lost the new one)."""
    with MemoryEngine.open(str(tmp_path / "store"), embedder=embedder) as engine:
        first = engine.remember(old, user_id="u")
        second = engine.remember(new, user_id="u")
        assert second.id != first.id and second.content == new
        assert {m.content for m in engine.list(user_id="u")} == {old, new}


def test_one_person_called_two_ways_still_repeats(embedder, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """One kinship group in two words is one person: the repeat still reinforces."""
    with MemoryEngine.open(str(tmp_path / "store"), embedder=embedder) as engine:
        first = engine.remember("Grandpa's hearing aid appointment is on 3 March.", user_id="u")
        second = engine.remember("My grandfather's hearing aid appointment is on 3 March.", user_id="u")
        assert second.id == first.id
