"""Step 2 (seed 000 §1.3): semantic chunking, measured in the embedding model's own tokens.

1. Paragraphs (blank lines) are the primary boundary; a fenced code block is one unit and never cut mid-block
   (unless it alone exceeds `chunk_code_max_tokens`, then it is cut at line ends).
2. A unit over `max_tokens` is split at sentence ends (`.`, `!`, `?` + space + capital; CJK `。！？`); a sentence
   still too long is split at line breaks, then between words, then (a run with no spaces) between characters.
3. Adjacent chunks under `min_tokens` are merged into a neighbour while the result stays within `max_tokens`.

Chunks are exact slices of the cleaned text (`text[start:end]`) and only whitespace lies between them, so no
character of content is ever lost. Token counts come from the caller (`embedder.count_tokens`): the model's
WordPiece tokenizer, offline, no padding or truncation.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from memgraph.ingest.clean import split_code

CountTokens = Callable[[str], int]

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


def chunk_text(
    text: str,
    count: CountTokens,
    *,
    max_tokens: int,
    min_tokens: int,
    code_max_tokens: int | None = None,
) -> list[Chunk]:
    """Split `text` (already cleaned) into chunks of about min..max tokens. Empty text gives no chunks."""
    if max_tokens < 1 or min_tokens < 0 or min_tokens > max_tokens:
        raise ValueError("chunking needs 0 <= min_tokens <= max_tokens and max_tokens >= 1")
    code_max = max(code_max_tokens or max_tokens, max_tokens)
    units: list[Chunk] = []
    pos = 0
    for is_code, part in split_code(text):
        base = pos
        pos += len(part)
        if is_code:
            units += _split_code_block(text, base, base + len(part), count, max_tokens, code_max)
            continue
        start = base
        for m in _PARAGRAPH.finditer(part):
            units += _split_prose(text, start, base + m.start(), count, max_tokens)
            start = base + m.end()
        units += _split_prose(text, start, base + len(part), count, max_tokens)
    return _merge(text, units, count, max_tokens, min_tokens)


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


def _merge(text: str, units: list[Chunk], count: CountTokens, max_tokens: int, min_tokens: int) -> list[Chunk]:
    """Merge a chunk under `min_tokens` into its neighbour while the merged chunk stays within `max_tokens`."""
    out: list[Chunk] = []
    for unit in units:
        if out and (out[-1].tokens < min_tokens or unit.tokens < min_tokens):
            prev = out[-1]
            # recount the merged text: counts add up between words, not across a cut inside one
            merged = text[prev.start : unit.end]
            tokens = count(merged)
            if tokens <= max_tokens:
                out[-1] = Chunk(merged, prev.start, unit.end, tokens, prev.code or unit.code)
                continue
        out.append(unit)
    return out
