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
from memgraph.ingest.chatter import strip_chatter
from memgraph.ingest.statement import Statement
from memgraph.ingest.value_words import MONTHS, WEEKDAYS
from memgraph.ingest.values import values
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
_TRAILING_JOIN = re.compile(r"(?i)(?:,|\s(?:and|but))\s*$")
_LEADING_JOIN = re.compile(r"(?i)^\s*(?:[.;!?,]\s*)?(?:(?:and|but)\s+)?")
#: First words of a clause that names its own subject (no holder is put before it).
_SUBJECT_WORDS = frozenset("i he she they we you it my our his her their the a an this that there".split())
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
    #: where the clause stating it starts and ends in the text, and where its verb starts (`remainder`)
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


def remainder(new: str, old: str) -> str | None:
    """What `old` still says once `new` has replaced one of its slots, or None when that slot was all of it.

    "My sister Lena lives in Porto and works as a nurse." then "Lena moved to Lisbon.": the move replaces the home
    clause, and the write keeps "My sister Lena works as a nurse." as a memory of its own (the superseded memory
    becomes inactive, and recall would otherwise lose her job with her old address). The clause that states the
    replaced slot is cut out; its holder ("My sister Lena") leads what follows when that starts with a verb. Kept
    only when the rest says something `new` does not: two content words or more that `new` lacks. Any other change
    or correction of a compound statement keeps the sentences and semicolon clauses it does not touch
    (`_untouched_clauses`). A pasted message's greeting and sign-off are no clause of it: "hi Sam - quick one: the
    deadline is fri 12/12. thx, Lena" corrected leaves no "Thx, Lena." memory (a newcomer's note did).
    """
    old = strip_chatter(old)
    v = _verdict(new, old)
    if v is None or not v[0] or v[2] is None:
        return _untouched_clauses(new, old)
    start, end, verb = v[2].span
    before = _TRAILING_JOIN.sub("", old[:start])
    after = _LEADING_JOIN.sub("", old[end:])
    holder = old[start:verb].strip(" ,")
    if after and not before.strip() and holder:
        first = after.split(maxsplit=1)[0]
        if first[:1].islower() and first.lower() not in _SUBJECT_WORDS:
            after = f"{holder} {after}"
    rest = " ".join(x for x in (before.strip(), after.strip()) if x)
    rest = re.sub(r"\s+([.,;!?])", r"\1", rest).strip(" ,;")
    if not rest or rest in ".!?":
        return None
    new_words = set(_content_stems(new))
    own = [w for w in _content_stems(rest) if w not in new_words]
    if len(set(own)) < 2:
        return None
    rest = rest[0].upper() + rest[1:]
    return rest if rest[-1] in ".!?" else rest + "."


def _content_stems(text: str) -> list[str]:
    """The stems of `text`'s words that are not stop words, in order: what a remainder must say of its own."""
    stops = stop_words()
    return stem_tokens([w for w in tokenize(text) if w not in stops])


#: Where a compound statement's clauses meet: a sentence's end or a semicolon (then spaces), or a line break (a list's
#: items, jotted lines).
_COMPOUND_BREAK = re.compile(r"(?<=[.!?;])[ \t]+|[ \t]*\n\s*")


def _compound_parts(text: str) -> list[tuple[str, bool]]:
    """`text`'s clauses, each with whether a line break ends it."""
    text = text.strip()
    out: list[tuple[str, bool]] = []
    at = 0
    for m in _COMPOUND_BREAK.finditer(text):
        if text[at : m.start()].strip():
            out.append((text[at : m.start()].strip(), "\n" in m.group()))
        at = m.end()
    if text[at:].strip():
        out.append((text[at:].strip(), False))
    return out


def compound_parts(text: str) -> list[str]:
    """The clauses of a compound statement (sentences, semicolons' parts, lines: a list's items, jotted lines), as
    `remainder` reads them; one item when it is no compound."""
    return [c for c, _ in _compound_parts(text)]


