"""Step 2 of the write path: one fact per memory. Text is cut where its statements are separate, measured in the
embedding model's own tokens.

1. A fenced code block is one unit, never cut mid-block (unless it alone exceeds `chunk_code_max_tokens`, then
   it is cut at line ends). A list or a table (with the line that introduces it) is one unit too.
2. Paragraphs (blank lines) are separate units. A heading ("# Notes", "Monday 3 March:") joins what follows.
3. Inside a prose paragraph every sentence is its own unit, except one that continues the sentence before it:
   it opens with a pronoun or a connective ("It…", "They…", "But…", "Also…", "Then…"), follows a lead-in
   ending in ":", or is a fragment of fewer than `min_words` content words ("Thanks!", "OK."). A line of jotted
   notes that opens with its own label ("vet: Dr Osei, jabs every 12 months", "car - MOT due 14 March") is its own
   unit even in lower case: it names its subject, it does not continue the line before. A conversation
   turn (`sentences=False`) stays one unit: its sentences lean on each other and on the dialogue.
4. A unit over `max_tokens` is split at sentence ends (`.`, `!`, `?` + space + capital; CJK `。！？`), then at
   line breaks, then between words, then (a run with no spaces) between characters.

Why: a memory holding two facts is reinforced, superseded or contradicted as one ("Actually, the standup
moved to 9:30." must not deactivate "Never push to main on Fridays." written in the same paragraph), classified
as one kind (a notes file of ten paragraphs became one `constraint`), and triggers on every word of both.

Chunks are exact slices of the cleaned text (`text[start:end]`) and only whitespace lies between them, so no
character of content is ever lost. Token counts come from the caller (`embedder.count_tokens`): the model's
WordPiece tokenizer, offline, no padding or truncation.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from memgraph.ingest.clean import split_code
from memgraph.ingest.records import BULLET as _BULLET
from memgraph.ingest.records import field, record
from memgraph.text import stop_words, tokenize

CountTokens = Callable[[str], int]

#: Words after which a period does not end a sentence ("Dr. Okafor", "e.g. this").
ABBREVIATIONS = frozenset(
    "mr mrs ms dr prof sr jr st mt ft no nr vs etc e.g i.e eg ie approx dept est inc ltd co corp av ave "
    "jan feb mar apr jun jul aug sep sept oct nov dec mon tue wed thu fri sat sun fig vol ch p pp".split()
)
#: A sentence opening with one of these leans on the one before it.
CONTINUATIONS = frozenset(
    "it its it's this that these those they them their theirs he she his her him such both either neither "
    "also and but or so then however otherwise instead because though although still yet plus besides "
    "moreover furthermore meanwhile afterwards thus therefore hence which except unless until even only "
    "same another other others here".split()
)
_SOCIAL = frozenset(
    "thanks thank thx cheers ok okay hi hello hey bye regards best wishes yes yeah yep no nope sure great cool "
    "nice lol sorry please dear all team everyone".split()
)
_TITLES = frozenset("dr mr mrs ms miss prof sir".split())
#: Labels that open a note, not a conversation turn ("Note: …", "Update: …").
_LABELS = frozenset(
    "note notes update correction todo to-do decision warning important reminder summary tip fyi ps edit re "
    "subject agenda action actions context goal goals status q a answer question example rule policy".split()
)
#: A log line's day ("Tue: called the insurer", "Monday: gym"): a stamp, never a speaker's name (read as one, every
#: Tuesday's note shared a `speaker:tue` tag). Months are left out: "May", "June" and "April" are also names. The
#: write path's rules still read such a line as a turn (`looks_like_turn`): two days' notes are not compared, since
#: the stamps would read as a changed weekday ("Mon: swim is at 10 on Saturdays" / "Thu: ..." contradicted).
_DAY_LABELS = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun today "
    "tonight yesterday tomorrow".split()
)


def day_label(label: str) -> bool:
    """Whether a "Label:" that opens a text is a day ("Tue", "Monday"), a log line's stamp rather than a speaker."""
    return label.strip().lower().rstrip(".") in _DAY_LABELS


