"""Chat's voice read as what it says (`ingest/chatter.py`): abbreviations and a pasted message's greeting and
sign-off, for the write-path rules."""

from __future__ import annotations

import pytest

from memgraph import MemoryEngine
from memgraph.ingest.chatter import strip_chatter
from memgraph.ingest.statement import statement


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("hi all - quick one: the office wifi password is changing from Monday. thanks, M",
         "the office wifi password is changing from Monday."),
        ("Hey team, standup moves to 9:30 from next week. Cheers, Sam.", "standup moves to 9:30 from next week."),
        ("@here fyi kestrel pays cash on delivery", "kestrel pays cash on delivery"),
        ("Morning all, the boiler service is booked for 3 June. Ta", "the boiler service is booked for 3 June."),
        ("Hi Sam,\n\nthe gate code is now 4471.\n\nKind regards,\nJane Smith\nSent from my iPhone",
         "the gate code is now 4471."),
        ("hey, actually the dentist is on the 5th", "actually the dentist is on the 5th"),
    ],
)
def test_a_pasted_messages_greeting_and_sign_off_are_cut(text: str, fact: str) -> None:
    assert strip_chatter(text) == fact


@pytest.mark.parametrize(
    "text",
    ["This one is the best", "Thanks to the canaries we can deploy any day.", "I said no thanks",
     "Best practice is to rotate keys monthly.", "Hi", "Hey Jude is my favourite song.",
     "Morning run done, 5k in 28 minutes."],
)
def test_what_only_looks_like_a_greeting_or_a_sign_off_stays(text: str) -> None:
    assert strip_chatter(text) == text


def test_chat_abbreviations_are_read_as_their_words() -> None:
    chat, written = statement("season tkt for the appt"), statement("season ticket for the appointment")
    assert chat.frame == written.frame
    assert chat.tokens != written.tokens  # what the text says is kept as typed


def test_a_restatement_in_chat_voice_reinforces(engine: MemoryEngine) -> None:
    """A newcomer's pair: the lesson restated in chat's short forms was stored as a second memory."""
    u = "chat"
    old = engine.remember("The kids' swimming lesson is on Tuesdays at 5pm.", user_id=u)
    report = engine.remember_report("swimming for the kids is tues 5pm", user_id=u)
    assert report.decisions[0].action == "reinforced" and report.decisions[0].target_id == old.id


def test_a_correction_after_a_greeting_supersedes(engine: MemoryEngine) -> None:
    u = "chat-fix"
    old = engine.remember("The dentist appointment is on 3 June at 10am.", user_id=u)
    report = engine.remember_report("hey all - quick one: dentist appt moved to 5 june 10am. thx, J", user_id=u)
    assert report.superseded == [old.id]


@pytest.mark.parametrize(
    ("text", "body"),
    [
        ("so um the boiler man is coming on the 23rd", "so the boiler man is coming on the 23rd"),
        ("uh what time is the midwife appt", "what time is the midwife appt"),
        ("Umm, the ER nurse said hmm maybe Tuesday", "the ER nurse said maybe Tuesday"),  # not "ER"
    ],
)
def test_dictated_fillers_are_no_content(text: str, body: str) -> None:
    assert strip_chatter(text) == body


def test_a_filler_is_no_frame_word() -> None:
    """Dictated text keeps "um" in its frame otherwise: a restatement read as another statement."""
    said = statement("um the boiler service is on the 23rd")
    assert said.frame == statement("the boiler service is on the 23rd").frame


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Loft conversion budget is £40,000.", "loft conversion budget £45k (was 40k)"),
        ("The kitchen budget is £10,000.", "kitchen budget £12k (was 10k)"),  # the README's example
        ("The parent-teacher meeting is on Friday the 12th.",
         "the parent teacher meeting has been preponed to wednesday the 10th"),
    ],
)
def test_a_note_with_its_old_value_or_a_date_brought_forward_supersedes(engine: MemoryEngine, old: str,
                                                                         new: str) -> None:
    """Jotted notes give the old value in brackets; Indian English brings a date forward with "preponed"."""
    first = engine.remember(old, user_id="notes")
    engine.remember(new, user_id="notes")
    assert not engine.get(first.id, user_id="notes").active


@pytest.mark.parametrize(
    ("text", "body"),
    [
        ("- car: Mazda 3, rego XPT-442\n- insurance: NRMA", "- car: Mazda 3, rego XPT-442\n- insurance: NRMA"),
        ("Hi team,\n- standup at 9\n- retro at 4\nThanks, Bo", "- standup at 9\n- retro at 4"),
        ("* swim: Sat 9am\n* gym: Mon 7am", "* swim: Sat 9am\n* gym: Mon 7am"),
        # a dash the cut leaves, or one that only decorates, still goes
        ("hi Sam - quick one: the deadline is fri 12/12. thx, Lena", "the deadline is fri 12/12."),
        ("-- the gate code is 4411 --", "the gate code is 4411"),
    ],
)
def test_a_lists_first_bullet_is_no_envelope(text: str, body: str) -> None:
    """A list's first item kept its words but lost its dash, so what a superseded list still said was stored as a
    list whose first line was no item (`remainders.remainder` reads the old text through `strip_chatter`)."""
    assert strip_chatter(text) == body


@pytest.mark.parametrize(
    ("chat", "written"),
    [
        ("the design sync is on wed now lol", "the design sync is on wed now"),
        ("ur dentist appt is at 4 ngl", "your dentist appointment is at 4"),
        ("my bro Dev wants a Switch game bc his broke", "my brother Dev wants a Switch game because his broke"),
        ("u said the kids r at swim on sat smh", "you said the kids r at swim on sat"),
    ],
)
def test_text_speak_has_the_frame_of_the_written_words(chat: str, written: str) -> None:
    """Text-speak's pronouns and function words are the stop words they stand for, its interjections no content:
    "lol" or "ur" left in a frame made a restatement two words apart from what it restates."""
    a, b = statement(chat), statement(written)
    assert a.frame == b.frame and a.subject == b.subject