def _untouched_clauses(new: str, old: str) -> str | None:
    """The clauses of a compound `old` that `new` does not touch, when it replaced another of them.

    "Maya is on holiday from 3 to 14 March; Tomasz covers code review." then "Actually, Maya's holiday moved: she is
    away from 10 to 21 March.": the correction supersedes the memory, and without this recall would lose who covers
    code review. A clause is a sentence, a semicolon's part or a line (a list's item: "- retro: Fri 4pm"). Which
    clauses `new` touches:
    - when `new` changes a value (a number, time, date, weekday...) and some clause holds a value of the same kind,
      those clauses, and any clause sharing two content words with `new`: "we moved staging to Postgres 16" touches
      "uses Postgres 15", not "staging is db-staging.internal", which only names the same thing; of several clauses
      holding a value of one kind, only those that also share a word with `new` when some do ("standup's at 9:30 now"
      touches "The standup is at 9:15.", not "Retro is Friday at 4.", a time too: a newcomer's note lost the retro);
    - else the clauses sharing a content word with `new`.
    Words every clause has (the compound's common subject: "The standup is at 9:15. The standup is in the Blue
    room.") touch nothing. A lead-in line ("Shopping for abuela:") touches nothing either, and stays when an item
    after it does. The untouched clauses are kept when some clause was touched (else `new` replaced the whole),
    they have two content words and one that `new` does not say: "Deploys go through ArgoCD" stays when "the
    billing service can be deployed any day" lifts the Friday ban beside it (a newcomer's note lost it). Lines are
    kept as lines, sentences as sentences.
    """
    parts = _compound_parts(old)
    if len(parts) < 2:
        return None
    clauses = [c for c, _ in parts]
    new_words = set(_content_stems(new))
    words = [set(_content_stems(c)) for c in clauses]
    common = set.intersection(*words)
    new_kinds = _value_kinds(new)
    kinds = [_value_kinds(c) for c in clauses]
    lead = [broken and c.endswith(":") for c, broken in parts]
    named = [bool((w - common) & new_words) for w in words]
    valued = [False] * len(clauses)
    for kind in new_kinds:  # per kind of value: the clauses holding one, those naming what `new` names if some do
        holding = [i for i, k in enumerate(kinds) if kind in k and not lead[i]]
        for i in [i for i in holding if named[i]] or holding:
            valued[i] = True
    need = 2 if any(valued) else 1
    touched = [
        not ld and (v or len((w - common) & new_words) >= need)
        for w, v, ld in zip(words, valued, lead, strict=True)
    ]
    if not any(touched) or all(t or ld for t, ld in zip(touched, lead, strict=True)):
        return None
    keep = [not t and (ld or (len(w) >= 2 and bool(w - new_words)))
            for w, t, ld in zip(words, touched, lead, strict=True)]
    for i in range(len(keep)):  # a lead-in stays only over an item kept after it
        if lead[i] and keep[i]:
            keep[i] = any(keep[j] for j in range(i + 1, len(keep)) if not lead[j])
    if not any(k and not ld for k, ld in zip(keep, lead, strict=True)):
        return None
    rest = ""
    for i, ((c, broken), k) in enumerate(zip(parts, keep, strict=True)):
        if not k:
            continue
        line = broken or (i > 0 and parts[i - 1][1])  # a line is kept as written, a sentence ends in a stop
        if not line:
            c = c[0].upper() + c[1:] if not rest else c
            c = c if c[-1] in ".!?:" else c.rstrip(";") + "."
        rest += c + ("\n" if broken else " ")
    return rest.strip()


def _value_kinds(text: str) -> set[str]:
    """The kinds of value `text` states, quantities as one kind whatever their unit ("Postgres 15", "room 4B")."""
    return {"q" if k.startswith("q:") else k for k in values(text).kinds()}


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

