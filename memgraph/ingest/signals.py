"""Lexical signals read from text without an LLM: cues (preference, correction, constraint, decision, update),
named entities, numbers and dates, negation. Shared by importance (salience), classify, tags and reconcile.

Hand-written rather than a model (spaCy NER would add a 50 MB model and ~1 ms per chunk for a +0.3 salience
bump): capture costs no model call, and every rule here is visible and tested.
Patterns are English; the Unicode tokenizer (`memgraph.text`) keeps everything else working lexically. The patterns
themselves are in `signal_words.py`; this module searches them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from memgraph.ingest import literals
from memgraph.ingest.chunk import looks_like_record
from memgraph.ingest.clean import strip_code
from memgraph.ingest.records import ITEM_MARK
from memgraph.ingest.signal_words import (
    _DATE_WORDS,
    _DIGIT,
    _NUMBER,
    _REDACTED,
    _SPEAKER,
    _TO_VALUE,
    ADDITIVE,
    CONSTRAINT,
    CORRECTION,
    EPISODE,
    MONTHS,
    NEGATION,
    PREFERENCE,
    UPDATE,
    UPDATE_TO_VALUE,
    WEEKDAYS,
)
from memgraph.text import stop_words, tokenize


def speaker(text: str) -> str | None:
    """The speaker label of a conversation turn ("Caroline: ..."), if the text starts with one."""
    m = _SPEAKER.match(text)
    return m.group(1).strip() if m else None


# Capitalised words that are not names.
_NOT_ENTITIES = (
    frozenset(
        "i i'm i've i'd i'll im ok okay yes no hey hi hello thanks thank please sorry oh wow yeah yep nope lol "
        "mr mrs ms dr sir madam dear btw fyi note todo user assistant the a an".split()
    )
    # the labels a note opens with ("Update: Jonas is on call"): a colon after them is no speaker's name
    | frozenset("update correction reminder edit warning important notes summary status ps nb tip".split())
    | frozenset(MONTHS)
    | frozenset(WEEKDAYS)
    # units written in capitals ("64 GB", "3.2 GHz"): a "gb" tag would join every memory that counts storage
    | frozenset("kb mb gb tb pb kib mib gib tib hz khz mhz ghz mph kph rpm fps dpi ppi".split())
)
#: Speaker roles left out of names above ("User: ...") that still belong to a name they continue ("Home Assistant").
_ROLES = frozenset({"user", "assistant"})
#: Sentence-initial words whose "'s" is "is" or "us", never a possessive ("Let's", "Here's", "That's").
_CONTRACTED = frozenset("let here there that what who how where when it he she".split())
_WORD = re.compile(r"[^\W\d_][\w'’&.-]*[\w]|[^\W\d_]", re.UNICODE)
_POSSESSIVE = re.compile(r"['’]s$", re.I)
_SENTENCE_START = re.compile(r"(?:^|[.!?:;]\s+|\n\s*|[\"“(]\s*)$")
#: Where a record's field value starts ("Contact: Jo Pike"): after the label's colon.
_FIELD_VALUE = re.compile(r":[ \t]+$")


class Folded:
    """A case-insensitive pattern searched in ASCII text as a case-sensitive one over the lower-cased text: the same
    matches at the same places (a letter matches either case exactly when its lower case matches; `[A-Z]` becomes
    `[a-z]`), though their text is lower-cased. Python's engine tries a case-insensitive alternation letter by
    letter at every position; case-sensitive, it skips a branch on its first letter (a short text: UPDATE 19 -> 8 us,
    EPISODE 5 -> 1 us, NEGATION 5 -> 1.5 us). Other text takes the pattern itself (case-insensitive matching folds
    some non-ASCII letters onto ASCII ones). A lower-cased text holding none of the strings every match holds
    (`literals.necessary`: "actually", "correct", "mistake", ... for CORRECTION) is not searched: the correction
    and update cues' alternations of ~100 phrases cost 20-60 us a text, the test a few (bench/RESULTS.md, "Bulk
    writes, twentieth round")."""

    __slots__ = ("lowered", "needs", "pattern")

    def __init__(self, pattern: re.Pattern[str]) -> None:
        src = pattern.pattern.removeprefix("(?i)").replace("[A-Z]", "[a-z]")
        if not pattern.flags & re.IGNORECASE or re.search(r"(?<!\\)(?<!\(\?)[A-Z]", src):
            raise ValueError(f"not a case-insensitive pattern of lower-case letters: {pattern.pattern[:60]}")
        self.pattern = pattern
        self.lowered = re.compile(src, pattern.flags & ~re.IGNORECASE)
        self.needs = literals.necessary(self.lowered)

    def search(self, text: str) -> re.Match[str] | None:
        if not text.isascii():
            return self.pattern.search(text)
        low = text.lower()
        return self.lowered.search(low) if literals.holds(self.needs, low) else None

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        if not text.isascii():
            return self.pattern.finditer(text)
        low = text.lower()
        return self.lowered.finditer(low) if literals.holds(self.needs, low) else iter(())


