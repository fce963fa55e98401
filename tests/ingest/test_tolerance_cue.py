"""`tolerance.opposed` reads a text's sides only when both texts say a word every side holds (`tolerance._CUE`)."""

from __future__ import annotations

import itertools

import pytest

from memgraph.ingest import tolerance

_THINGS = ["trains", "the night ferry", "spicy food", "long bus rides"]
_FINE = ["fine", "ok", "okay", "alright", "all right", "no problem", "not a problem", "no bother", "no issue",
         "not an issue"]
_ILL = ["sick", "ill", "nauseous", "queasy", "dizzy", "unwell", "travel sick", "car-sick", "seasick", "motion sick",
        "a headache", "headaches", "a migraine", "migraines", "motion sickness", "travel sickness", "a rash", "hives"]


def _said() -> list[str]:
    """Every way the patterns say a side, in a few voices (a pasted message's envelope, an agent's note)."""
    out = []
    for thing, fine in itertools.product(_THINGS, _FINE):
        out += [f"{thing} are {fine} for me", f"I'm totally {fine} with {thing}." if fine in _FINE[:4] else ""]
    for thing, verb in itertools.product(_THINGS, ["bother", "affect", "upset", "trouble"]):
        out += [f"{thing} don't {verb} me", f"{thing} {verb}s me", f"{thing} never {verb} him"]
    for thing, ill in itertools.product(_THINGS, _ILL):
        out += [f"{thing} make me {ill}", f"I get {ill} on {thing}", f"She feels {ill} after {thing}",
                f"User gets {ill} on {thing}", f"Patient feels {ill} after {thing}"]
    for thing, verb in itertools.product(_THINGS, ["stand", "handle", "tolerate", "take"]):
        out += [f"I can't {verb} {thing}", f"User says she cannot {verb} {thing}", f"Client can't {verb} {thing}",
                f"Hi all - quick one: I couldn't {verb} {thing}. Thanks, M"]
    out += ["Dairy disagrees with me.", "Dairy doesn't agree with me.", "Dairy disagrees with me :sick:",
            "Customer note 5/11: spicy food gives her hives."]
    return [t for t in out if t]


@pytest.mark.parametrize("text", _said())
def test_every_side_holds_the_cue(text: str) -> None:
    if tolerance.sides(text):
        assert tolerance._CUE.search(text), text


def test_sides_said_are_read() -> None:
    """The phrases above do say sides (else the test above checks nothing)."""
    said = _said()
    assert sum(1 for t in said if tolerance.sides(t)) > 0.8 * len(said)


def test_opposed_reads_no_sides_without_the_cue(monkeypatch: pytest.MonkeyPatch) -> None:
    """A pair without the cue on both sides is settled before `sides` (a pair of a bulk write, most often)."""
    read: list[str] = []
    sides = tolerance.sides

    def counted(text: str) -> frozenset[tuple[frozenset[str], int]]:
        read.append(text)
        return sides(text)

    monkeypatch.setattr(tolerance, "sides", counted)
    assert not tolerance.opposed("We went to Lisbon in May too.", "Trains make me sick.")
    assert read == []
    assert tolerance.opposed("I get motion sickness on long bus rides, trains are fine.", "Trains make me sick too.")
    assert read
