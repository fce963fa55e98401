"""A system's notification ("Booking confirmed: …, Sat 21 Jun 09:00. Ref DB-5521.", "Thank you for registering
for …", "Your order #8812 has shipped: …") and a person's own note of the same booking ("I've got two tanks being
filled at Deep Blue on Saturday 21 June at 9am (ref DB-5521)").

The two share the booking's values and little else: the notification's header, its field labels ("Ref",
"Meeting point:") and its clipped words ("Sat", "x") are frame words the note has not, and the note's verbs ("I've
got", "I'm signed up") words the notification has not, so the paraphrase rules read another statement. What makes
them one fact is the booking itself: the same day and time (or the same reference), and nothing in the note that
the notification does not give: no other number, day or time, and no name the notification does not print ("meets
at Stoke Lock" beside "Meeting point: Town Bridge" is another place, not a repeat).

The conflict chain reads the same two voices (held-out pairs 20's contradictions, the only read part with them): two
notifications under one header are two bookings or two entries, each true ("Court booking confirmed: Court 2, Thu 5
Jun, 18:00-19:00." / "… 19:00-20:00.": two slots; "Entry confirmed: …, dog 'Fly'." / "…, dog 'Cap'.": two dogs),
2 of 2 compatible, and a change between them says so with a cue ("… has been rescheduled to …"), which supersedes.
A notification against a person's note that names what it books, on its date, at another time ("Your lesson
booking: Organ, Tue 3 Jun, 17:00, …" / "My organ lesson on Tuesday 3 June is at 4pm …") cannot both hold: one
booking, one time (1 of 1; the 3 notes that gave the notification's time on its date are its repeats). On another
date a note may be of another booking of the same kind (a weekly lesson), so only the same date says one booking.
The same booking (its date and time) with its place field against another named place in the note ("… Sun 22 Jun,
09:30. Meeting point: Town Bridge." / "Our River Wey clean-up on 22 June meets at Stoke Lock at 9:30.") cannot both
hold either (1 of 1; the notes that name its place, or none, are its repeats: "at Deep Blue", "at St Bride's").
A notification that an act was done against a note that denies that act of the same thing ("Parts order #A-2291
dispatched: 1 x clutch plate, …" / "I haven't ordered the clutch plate for the Austin yet.") cannot both hold (1 of
1; a note that denies something else of the order, "never turned up", is left alone: it names no act of the
header).
"""

from __future__ import annotations

import re

from memgraph.ingest.statement import Statement, stem
from memgraph.ingest.value_words import _WEEKDAY_SHORT, MONTHS, WEEKDAYS
from memgraph.text import stop_words, tokenize

#: How a notification opens: a header of up to four words ending in a verb of its state ("Booking confirmed:",
#: "Parts order #A-2291 dispatched:"), a thank-you for an act ("Thank you for registering for …"), or "Your …"
#: and that state ("Your order #8812 has shipped", "Your lesson booking: …").
_HEADER = re.compile(
    r"(?i)^\s*(?:"
    r"(?:[\w#-]+\s+){0,4}(?:confirmed|cancell?ed|amended|rescheduled|received|shipped|dispatched|delivered|"
    r"registered|reserved)\s*[:!.,-]"
    r"|thank\s+you\s+for\s+(?:your\s+)?(?:registering|booking|signing\s+up|reserving|ordering|order|booking|"
    r"registration|reservation|enquiry|entry)\b"
    r"|your\s+(?:[\w#-]+\s+){0,3}?(?:(?:has|have)\s+(?:been\s+)?|is\s+|was\s+)?(?:confirmed|shipped|dispatched|"
    r"delivered|booked|received|reserved|registered)\b"
    r"|your\s+(?:\w+\s+){0,2}(?:booking|reservation|appointment|order|registration|entry|ticket)\s*(?:#\S+\s*)?:"
    r")"
)
#: A capitalised word, and what comes before it: a sentence's first word is capitalised whatever it names.
_CAPITAL = re.compile(r"(?P<before>^|[.!?;:(]\s*|\s)(?P<word>[A-Z][\w'’-]*)")
#: Capitalised words that name no thing: days, months (and their short forms, as the value reader spells them), the
#: first person.
_NOT_NAMES = frozenset(MONTHS) | frozenset(WEEKDAYS) | frozenset(_WEEKDAY_SHORT) | frozenset(
    "i i'm i've i'd i'll".split()
)


def notification(text: str) -> bool:
    """Whether `text` opens as a system's notification (a header, a thank-you, "Your order … has shipped")."""
    return _HEADER.match(text) is not None


def _code(word: str) -> str:
    return re.sub(r"[\s'’-]", "", word).lower()


def _names(text: str) -> set[str]:
    """The capitalised words of `text` that no sentence opens with, less days, months and "I"."""
    found = set()
    for m in _CAPITAL.finditer(text):
        if not m.group("before").strip() and m.start() > 0:
            word = re.sub(r"['’]s$", "", m.group("word").lower())
            if word not in _NOT_NAMES:
                found.add(word)
    return found


def noted(note: Statement, notice: Statement) -> bool:
    """Whether `note` is a person's note of the booking that `notice` (a notification, the note none) confirms:
    both give the same date and the note's clock times, and the note gives no value and no name the notification
    does not print (a code may be spaced or not: "RM 448 201" / "RM448201")."""
    if not notification(notice.text) or notification(note.text) or note.negated:
        return False
    a, b = note.kinds, notice.kinds
    if not a.get("date") or a.get("date") != b.get("date"):
        return False
    if a.get("time") and not a["time"] <= b.get("time", frozenset()):
        return False
    if not note.flat_values <= notice.flat_values:
        return False
    printed = _code(notice.text)
    return all(_code(w) in printed for w in _names(note.text))


