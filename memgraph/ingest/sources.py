"""Reading input for `memgraph ingest`: plain text, or JSON Lines of conversation turns.

A turn is `{"text" | "content": str, "speaker"?: str, "session_id"?: str, "timestamp"?: str, "tags"?: [str],
"metadata"?: {}}`. The speaker is kept in metadata and, by default, prefixed to the text ("Caroline: …") so the
memory says who said it. Timestamps are ISO 8601 (or LoCoMo's "1:56 pm on 8 May, 2023").
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from typing import Any

from memgraph.errors import ValidationError
from memgraph.validation import utc_datetime

_LOCOMO_TS = re.compile(r"^\s*(\d{1,2}):(\d{2})\s*([ap]m)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})\s*$", re.I)


def parse_timestamp(value: Any) -> datetime | None:
    """ISO 8601 or LoCoMo's "1:56 pm on 8 May, 2023"; naive times are taken as UTC."""
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise ValidationError("timestamp must be a string or a number, got bool")
    if isinstance(value, int | float):
        try:  # NaN, inf and 1e300 seconds are no time; the platform's time_t ends somewhere too
            return utc_datetime(datetime.fromtimestamp(float(value), tz=UTC), "timestamp")
        except (OverflowError, OSError, ValueError) as exc:
            if isinstance(exc, ValidationError):
                raise
            raise ValidationError("timestamp is not a time (seconds since 1970, finite and in range)") from None
    if not isinstance(value, str):
        raise ValidationError(f"timestamp must be a string or a number, got {type(value).__name__}")
    try:
        ts = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        m = _LOCOMO_TS.match(value)
        if not m:
            raise ValidationError(f"timestamp {value[:40]!r} is not ISO 8601") from None
        hour, minute, ampm, day, month, year = m.groups()
        try:
            ts = datetime.strptime(
                f"{int(hour) % 12 + (12 if ampm.lower() == 'pm' else 0)}:{minute} {day} {month[:3]} {year}",
                "%H:%M %d %b %Y",
            )
        except ValueError:
            raise ValidationError(f"timestamp {value[:40]!r} is not a date") from None
    return utc_datetime(ts, "timestamp")


def turns_from_jsonl(
    lines: Iterable[str], *, session_id: str | None = None, speaker_prefix: bool = True
) -> Iterator[dict[str, Any]]:
    """Ingest items from JSON Lines; blank lines are skipped; a bad line is a typed error naming its number."""
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            turn = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValidationError(f"line {number}: not JSON ({exc.msg})") from None
        except RecursionError:  # "[[[[…" thousands deep: json's decoder recurses
            raise ValidationError(f"line {number}: nests too deeply") from None
        if not isinstance(turn, dict):
            raise ValidationError(f"line {number}: a turn must be a JSON object")
        text = turn.get("text", turn.get("content"))
        if not isinstance(text, str):
            raise ValidationError(f"line {number}: a turn needs a string 'text' (or 'content')")
        if not text.strip():
            continue
        meta = turn.get("metadata") or {}
        if not isinstance(meta, dict):
            raise ValidationError(f"line {number}: metadata must be an object")
        speaker = turn.get("speaker")
        if speaker is not None:
            if not isinstance(speaker, str):
                raise ValidationError(f"line {number}: speaker must be a string")
            meta = {**meta, "speaker": speaker}
            if speaker_prefix:
                text = f"{speaker}: {text}"
        try:
            created = parse_timestamp(turn.get("timestamp"))
        except ValidationError as exc:
            raise ValidationError(f"line {number}: {exc}") from None
        yield {
            "text": text,
            "session_id": turn.get("session_id", session_id),
            "tags": turn.get("tags"),
            "metadata": meta or None,
            "created_at": created,
        }


def looks_like_jsonl(head: str) -> bool:
    """Auto-detect: the first non-blank line is a JSON object."""
    for line in head.splitlines():
        if line.strip():
            try:
                return isinstance(json.loads(line), dict)
            except json.JSONDecodeError:
                return False
    return False


def split_plain_text(text: str, max_chars: int) -> list[str]:
    """Plain text in parts of at most `max_chars`, cut at blank lines (one ingest call per part)."""
    if len(text) <= max_chars:
        return [text]
    parts: list[str] = []
    current: list[str] = []
    size = 0
    for para in re.split(r"(\n\s*\n)", text):
        if size + len(para) > max_chars and current:
            parts.append("".join(current))
            current, size = [], 0
        while len(para) > max_chars:
            parts.append(para[:max_chars])
            para = para[max_chars:]
        current.append(para)
        size += len(para)
    if "".join(current).strip():
        parts.append("".join(current))
    return [p for p in parts if p.strip()]