_LIST_LINE = re.compile(rf"^[ \t]*(?:{_BULLET}|\(?[a-zA-Z][.)][ \t]+|\[[ xX]\][ \t]+)\S")
_TABLE_LINE = re.compile(r"^[ \t]*\|.*\|[ \t]*$")
_HEADING = re.compile(r"^[ \t]*(?:#{1,6}[ \t]+\S.*|\*\*[^*\n]+\*\*:?|[^\n.!?]{1,80}:)[ \t]*$")
_SPEAKER = re.compile(
    r"^\s*([A-Z][\w.'’ -]{0,40}?|user|assistant|system|human|ai|bot|agent|customer|support|me|you):\s"
)
_ABBREV_BEFORE = re.compile(r"([\w.]+)\.$")

_PARAGRAPH = re.compile(r"\n[ \t]*\n")
_SENTENCE_END = re.compile(r"[.!?][\"')\]»”’]*\s+|[。！？][\"')\]」』”’]*\s*")
_LINE = re.compile(r"\n")
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class Chunk:
    """One chunk: `text == source[start:end]`, `tokens` under the model's tokenizer, `code` if it holds code."""

    text: str
    start: int
    end: int
    tokens: int
    code: bool = False


def looks_like_turn(text: str) -> bool:
    """A conversation turn: the text opens with a speaker label ("Caroline: …", "user: …"), not a note label
    ("Note: …")."""
    m = _SPEAKER.match(text)
    if m is None:
        return False
    if _further_field(text):
        return False  # a record of fields, not "Supplier" speaking (`looks_like_record`)
    words = m.group(1).strip().split()
    # a speaker is one name ("Caroline", "user") or a title and a name ("Dr. Chen"); "Nimbus API:" is a header
    named = len(words) == 1 or (len(words) == 2 and words[0].lower().rstrip(".") in _TITLES)
    return named and words[0].lower() not in _LABELS


def looks_like_record(text: str) -> bool:
    """A record of labelled fields ("Supplier: Millers Ltd | Contact: Jo Pike | Phone: 01632 960 123", "Room: B12;
    Time: 14:00"), not a turn: read as one, its first label was a speaker, so two versions of a record were two
    turns of "Supplier", never compared (a changed phone number left both served, the older first), and every
    record opening with that label shared one `speaker:` tag."""
    return _SPEAKER.match(text) is not None and _further_field(text)


def _further_field(text: str) -> bool:
    """A labelled field after the text's first part (`records`: "Supplier: Millers Ltd | Contact: Jo Pike", "Room:
    B12; Time: 14:00"). A speaker's turn names one speaker and then speaks."""
    return any(f.filled for f in record(text).fields[1:])


def _key_line(line: str) -> bool:
    """A jotted line that opens with its own label ("wifi pw: ...", "car - MOT due ...": `records.field`, a spaced
    dash allowed). The lower-case line after another is otherwise read as its continuation (a wrapped sentence)."""
    f = field(line, dash=True)
    return f is not None and bool(f.value)


_MARKUP_HEADING = re.compile(r"[ \t]*(?:#{1,6}[ \t]+\S[^\n]*|\*\*[^*\n]+\*\*:?)[ \t]*\n[ \t]*\n")


def under_heading(text: str) -> str:
    """A chunk's words without the markdown heading the chunker joined to it ("# Home lab\\n\\nThe NAS is ..."
    -> "The NAS is ..."): the rules that read how a statement opens must not see the title first. Only a
    markup heading on a paragraph of its own goes; a label ("Update: ...", "To deploy X:") is part of what is
    said."""
    m = _MARKUP_HEADING.match(text)
    return text[m.end() :] if m else text


def turn_body(text: str) -> str:
    """A turn's words without its speaker label ("user: To deploy X: ..." -> "To deploy X: ..."): the rules that
    read how a statement opens (a procedure's "To X:", a fact's subject) must not see the label first."""
    if not looks_like_turn(text):
        return text
    m = _SPEAKER.match(text)
    assert m is not None  # looks_like_turn matched it
    return text[m.end() :]