_UPDATE, _UPDATE_TO_VALUE, _ADDITIVE, _EPISODE, _NEGATION = map(
    Folded, (UPDATE, UPDATE_TO_VALUE, ADDITIVE, EPISODE, NEGATION)
)


def has_preference(text: str) -> bool:
    return bool(PREFERENCE.search(text))


def has_correction(text: str) -> bool:
    return correction_cue(text) is not None


#: CORRECTION searched lower-cased (`Folded`): the same matches at the same places, ~20% faster on real texts (every
#: new text of a bulk write is searched once: bench/RESULTS.md, "Bulk writes, eighteenth round"). A match's text is
#: lower-cased; its callers read where it is, not what it says.
_CORRECTION = Folded(CORRECTION)


@lru_cache(maxsize=16384)
def correction_cue(text: str) -> re.Match[str] | None:
    """The first correction cue in `text`, its code blanked (cached: a new text is classified first, and the
    statement the write-path decisions read parses the same text again; ~20 us a search). The match is of the
    lower-cased text where `text` is ASCII (`_CORRECTION`): read its span, not its text."""
    return _CORRECTION.search(strip_code(text))


def has_constraint(text: str) -> bool:
    return bool(CONSTRAINT.search(strip_code(text)))


#: A named supplier or range dropped by the speaker ("We've dropped Fig & Fennel and booked …"; held-out pairs 5 and
#: 13), apart from UPDATE because the name's capital is what tells it from "I dropped out of school" and "we dropped
#: the kids at school" (UPDATE is searched lower-cased: `Folded`).
_DROPPED_NAME = re.compile(r"\b(?i:we|i)(?:['’]ve|\s+have)?\s+dropped\s+(?:the\s+|our\s+)?[A-Z][\w'’-]+")


#: A fronted clause that dates or explains what follows, said without its comma (dictated speech, chat): "Since the
#: swelling has gone down the physio has cut the heel slides to once a day". It has a verb of its own and ends where a
#: second subject and its verb begin ("the physio has", "we've", "they are").
_FRONTED_BARE = re.compile(
    r"(?i)^(\s*(?:since|after|following|because|now\s+that|once)\s+"
    r"(?=[^,.;!?]{0,60}?\b(?:has|have|had|is|are|was|were|did|got|went|came|left|[a-z]{3,}ed)\b)[^,.;!?]{3,60}?)"
    r"\s+(?=(?:the|our|their|my|his|her|its)\s+(?:[\w'’-]+\s+){0,2}?(?:has|have|had|is|are|was|were|will|can|now)\b"
    r"|(?:we|they|i|you|he|she)(?:['’](?:ve|re|ll|d|s)\b|\s+(?:have|has|are|is|will|can|now)\b))"
)


def punctuated(text: str) -> str:
    """`text` with the comma a fronted clause said without one would have (`_FRONTED_BARE`), so that the cue that
    reads such a clause and the reason's cut (`reasons.py`) find where it ends."""
    return _FRONTED_BARE.sub(r"\1, ", text, count=1)


