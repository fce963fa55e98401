"""Held-out 12's duplicate and supersede forms (bench/RESULTS.md, "Write-path decisions, held-out 12's duplicates and
supersedes"): sentences of my own in other domains, none from a labelled part, each form with a near-miss it must
leave alone. Real model, the rules as the write path runs them."""

from __future__ import annotations

import pytest

from memgraph.ingest.reconcile import ReconcileAction
from tests.ingest.test_reconcile import _decide

SUPERSEDE, CREATE, REINFORCE = ReconcileAction.SUPERSEDE, ReconcileAction.CREATE, ReconcileAction.REINFORCE


@pytest.mark.parametrize(
    ("old", "new", "action"),
    [
        # a holder or a thing that ended, its successor told after it
        ("Our bread flour comes from Marriage's mill.",
         "Marriage's mill was sold off, so our bread flour comes from Shipton Mill these days.", SUPERSEDE),
        ("The club captain is Anna Pryce.",
         "Anna stood down at the end of the season and Joe Hartley was elected captain.", SUPERSEDE),
        ("We print the newsletter on the Riso GR3750.", "The Riso has been replaced by a Konica digital press.",
         SUPERSEDE),
        ("Our Friday market stall is at Castle Square.",
         "The Castle Square market closed in March, so the stall is at the Corn Hall now.", SUPERSEDE),
        # ("We've" is no holder: what follows "left" is the replaced value)
        ("Member payments go through GoCardless.", "We've left GoCardless and moved member payments to Stripe.",
         SUPERSEDE),
        # the old value named as replaced, the slot said again, the parse's subject the new value (a newcomer's
        # renovation notes, then one of my own); near-miss: another thing's brand replaced
        ("Worktops: we picked oak, 40 mm, from the Leeds supplier.", "We went with walnut worktops instead of oak.",
         SUPERSEDE),
        ("For the hall floor we chose pine boards.", "We went with oak boards in the hall instead of pine.", SUPERSEDE),
        ("My laptop is an HP.", "We switched the office printer from HP to Canon.", CREATE),
        # near-miss: the holder ended another role; only the name is shared
        ("Anna Pryce coaches the juniors on Saturdays.", "Anna stood down as club captain last season.", CREATE),
        # the speaker's own slip, by its verb
        ("The hall hire is £60 an evening.", "I quoted the hall hire wrong, it's £75 an evening.", SUPERSEDE),
        ("The boiler service costs £90.", "Had another look at the invoice: the boiler service was £95.", SUPERSEDE),
        ("A bag of kindling is £6.", "sorry I said 6 for the kindling, it's 7", SUPERSEDE),
        # near-misses: a look round, a saying that corrects nothing
        ("The flat has two bedrooms.", "We had another look round the flat on Saturday.", CREATE),
        ("The standard bouquet is £35.", "I said to the customer that we'd deliver it by noon.", CREATE),
        # a date put back, a delay told as not being ready
        ("The quiz night is on 3 March.", "We've pushed the quiz night back two weeks to 17 March.", SUPERSEDE),
        ("The kitchen worktops are due on Tuesday.",
         "Spoke to the fitters: the worktops won't be ready until Friday.", SUPERSEDE),
        ("The shop is open until 6.", "The café won't be open until the spring.", CREATE),
        # "Actually" that adds a condition drops no value of the old statement; one that does still corrects
        ("We repair bicycles.", "Actually, bicycles need booking in a week ahead.", CREATE),
        ("The treasurer is Alan Moss.", "Actually, the treasurer is Fiona Gill.", SUPERSEDE),
    ],
)
def test_supersede_forms_of_held_out_12(embedder, old: str, new: str, action: ReconcileAction) -> None:  # type: ignore[no-untyped-def]
    """An ended holder named with its successor, the speaker's own slip, a date put back replace the old statement;
    the near-misses do not."""
    decision = _decide(embedder, old, new)
    assert decision.action is action, decision


@pytest.mark.parametrize(
    ("old", "new", "action"),
    [
        # a paraphrase anchored by a measured value, reworded more widely
        ("The loft hatch is 60 cm wide.", "The opening into the loft measures 60 centimetres across.", REINFORCE),
        ("Climbing shoes are £5 to hire for a session.",
         "For each session, renting a pair of climbing shoes costs 5 pounds.", REINFORCE),
        ("The cold store is kept at 3 °C.", "We hold the temperature in the cold store at 3 °C the whole time.",
         REINFORCE),
        ("Hedge cutting is done before 1 March.", "All our hedges get trimmed ahead of 1 March every winter.",
         REINFORCE),
        # near-misses: a bare number names the thing ("Platform 4"), another subject with the same time
        ("Platform 4 is closed for resurfacing.", "Platform 4 only takes trains to Leeds.", CREATE),
        ("The gym closes at 22:00 on weekdays.", "The pharmacy shuts at 22:00 every weekday.", CREATE),
        # a repeat that goes on says more: reinforcing the old text would lose the detail
        ("Parking is free for members.", "Parking is free for members, with a permit from reception.", CREATE),
        ("Parking is free for members.", "Parking is free for members!", REINFORCE),
    ],
)
def test_duplicate_forms_of_held_out_12(embedder, old: str, new: str, action: ReconcileAction) -> None:  # type: ignore[no-untyped-def]
    """Measured values hold a wider paraphrase together; a bare number does not; a longer repeat is no repeat."""
    decision = _decide(embedder, old, new)
    assert decision.action is action, decision


@pytest.mark.parametrize(
    ("old", "new", "action"),
    [
        # a bare number named as not so beside a counted one is of its unit; "we'll" is no subject (a newcomer's
        # trip notes, then my own in other domains)
        ("We want to spend at least three nights in Kyoto.", "we'll do four nights in Kyoto, not three", SUPERSEDE),
        ("The front row of the choir has 20 chairs.", "we've put 24 chairs in the front row of the choir, not 20",
         SUPERSEDE),
        ("The order was 12 boxes of A4 paper.", "they're sending 15 boxes of A4 paper, not 12", SUPERSEDE),
        # near-miss: the denied number is of another count than the old one's
        ("We ordered 12 boxes of A4 paper.", "we'll need 3 pallets for the move, not 2", CREATE),
    ],
)
def test_a_bare_number_denied_takes_its_unit(embedder, old: str, new: str, action: ReconcileAction) -> None:  # type: ignore[no-untyped-def]
    """ "…, not three" denies three of what the text counts, and a contracted pronoun opens the text, it is not
    what the text is about."""
    decision = _decide(embedder, old, new)
    assert decision.action is action, decision
