"""What a follow-up leaves out and the other text of a pair says: the subject a "…, that one" follow-up drops ("runs an
hour and a half, that one." after "The shadow-puppet show runs 45 minutes."), and the phrase an object pronoun in a
later clause stands for ("…; the council doesn't collect it" after "The council collects the bagged litter …"). The
conflict chain (`conflicts.py`) reads such a text again with those words put in (held-out pairs 20: chat's and
speech's follow-ups), and asks whether one text's subject is said whole by the other (`subject_said`)."""

from __future__ import annotations

import re

from memgraph.ingest import voice
from memgraph.ingest.statement import Statement, statement, stem
from memgraph.ingest.statement_words import _COPULA, _DETERMINERS
from memgraph.text import stop_words

#: An object pronoun after a clause's first word ("the council doesn't collect it").
_OBJECT_PRONOUN = re.compile(r"(?i)(?<=\S)(\s+)(?:it|them)\b(?!['’])")


def resolved(parts: tuple[str, ...], other: Statement) -> list[str]:
    """Joined clauses (`conflicts._joined`) with an object pronoun in a later one said as the words it stands for: the
    run of words of `other` that an earlier clause says too ("We have to take the bagged litter to the tip
    ourselves; the council doesn't collect it." against "The council collects the bagged litter …": "it" is "the
    bagged litter").
    Read alone, the clause lacked the words its pronoun stands for, which counted against its negation (held-out
    pairs 20). A clause whose pronoun stands for nothing `other` names is kept as it is."""
    out = list(parts)
    for i in range(1, len(parts)):
        m = _OBJECT_PRONOUN.search(parts[i])
        if m is None:
            continue
        said = _run_said(" ".join(parts[:i]), other.text, parts[i])
        if said:
            out[i] = f"{parts[i][:m.start()]}{m.group(1)}the {said}{parts[i][m.end():]}"
    return out


def _run_said(earlier: str, text: str, clause: str) -> str:
    """The longest run of `text`'s words whose content words `earlier` says too and `clause` does not (the pronoun's
    own clause: its verb is no part of what the pronoun stands for), stop words only inside it: a whole phrase of
    `text`, a stop word or an end on each side ("the *bagged litter* after"; not "bill" of "the water bill", which
    names another bill than "the gas bill"), or ""."""
    stops = stop_words()
    own = {stem(w.lower()) for w in re.findall(r"[\w'’-]+", clause)}
    said = {stem(w.lower()) for w in re.findall(r"[\w'’-]+", earlier)} - own
    words = re.findall(r"[\w'’-]+", text)
    best: list[str] = []
    start: int | None = None  # where the open run began
    for i, w in enumerate([*words, ""]):
        low = w.lower()
        content = bool(low) and low not in stops
        if content and stem(low) in said:
            start = i if start is None else start
            continue
        if start is not None and low in stops and low:
            continue  # (a stop word inside a run)
        if start is not None:
            end = i
            while words[end - 1].lower() in stops:
                end -= 1
            whole = (start == 0 or words[start - 1].lower() in stops) and (end < i or not content)
            if whole and end - start > len(best):
                best = words[start:end]
        start = None
    return " ".join(best)


def subject_given(n: Statement, o: Statement) -> list[tuple[Statement, Statement]]:
    """The pair again with a "…, that one" follow-up said with the other side's subject (`voice.untagged`: "runs an
    hour and a half, that one." after "The shadow-puppet show runs 45 minutes." is "The shadow-puppet show runs an
    hour and a half."): the follow-up leaves out the subject it is about, and the other's subject words then count
    as words it does not say. Only where the other side has a subject, said at its start (`_subject_words`)."""
    out: list[tuple[Statement, Statement]] = []
    for new_side, (a, b) in ((True, (n, o)), (False, (o, n))):
        told = voice.untagged(a.text)
        head = _subject_words(b) if told is not None else ""
        if told is None or not head:
            continue
        body, pronoun = told
        said = statement(f"{head} {body.split(maxsplit=1)[1] if pronoun else body}")
        out.append((said, b) if new_side else (b, said))
    return out


def _subject_words(st: Statement) -> str:
    """The words `st`'s text opens with up to the last of its subject ("The night bus" of "The night bus leaves at
    23:10."), or "" when they do not all come before its first copula."""
    if not st.subject:
        return ""
    words = re.findall(r"[\w'’-]+", st.text)
    left = set(st.subject)
    for i, w in enumerate(words):
        low = w.lower()
        if low in _COPULA:
            break
        left -= {stem(low), *(stem(p) for p in low.split("-"))}
        if not left:
            return " ".join(words[: i + 1])
    return ""


def subject_said(a: Statement, b: Statement) -> bool:
    """Whether every word of `a`'s subject as its text says it, less a determiner and a possessive's "'s", is a word
    of `b`, stop words too ("top" of "The top tank": the stop list has it); so when `a` has no subject at its
    start."""
    said = re.findall(r"[\w'’-]+", re.sub(r"['’]s\b", "", _subject_words(a).lower()))
    return all(w in _DETERMINERS or w in b.tokens or stem(w) in b.stems for w in said)


#: A clause that opens with a pronoun for its subject: "it's always at the Bell", "they're kept in the shed".
_PRONOUN_SUBJECT = re.compile(
    r"(?i)\s*(?:it|they)(?:['’](?P<verb>s|re)\b|(?=\s+(?:is|are|was|were|has|have|will)\b))"
)
#: A contracted verb after the pronoun, said whole after the subject put in its place ("it's" -> "… is").
_WHOLE_VERB = {"s": " is", "re": " are"}


def completed(parts: list[str], other: Statement) -> list[str]:
    """Clauses of a told text (`conflicts._joined`) with their subject said as `other` says it, where the text gave
    the missing words in another clause: "Took the kids to see the kite festival poster at the library; the night
    flying display is on the Friday evening" read against "The kite festival's night flying display is on the
    Saturday." says "The kite festival's night flying display is on the Friday evening" in its second clause; "…
    she was going on about the club dinner; it's always at the Bell" says "The orienteering club's annual dinner is
    always at the Bell" (held-out pairs 21, diaries and chat). Read alone, the clause's subject was a part of the
    other's, which the conflict rules read as a scope of its own ("front tyres" / "tyres").

    A clause's subject that is a part of `other`'s, at its start, the rest said in the text's other clauses; or a
    pronoun ("it", "they") that opens it, where an earlier clause says the last word of `other`'s subject (its head)
    and at least half of its words. Where `other` has no subject at its start, or nothing fits, the clause is kept."""
    head = _subject_words(other)
    if not head or len(parts) < 2:
        return parts
    whole = other.subject
    last = stem(re.findall(r"[\w'’-]+", head)[-1].lower())
    out = list(parts)
    for i, part in enumerate(parts):
        rest = {stem(w.lower()) for j, p in enumerate(parts) if j != i for w in re.findall(r"[\w'’-]+", p)}
        pronoun = _PRONOUN_SUBJECT.match(part)
        if pronoun is not None:
            earlier = {stem(w.lower()) for p in parts[:i] for w in re.findall(r"[\w'’-]+", p)}
            if last in earlier and 2 * len(whole & earlier) >= len(whole):
                verb = _WHOLE_VERB.get((pronoun.group("verb") or "").lower(), "")
                out[i] = f"{head}{verb}{part[pronoun.end():]}"
            continue
        st = statement(part)
        own = _subject_words(st)
        if own and st.subject < whole and whole - st.subject <= rest:
            out[i] = f"{head}{part.lstrip()[len(own):]}"
    return out
