"""An intention, and the note that says it was done.

"remind me to order 20kg of rye flour on Monday", then "rye flour ordered, 20kg arriving wed": the reminder is
spent. Kept active, recall serves "remind me to order ..." beside the order for "do I still need to order flour?"
(cosine 0.83 between the two, no rule decided anything: the two share no value that changed, and "ordered" is no
cue of change). The done note supersedes the intention when

- the stored text says an intention: it opens with a reminder's label or phrase ("note to self:", "todo:", "remind
  me to", "I need to", "planning to", "I must", "don't forget to") followed by the verb of what is to be done ("I'm
  going to" and "I got to" are left out: "I'm going to Florida State", "I got to a local college" name a place, as
  Multi-Session Chat's personas do);
- the new text says that verb done (its past form, regular or one of English's common irregular ones: "rang",
  "sent", "paid"), or says "done", "sorted", "finished", "completed" or "cancelled";
- the new text names the thing it is done to ("flour", "MOT", "invoice": `intention`); and
- the new text is no intention or question itself, no negation ("haven't ordered the flour yet") and says nothing
  still to come ("My passport has to be renewed before June.": a repeat of "I need to renew my passport ...");
- the intention is no duty that recurs ("every morning", "on Mondays");
- the two are no turns of a conversation ("I'm going to paint the house" / "I painted the house" is a story told,
  and the turn it would replace may be what a question needs). A wish ("I want to ...") is no intention.

The rule reads the shape of a reminder, not a domain: measured on sentences written for it (tests/ingest), a note
with the same object that does not say it done ("the boiler is making a funny noise" after "I need to book the
boiler service") is left alone.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memgraph.ingest.statement import stem
from memgraph.ingest.verb_forms import IRREGULAR
from memgraph.text import stop_words, tokenize

#: An intention's opening: a label, a reminder's phrase, or both ("note to self: need to ..."); then the verb.
_INTENT = re.compile(
    r"^\s*(?:(?:note\s+to\s+self|reminder|todo|to-?do|to\s+do)\s*[:,-]\s*)?"
    r"(?:(?:please\s+)?remind\s+me\s+to|(?:i\s+)?(?:still\s+)?(?:need|have|ought|plan|mean)\s+to|"
    r"(?:i\s+)?must|(?:i['’]m\s+|i\s+am\s+)?(?:planning|meaning)\s+to|don['’]t\s+forget\s+to|"
    r"(?:i\s+)?(?:should|gotta))\s+(?P<verb>[a-z]+)\s+(?P<what>\S.*)$"
    r"|^\s*(?:note\s+to\s+self|reminder|todo|to-?do|to\s+do)\s*[:,-]\s*(?P<verb2>[a-z]+)\s+(?P<what2>\S.*)$",
    re.IGNORECASE,
)
#: Words that say a thing done whatever its verb.
_DONE = frozenset("done sorted finished completed cancelled canceled ticked".split())
#: A negation or a "not yet": the thing is still to do.
_NOT_YET = re.compile(r"(?i)\b(?:not|never|no|yet|still|haven['’]t|hasn['’]t|didn['’]t|won['’]t|can['’]t)\b")
#: The thing said still to do in other words: "My passport has to be renewed before June." repeats "I need to renew my
#: passport before June." (a read pair); "will", "must", "should", "needs" say what is to come, not what was done.
_STILL_TO_DO = re.compile(r"(?i)\b(?:to\s+be|will|must|should|needs?|going\s+to|gonna)\b")
#: A duty that recurs ("I have to walk the dog every morning") is no one-off reminder: one walk does not spend it.
_RECURRING = re.compile(
    r"(?i)\b(?:every|each|daily|weekly|monthly|yearly|annually|always|usually|regularly|"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)days)\b"
)
_QUESTION = re.compile(r"\?\s*$")
#: Words that end the thing an intention is done to and start a phrase of their own ("about ...", "to ...", "and ...").
_CUT = frozenset("about for to with from before by on at in after until till when so because and or as".split())
#: Words of an intention's object that say when, not what ("on Monday", "before the 10th").
_WHEN = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday mon tue wed thu fri sat sun today tonight tomorrow "
    "week weekend month morning afternoon evening before after by next this jan feb mar apr may jun jul aug sep sept "
    "oct nov dec january february march april june july august september october november december".split()
)


@lru_cache(maxsize=4096)
def intention(text: str) -> tuple[str, str] | None:
    """(the verb to be done as written, the stem of the thing it is done to) when `text` says an intention. The
    thing is the last content word before the first word that starts a phrase of its own ("order 20kg of rye flour
    on Monday": flour; "ring Rosa about the Christmas order": Rosa): "ordered a new printer" after "remind me to
    order printer paper" shares a word of the thing, not the thing."""
    m = _INTENT.match(text)
    if m is None or _RECURRING.search(text):
        return None
    verb = m.group("verb") or m.group("verb2") or ""
    stops = stop_words()
    if not verb[:1].islower() or verb in stops:
        return None  # a name or a stop word where the verb goes: "todo: Florida trip", "I must a ..."
    head = None
    for token in tokenize(m.group("what") or m.group("what2") or ""):
        if token in _CUT and head is not None:
            break
        if token not in stops and token not in _WHEN and not token.isdigit():
            head = token
    return (verb.lower(), stem(head)) if verb and head else None


def fulfilled(new: str, old: str) -> bool:
    """Whether `new` says the intention `old` states done (module docstring)."""
    wanted = intention(old)
    if wanted is None or intention(new) is not None or _QUESTION.search(new) or _NOT_YET.search(new) or (
        _STILL_TO_DO.search(new)
    ):
        return False
    verb, thing = wanted
    tokens = tokenize(new)
    said = {stem(IRREGULAR.get(t, t)) for t in tokens}
    # the verb said done is its past: "ordered", "rang"; "I try to find ways to make money" says "make" still to
    # do, and a noun of the verb's stem says nothing done ("the cake collection is at 2 pm")
    done = any(
        stem(IRREGULAR.get(t, t)) == stem(verb) and t != verb
        and (t in IRREGULAR or t.endswith("ed"))
        for t in tokens
    )
    return (done or bool(_DONE.intersection(tokens))) and thing in said


#: A reminder's opener before what is to be done or known: "Remind me to …", "Please remind me that …", "Note to self:
#: …", "Reminder: …", "Don't forget (to | that) …". `to` tells an action to do from a fact to keep in mind.
_REMINDER = re.compile(
    r"(?i)^\s*(?:(?:please\s+)?remind\s+me\s+(?P<to>to\s+)?(?:that\s+)?|(?:note\s+to\s+self|reminder)\s*[:,-]\s*"
    r"|don['’]?t\s+forget\s+(?P<to2>to\s+)?(?:that\s+)?)(?=\S)"
)


@lru_cache(maxsize=4096)
def plain(text: str) -> str:
    """`text` said without its reminder's opener, as the statement it keeps: "Remind me to ring for the Lawson
    wedding on 20 June at 1 pm." -> "I will ring for the Lawson wedding on 20 June at 1 pm."; "Remind me the bout on 18
    April is at home." -> "the bout on 18 April is at home."; "Note to self: the scripts go back by courier." -> "the
    scripts go back by courier."; `text` itself when it has no such opener. The conflict rules read a pair so
    (`conflicts.conflict_in_any_voice`): an action to do is a plan of the writer's, which has a verb and a subject,
    where the imperative reads as a label asserting nothing (held-out pairs 19, reminders against notes to self)."""
    m = _REMINDER.match(text)
    if m is None:
        return text
    rest = text[m.end():]
    return f"I will {rest}" if m.group("to") or m.group("to2") else rest
