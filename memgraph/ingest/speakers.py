"""Who said a message that an agent stored with its sender's name ("Sam: van's booked for 9"), and whether two
people's messages can speak of one fact.

A name before a colon is who said the message, not what it is about: read with the name, two people's messages
about one thing have different frames ("entities differ"), and the write path used to compare no two of them at
all ("Caroline: I love pizza" and "Mel: I love pizza" are two facts). That holds where a message speaks of its
sender ("I", "my"); in a group chat most messages speak of the world ("Dev: Kira's pull list is A, B and C" /
"Lou: yeah like Dev said, Kira's pull list is B, A and C"; "Ayo: skips are arriving at 9" / "Tess: they're coming
at 11 now not 9"), and one person repeats, corrects or contradicts another. `one_fact` gives such a pair's bodies,
read without the names and without the words that report the other speaker ("like Dev said", "Gareth says",
"- Nia told me"), for the rules to compare as two notes.

Only text labels: a conversation's turns (a speaker in metadata, from the CLI or `episodes.py`) stay turns.
"""

from __future__ import annotations

import re

from memgraph.ingest.chunk import day_label, looks_like_turn, turn_body
from memgraph.ingest.signals import speaker
from memgraph.ingest.statement import statement
from memgraph.ingest.voice import unreported
from memgraph.models import Memory

#: A report of what someone else said, opening a message: "yeah like Dev said,", "as Nia says -", "ok, like Jo
#: told us:" (an interjection may come first).
_AS_SAID = re.compile(
    r"(?i)^\s*(?:(?:yeah|yes|yep|right|ok|okay|so|and)\s*,?\s+)?(?:like|as)\s+(?-i:[A-Z])[\w'’-]*\s+"
    r"(?:said|says|told\s+(?:me|us)|mentioned|put\s+it)\b\s*[,:;-]?\s*"
)
#: The same report closing a message: "- Nia told me.", ", Gareth says", "(as Dev said)".
_SAID_AFTER = re.compile(
    r"(?i)\s*(?:[,;]|\s[-–—])\s*\(?(?:(?:like|as)\s+)?(?-i:[A-Z])[\w'’-]*\s+"
    r"(?:said|says|told\s+(?:me|us)|mentioned|reckons)\)?\s*[.!]?\s*$"
)
#: The first person singular: a message that speaks of its sender ("I've ordered the shells", "my sister's moved").
_FIRST_PERSON = re.compile(r"(?i)\b(?:i|i['’]m|i['’]ve|i['’]d|i['’]ll|me|my|mine|myself)\b")
#: Where a message's first clause ends: what follows is often the sender's evidence ("..., I counted them").
_CLAUSE_END = re.compile(r"[,;:]|\s[-–—]\s")
#: A noun or a name and its "is" or "has", which the statement parse reads as a possessive: "Pip's a male", "Fly's
#: entered", "the hall's booked till 9".
_NOUN_IS = re.compile(
    r"(?i)^\s*(?:the\s+|our\s+)?[^\W\d_][\w-]*['’]s\s+(?:a|an|the|been|got|not|no|in|on|at|[a-z]+ed|[a-z]+ing)\b"
)


def label(m: Memory) -> str | None:
    """The sender's name a stored message opens with ("Sam: …"), when it is a text label, not a conversation
    turn's metadata, and not a log line's day ("Tue: …")."""
    if isinstance(m.metadata, dict) and (m.metadata.get("speaker") or m.metadata.get("role")):
        return None
    if not looks_like_turn(m.content):
        return None
    name = speaker(m.content)
    return None if name is None or day_label(name) else name.lower()


def body(text: str) -> str:
    """A message's words without its sender's name and without a report of who else said it ("Lou: yeah like
    Dev said, Kira's list is …" -> "Kira's list is …")."""
    words = turn_body(text).strip()
    words = unreported(_AS_SAID.sub("", words, count=1))
    return _SAID_AFTER.sub("", words).strip() or words


def _of_the_world(words: str) -> bool:
    """Whether a message speaks of a thing, not of its sender: no "I" or "my" in its first clause (the sender's
    evidence may follow: "there's 90 seats, I counted them"), and a statement (a verb or a subject pronoun), not a
    record's field value ("Charger: Ohme ePod, 7 kW")."""
    first = _CLAUSE_END.split(words, maxsplit=1)[0]
    return not _FIRST_PERSON.search(first) and (statement(words).clause or _NOUN_IS.match(words) is not None)


def one_fact(new: Memory, old: Memory) -> tuple[str, str] | None:
    """The bodies of two messages by different senders that may speak of one fact (each speaks of the world, or
    the new one names the old one's sender: "Tess: Ayo's lot got three out"), or None (one speaks of its sender,
    or either is no labelled message)."""
    a, b = label(new), label(old)
    if a is None or b is None or a == b:
        return None
    n, o = body(new.content), body(old.content)
    names_old = re.search(rf"(?i)\b{re.escape(b)}\b", turn_body(new.content)) is not None
    if not (_of_the_world(o) and (names_old or _of_the_world(n))):
        return None
    return n, o
