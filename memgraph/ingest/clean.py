"""Step 1 of the write path: make text safe and canonical without changing what it says.

NFC, line endings to `\\n`, control characters out (tab and newline stay), trimmed, runs of 3+ newlines
collapsed to one blank line. Formatting markers and code blocks are kept: whitespace inside a fenced code
block is left exactly as given (only the line endings are unified), so indentation survives.
"""

from __future__ import annotations

import re
import unicodedata

from memgraph.errors import ValidationError

_FENCE = re.compile(r"^[ \t]*(```|~~~)", re.MULTILINE)
_BLANK_RUN = re.compile(r"\n[ \t]*\n(?:[ \t]*\n)+")
# C0/C1 controls except tab and newline; DEL. Format characters (Cf: ZWJ, RTL marks) are meaningful and kept.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


#: What to do about text over the size limit, per kind of input (the limit's setting is named in each).
SPLIT_ADVICE = "split the input, or raise MEMGRAPH_MAX_INGEST_CHARS"
CHUNK_ADVICE = "use ingest() to chunk long text, or raise MEMGRAPH_MAX_CONTENT_CHARS"


def clean_text(text: object, *, what: str, max_chars: int, advice: str = SPLIT_ADVICE) -> str:
    """The one rule set for every text memgraph takes in (memory content, ingest text, queries): the canonical
    form (`clean`), or a typed error for what can never be stored or searched: a non-string, lone surrogates,
    more than `max_chars` characters, nothing left after cleaning.

    The size is checked first on the raw length, so a 10 MB paste is refused before any work is done on it,
    and again after cleaning (NFC can lengthen text)."""
    if not isinstance(text, str):
        raise ValidationError(f"{what} must be a string, got {type(text).__name__}")
    _check_size(text, what, max_chars, advice)
    if not encodable(text):
        raise ValidationError(f"{what} contains invalid (lone surrogate) characters")
    cleaned = clean(text)
    if not cleaned:
        raise ValidationError(f"{what} is empty")
    if not _visible(cleaned):  # "\u200b\u200b": nothing a reader sees, nothing to embed or search
        raise ValidationError(f"{what} is empty (only invisible format characters such as zero-width spaces)")
    _check_size(cleaned, what, max_chars, advice)
    return cleaned


def encodable(text: str) -> bool:
    """Whether `text` can be stored at all: a lone surrogate is not text and cannot be encoded to UTF-8."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _visible(text: str) -> bool:
    """Whether any character shows: format characters (Cf) are kept inside text but are not text alone."""
    return any(not c.isspace() and unicodedata.category(c) != "Cf" for c in text)


def _check_size(text: str, what: str, max_chars: int, advice: str) -> None:
    if len(text) > max_chars:
        raise ValidationError(f"{what} has {len(text)} characters; the maximum is {max_chars} ({advice})")


def clean(text: str) -> str:
    """Canonical form of `text` (may be empty: the caller decides whether that is an error)."""
    text = unicodedata.normalize("NFC", text)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = _CONTROL.sub("", text)
    parts = split_code(text)
    out: list[str] = []
    for is_code, part in parts:
        out.append(part if is_code else _BLANK_RUN.sub("\n\n", part))
    return "".join(out).strip()


def split_code(text: str) -> list[tuple[bool, str]]:
    """Split text into (is_code, part) runs; fenced blocks (``` or ~~~) are code, fences included.

    An unclosed fence runs to the end of the text (what a Markdown renderer shows too).
    """
    if "```" not in text and "~~~" not in text:
        # no fence can match: the common case, asked ~9 times per text on the write path (values, cues,
        # entities, statement), where the regex search cost ~35 us a call on a LoCoMo turn
        return [(False, text)] if text else []
    parts: list[tuple[bool, str]] = []
    pos = 0
    while True:
        m = _FENCE.search(text, pos)
        if m is None:
            break
        fence = m.group(1)
        start = m.start()
        line_end = text.find("\n", m.end())
        if line_end == -1:
            close = -1
        else:
            close_m = re.compile(rf"^[ \t]*{re.escape(fence)}[ \t]*$", re.MULTILINE).search(text, line_end + 1)
            close = -1 if close_m is None else close_m.end()
        end = len(text) if close == -1 else close
        if start > pos:
            parts.append((False, text[pos:start]))
        parts.append((True, text[start:end]))
        pos = end
    if pos < len(text):
        parts.append((False, text[pos:]))
    return parts


def strip_code(text: str) -> str:
    """Text with fenced code blocks blanked out: hashtags, entities and cues are not read from code."""
    return "".join(" " * len(part) if is_code else part for is_code, part in split_code(text))
