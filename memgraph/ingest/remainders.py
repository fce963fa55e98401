"""What a superseded memory still says: the parts of a compound statement that its replacement leaves standing.

"My sister Lena lives in Porto and works as a nurse." then "Lena moved to Lisbon.": the move supersedes the
memory, and without a remainder recall would lose her job with her old address. The write path keeps "My sister
Lena works as a nurse." as a memory of its own, DerivedFrom the old one (`ingest/pipeline.py`,
`_keep_remainders`); an agent's session end reads the same for a held statement (`agent/finalize.py`).

Why apart from `slots.py`: that module reads homes and jobs (a change of state); this one reads which parts of any
compound statement a change touched, whatever its slot. The decisions read `compound_parts` too (`reconcile.py`,
which part of a compound a new statement replaces).
"""

from __future__ import annotations

import re

from memgraph.ingest import slots
from memgraph.ingest.chatter import strip_chatter
from memgraph.ingest.records import field
from memgraph.ingest.values import values
from memgraph.text import stem as stem_tokens
from memgraph.text import stop_words, tokenize

#: The metadata key naming the memory a remainder was cut from (`ingest/pipeline.py` writes it; recall reads it).
REMAINDER_OF = "remainder_of"
_TRAILING_JOIN = re.compile(r"(?i)(?:,|\s(?:and|but))\s*$")
_LEADING_JOIN = re.compile(r"(?i)^\s*(?:[.;!?,]\s*)?(?:(?:and|but)\s+)?")
#: First words of a clause that names its own subject (no holder is put before it).
_SUBJECT_WORDS = frozenset("i he she they we you it my our his her their the a an this that there".split())
#: Where a compound statement's clauses meet: a sentence's end or a semicolon (then spaces), or a line break (a list's
#: items, jotted lines).
_COMPOUND_BREAK = re.compile(r"(?<=[.!?;])[ \t]+|[ \t]*\n\s*")
#: Where one sentence's pieces meet (`_pieces`): a comma before a space (not "60,000"), "and" or "but"; not a comma
#: before a preposition or a subordinating word, which open no fact of their own ("on Tuesdays at 4:30, at the
#: leisure centre pool"; "allergic to sesame, so she never handles the seeded loaves": a consequence of the piece
#: before it, which may not hold once that piece changed).
_PIECE_BREAK = re.compile(
    r"(?i),\s+(?!(?:at|in|on|for|with|from|to|by|near|of|after|before|until|till|via|so|then|which|who|whose|"
    r"because|since|as|where|when|though|although|if|unless)\s)(?:(?:and|but)\s+)?"
    r"|\s+(?:and|but)\s+"
)
#: Words that open a piece about someone or something named in another piece: kept alone, "Her surgery is on Hill
#: Street." would read as the new dentist's.
_REFERRING = frozenset("he she they it his her their its them him this that these those".split())


#: Metadata key on a superseding memory: the ids of the memories it replaced that state a kind of value it does not
#: restate, and that left no remainder to keep it ("meets on the first Wednesday at 7pm" -> "now meets on the second
#: Wednesday": one clause, so nothing can be cut out, and the 7pm still stands). Recall serves them with it, marked
#: superseded (`retrieve/bases.py`); erasure drops erased ids from it (`jobs/erase.py`).
AMENDS = "amends"


def leaves_values(new: str, old: str) -> bool:
    """Whether `old` states a kind of value (a time, a date, a month, an amount ...) that `new`, which replaced it,
    does not mention at all: what `new` changed, `old` still says the rest of."""
    return bool(_value_kinds(old) - _value_kinds(new))


def remainder(new: str, old: str) -> str | None:
    """What `old` still says once `new` has replaced one of its slots, or None when that slot was all of it.

    "My sister Lena lives in Porto and works as a nurse." then "Lena moved to Lisbon.": the move replaces the home
    clause, and the write keeps "My sister Lena works as a nurse." as a memory of its own (the superseded memory
    becomes inactive, and recall would otherwise lose her job with her old address). The clause that states the
    replaced slot is cut out; its holder ("My sister Lena") leads what follows when that starts with a verb. Kept
    only when the rest says something `new` does not: two content words or more that `new` lacks. Any other change
    or correction of a compound statement keeps the clauses it does not touch (`_untouched_clauses`). A pasted
    message's greeting and sign-off are no clause of it: "hi Sam - quick one: the deadline is fri 12/12. thx, Lena"
    corrected leaves no "Thx, Lena." memory (a newcomer's note did).
    """
    old = strip_chatter(old)
    slot = slots.replaced_slot(new, old)
    if slot is None:
        return _untouched_clauses(new, old)
    start, end, verb = slot.span
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


def items(text: str) -> list[str]:
    """The items of a compound statement: its clauses (`compound_parts`), or a single clause's pieces (`_pieces`), as
    `remainder` reads them; one item when it is no compound. `compounds.py` reads a new note against one of them."""
    parts = compound_parts(text)
    if len(parts) == 1:
        return _pieces(parts[0]) or parts
    return parts


