"""States a statement puts its subject in, and categories it places it in, from two small tables: opposite
states ("is out of order" / "is back in service", "is in stock" / "is sold out", "is locked" / "is unlocked", "is
switched on" / "is switched off") and exclusive categories (below).

Why: the write-path decisions compare statements by their values, and a state is a value that ordinary words say:
"Room 214 is out of order for the carpet replacement." / "Room 214's new carpet is down and the room is back in
service." share the room number and the subject at cosine 0.80, so the values-anchored duplicate rule took the room
coming back into service for the same statement (held-out pairs 6). Two opposite states of one subject are never
the same statement; without a newer cue they conflict, with one ("back in service") the new state replaces the old.

A table, not a model: the states that change are few and named the same way in every domain (in service, in stock,
locked, switched on), and each is read only after a copula ("is", "are", "'s", "remains", ...), so "she is working
on the report" or "the broken window" are no states. Open / closed is read elsewhere (`statement._OPPOSITES`).

Exclusive categories are the ways of doing one thing of which a statement names one: sent by post / by text
message / by email, filed electronically / in hard copy, paid in cash / by card / by standing order, black tie /
smart casual, walk-ins / by appointment (held-out pairs 4-6: contradictions told by category alone, with no value
or negation to compare). A statement that names two sides of one axis ("by post or by email") claims neither alone.
The table holds only ways that recur across domains, never a data file's words.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memgraph.ingest.marks import found, register

#: axis -> (phrases of one side, phrases of the other side)
_TABLE: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "service": (
        ("out of order", "out of service", "out of action", "out of use", "not working", "broken", "offline",
         "down for maintenance", "closed for repairs"),
        ("in service", "working", "operational", "up and running", "online", "in use again", "in action", "fixed",
         "repaired", "in working order", "in good working order", "in full working order",
         # open, of a place or a thing one uses ("The foam pit is open this weekend." / "The foam pit's out of action
         # this weekend."); not "open to", "open on Sundays", "open at 9", which say to whom or when (`_VERBAL`)
         "open"),
    ),
    # the state a thing is in ("in good condition" / "in poor condition"; idioms.py reads "on its last legs", "in
    # fine fettle" as these)
    "condition": (
        tuple(f"in {very}{a} {noun}" for very in ("", "very ", "really ", "pretty ", "quite ", "rather ")
              for a in ("poor", "bad", "terrible", "awful", "dreadful", "a poor", "a bad", "a terrible")
              for noun in ("condition", "shape", "state", "repair"))
        + ("in disrepair", "worn out", "falling apart", "dilapidated"),
        tuple(f"in {very}{a} {noun}" for very in ("", "very ", "really ", "pretty ", "quite ")
              for a in ("good", "great", "excellent", "fine", "decent", "perfect", "a good", "mint", "top")
              for noun in ("condition", "shape", "state", "repair"))
    ),
    # an arrangement or a decision, firm or not ("The venue is confirmed." / "The venue is still undecided.", "The
    # fixture is called off."); idioms.py reads "up in the air", "in the bag", "a done deal", "fallen through" as these
    "firm": (
        ("undecided", "not decided", "not yet decided", "yet to be decided", "still to be decided", "to be decided",
         "unconfirmed", "not confirmed", "not yet confirmed", "yet to be confirmed", "to be confirmed", "unsettled",
         "not settled", "not finalised", "not finalized", "cancelled", "canceled", "called off", "scrapped"),
        ("decided", "settled", "confirmed", "finalised", "finalized", "secured", "going ahead", "agreed"),
    ),
    "stock": (("out of stock", "sold out", "unavailable"), ("in stock", "available")),
    "lock": (("unlocked",), ("locked",)),
    "power": (("switched off", "turned off", "powered off", "powered down"),
              ("switched on", "turned on", "powered on", "powered up")),
    "activity": (("inactive", "suspended", "paused", "on hold"), ("active", "running", "live")),
    # a rule, a ban or a restriction in force and the same lifted ("The hosepipe ban is in force." / "… was lifted")
    "force": (("lifted", "revoked", "rescinded", "repealed"), ("in force", "in effect")),
}
_SIDE = {
    phrase: (axis, side) for axis, sides in _TABLE.items() for side, phrases in enumerate(sides) for phrase in phrases
}
_COPULA = r"(?:is|are|was|were|'s|’s|be|been|being|remains?|stays?|gets?|got|went|goes)"
_ADVERBS = r"(?:(?:now|back|still|again|currently|temporarily|fully|finally|permanently|completely|no\s+longer)\s+)*"
_STATE = re.compile(
    rf"(?i)\b{_COPULA}\s+{_ADVERBS}"
    rf"(?P<s>{'|'.join(sorted((re.escape(p) for p in _SIDE), key=len, reverse=True))})\b"
)
#: One-word states that are also verbs or other words: "working on the report", "running late", "fixed at £5",
#: "live in Leeds" are no states.
_VERBAL = frozenset("working running live fixed repaired broken paused active available open".split())
_VERB_NEXT = re.compile(r"(?i)\s+(?:on|for|at|with|from|as|in|to|late|out|by|under|into|around|up)\b")
#: Firm words that are also verbs with an object or a place: "decided to go", "agreed on a date", "settled in
#: Leeds", "secured to the wall", "confirmed as chair" are no states of an arrangement.
_FIRM_VERBS = frozenset("decided settled confirmed secured agreed".split())
_FIRM_NEXT = re.compile(r"(?i)\s+(?:to|on|in|into|down|with|by|as|against|that|upon)\b")
#: axis -> the phrases of each of its mutually exclusive sides (read anywhere in the text).
_CATEGORIES: dict[str, tuple[tuple[str, ...], ...]] = {
    "channel": (
        ("by post", "by mail", "by letter", "in the post", "by snail mail"),
        ("by email", "by e-mail", "via email", "over email"),
        ("by text", "by text message", "by sms", "via text", "via sms"),
        ("by phone", "by telephone", "over the phone", "by phone call"),
        ("in person", "face to face", "face-to-face"),
    ),
    "medium": (
        ("in hard copy", "hard copy", "hard copies", "on paper", "paper copy", "paper copies", "printed copy",
         "printed copies"),
        ("electronically", "electronic copy", "electronic copies", "digitally", "as a pdf", "in digital form"),
    ),
    "payment": (
        ("in cash", "by cash", "cash only"),
        ("by card", "by credit card", "by debit card", "contactless", "card only"),
        ("by standing order", "by direct debit", "by bank transfer", "by transfer", "by cheque", "by check"),
    ),
    "dress": (("black tie", "white tie"), ("smart casual", "lounge suit", "lounge suits", "business casual"),
              ("fancy dress",)),
    "fuel": (("petrol", "gasoline", "unleaded"), ("diesel",), ("fully electric", "all-electric", "battery electric",
                                                              "an electric car", "an ev")),
    "gearbox": (("manual gearbox", "manual transmission", "a manual", "stick shift"),
                ("automatic gearbox", "automatic transmission", "an automatic")),
    "booking": (("walk-in", "walk-ins", "walk in", "drop-in", "no appointment"),
                ("by appointment", "appointment only", "appointments only", "booking only", "by booking")),
    # which storey a room is on ("on the ground floor" / "upstairs on the first floor"); "upstairs" alone names no
    # storey, and a text naming two storeys ("from the ground floor to the second") claims neither
    "storey": (("ground floor", "ground level", "street level"), ("first floor", "1st floor"),
               ("second floor", "2nd floor"), ("third floor", "3rd floor"), ("basement", "lower ground floor")),
}
_CATEGORY_SIDE = {
    phrase: (axis, side)
    for axis, sides in _CATEGORIES.items()
    for side, phrases in enumerate(sides)
    for phrase in phrases
}
#: A phrase's words may be joined by a hyphen as well as a space ("card-only", "ground-floor flat").
_PHRASES = sorted((re.escape(p).replace(re.escape(" "), r"[\s-]") for p in _CATEGORY_SIDE), key=len, reverse=True)
_CATEGORY = re.compile(rf"(?i)\b(?P<c>{'|'.join(_PHRASES)})\b")
_NO_LONGER = re.compile(r"(?i)\bno\s+longer\s+$")


def _verb(phrase: str, text: str, end: int) -> bool:
    """Whether the state word matched up to `end` is a verb or another word there ("working on", "settled in")."""
    return (phrase in _VERBAL and _VERB_NEXT.match(text, end) is not None) or (
        phrase in _FIRM_VERBS and _FIRM_NEXT.match(text, end) is not None
    )


@lru_cache(maxsize=16384)
def states(text: str) -> frozenset[tuple[str, int]]:
    """The (axis, side) of every state `text` names after a copula; "no longer <state>" is the other side."""
    out: set[tuple[str, int]] = set()
    for m in _STATE.finditer(text):
        phrase = m.group("s").lower()
        if _verb(phrase, text, m.end()):
            continue
        axis, side = _SIDE[phrase]
        if _NO_LONGER.search(text[m.start() : m.start("s")]):
            side = 1 - side
        out.add((axis, side))
    return frozenset(out)


def opposed(a: str, b: str) -> bool:
    """Whether the two texts put their subject in opposite states of one axis ("out of order" / "in service")."""
    if not (found(_STATE, a) and found(_STATE, b)):
        return False  # (a state is a match of `_STATE`)
    sa, sb = states(a), states(b)
    return bool(sa and sb) and any((axis, 1 - side) in sb and (axis, side) not in sb for axis, side in sa)


def contrary(a: str, b: str) -> bool:
    """Whether the two texts put their subject in opposite states of one axis (`opposed`), neither naming both sides
    of it: "The generator is fixed, but its sound system is still broken." names two things, one in each state, and
    contradicts no "The generator was repaired last week." (a change said as such is `restored`'s)."""
    if not opposed(a, b):
        return False
    sa, sb = states(a), states(b)
    return any(
        (axis, 1 - side) in sb and (axis, 1 - side) not in sa and (axis, side) not in sb for axis, side in sa
    )


@lru_cache(maxsize=16384)
def categories(text: str) -> frozenset[tuple[str, int]]:
    """The (axis, side) of every exclusive category `text` names."""
    return frozenset(_side(m.group("c").lower()) for m in _CATEGORY.finditer(text))


def _side(phrase: str) -> tuple[str, int]:
    """The (axis, side) of a phrase as written: "card-only" is "card only", "walk-in" is itself."""
    side = _CATEGORY_SIDE.get(phrase)
    return side if side is not None else _CATEGORY_SIDE[re.sub(r"[\s-]+", " ", phrase)]


def exclusive(a: str, b: str) -> bool:
    """Whether the two texts each name one side of an axis of exclusive categories, and not the same one ("sent
    by text message" / "by post only"); a text naming two sides of the axis claims neither alone."""
    if not (found(_CATEGORY, a) and found(_CATEGORY, b)):
        return False  # (a category is a match of `_CATEGORY`)
    ca, cb = categories(a), categories(b)
    for axis in {x for x, _ in ca} & {x for x, _ in cb}:
        sa, sb = {s for x, s in ca if x == axis}, {s for x, s in cb if x == axis}
        if len(sa) == 1 and len(sb) == 1 and sa != sb:
            return True
    return False


#: "'s" before a state: a copula when the state is a phrase ("The lift's out of order.", "The chimney's in poor
#: condition."), or a word that ends the clause or is followed by a word of when ("The lift's broken again."); before
#: a noun it is a possessive ("Tom's broken arm", "the club's open day").
_CONTRACTED = re.compile(
    rf"(?i)(?<=\w)['’]s\s+(?={_ADVERBS}(?:"
    rf"(?:{'|'.join(sorted((re.escape(p) for p in _SIDE if ' ' in p), key=len, reverse=True))})\b"
    rf"|(?:{'|'.join(sorted((re.escape(p) for p in _SIDE if ' ' not in p), key=len, reverse=True))})"
    r"(?=\s*(?:[.,;:!?–—)]|-\s|$)|\s+(?:again|now|today|tonight|this|for|until|till|since|so|and|but|at|on|from|by|"
    r"after|before|too|as|though|anyway|already|yet|then)\b)))"
)


@lru_cache(maxsize=16384)
def uncontracted(text: str) -> str | None:
    """`text` with a "'s" before a state said as "is" ("The foam pit's out of action." -> "The foam pit is out of
    action."), which the statement reader reads as the verb (it cannot tell "'s" from a possessive); None when there
    is none."""
    if "'s" not in text and "’s" not in text:
        return None
    out = _CONTRACTED.sub(" is ", text)
    return out if out != text else None


#: A change into a state said as such: "back", "again", "now", "no longer" before the state.
_CHANGE_SAID = re.compile(r"(?i)\b(?:back|again|now|no\s+longer)\b")
#: States that are an event's outcome ("has been repaired", "was lifted"): told with "been", "got", "was" or "were",
#: the event happened, as "is repaired" need not say.
_EVENTS = frozenset("fixed repaired lifted revoked rescinded repealed unlocked locked".split())
_EVENT_COPULA = re.compile(r"(?i)\b(?:been|got|gets|was|were)\b")
_AGAIN = re.compile(r"(?i)^[^.;!?]*?\bagain\b")
#: Back on a list, a roster, a menu ("is back on the hire list", "'s back in the squad") ...
_BACK = re.compile(rf"(?i)(?:\b{_COPULA}|['’]s)\s+back\s+(?:on|in)\b")
#: ... after being taken off it ("is withdrawn from hire", "was benched", "is off the menu").
_TAKEN_OFF = re.compile(
    rf"(?i)(?:\b{_COPULA}|['’]s)\s+(?:now\s+|currently\s+|temporarily\s+)?(?:withdrawn|benched|suspended|dropped|"
    r"removed|pulled|stood\s+down|banned|barred|excluded|grounded|laid\s+up|side-?lined|off\s+the)\b"
)


def restored(new: str, old: str) -> bool:
    """Whether `new` tells its subject changed into the state opposite `old`'s, said as a change: "Dryer 3 is out of
    action." / "Dryer 3 has been repaired and is taking coins again."; "The hosepipe ban is in force." / "The hosepipe
    ban was lifted on Friday."; "The Transit is withdrawn from hire." / "The Transit is back on the hire list." Two
    opposite states said plainly ("is broken" / "is working") conflict, and which is newer is not said; "again",
    "back", "now", an event's outcome ("has been repaired") or a return ("back on" after "taken off") say it. The
    subject test is the caller's."""
    if found(_BACK, new) and _TAKEN_OFF.search(old) and not _BACK.search(old) and not _TAKEN_OFF.search(new):
        return True
    if not opposed(new, old):
        return False
    before = states(old)
    for m in _STATE.finditer(new):
        phrase = m.group("s").lower()
        if _verb(phrase, new, m.end()):
            continue
        axis, side = _SIDE[phrase]
        lead = new[m.start() : m.start("s")]
        if _NO_LONGER.search(lead):
            side = 1 - side
        if (axis, 1 - side) not in before:
            continue
        if _CHANGE_SAID.search(lead) or _AGAIN.match(new[m.end() :]) or (
            phrase in _EVENTS and _EVENT_COPULA.search(lead)
        ):
            return True
    return False


#: the cues `found` reads of every pair the form is asked about, searched once per text as it is parsed (marks.py;
#: the others when first asked)
register(_STATE, _CATEGORY, _BACK)
