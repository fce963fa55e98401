"""Change of state: where someone lives and where (or as what) someone works, read from a statement without an LLM.

"My sister Lena lives in Porto and works as a nurse." then "Actually Lena moved to Lisbon last month.": the two
statements share one word of their frames ("lena"), so the frame comparison of `reconcile` sees no conflict. Read
as slots instead, the second says that the holder of the first (`lena`, named there as "my sister Lena") has a
new value for her home (`lisbon`, not `porto`), so it supersedes it.

A slot is (holder, kind, value):
- **kind** `home` ("lives in", "is based in", "is in <Place>", "moved to", "relocated to", "now living in") or
  `job` ("works as/at/for", "is a <role> at", "joined", "now works at", "switched careers", "changed jobs");
- **holder**: the words before the verb in its clause ("my sister Lena", "I", "the landlord"; a clause without one,
  "… and now works at KPMG", takes the previous clause's), compared by their last word or as a subset of the
  other: "Lena" is "my sister Lena", "Lena's friend" is not, "my sister Ana" is not;
- **value**: the content words after the verb up to the clause's end, less dates and words of time ("Lisbon last
  month" -> `lisbon`); empty when not said ("changed jobs", "moved out");
- **ended**: "no longer lives in", "quit", "left", "retired from", "stopped working at".

A newer statement replaces an old slot when it marks a change (a change verb, an ending, or an update or correction
cue such as "now", "actually") and names the same holder and kind: with another value (no word in common: "a bigger
flat in Turin" keeps "Turin"), or the ending of the old value, or a change without a value. Visits, likes and other
people's moves are not slots of the holder ("Lena visited Lisbon", "Lena likes Lisbon", "Lena's friend moved to
Lisbon": tests/data/decisions/pairs_*.jsonl, the `dr` and `h3` pairs).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from memgraph.ingest import signals
from memgraph.ingest.statement import Statement
from memgraph.ingest.value_words import MONTHS, WEEKDAYS
from memgraph.text import stem as stem_tokens
from memgraph.text import stop_words, surface, tokenize

_HOME_STATE = (
    r"(?:lives?|living|lived|resides?|residing|(?:is|are|am|'s|'re|'m)\s+(?:now\s+)?(?:located|based)|based)"
    r"\s+(?:in|at|near|with)\b"
    r"|(?:is|are|'s|'re)\s+(?:now\s+)?in\s+(?=[A-Z])"
)
_HOME_CHANGE = (
    r"(?:moved|moving|relocated|relocating|moves|relocates)\s+(?:back\s+)?(?:to|into|in\s+to|over\s+to)\b"
    r"|(?:moved|moving)\s+out\b"
)
_HOME_END = r"no\s+longer\s+(?:lives?|living|resides?|based)\s+(?:in|at|with)?"
_JOB_STATE = (
    r"works?\s+(?:[a-z-]+\s+){0,2}?(?:as|at|for|in)\b(?!\s+the\s+(?:morning|evening|afternoon|weekend))"
    r"|(?:is|are|am|'s|'re|'m)\s+(?:now\s+)?(?:a|an)\s+(?:[a-z-]+\s+){0,3}?(?:at|for|with)\b"
)
_JOB_CHANGE = (
    r"(?:joined|started\s+(?:working\s+)?(?:at|for|with)|(?:got|took|found)\s+a\s+(?:new\s+)?job\s+(?:at|as|with)"
    r"|switched\s+(?:careers|jobs)|changed\s+(?:careers|jobs))\b"
)
_JOB_END = (
    r"(?:no\s+longer\s+works?|stopped\s+working|quit|left|retired)(?:\s+(?:at|for|from|as))?\b"
)
_VERB = re.compile(
    rf"(?i)(?P<home_end>{_HOME_END})|(?P<job_end>{_JOB_END})|(?P<home_change>{_HOME_CHANGE})"
    rf"|(?P<job_change>{_JOB_CHANGE})|(?P<home>{_HOME_STATE})|(?P<job>{_JOB_STATE})"
)
#: `_VERB` searched in lower-cased ASCII text (`signals.Folded`): the same matches, 20.6 -> 8.1 us a real text; once per
#: new text of a bulk write (bench/RESULTS.md, "Bulk writes, sixteenth round")
_VERB_FOLDED = signals.Folded(_VERB)
#: Where a clause, and so a value, ends.
_CLAUSE_END = re.compile(r"(?i)[.;!?]|,|\s(?:and|but|so|because|since|after|before|while|for|to\s+be|as\s+of)\s")
#: Where a clause that states a slot ends: a sentence's end, or a comma or "and"/"but" before another clause
#: (narrower than `_CLAUSE_END`: "lives in Porto for two years" is one clause).
_STATEMENT_END = re.compile(r"(?i)[.;!?](?:\s|$)|,|\s(?:and|but)\s")
#: Words leading a clause or trailing its holder that are not part of who it is about.
_LEAD = frozenset(
    "actually correction update so then and but also now recently finally just well yes no oh anyway meanwhile "
    "has have had is are was were 's 've has since".split()
)
_PRONOUNS = {"i'm": "i", "i've": "i", "we're": "we", "we've": "we", "he's": "he", "she's": "she", "they're": "they",
             "they've": "they"}
_PERSONAL = frozenset("he she they it".split())
#: Words of time that are no part of a value ("Lisbon last month", "in the spring").
_TIME_WORDS = frozenset(
    "last next this month months week weeks year years ago spring summer autumn fall winter today yesterday "
    "recently now morning evening night weekend weekends".split()
) | frozenset(MONTHS) | frozenset(WEEKDAYS)
_DETERMINERS = frozenset("my our your his her their the a an".split())


@dataclass(frozen=True)
class Slot:
    """One state a statement gives (see the module docstring)."""

    kind: str  # "home" | "job"
    holder: tuple[str, ...]
    value: frozenset[str]  # stemmed
    ended: bool
    change: bool
    #: where the clause stating it starts and ends in the text, and where its verb starts (`remainders.remainder`)
    span: tuple[int, int, int] = field(default=(0, 0, 0), compare=False)


def slots(text: str) -> tuple[Slot, ...]:
    """The home and job slots `text` states, in order."""
    return _slots(text)


@lru_cache(maxsize=8192)
def _slots(text: str) -> tuple[Slot, ...]:
    out: list[Slot] = []
    last_holder: tuple[str, ...] = ()
    for m in _VERB_FOLDED.finditer(text):  # (the places and the group of each match; not its text)
        group = m.lastgroup or ""
        kind = "home" if group.startswith("home") else "job"
        holder = _holder(text[: m.start()])
        if not holder or holder[-1] in _PERSONAL and last_holder:
            holder = last_holder  # "… and now works at KPMG", "Sofia quit the bakery; she works at …"
        if not holder:
            continue
        last_holder = holder
        starts = [x.end() for x in _CLAUSE_END.finditer(text, 0, m.start())]
        end = _STATEMENT_END.search(text, m.end())
        span = (starts[-1] if starts else 0, end.start() if end else len(text), m.start())
        out.append(
            Slot(kind, holder, _value(text[m.end():]), group.endswith("_end"), group.endswith(("_change", "_end")),
                 span)
        )
    return tuple(out)


@lru_cache(maxsize=8192)
def _cues(text: str) -> tuple[bool, bool]:
    """(an update cue such as "now", a correction cue such as "actually"): asked once per new text, not once per
    neighbour (the two searches were a quarter of a bulk write's reconciliation)."""
    return signals.has_update_cue(text), signals.has_correction(text)


def _holder(before: str) -> tuple[str, ...]:
    """Who the clause that ends at a verb is about: its last words, without leading cues and trailing auxiliaries."""
    clause = _CLAUSE_END.split(before)[-1]
    words = [_PRONOUNS.get(w, w) for w in tokenize(clause)]
    while words and words[-1] in _LEAD:
        words.pop()
    while words and words[0] in _LEAD:
        words.pop(0)
    words = [w for w in words if w not in _DETERMINERS or w in ("my", "our")][-3:]
    return tuple(words)


def _value(after: str) -> frozenset[str]:
    clause = _CLAUSE_END.split(after, maxsplit=1)[0]
    stops = stop_words()
    words = [w for w in tokenize(clause) if w not in stops and w not in _TIME_WORDS and not w.isdigit()]
    return frozenset(stem_tokens(words)) if words else frozenset()


def same_holder(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Do two holders name one person or thing? The same last word, or one's words all in the other's, where a
    possessive ("lena's") is its own word: "Lena's friend" is not Lena."""
    x = {w for w in a if w not in ("my", "our")}
    y = {w for w in b if w not in ("my", "our")}
    if not x or not y:
        return False
    if a[-1] == b[-1]:
        return True
    return x <= y or y <= x


def verdict(new: str, old: str, cues: tuple[bool, bool] | None = None) -> tuple[bool, str] | None:
    """Does `new` replace a home or job `old` states (see the module docstring)? (True, why) when it does;
    (False, why) when `new` changes a slot of the kind `old` states but not `old`'s (someone else's move, a move
    within the same town): no other rule may then read it as replacing `old` ("Marco moved to a bigger flat in
    Turin" shares "Marco" and "Turin" with "Marco lives in Turin"); None when the slots say nothing. `cues`: `new`'s
    (update, correction) cues when the caller has read them already (`_cues`)."""
    v = _verdict(new, old, cues)
    return None if v is None else (v[0], v[1])


def _verdict(new: str, old: str, cues: tuple[bool, bool] | None = None) -> tuple[bool, str, Slot | None] | None:
    """`verdict`, and the slot of `old` that `new` replaces."""
    update, correction = _cues(new) if cues is None else cues
    cue = update or correction
    news = slots(new)
    if not update and not any(n.change or n.ended or cue for n in news):
        return None  # nothing in `new` can replace a slot (the loop below skips every one): `old` need not be read
    olds = [s for s in slots(old) if not s.ended]
    other: str | None = None
    for n in news:
        if not (n.change or n.ended or cue):
            continue
        for o in olds:
            if o.kind != n.kind:
                continue
            who = _as_written(o.holder, old)
            if not same_holder(n.holder, o.holder):
                other = other or f"{_as_written(n.holder, new)} is not {who}"
                continue
            if n.ended:
                if not n.value or n.value & o.value:
                    return True, f"{who}: no longer at the old {n.kind} ({', '.join(surface(o.value, old)) or '-'})", o
                continue
            if not n.value:
                if n.change:
                    return True, f"{who}: changed {n.kind}", o
                continue
            if o.value and not n.value & o.value:
                was, now = ", ".join(surface(o.value, old)), ", ".join(surface(n.value, new))
                return True, f"{who}: {n.kind} {was} -> {now}", o
            other = other or f"{who}: the same {n.kind} ({', '.join(surface(n.value & o.value, new))})"
    if other is None and olds and update and not correction:
        # an update that states no home or job of the old holder does not replace one: "Grace's son now goes to
        # Hillside Primary" after "Grace works at Hillside Primary" (frames share "Hillside Primary" and swap
        # "work" for "son"); an explicit correction keeps the other rules ("Actually it's Microsoft, not Google")
        for o in olds:
            if not any(n.kind == o.kind and same_holder(n.holder, o.holder) for n in news):
                return False, f"states no {o.kind} of {' '.join(o.holder)}", None
    return None if other is None else (False, other, None)


def replaced_slot(new: str, old: str) -> Slot | None:
    """The slot of `old` that `new` replaces (its clause's span: `remainders.remainder` cuts it out), or None."""
    v = _verdict(new, old)
    return v[2] if v is not None and v[0] else None


def replaces(new: str, old: str) -> str | None:
    """Why `new` replaces a home or job `old` states, or None."""
    v = verdict(new, old)
    return v[1] if v is not None and v[0] else None


def _as_written(words: tuple[str, ...], text: str) -> str:
    """A holder's words as `text` writes them ("I", "my sister Lena"): the parse keeps them lower-cased."""
    out = []
    for w in words:
        m = re.search(rf"(?i)(?<!\w){re.escape(w)}(?!\w)", text)
        out.append(m.group(0) if m else w)
    return " ".join(out)


#: A switch told with both ends: "switched X from A to B", "changed Mum's physio over from the clinic to home visits".
_SWITCHED_FROM = re.compile(
    r"(?i)\b(?:switched|swapped|changed|moved)\b[^.;:!?]{0,60}?\bfrom\b[^.;:!?]{1,60}?\bto\b"
)


def switched_from(n: Statement, o: Statement, replaced: bool, why: str) -> bool:
    """Whether `n` tells a switch with both its ends ("We've switched Mum's physio from the clinic to home visits")
    from a word of `o` (`replaced`: the comparison's), of `o`'s subject said again, where `verdict` found no home or
    job of `o`'s holder in `n` (`why`): the old end names what is replaced, whatever slot `verdict` reads. Not "works
    from home" (no switch), nor "My brother moved from Porto to Lisbon" after "I live in Porto." (another holder)."""
    return (replaced and why.startswith("states no ") and _SWITCHED_FROM.search(n.text) is not None
            and bool(o.subject) and o.subject <= n.stems)