def chunk_text(
    text: str,
    count: CountTokens,
    *,
    max_tokens: int,
    min_words: int = 2,
    code_max_tokens: int | None = None,
    sentences: bool = True,
) -> list[Chunk]:
    """Split `text` (already cleaned) into one unit per fact (see the module docstring), each at most
    `max_tokens` (a code block `code_max_tokens`). Empty text gives no chunks."""
    if max_tokens < 1 or min_words < 0:
        raise ValueError("chunking needs max_tokens >= 1 and min_words >= 0")
    code_max = max(code_max_tokens or max_tokens, max_tokens)
    spans: list[tuple[int, int, str]] = []  # (start, end, what): what is code, list, lead or prose
    pos = 0
    for is_code, part in split_code(text):
        base = pos
        pos += len(part)
        if is_code:
            spans.append((base, base + len(part), "code"))
            continue
        start = base
        for m in _PARAGRAPH.finditer(part):
            spans += _paragraph(text, start, base + m.start(), min_words, sentences)
            start = base + m.end()
        spans += _paragraph(text, start, base + len(part), min_words, sentences)
    spans = [(a, b, w) for a, b, w in (_trim(text, a, b, w) for a, b, w in spans) if a < b]
    out: list[Chunk] = []
    for a, b, what in _absorb_fragments(text, _attach_leads(spans), min_words):
        if what == "code":
            out += _split_code_block(text, a, b, count, max_tokens, code_max)
        elif what == "list":
            out += _split_list(text, a, b, count, max_tokens)
        else:
            out += _split_prose(text, a, b, count, max_tokens)
    return out


def _trim(text: str, a: int, b: int, what: str) -> tuple[int, int, str]:
    a, b = _trimmed(text, a, b)
    return a, b, what


def _paragraph(text: str, start: int, end: int, min_words: int, sentences: bool) -> list[tuple[int, int, str]]:
    """One paragraph as units: whole (a list, a table, a turn), a lead (a heading), or its sentences grouped."""
    start, end = _trimmed(text, start, end)
    if start >= end:
        return []
    para = text[start:end]
    lines = para.split("\n")
    if any(_LIST_LINE.match(ln) or _TABLE_LINE.match(ln) for ln in lines):
        return [(start, end, "list")]
    if len(lines) == 1 and _HEADING.match(para):
        return [(start, end, "lead")]
    if not sentences:
        return [(start, end, "prose")]
    cuts = [start, *_sentence_cuts(text, start, end), end]
    groups: list[list[int]] = []  # [start, end] of each group
    for a, b in zip(cuts, cuts[1:], strict=False):
        sentence = text[a:b].strip()
        if not sentence:
            continue
        joins = bool(groups) and (
            _continues(sentence, jotted=text[a - 1] == "\n" and _key_line(sentence))
            or text[groups[-1][0] : groups[-1][1]].rstrip().endswith(":")
            or _words(sentence) < min_words
            or _words(text[groups[-1][0] : groups[-1][1]]) < min_words
        )
        if joins:
            groups[-1][1] = b
        else:
            groups.append([a, b])
    return [(a, b, "prose") for a, b in groups]