def _pieces(sentence: str) -> list[str]:
    """The pieces of one sentence that each state a fact of their own, or [] when it has no such pieces.

    A newcomer's bakery notes: "The bakery opens at 7am on weekdays and 8am on Saturdays." superseded by "From next
    week the bakery opens at 7:30 on weekdays." lost the Saturday hours, and "Our flour supplier is Marriage's,
    delivery every Tuesday." superseded by "Flour deliveries moved to Wednesdays." lost the supplier: one sentence,
    so no clause was left standing. A sentence splits at commas, "and" and "but" when every piece holds a value (a
    time, a day, an amount) or two content words: "Lena, my sister, lives in Porto" and "Linen thread and PVA glue
    are supplied" do not split. After "and" / "but" a piece must open with a subject of its own ("and they deliver
    on Tuesdays") or a value ("and 8am on Saturdays"): "and lasts ten minutes" shares the first piece's subject,
    which no rule here can cut out. A piece that opens with a value borrows the words before the first piece's
    first value ("The bakery opens at " + "8am on Saturdays")."""
    spans: list[tuple[str, str]] = []  # (piece, the break before it)
    at, joint = 0, ""
    for m in _PIECE_BREAK.finditer(sentence):
        spans.append((sentence[at : m.start()], joint))
        at, joint = m.end(), m.group()
    spans.append((sentence[at:], joint))
    if len(spans) < 2:
        return []
    head = _head(spans[0][0])
    out: list[str] = []
    for i, (piece, brk) in enumerate(spans):
        piece = piece.strip().rstrip(".!?;,")
        if not piece:
            return []
        opens_value = _opens_with_value(piece)
        if i and brk.strip(", ").lower() in ("and", "but") and not (
            opens_value or piece.split(maxsplit=1)[0].lower() in _SUBJECT_WORDS
        ):
            return []
        if i and opens_value and head:
            piece = head + piece
        if not _value_kinds(piece) and len(set(_content_stems(piece))) < 2:
            return []
        out.append(piece)
    return out


def _opens_with_value(piece: str) -> bool:
    first = piece.split(maxsplit=1)[0].strip(",.;:")
    return bool(_value_kinds(first))


def _head(piece: str) -> str:
    """The words of `piece` before its first value ("The bakery opens at " in "The bakery opens at 7am on
    weekdays"), or "" when it opens with one or holds none."""
    for m in re.finditer(r"\S+", piece):
        if _value_kinds(m.group().strip(",.;:")):
            return piece[: m.start()]
    return ""


def _untouched_clauses(new: str, old: str) -> str | None:
    """The clauses of a compound `old` that `new` does not touch, when it replaced another of them.

    "Maya is on holiday from 3 to 14 March; Tomasz covers code review." then "Actually, Maya's holiday moved: she is
    away from 10 to 21 March.": the correction supersedes the memory, and without this recall would lose who covers
    code review. A clause is a sentence, a semicolon's part or a line (a list's item: "- retro: Fri 4pm"); a single
    sentence's clauses are its pieces (`_pieces`). Which clauses `new` touches:
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
    kept as lines, sentences as sentences, a sentence's pieces joined by commas.
    """
    parts = _compound_parts(old)
    # a one-line note's label leads what it keeps, and is no piece ("Choir concert: 12 December, soloist Ruth Baines,
    # tickets £10." with its tickets changed keeps "Choir concert: soloist Ruth Baines.")
    f = field(parts[0][0]) if len(parts) == 1 else None
    label = f.label if f is not None and f.value.strip() else ""
    pieces = _pieces(f.value if f is not None and label else parts[0][0]) if len(parts) == 1 else []
    if pieces:
        parts = [(p, False) for p in pieces]
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
    # an item is a fact of its own with two content words, or one and a value ("due April": a stop word and a
    # month; a newcomer's "Water rates: £12 p/a, due April, payable to the treasurer." lost it to "£15 a year now")
    keep = [not t and (ld or (len(w) >= (1 if k else 2) and bool(w - new_words)))
            for w, t, ld, k in zip(words, touched, lead, kinds, strict=True)]
    for i in range(len(keep)):  # a lead-in stays only over an item kept after it
        if lead[i] and keep[i]:
            keep[i] = any(keep[j] for j in range(i + 1, len(keep)) if not lead[j])
    if not any(k and not ld for k, ld in zip(keep, lead, strict=True)):
        return None
    if pieces:
        for i in range(1, len(keep)):  # a piece that refers back stays only with the piece before it
            if keep[i] and not keep[i - 1] and clauses[i].split(maxsplit=1)[0].lower() in _REFERRING:
                keep[i] = False
        if not any(keep):
            return None
        rest = ", ".join(c for c, k in zip(clauses, keep, strict=True) if k)
        return f"{label}: {rest}." if label else rest[0].upper() + rest[1:] + "."
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
