"""Plain misses of held-out 22 (bench/RESULTS.md, "Write-path decisions, held-out 22's facts in questions and plain
misses"): "one" standing for a noun read as a count, "a couple of years" read as no value, an adjective in -ing
after an article read as a verb phrase, a title in quotes changed. Sentences of my own, each with a near-miss."""

from __future__ import annotations

import pytest

from memgraph.ingest.reconcile import ReconcileAction
from memgraph.ingest.spoken import digitise
from memgraph.ingest.statement import statement
from memgraph.ingest.titles import retitled
from memgraph.ingest.values import values
from tests.ingest.test_reconcile import _decide


def test_one_after_an_article_and_its_modifiers_is_a_pronoun() -> None:
    assert values("The kettle I bought is a 2-litre one.", compare=True).quantities == {("ml", 2000.0)}
    assert ("", 1.0) not in values("I picked the cheapest one.", compare=True).quantities
    # a count: no article, or a preposition between ("a table for one")
    assert ("", 1.0) in values("We need a table for one.", compare=True).quantities
    assert ("", 1.0) in values("Only one.", compare=True).quantities


def test_a_couple_of_units_of_time_is_two() -> None:
    assert digitise("in a couple of weeks") == "in 2 weeks"
    assert values("due in the next couple of years", compare=True).kinds() == values(
        "due within two years", compare=True
    ).kinds()
    # not before other nouns: "a couple of friends" may be two or three
    assert digitise("a couple of friends came") == "a couple of friends came"


def test_an_ing_word_after_an_article_qualifies_a_noun() -> None:
    assert statement("Biscuit is a working sheepdog.").complement == {"work", "sheepdog"}
    assert statement("It is the leading brand.").complement == {"lead", "brand"}
    # without an article it is a verb phrase: no complement
    assert not statement("The boiler is working.").complement
    assert not statement("The hall is being painted.").complement
    assert not statement("I am a retired bus driver.").complement  # an -ed word: a change cue, left as it was


def test_a_title_in_quotes_changed() -> None:
    old = statement("Our newsletter is called 'Parish Pump'.")
    assert retitled(statement("We've renamed the newsletter to 'Village Voice'."), old)
    # the same title, another thing changed, or no quote: no change of it
    assert not retitled(statement("We've renamed the newsletter to 'Parish Pump'."), old)
    assert not retitled(statement("We've changed the quiz theme to 'Movies'."), old)
    assert not retitled(statement("We've renamed the newsletter."), old)


@pytest.mark.parametrize(
    ("old", "new", "action"),
    [
        ("The roofer says the chimney needs repointing within two years.",
         "According to the roofer, the chimney has to be repointed in the next couple of years.",
         ReconcileAction.REINFORCE),
        ("I bought a 10-litre pressure washer from Screwfix for £180.",
         "The pressure washer I got from Screwfix is a 10-litre one; it cost £180.", ReconcileAction.REINFORCE),
        ("Mabel is a golden retriever.", "Mabel is a working springer spaniel.", ReconcileAction.CONTRADICT),
        ("The choir's spring anthem is 'Zadok the Priest'.",
         "Did you hear they've changed the spring anthem to 'The Lark Ascending'?", ReconcileAction.SUPERSEDE),
    ],
)
def test_held_out_22_plain_shapes(embedder, old: str, new: str, action: ReconcileAction) -> None:  # type: ignore[no-untyped-def]
    assert _decide(embedder, old, new).action is action
