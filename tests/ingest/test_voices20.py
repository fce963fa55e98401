"""Duplicates and supersedes said in the voices of held-out 20 (bench/RESULTS.md, "Write-path decisions, held-out
20's duplicates and supersedes"): a system's notification and a person's note of the same booking (notices.py),
"no." as the sign for a number. Sentences of my own in other domains, each form with a near-miss it must leave
alone. Real model, the rules as the write path runs them."""

from __future__ import annotations

import pytest

from memgraph.ingest import notices, signals
from memgraph.ingest.reconcile import ReconcileAction
from memgraph.ingest.statement import statement
from tests.ingest.test_reconcile import _decide

SUPERSEDE, CREATE, REINFORCE, CONTRADICT = (
    ReconcileAction.SUPERSEDE, ReconcileAction.CREATE, ReconcileAction.REINFORCE, ReconcileAction.CONTRADICT,
)


def test_no_before_a_number_is_no_negation() -> None:
    assert not signals.is_negated("Seat no. 14, row F.")
    assert not signals.is_negated("Parcel left with the neighbour (No. 7).")
    assert signals.is_negated("There is no parking on site.")
    assert signals.is_negated("No, the parking is round the back.")


def test_a_notification_opens_with_a_header() -> None:
    assert notices.notification("Appointment confirmed: Dr Shah, Tue 4 Nov, 10:20.")
    assert notices.notification("Thank you for booking with Lakeside Kayaks, Sun 3 Aug, 14:00.")
    assert notices.notification("Your parcel #4471 has been delivered: left in the porch.")
    assert notices.notification("Your table reservation: 4 people, Fri 12 Dec, 19:30.")
    assert not notices.notification("I've confirmed the table for Friday.")
    assert not notices.notification("The vet appointment is on Tuesday at 10:20.")


def test_a_note_of_a_notification() -> None:
    notice = statement("Appointment confirmed: Dr Shah, Tue 4 Nov, 10:20, Elm Street Surgery. Patient no. 5573.")
    assert notices.noted(statement("I'm seeing Dr Shah at Elm Street on Tuesday 4 November at 10:20."), notice)
    # another time, another day, another place, a denial, a number the notification does not give
    assert not notices.noted(statement("I'm seeing Dr Shah on Tuesday 4 November at 11:20."), notice)
    assert not notices.noted(statement("I'm seeing Dr Shah on Wednesday 5 November at 10:20."), notice)
    assert not notices.noted(statement("I'm seeing Dr Shah at Park Road on Tuesday 4 November at 10:20."), notice)
    assert not notices.noted(statement("I'm not seeing Dr Shah on Tuesday 4 November at 10:20."), notice)
    assert not notices.noted(statement("I'm seeing Dr Shah on Tuesday 4 November at 10:20 in room 9."), notice)
    # two notifications are two messages, not a note of one
    assert not notices.noted(statement("Appointment confirmed: Dr Shah, Tue 4 Nov, 10:20."), notice)


@pytest.mark.parametrize(
    ("old", "new", "action"),
    [
        ("Booking confirmed: 2 x double kayaks, Lakeside Kayaks, Sun 3 Aug 14:00. Ref LK-3390.",
         "We've got two double kayaks at Lakeside on Sunday 3 August at 2pm (ref LK-3390).", REINFORCE),
        ("Thank you for registering for the Harbour Fun Run, Sun 7 Sep, 09:00. Start: Quay Steps.",
         "I'm signed up for the harbour fun run on Sunday 7 September, starting at Quay Steps at nine.", REINFORCE),
        # another start, the same day and time: no repeat (a conflict, or two notes)
        ("Thank you for registering for the Harbour Fun Run, Sun 7 Sep, 09:00. Start: Quay Steps.",
         "Our harbour fun run on 7 September starts from the Lifeboat Station at 9:00.", None),
    ],
)
def test_notification_and_note(embedder, old: str, new: str, action: ReconcileAction | None) -> None:  # type: ignore[no-untyped-def]
    decided = _decide(embedder, old, new).action
    assert decided is action if action else decided is not REINFORCE