def _attach_leads(spans: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """A heading joins the unit after it (the last one, the unit before it)."""
    out: list[tuple[int, int, str]] = []
    pending: int | None = None
    for a, b, what in spans:
        if what == "lead":
            pending = a if pending is None else pending
            continue
        if pending is not None:  # a heading over a code block or a list stays with it
            a, pending = pending, None
        out.append((a, b, what))
    if pending is not None:
        if out:
            a, _, what = out[-1]
            out[-1] = (a, spans[-1][1], what)
        else:
            out.append((pending, spans[-1][1], "prose"))
    return out


def _absorb_fragments(
    text: str, spans: list[tuple[int, int, str]], min_words: int
) -> list[tuple[int, int, str]]:
    """A prose paragraph that is only a fragment ("Thanks!", "Cheers, Ada") joins the unit before it (the first
    one, the unit after it); code stays apart."""
    out: list[tuple[int, int, str]] = []
    for a, b, what in spans:
        small = what == "prose" and _words(text[a:b]) < min_words
        if small and out and out[-1][2] != "code":
            out[-1] = (out[-1][0], b, out[-1][2])
            continue
        if out and out[-1][2] == "prose" and _words(text[out[-1][0] : out[-1][1]]) < min_words and what != "code":
            out[-1] = (out[-1][0], b, what)
            continue
        out.append((a, b, what))
    return out


def _continues(sentence: str, *, jotted: bool = False) -> bool:
    """Does the sentence lean on the one before it (a pronoun or a connective first, or no capital, unless it is a
    `jotted` line with its own label)?"""
    first = next(iter(tokenize(sentence[:40])), "")
    return first in CONTINUATIONS or (not jotted and sentence[:1].isalpha() and sentence[:1].islower())


def _words(text: str) -> int:
    """Content words, greetings and thanks left out ("Cheers, Ada" carries no fact)."""
    stops = stop_words()
    return sum(1 for t in tokenize(text) if t not in stops and t not in _SOCIAL)


def _sentence_cuts(text: str, start: int, end: int) -> list[int]:
    """Sentence ends inside [start, end): after . ! ? before a capital (not after "Dr." or an initial), after
    CJK full stops, and at line breaks."""
    cuts = []
    for cut in _boundaries(text, start, end, _SENTENCE_END):
        before = text[start:cut].rstrip()
        m = _ABBREV_BEFORE.search(before)
        if m and before.endswith(".") and (m.group(1).lower() in ABBREVIATIONS or len(m.group(1)) == 1):
            continue
        cuts.append(cut)
    cuts += [m.end() for m in _LINE.finditer(text, start, end)]
    return sorted(set(c for c in cuts if start < c < end))


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _make(text: str, start: int, end: int, count: CountTokens, code: bool = False) -> Chunk | None:
    start, end = _trimmed(text, start, end)
    if start >= end:
        return None
    piece = text[start:end]
    return Chunk(piece, start, end, count(piece), code)


def _split_code_block(
    text: str, start: int, end: int, count: CountTokens, max_tokens: int, code_max: int
) -> list[Chunk]:
    whole = _make(text, start, end, count, code=True)
    if whole is None:
        return []
    if whole.tokens <= code_max:
        return [whole]
    # A huge block: keep lines whole, pack them up to `code_max` tokens.
    return _pack(text, whole.start, whole.end, count, code_max, [_LINE], code=True)


def _split_prose(text: str, start: int, end: int, count: CountTokens, max_tokens: int) -> list[Chunk]:
    whole = _make(text, start, end, count)
    if whole is None:
        return []
    if whole.tokens <= max_tokens:
        return [whole]
    return _pack(text, whole.start, whole.end, count, max_tokens, [_SENTENCE_END, _LINE, _SPACE])


def _split_list(text: str, start: int, end: int, count: CountTokens, max_tokens: int) -> list[Chunk]:
    """A list or a table stays whole up to `max_tokens`; a longer one is cut between its lines."""
    whole = _make(text, start, end, count)
    if whole is None:
        return []
    if whole.tokens <= max_tokens:
        return [whole]
    return _pack(text, whole.start, whole.end, count, max_tokens, [_LINE, _SPACE])


def _boundaries(text: str, start: int, end: int, pattern: re.Pattern[str]) -> list[int]:
    """Cut positions inside [start, end) where `pattern` ends (for sentences: only before a capital)."""
    cuts: list[int] = []
    for m in pattern.finditer(text, start, end):
        cut = m.end()
        if cut >= end:
            continue
        if pattern is _SENTENCE_END and m.group(0)[0] in ".!?":
            nxt = text[cut]
            if not (nxt.isupper() or nxt in "\"'(“‘«[" or nxt.isdigit()):
                continue
        cuts.append(cut)
    return cuts


def _pack(
    text: str,
    start: int,
    end: int,
    count: CountTokens,
    limit: int,
    patterns: list[re.Pattern[str]],
    *,
    code: bool = False,
) -> list[Chunk]:
    """Split [start, end) at the first pattern's boundaries, packing pieces greedily up to `limit` tokens;
    a piece still over the limit is split with the next pattern, and finally between characters."""
    if not patterns:
        return _split_chars(text, start, end, count, limit, code)
    cuts = [start, *_boundaries(text, start, end, patterns[0]), end]
    pieces = [c for a, b in zip(cuts, cuts[1:], strict=False) if (c := _make(text, a, b, count, code))]
    out: list[Chunk] = []
    for piece in pieces:
        if piece.tokens > limit:
            out += _pack(text, piece.start, piece.end, count, limit, patterns[1:], code=code)
            continue
        if out and out[-1].tokens + piece.tokens <= limit:
            merged = _make(text, out[-1].start, piece.end, count, code)
            if merged is not None and merged.tokens <= limit:
                out[-1] = merged
                continue
        out.append(piece)
    return out


def _split_chars(text: str, start: int, end: int, count: CountTokens, limit: int, code: bool) -> list[Chunk]:
    """Last resort for a run without spaces (a long URL or base64 blob): halve until each piece fits."""
    piece = _make(text, start, end, count, code)
    if piece is None:
        return []
    if piece.tokens <= limit or piece.end - piece.start <= 1:
        return [piece]
    mid = (piece.start + piece.end) // 2
    return _split_chars(text, piece.start, mid, count, limit, code) + _split_chars(
        text, mid, piece.end, count, limit, code
    )
