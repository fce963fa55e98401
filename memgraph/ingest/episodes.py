"""Conversation structure as graph edges: what every chat log gives for free, without an LLM.

Given the turns of one session in order, `plan_episode` returns the memories to write (one per turn,
`"speaker: text"`, kind `event`, layer `episodic`) and the structure between them:
- `RelatesTo {source: sequence}` from each turn to the next (weight `sequence_link_weight`): an answer is
  found through the question before it, a short "yes, last week!" through its context;
- facet tags: `session:<id>`, `speaker:<name>`, and when the session has a date `date:YYYY-MM-DD` and
  `month:YYYY-MM`. Recall matches query words and dates against tags ("what did Ada say on 3 May 2024"),
  and the cascade walks them (damped: they are hubs);
- topic tags `topic:<word>` for the turn's content words (no stop words, 4+ letters, at most
  `Settings.structure_max_topic_tags`): turns that share a rare word are two hops apart, so the cascade reaches
  the other turns about "pottery" or "screenplay" from the one the query found (a common word is a hub and is damped).
The write path gives every ordinary session write the same structure (ingest/structure.py, where the rules
live); this plan states it for the conversation API, whatever `write_structure` says.
Turn order is kept in `created_at` (session time + one second per turn) and in metadata (`turn`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from memgraph.errors import ValidationError
from memgraph.ingest.structure import TOPIC_PREFIX, topic_tags
from memgraph.models import Layer, MemoryKind, normalize_tag

__all__ = ["TOPIC_PREFIX", "EpisodePlan", "facet_tags", "plan_episode", "topic_tags", "turn_content"]


@dataclass
class EpisodePlan:
    """Memory items (for `remember_many`) and sequence pairs as indexes into `items`."""

    items: list[dict[str, Any]] = field(default_factory=list)
    sequence: list[tuple[int, int]] = field(default_factory=list)


def facet_tags(*, session_id: str, speaker: str | None, when: datetime | None) -> list[str]:
    tags = [normalize_tag(f"session:{session_id}")]
    if speaker:
        tags.append(normalize_tag(f"speaker:{speaker}"))
    if when is not None:
        tags.append(f"date:{when:%Y-%m-%d}")
        tags.append(f"month:{when:%Y-%m}")
    return tags


def turn_content(speaker: str | None, text: str) -> str:
    return f"{speaker}: {text}" if speaker else text


def plan_episode(
    turns: Sequence[Mapping[str, Any] | str],
    *,
    session_id: str,
    session_date: datetime | None = None,
    tags: Sequence[str] | None = None,
    max_topic_tags: int,
) -> EpisodePlan:
    """One memory per turn (`{"speaker", "text", "metadata"?}` or a plain string) and the links between
    neighbours. Empty turns are skipped (the sequence joins the turns around them)."""
    if isinstance(turns, str | bytes) or not isinstance(turns, Sequence):
        raise ValidationError("turns must be a list of {'speaker', 'text'} mappings or strings")
    when = None
    if session_date is not None:
        if not isinstance(session_date, datetime):
            raise ValidationError("session_date must be a datetime")
        when = session_date if session_date.tzinfo else session_date.replace(tzinfo=UTC)
    extra = [normalize_tag(t) for t in (tags or [])]
    plan = EpisodePlan()
    for i, turn in enumerate(turns):
        speaker: object
        text: object
        if isinstance(turn, str):
            speaker, text, meta = None, turn, {}
        elif isinstance(turn, Mapping):
            speaker = turn.get("speaker")
            text = turn.get("text")
            meta = dict(turn.get("metadata") or {})
        else:
            raise ValidationError(f"turn {i} must be a mapping or a string, got {type(turn).__name__}")
        if speaker is not None and (not isinstance(speaker, str) or not speaker.strip()):
            raise ValidationError(f"turn {i}: speaker must be a non-empty string")
        if not isinstance(text, str):
            raise ValidationError(f"turn {i}: text must be a string")
        if not text.strip():
            continue
        who = speaker.strip() if isinstance(speaker, str) else None
        meta.setdefault("turn", i)
        meta.setdefault("session", session_id)
        if who:
            meta.setdefault("speaker", who)
        if when is not None:
            meta.setdefault("date", when.isoformat())
        item: dict[str, Any] = {
            "content": turn_content(who, text.strip()),
            "kind": MemoryKind.EVENT,
            "layer": Layer.EPISODIC,
            "session_id": session_id,
            "tags": [
                *facet_tags(session_id=session_id, speaker=who, when=when),
                *topic_tags(text, max_topic_tags),
                *extra,
            ],
            "metadata": meta,
        }
        if when is not None:
            item["created_at"] = when + timedelta(seconds=i)
        if plan.items:
            plan.sequence.append((len(plan.items) - 1, len(plan.items)))
        plan.items.append(item)
    return plan
