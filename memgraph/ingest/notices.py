"""A system's notification ("Booking confirmed: …, Sat 21 Jun 09:00. Ref DB-5521.", "Thank you for registering
for …", "Your order #8812 has shipped: …") and a person's own note of the same booking ("I've got two tanks being
filled at Deep Blue on Saturday 21 June at 9am (ref DB-5521)").

The two share the booking's values and little else: the notification's header, its field labels ("Ref",
"Meeting point:") and its clipped words ("Sat", "x") are frame words the note has not, and the note's verbs ("I've
got", "I'm signed up") words the notification has not, so the paraphrase rules read another statement. What makes
them one fact is the booking itself: the same day and time (or the same reference), and nothing in the note that
the notification does not give: no other number, day or time, and no name the notification does not print ("meets
at Stoke Lock" beside "Meeting point: Town Bridge" is another place, not a repeat).
"""

from __future__ import annotations

import re

from memgraph.ingest.statement import Statement

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
#: Capitalised words that name no thing: days, months (and their short forms), the first person.
_NOT_NAMES = frozenset(
    "i i'm i've i'd i'll monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs "
    "fri sat sun january february march april may june july august september october november december jan feb mar "
    "apr jun jul aug sep sept oct nov dec".split()
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