def header(text: str) -> str | None:
    """The header a notification opens with, lower-cased, its spaces folded and its closing mark left off
    ("court booking confirmed"), or None."""
    m = _HEADER.match(text)
    return " ".join(m.group(0).lower().rstrip(":!.,- ").split()) if m else None


def same_kind(a: str, b: str) -> bool:
    """Whether both texts are notifications under one header ("Court booking confirmed:" twice): two bookings or
    entries of one kind, each true, whatever values differ between them."""
    h = header(a)
    return h is not None and h == header(b)


#: The stems of the words a notification's header names itself by, which name nothing it books.
_HEADER_STEMS = frozenset(stem(w) for w in (
    "confirmed cancelled canceled amended rescheduled received shipped dispatched delivered registered reserved "
    "booking booked reservation appointment order registration entry ticket your has have been is was thank you for"
).split())


def _booked(text: str) -> frozenset[str]:
    """Stems of what a notification books: its header's other words and its first field ("lesson" and "organ" of
    "Your lesson booking: Organ, Tue 3 Jun, …")."""
    m = _HEADER.match(text)
    if m is None:
        return frozenset()
    field = re.split(r"[,;.|(]", text[m.end():], maxsplit=1)[0]
    stops = stop_words()
    words = [w for w in tokenize(f"{m.group(0)} {field}") if w not in stops and not w.isdigit()]
    return frozenset(stem(w) for w in words) - _HEADER_STEMS


def _notice_and_note(n: Statement, o: Statement) -> tuple[Statement, Statement] | None:
    """The pair as (a notification, a person's note), in whichever order it came; None unless exactly one of the
    two opens as a notification."""
    for notice, note in ((n, o), (o, n)):
        if notification(notice.text) and not notification(note.text):
            return notice, note
    return None


def other_time(n: Statement, o: Statement) -> bool:
    """Whether one of `n`, `o` is a notification and the other a person's note of its booking at another time: the
    note names what the notification books (`_booked`), both give the one same date, and each gives clock times,
    none shared ("Your lesson booking: Organ, Tue 3 Jun, 17:00, …" / "My organ lesson on Tuesday 3 June is at 4pm
    …")."""
    pair = _notice_and_note(n, o)
    if pair is None:
        return False
    notice, note = pair
    a, b = notice.values, note.values
    if len(a.dates) != 1 or a.dates != b.dates or not a.times or not b.times or a.times & b.times:
        return False
    return bool(_booked(notice.text) & note.stems)


#: The acts a notification's header says were done, by stem: "order", "book", "register", "dispatch", …
_ACTS = frozenset(stem(w) for w in (
    "order ordered booking booked book registered register registration reserved reserve reservation dispatched "
    "dispatch shipped ship delivered deliver enrolled enrol enrolment entered entry paid pay"
).split())
#: A negation and the verb it denies, up to two words after it ("haven't ordered", "didn't actually book").
_DENIED_VERB = re.compile(r"(?i)\b(?:not|never|n['’]t|haven['’]?t|hasn['’]?t|didn['’]?t)\s+(?:\w+\s+){0,2}?(\w+)")


def act_denied(n: Statement, o: Statement) -> bool:
    """Whether one of `n`, `o` is a notification that an act was done (its header's "order", "booked",
    "registered", …) and the other a note that denies that act (the verb after its negation) of what the
    notification books (`_booked`): "Parts order #A-2291 dispatched: 1 x clutch plate, …" / "I haven't ordered the
    clutch plate for the Austin yet."."""
    pair = _notice_and_note(n, o)
    if pair is None or not pair[1].negated:
        return False
    notice, note = pair
    m = _HEADER.match(notice.text)
    acts = {stem(w) for w in tokenize(m.group(0))} & _ACTS if m else set()
    denied = {stem(v.lower()) for v in _DENIED_VERB.findall(note.text)}
    return bool(acts & denied) and bool(_booked(notice.text) & note.stems)


#: A notification's field that gives where: "Meeting point: Town Bridge", "Venue: St Anne's Hall", "Location: …".
_PLACE_FIELD = re.compile(r"(?i)\b(?:meeting\s+point|venue|location|place|address|where)\s*:\s*(?P<place>[^.;,|\n]+)")


def other_place(n: Statement, o: Statement) -> bool:
    """Whether one of `n`, `o` is a notification with a place field and the other a person's note of the same
    booking (what it books named, the same one date and the note's clock times among the notification's) that names
    a place the notification does not print, and none of the field's words: "Event confirmed: River Wey clean-up,
    Sun 22 Jun, 09:30. Meeting point: Town Bridge." / "Our River Wey clean-up on 22 June meets at Stoke Lock at
    9:30."."""
    pair = _notice_and_note(n, o)
    if pair is None:
        return False
    notice, note = pair
    m = _PLACE_FIELD.search(notice.text)
    a, b = notice.values, note.values
    if m is None or len(a.dates) != 1 or a.dates != b.dates or not b.times or not b.times <= a.times:
        return False
    if not _booked(notice.text) & note.stems:
        return False
    printed = _code(notice.text)
    unprinted = [w for w in _names(note.text) if _code(w) not in printed]
    place = {stem(w) for w in tokenize(m.group("place"))} - stop_words()
    return bool(unprinted) and bool(place) and not place & note.stems