def test_a_part_of_the_day_said_before_the_hour_marks_it() -> None:
    """"on Monday evenings at 7" is 19:00, as "at 7 in the evening" is; a morning, or an hour past noon that does
    not fall in the part of the day, stays as said."""
    from memgraph.ingest.values import values

    assert values("Choir is on Monday evenings at 7.").times == {1140}
    assert values("The surgery does Friday afternoons from 2 till 4.").times == {840, 960}
    assert values("I swim on Saturday mornings at 7.").times == {420}
    assert 1140 not in values("Wednesday evening at 11:30 the bar shuts, then bed at 7.").times
    assert values("Meet on Friday evening at 2.").times == {120}  # 14:00 is no evening
    # a few words of the clause between: both ways of saying the slot read one time
    said = values("thursday evening quiz starts half past 8").times
    assert said == values("Quiz is Thursday evenings at 8:30.").times == {1230}


@pytest.mark.parametrize(
    ("old", "new", "action"),
    [
        ("My pottery class is on Mondays at 7pm.", "I do pottery on Monday evenings at seven.", REINFORCE),
        ("My pottery class is on Mondays at 7pm.", "I do pottery on Monday evenings at eight.", None),
    ],
)
def test_an_hour_marked_by_the_day_part_before_it(embedder, old: str, new: str, action: ReconcileAction | None) -> None:  # type: ignore[no-untyped-def]
    decided = _decide(embedder, old, new).action
    assert decided is action if action else decided is not REINFORCE


def test_an_hour_denied_beside_a_clock_time() -> None:
    """"going at 10 now not 8": the bare 8 is the old hour (am or pm), as "not 8:00" would be; beside a count it
    stays a count."""
    from memgraph.ingest.statement import denied_values

    assert {480, 1200} <= denied_values("Ferry's going at 10 now not 8, the harbour office rang.")["time"]
    assert "time" not in denied_values("We need 10 chairs now not 8.")


@pytest.mark.parametrize(
    ("old", "new", "action"),
    [
        # a message that names the old hour as not so corrects it, under the bar an update without one needs
        ("Lou: the skip lorry is collecting from the yard at 8.",
         "Kim: skip lorry rang, they're collecting at 2 now not 8.", SUPERSEDE),
    ],
)
def test_an_hour_named_as_not_so_corrects(embedder, old: str, new: str, action: ReconcileAction) -> None:  # type: ignore[no-untyped-def]
    assert _decide(embedder, old, new).action is action


def test_a_correction_that_says_only_the_value() -> None:
    from memgraph.ingest import ellipsis

    assert ellipsis.bare_value("ok scratch that - Fridays, the hall is booked on Tuesday.") == {"weekday": {4}}
    assert ellipsis.bare_value("Actually, 7:30.") == {"time": {450}}
    # a statement after the opener, or no opener: no value said alone
    assert ellipsis.bare_value("Actually, I love Fridays.") == {}
    assert ellipsis.bare_value("Fridays, the hall is booked on Tuesday.") == {}
    old = statement("Choir practice is on Tuesdays at 7.")
    assert ellipsis.corrected_value("ok scratch that - Fridays, the hall is booked on Tuesday.", old)
    assert ellipsis.corrected_value("Actually, Tuesdays.", old) is None  # the same value
    assert ellipsis.corrected_value("Actually, the 19th.", old) is None  # a kind the old does not give
    assert ellipsis.corrected_value(
        "Actually, Fridays.", statement("Bins go out on Mondays and Thursdays.")) is None  # which of two?


@pytest.mark.parametrize(
    ("old", "new", "action"),
    [
        ("Choir practice is on Tuesdays at 7.", "ok scratch that - Fridays, the hall is booked on Tuesday.",
         SUPERSEDE),
        # a value of a kind the old statement does not give corrects nothing of it
        ("Choir practice is on Tuesdays at 7.", "ok scratch that - 40 chairs, the hall is smaller.", None),
    ],
)
def test_a_value_said_alone_corrects(embedder, old: str, new: str, action: ReconcileAction | None) -> None:  # type: ignore[no-untyped-def]
    decided = _decide(embedder, old, new).action
    assert decided is action if action else decided is not SUPERSEDE
