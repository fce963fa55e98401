"""A follow-up: a change that says only what changed and leaves its subject to what was said just before ("pushed
back a week, to the 19th." after "The club trip to the Farne Islands is on 12 July."; "down to 6 now, sold a load
at the market." after "We've got 20 bottles of the 2024 dry cider left"; "moved to 3, the neighbours complained
about lunchtime." after "The foghorn demonstration is at 2pm on Sundays.").

Such a text shares almost no words with the statement it changes (cosine 0.14-0.29 on held-out pairs 20, under
every neighbour floor), so the write path also compares it with the latest few memories written before it
(`reconcile_followup_latest`, ingest/pipeline.py and resolve.py). This module says which texts are follow-ups
(`followup`: read from the shape, no word list of the data) and when one changes a given old statement
(`follows`): a value said where the old statement has exactly one value of that kind, and another one.
"""

from __future__ import annotations

import re

from memgraph.ingest import ellipsis, pairing, signals
from memgraph.ingest.statement import Statement, statement
from memgraph.ingest.statement_words import _DETERMINERS, _PRONOUNS
from memgraph.ingest.values import values
from memgraph.models import Memory

#: Interjections and a note's heading before a follow-up's words ("ok, ", "yeah ", "update: ").
_LEAD = re.compile(
    r"(?i)^\s*(?:(?:ok|okay|oh|ah|right|so|now|yeah|yep|well|hmm|um|erm|sorry|and|but|update|fyi|btw)\b\s*[,!.:;—–-]*\s*)+"
)
#: A pronoun that points back at what was said before ("it's been moved to the 19th"): it names no subject.
_ANAPHORA = frozenset("it it's its that that's this".split())
#: Where a follow-up's clauses end: its change comes first, its reason after ("moved to 3, the neighbours ...").
_PART_END = re.compile(r"[,;!?(]|[:.](?!\d)|\s[-–—]\s")
_SENTENCE_END = re.compile(r"[.!?](?:\s+|$)")
_WORD = re.compile(r"[\w'’]+")


#: What every reason a follow-up decides says (retrieve/bases.py reads it on the Supersedes edge).
SAID = "said in a follow-up"


def _body(text: str) -> str:
    """The text after a speaker's label, interjections and a correction's opener."""
    if signals.speaker(text):
        text = text.split(":", 1)[1]
    lead = _LEAD.match(text)
    text = text[lead.end() if lead else 0 :]
    return text[ellipsis.opener_end(text) :]


def followup(text: str) -> bool:
    """Whether `text` says a change or a correction and names no subject of its own: a correction that says only a
    value ("scratch that - Thursdays": `ellipsis.bare_value`), or an update or correction whose first word is no
    personal pronoun or determiner and whose first clause has at most one subject word ("pushed back a week", "down to
    6 now", "it's moved to 3", "Swimming is now on Wednesdays"), which the old statement must then say (`follows`).
    Not a question: it asks, it changes nothing."""
    if ellipsis.bare_value(text):
        return True
    # the first word before the parse: most texts name their subject there ("I'm", "The club"), and a bulk write
    # asks this of every new text (parsing them all was 4.7 s of CPU per 5,000 real texts, cold)
    words = _WORD.findall(_body(text).lower())
    if not words:
        return False
    anaphor = words[0] in _ANAPHORA
    head = re.split(r"['’]", words[0], maxsplit=1)[0]  # "I'm", "we've": the pronoun before its auxiliary
    if not anaphor and (head in _PRONOUNS or head in _DETERMINERS):
        return False
    st = statement(text)
    if st.question or not (st.update or st.correction):
        return False
    return anaphor or len(_own_subject(text)) <= 1


def _first_sentence(text: str) -> str:
    """A follow-up's change is said first, and said in its first sentence: a later sentence has a subject of its own
    ("Walked the dog past the shop. It's open till 7 on weekdays, the lady said." is a diary's entry, whose "It"
    is the shop the first sentence names, not what was said before)."""
    return _SENTENCE_END.split(text, maxsplit=1)[0]


def _own_subject(text: str) -> frozenset[str]:
    """The subject words of the follow-up's first clause: its reason after it has a subject of its own ("postponed
    to the 23rd, the caterer can't do the 16th")."""
    return statement(_PART_END.split(_body(text), maxsplit=1)[0]).subject


def changes(new: Memory, n: Statement, old: Memory, fixes: bool) -> str | None:
    """How the follow-up `new` (`n` its statement) changes `old`, one of the latest memories before it (`follows`),
    or None: never another speaker's statement, nor an episode on either side unless `new` corrects (a turn of a
    conversation is one: an elliptical reply there tells something, it does not replace the turn before)."""
    who, other = pairing.speaker(new), pairing.speaker(old)
    if who and other and who != other:
        return None
    o = statement(old.content)
    if not fixes and (pairing.episodic(new, n, turn=bool(who)) or pairing.episodic(old, o, turn=bool(other))):
        return None
    return follows(new.content, n, o)


def follows(text: str, n: Statement, o: Statement) -> str | None:
    """How the follow-up `text` (`followup`; `n` its statement) changes `o`, or None: the first clause of its
    first sentence with a value that `o` has exactly one of ("the 19th" for "12 July", "3" for "2pm", "6" for
    "20 bottles", "Thursdays" for "Wednesdays") says another one. A subject word of its own must be one `o` says
    ("Swimming" of "Maya's swimming lessons"). The same value again is no change, unless a value of another kind in
    the clause is ("I pay £35 more each month now" after "… £420 a month": the period is the same, the amount not;
    read in the order of a set of units, which Python's hash seed shuffles per process, the clause was a change in
    some processes and none in others, held-out pairs 18's s12); a clause whose values `o` has no kind of is passed
    (its reason, or a shift told before the value: "pushed back a week, to the 19th")."""
    own = _own_subject(text)
    if n.question or o.question or (own and not own <= o.stems):
        return None
    for part in _PART_END.split(_first_sentence(_body(text))):
        said = [_against(kind, v, o.kinds) for kind, v in sorted(values(part, compare=True).kinds().items())]
        if any(why is not None for why in said):
            return next((why for why in said if why), None)
    return None


def _against(kind: str, said: frozenset[object], old: dict[str, frozenset[object]]) -> str | None:
    """How the value `said` (of `kind`) replaces `old`'s one value of that kind: a reason, "" for the same value,
    None where `old` has no single value it stands for. A number said alone stands for the hour of a time ("moved to
    3") or for a count of any unit ("down to 6"); a day of the month for a date's day ("to the 19th")."""
    if len(said) != 1:
        return None
    v = next(iter(said))
    if kind in old:
        had = old[kind]
        return None if len(had) != 1 else ("" if had == said else f"changed {kind} ({SAID})")
    if not isinstance(v, float):
        return None
    if kind == "q:day" and len(old.get("date", ())) == 1:
        day = next(iter(old["date"]))
        if isinstance(day, tuple):
            return "" if day[1] == v else f"changed date (the day {SAID})"
        return None
    if kind != "q:":
        return None
    counts = [k for k in old if k.startswith("q:") and k != "q:every"]
    if not counts and len(old.get("time", ())) == 1 and v.is_integer() and 1 <= v <= 12:
        hour = next(iter(old["time"]))
        if isinstance(hour, int):
            return "" if (hour // 60) % 12 == v % 12 else f"changed time (the hour {SAID})"
        return None
    if len(counts) == 1 and len(old[counts[0]]) == 1:
        return "" if old[counts[0]] == said else f"changed count (the number {SAID})"
    return None
