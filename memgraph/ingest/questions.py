"""Statements said as questions. A question asserts nothing, so the write path compares none (`reconcile.decide`),
but three shapes of question carry a statement the speaker holds, with a little doubt:

- a **tag question**: a statement and a tag that asks for agreement ("The final's on the 20th, isn't it?", "Kids
  can do it, can't they?", "…, right?"). The tag negates nothing (the cue list read "isn't" as a negation):
  the statement is the text without it, and a verbless echo after it ("…, don't you? Two pounds a pair?") gives
  its value as the statement does;
- a **negative question** that expects "yes" ("Isn't the tournament on the 21st?", "Doesn't the shop shut at 5?"):
  its statement is the positive one ("the tournament is on the 21st");
- a question that **relays** a statement the speaker heard or believes said ("Didn't they say the parade starts
  at 2?", "Did you hear they've moved the final to Friday?", "You know practice has moved to the hall now?"): a
  verb that takes what it reports as true (hear, know, see, notice) in either polarity, a verb of saying only when
  denied ("Did they say …?" asks; "Didn't they say …?" believes), and a clause after it, not "if" / "whether" / a
  question word ("Do you know if the pool is open?" asks).

`asserted` rewrites such a text as its statement, which the rules then read as any other: a repeated value is a
duplicate, a changed value with "now" a change, a changed value without a cue a conflicting report. Held-out pairs
22 (its voice "facts inside questions and tag questions": every such pair was read as a negated question).
"""

from __future__ import annotations

import re
from functools import lru_cache

from memgraph.ingest.statement import statement
from memgraph.models import Memory

_AUX_WORDS = (
    r"is|are|was|were|am|do|does|did|has|have|had|can|could|will|would|should|shall|must|may|might"
)
_PRONOUN = r"(?:it|he|she|they|we|you|i|there|that|this|one)"
#: A tag: an auxiliary (denied or not) and a pronoun, or a word that asks for agreement, ending its sentence or set off
#: by a comma before what explains it ("…, aren't they, since the bowls lot took the Tuesdays?").
_TAG = re.compile(
    rf"(?i),\s*(?:(?P<aux>(?:{_AUX_WORDS})n['’]t|won['’]t|can['’]t|shan['’]t|ain['’]t|(?:{_AUX_WORDS})(?:\s+not)?)"
    rf"\s+{_PRONOUN}\s*(?=\?|,)|(?:right|innit|yeah|correct)\s*(?=\?))"
)
#: A subject and its "'s" before what a copula or "has" says ("The final's in the Great Hall", "Weekday opening's been
#: moved"), which the statement parse reads as a possessive; a tag of "is" or "has" says which it is.
_CONTRACTED = re.compile(
    r"(?i)^(\s*(?:[\w-]+\s+){0,3}?[\w-]+)['’]s\s+(?=(?:a|an|the|been|got|not|no|in|on|at|for|from|to|by|with|still|"
    r"now|[a-z]+ed|[a-z]+ing)\b)"
)
#: A sentence's end: its closing mark and the spaces after it.
_SENTENCE = re.compile(r"[^.?!]+(?:[.?!]+|$)\s*")
#: What opens a real question: a question word or an auxiliary before its subject.
_ASKS = re.compile(
    rf"(?i)^\s*(?:who|whom|whose|what|which|when|where|why|how|{_AUX_WORDS}|won['’]t|can['’]t|"
    rf"(?:{_AUX_WORDS})n['’]t)\b"
)
#: A verb of any kind in a sentence: an auxiliary, a contraction of one, or a word ending as verbs do (rough: only
#: to tell a verbless echo, "Two pounds fifty a pair?", from a sentence).
_VERB = re.compile(
    rf"(?i)\b(?:{_AUX_WORDS}|\w+n['’]t)\b|['’](?:s|re|ve|ll|d|m)\b|\b\w{{3,}}(?:ed|es)\b"
)
#: A negative question that expects "yes": a denied auxiliary opening the sentence, its subject and what it says. Not
#: a modal: "Can't we go to Spain instead?", "Shouldn't we leave at 6?" propose, they state nothing.
_NEGATIVE = re.compile(
    r"(?i)^\s*(?:(?:but|so|and|hang\s+on|wait)\s*,?\s+)?(?P<aux>(?:is|are|was|were|do|does|did|has|have|had)n['’]t)"
    r"\s+(?P<rest>[^?]+?)\s*\?\s*$"
)
#: A copula's subject before what it is said to be: a pronoun, a name, or a determiner and its nouns (up to a stop
#: word: "the croquet tournament | on the 21st", "Sam's party | at 2").
_SUBJECT = re.compile(
    r"(?i)^(?P<s>(?:it|he|she|they|we|you|i|there|that|this|these|those)"
    r"|(?:(?:the|our|my|your|their|his|her|its|this|that|these|those)\s+|[A-Z][\w'’-]*['’]s\s+)?"
    r"(?:(?!(?:on|in|at|for|from|to|by|with|of|about|still|now|already|also|too|very|really|just|only|a|an|the|"
    r"not|never|always|usually|open|closed)\b)[\w'’-]+\s+){0,3}?"
    r"(?!(?:on|in|at|for|from|to|by|with|of|about|a|an|the)\b)[\w'’-]+)"
    r"\s+(?P<p>(?:on|in|at|for|from|to|by|with|about|still|now|already|also|too|very|really|just|only|a|an|the|"
    r"not|never|always|usually)\b.*|[\d£$€].*)$"
)
#: A question that relays a statement: a verb that takes what it reports as true, or one of saying denied, and a
#: clause after it ("Didn't they say the day of dance is in Thaxted?", "Did you hear they've changed the motion?").
_RELAYED = re.compile(
    r"(?i)^\s*(?:(?:so|and|oh|hey)\s*,?\s+)?(?:"
    r"(?:did|didn['’]t|have|haven['’]t|had|hadn['’]t|do|don['’]t)\s+(?:you|we|they|he|she)\s+"
    r"(?:hear|heard|know|knew|see|saw|notice|noticed|read|realise|realize|realised|realized)"
    r"|(?:didn['’]t|haven['’]t|hadn['’]t|wasn['’]t|weren['’]t)\s+(?:you|we|they|he|she|someone|somebody|it)\s+"
    r"(?:say|said|tell\s+(?:me|us|you|them)|told\s+(?:me|us|you|them)|mention|mentioned|announce|announced)"
    r"|you\s+(?:know|heard|saw|realise|realize)"
    r")\s+(?:that\s+)?(?!(?:if|whether|who|what|which|when|where|why|how|about|of)\b)(?P<clause>[^?]+?)\s*\?\s*$"
)