#: A routine of upkeep: a change verb in its plain form with how often after it ("change hearing aid domes every two
#: months", "wax filters - change monthly", "replace the battery once a year"): an instruction that holds, not a
#: change made (held-out pairs 16 read "change" as the update cue). The verb is blanked for the update cue only.
_ROUTINE = re.compile(
    r"(?i)\b(?:change|replace|renew|swap|rotate)(?=\s+(?:[\w'’-]+\s+){0,5}?(?:every|each|once|twice|daily|"
    r"weekly|fortnightly|monthly|quarterly|yearly|annually|nightly)\b)"
)


#: A change verb denied: "I won't quit", "we never moved", "the plan hasn't changed" (a conversation's
#: encouragement, "Thanks, Gina! I won't quit, even when it's hard.", superseded the speaker's earlier turns on LoCoMo
#: dev). The verb is blanked for the update cue only; "no longer" and "not anymore" are cues of their own.
_DENIED_CHANGE = re.compile(
    r"(?i)(?:n['’]t|\bnot|\bnever)\s+(?:(?:ever|really|yet|have|has|had|be|been|gonna|going\s+to)\s+)?"
    r"(?P<v>quit(?:s|ting)?|stop(?:s|ped|ping)?|give\s+up|giving\s+up|chang(?:e|es|ed|ing)|mov(?:e|es|ed|ing)|"
    r"switch(?:es|ed|ing)?|sell(?:s|ing)?|sold|retir(?:e|es|ed|ing)|cancel(?:s|led|ed|ling|ing)?)\b"
)


def has_update_cue(text: str) -> bool:
    text = punctuated(text)
    if _ROUTINE.search(text):
        text = _ROUTINE.sub(lambda m: " " * len(m.group(0)), text)
    if "n" in text and _DENIED_CHANGE.search(text):
        text = _DENIED_CHANGE.sub(lambda m: m.group(0)[: m.start("v") - m.start()] + " " * len(m.group("v")), text)
    return (
        bool(_UPDATE.search(text))
        or (_TO_VALUE.search(text) is not None and bool(_UPDATE_TO_VALUE.search(text)))
        or ("dropped" in text and _DROPPED_NAME.search(text) is not None)
    )


def is_additive(text: str) -> bool:
    return bool(_ADDITIVE.search(text))


def is_episode(text: str) -> bool:
    return bool(_EPISODE.search(strip_code(text)))


def is_negated(text: str) -> bool:
    return bool(_NEGATION.search(text))


def numbers(text: str) -> set[str]:
    """Numbers as written (normalised: no thousands separators), redaction markers ignored."""
    text = _REDACTED.sub(" ", text)
    return {m.group(0).lower().replace(",", "") for m in _NUMBER.finditer(text)}


def dates(text: str) -> set[str]:
    return {" ".join(m.group(0).lower().split()) for m in _DATE_WORDS.finditer(text)}


def has_number_or_date(text: str) -> bool:
    text = _REDACTED.sub(" ", text)
    return bool(_DIGIT.search(text) or _DATE_WORDS.search(text))


def entities(text: str) -> list[str]:
    """Named entities by capitalisation (cached: salience, tags and reconcile all ask for the same texts)."""
    return list(_names(text)[0])


def initial_names(text: str) -> list[str]:
    """Capitalised words that open a sentence and that `entities` leaves out ("Priya owns the release."):
    a name or an ordinary word ("Yesterday", "Art is ..."), which text alone cannot tell. The write path takes
    one as a name when the user's memories already name it (`memgraph.ingest.pipeline`)."""
    return list(_names(text)[1])