def _untagged(text: str) -> str | None:
    """`text` without its tags, each tagged sentence (and a verbless echo after one) closed by a full stop; None when
    it has no tag."""
    if "," not in text or "?" not in text:
        return None
    out: list[str] = []
    tagged = False
    for m in _SENTENCE.finditer(text):
        sentence = m.group(0)
        if not sentence.strip():
            continue
        tag = _TAG.search(sentence)
        if tag is not None:
            tagged = True
            sentence = _TAG.sub("", sentence)
            verb = (tag.group("aux") or "").lower().replace("’", "'").removesuffix("n't").removesuffix(" not")
            if verb in ("is", "has"):
                sentence = _CONTRACTED.sub(rf"\1 {verb} ", sentence, count=1)
            sentence = re.sub(r"\?+(\s*)$", r".\1", sentence)
        elif tagged and sentence.rstrip().endswith("?") and not _ASKS.match(sentence) and not _VERB.search(sentence):
            sentence = re.sub(r"\?+(\s*)$", r".\1", sentence)
        out.append(sentence)
    return "".join(out).strip() if tagged else None


def _positive(text: str) -> str | None:
    """A negative question's statement: "Isn't the tournament on the 21st?" -> "the tournament is on the 21st";
    the positive auxiliary before its subject where the subject cannot be told ("Doesn't the bus leave at 9?" ->
    "does the bus leave at 9", which the rules read as they read a statement). None for another text."""
    m = _NEGATIVE.match(text)
    if m is None:
        return None
    aux = m.group("aux").lower().replace("’", "'")
    positive = aux.removesuffix("n't")
    rest = m.group("rest")
    if positive in ("is", "are", "was", "were", "am"):
        s = _SUBJECT.match(rest)
        if s is not None:
            return f"{s.group('s')} {positive} {s.group('p')}"
    return f"{positive} {rest}"


def _relayed(text: str) -> str | None:
    """The clause a relaying question carries ("Didn't they say the parade starts at 2?" -> "the parade starts at
    2"), when it is a clause (a verb or a subject pronoun: not "Did you see the new kiln?"); None for another text."""
    m = _RELAYED.match(text)
    if m is None:
        return None
    clause = m.group("clause")
    return clause if statement(clause).clause else None


@lru_cache(maxsize=4096)
def asserted(text: str) -> str | None:
    """The statement `text` makes as a tag question, a negative question or a relaying question (the module
    docstring); None when it is none of them (most texts: no question mark)."""
    if "?" not in text:
        return None
    return _relayed(text) or _untagged(text) or _positive(text)


def restated(new: Memory, olds: list[Memory]) -> tuple[Memory, list[Memory]] | None:
    """`new` and the stored memories it is compared with, each text that states something as a question rewritten
    as that statement (`asserted`); None when no text does (most: no question mark). The memories keep their ids,
    so a decision targets the stored memory as it is."""
    text = asserted(new.content)
    said = [asserted(m.content) for m in olds]
    if text is None and not any(said):
        return None
    told = new if text is None else new.model_copy(update={"content": text})
    return told, [m if t is None else m.model_copy(update={"content": t}) for m, t in zip(olds, said, strict=True)]