@lru_cache(maxsize=16384)
def _names(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Named entities by capitalisation: runs of capitalised words ("New York", "FastAPI", "Caroline"); and
    the sentence-initial words left out of them.

    A capitalised word mid-sentence is a name. At the start of a sentence it counts only when it looks like a
    name anyway (all caps like AWS, an inner capital like PostgreSQL, followed by another capitalised word, or
    capitalised elsewhere in the text mid-sentence), since "Yesterday" and "Caroline" look alike there.
    """
    text = _REDACTED.sub(" ", strip_code(text))
    words = [(m.group(0), m.start(), m.end()) for m in _WORD.finditer(text)]
    record = looks_like_record(text)
    stops = stop_words()
    mid_sentence_caps: set[str] = set()
    marks: list[tuple[bool, bool]] = []  # (capitalised candidate, at sentence start)
    for w, start, _ in words:
        low = w.lower().strip("'’")
        # "Fridays", "Mondays": a plural weekday is a time, not a name
        cand = w[0].isupper() and low not in _NOT_ENTITIES and low.rstrip("s") not in _NOT_ENTITIES and low not in stops
        # where a sentence starts matters only for a candidate (read below only after `cand`): one pattern
        # search per word was a third of this function's time
        initial = cand and (
            start == 0 or bool(_SENTENCE_START.search(text[max(0, start - 3) : start])) or _opens_item(text, start)
        )
        if initial and record and _FIELD_VALUE.search(text[max(0, start - 3) : start]):
            initial = False  # a record's value ("Contact: Jo Pike"): a name starts here as well as anywhere

        marks.append((cand, initial))
        if cand and not initial:
            mid_sentence_caps.add(w)
    out: list[str] = []
    weak: list[str] = []
    i = 0
    while i < len(words):
        w, start, end = words[i]
        cand, initial = marks[i]
        if not cand:
            i += 1
            continue
        strong = (
            not initial
            or (len(w) > 1 and (w.isupper() or any(c.isupper() for c in w[1:])))
            or w in mid_sentence_caps
            or text[end : end + 1] == ":"  # a speaker label "Caroline: ..."
        )
        if not strong:  # "Deployed FastAPI": the sentence's first word is not part of the name
            bare = _POSSESSIVE.sub("", w).rstrip(".'’")
            # "Let's", "Here's": a contraction of a word that is no name
            if bare.lower() not in stops and bare.lower() not in _NOT_ENTITIES and bare.lower() not in _CONTRACTED:
                weak.append(bare)
            i += 1
            continue
        j = i + 1
        while j < len(words) and words[j][1] - words[j - 1][2] <= 1 and _continues_name(words[j][0], marks[j]):
            j += 1
        if record and text[words[j - 1][2] : words[j - 1][2] + 1] == ":":
            i = j  # a record's field label ("Contact: Jo Pike | Phone: ..."): "Phone" names no one
            continue
        # "LeBron's" names LeBron: without the possessive the two share one tag
        out.append(_POSSESSIVE.sub("", " ".join(x[0] for x in words[i:j])).rstrip(".'’"))
        i = j
    found = tuple(dict.fromkeys(out))
    return found, tuple(dict.fromkeys(n for n in weak if n not in found))


def _opens_item(text: str, start: int) -> bool:
    """Whether the word at `start` opens a list item ("- Error budget: ...", "* Feature flags ..."): the start of
    a sentence, where a capital says nothing of a name (a team's notes tagged "error" and "feature" from their
    bullets)."""
    line = text.rfind("\n", 0, start) + 1
    return ITEM_MARK.fullmatch(text[line:start]) is not None


def _continues_name(word: str, mark: tuple[bool, bool]) -> bool:
    """A word that extends the name before it: a capitalised candidate mid-sentence, or a role word ("Home
    Assistant", "Power User") that alone would be a speaker's label."""
    cand, initial = mark
    return not initial and (cand or (word[0].isupper() and word.lower() in _ROLES))


@lru_cache(maxsize=4096)
def _is_stop(token: str) -> bool:
    return token in stop_words()


def key_terms(text: str, *, drop: frozenset[str] = frozenset(), limit: int = 5) -> list[str]:
    """The first `limit` content words (no stop words, no cue words); CJK characters count as words."""
    out: list[str] = []
    for tok in tokenize(_REDACTED.sub(" ", strip_code(text))):
        if _is_stop(tok) or tok in drop or tok.isdigit():
            continue
        if len(tok) < 3 and not ("\u2e80" <= tok[0] <= "\ud7af"):
            continue
        if tok not in out:
            out.append(tok)
        if len(out) >= limit:
            break
    return out
