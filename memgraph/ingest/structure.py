"""The graph from ordinary writes: the structure a conversation gets, for every memory that is written.

Most agents never call `remember_conversation`: they `remember` or `remember_many` one turn or fact at a time,
with a `session_id` and maybe a `created_at`. Without structure such memories are isolated points (0 tags and 0
edges for a 674-turn conversation), and the cascade has nothing to walk. So every write gets, from what the
write already carries and without an LLM:

- facet tags: `session:<id>` (the session_id), `speaker:<name>` (a `"Name: text"` label), `date:YYYY-MM-DD` and
  `month:YYYY-MM` for the memory's date (when the caller gave `created_at`, or the memory belongs to a session)
  and for full dates named in the text ("14 November 2026", "2026-11-14", "November 2026"). Recall matches
  query words and dates against facets (retrieve/cues.py), and the cascade walks them (damped: they are hubs);
- topic tags `topic:<word>` for the content words of session memories (episodes.py): two turns that share a
  rare word are two hops apart, a common word is a hub and damped;
- session adjacency: `RelatesTo {source: sequence}` from a session's previous memory to the next, in time order
  (ties: the order of writing), across calls: the first new memory of a session joins the session's stored tail.

Entity tags (people, projects, named things) come from `ingest/tags.py`, now on for `remember` too
(`remember_infer_tags`). Similarity links are the `links` job's: at write time they measured no gain.

`remember_conversation` goes through the same code: its turns are session memories with a speaker and a date.
Cost on the write path: one read per session the call writes to (the session's newest memories, through the
`(user_id, session_id)` index), plus a read of their links when several share the newest timestamp.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

from memgraph.config import Settings
from memgraph.errors import ValidationError
from memgraph.ingest.chunk import day_label, looks_like_record, turn_body
from memgraph.ingest.signals import entities, speaker
from memgraph.models import Link, LinkSource, Memory, Relation, normalize_tag
from memgraph.store.base import GraphStore, MemoryFilter
from memgraph.text import content_tokens, stop_words

#: Facets a memory's own words do not give: who, when, which session. Query cues are these (retrieve/cues.py).
FACET_PREFIXES = ("session:", "speaker:", "date:", "month:")
TOPIC_PREFIX = "topic:"
#: Every tag prefix the structure step writes; `user_tags` leaves them out (what a person tagged or named).
STRUCTURE_PREFIXES = (*FACET_PREFIXES, TOPIC_PREFIX)
#: A session's newest memories read to find its tail; more only when all of them share one timestamp.
TAIL_WINDOW = 8
TAIL_WINDOW_TIES = 512

_MONTHS = (
    "january", "february", "march", "april", "may", "june",
    "july", "august", "september", "october", "november", "december",
)  # fmt: skip
MONTH_NUM = {m: i + 1 for i, m in enumerate(_MONTHS)} | {m[:3]: i + 1 for i, m in enumerate(_MONTHS)}
_M = "|".join(sorted(MONTH_NUM, key=len, reverse=True))
_DAY_MONTH_YEAR = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_M})\.?,?\s+(\d{{4}})\b", re.I)
_MONTH_DAY_YEAR = re.compile(rf"\b({_M})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b", re.I)
_ISO_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_MONTH_YEAR = re.compile(rf"\b({_M})\.?,?\s+(\d{{4}})\b", re.I)


def dates_named(text: str) -> tuple[list[str], list[str]]:
    """Date facets a text names (`date:YYYY-MM-DD`, and `month:YYYY-MM` when only a month and year are given)
    and the phrases that named them. Only dates with a year: "on Monday" or "14 November" name no day."""
    names: list[str] = []
    phrases: list[str] = []

    def day(y: str, mo: int, d: str, phrase: str) -> None:
        if 1 <= mo <= 12 and 1 <= int(d) <= 31:
            names.append(f"date:{int(y):04d}-{mo:02d}-{int(d):02d}")
            phrases.append(phrase)

    for m in _DAY_MONTH_YEAR.finditer(text):
        day(m[3], MONTH_NUM[m[2].lower()], m[1], m[0])
    for m in _MONTH_DAY_YEAR.finditer(text):
        day(m[3], MONTH_NUM[m[1].lower()], m[2], m[0])
    for m in _ISO_DATE.finditer(text):
        day(m[1], int(m[2]), m[3], m[0])
    if not names:  # a month is only named when no full date was given
        for m in _MONTH_YEAR.finditer(text):
            names.append(f"month:{int(m[2]):04d}-{MONTH_NUM[m[1].lower()]:02d}")
            phrases.append(m[0])
    return list(dict.fromkeys(names)), phrases


def date_facets(when: datetime) -> list[str]:
    return [f"date:{when:%Y-%m-%d}", f"month:{when:%Y-%m}"]


def topic_tags(text: str, limit: int) -> list[str]:
    """`topic:<word>` for the first `limit` distinct content words of 4+ letters (stop words and numbers left
    out; `Settings.structure_max_topic_tags`)."""
    words = [w for w in content_tokens(text) if len(w) >= 4 and w.isalpha()]
    return [f"{TOPIC_PREFIX}{w}" for w in list(dict.fromkeys(words))[: max(0, limit)]]


def is_structure_tag(name: str) -> bool:
    return name.startswith(STRUCTURE_PREFIXES)


def user_tags(tags: Sequence[str]) -> list[str]:
    """The tags a person gave or the text named (entities, projects, hashtags), without the structure facets."""
    return [t for t in tags if not is_structure_tag(t)]


#: "Word: text" labels that are not speakers (a heading, a note). A speaker label is a name: capitalised words
#: that are none of these and no stop word.
_NOT_SPEAKERS = frozenset(
    "note notes update updates todo to-do warning caution important reminder summary question answer tip tips fyi "
    "step example edit ps re decision correction context task goal problem solution fix bug issue error result "
    "status agenda action actions owner deadline date time when where why what how who subject title topic "
    "details info information background reason update quick next previous final draft idea ideas rule rules "
    "policy constraint procedure preference fact event user assistant system human ai bot q a".split()
)


def speaker_of(text: str) -> str | None:
    """The speaker of a `"Name: text"` turn, when the label looks like a name (1-3 capitalised words, not a
    heading such as "Note:" or "Quick update:")."""
    label = speaker(text)
    if not label or looks_like_record(text):
        return None
    words = label.split()
    if not 1 <= len(words) <= 3 or not all(w[:1].isupper() for w in words) or day_label(label):
        return None
    stops = stop_words()
    if any(w.lower().strip(".'’") in _NOT_SPEAKERS or w.lower() in stops for w in words):
        return None
    return label


def _body(text: str) -> str:
    """The text without its speaker label (the name is a facet, not a topic; a role label such as "user:" is
    neither, and as a topic it joined every turn of an agent's transcript into one hub)."""
    label = speaker_of(text)
    return text.split(":", 1)[1] if label else turn_body(text)


def structure_tags(
    text: str, *, session_id: str | None, created_at: datetime | None, settings: Settings
) -> list[str]:
    """The facet and topic tags of one memory. `created_at` is the caller's (None when not given); a session
    memory without one is dated by the write (`now` in the pipeline)."""
    if not settings.write_structure:
        return []
    tags: list[str] = []

    def add(name: str) -> None:
        try:
            tags.append(normalize_tag(name))
        except ValidationError:  # a facet value that cannot be a tag (too long, control characters)
            pass

    if session_id is not None:
        add(f"session:{session_id}")
    who = speaker_of(text)
    if who:
        add(f"speaker:{who}")
    if created_at is not None:
        tags.extend(date_facets(created_at))
    tags.extend(dates_named(text)[0])
    if session_id is not None and settings.structure_topics:
        tags.extend(topic_tags(_body(text), settings.structure_max_topic_tags))
    return list(dict.fromkeys(tags))


def add_structure(memories: Sequence[Memory], explicit_dates: Sequence[bool], settings: Settings) -> None:
    """Give each new memory its structure tags (in place). `explicit_dates[i]`: the caller gave created_at."""
    for mem, dated in zip(memories, explicit_dates, strict=True):
        when = mem.created_at if (dated or mem.session_id is not None) else None
        extra = structure_tags(mem.content, session_id=mem.session_id, created_at=when, settings=settings)
        if not extra:
            continue
        tags = {*mem.tags, *extra}
        who = speaker_of(mem.content)
        if who:  # the label's name is the speaker facet; as an entity tag too it would be a second hub
            name = normalize_tag(who)
            if name not in {normalize_tag(e) for e in entities(_body(mem.content))}:
                tags.discard(name)
        mem.tags = sorted(tags)


def _session_tail(store: GraphStore, user_id: str, session_id: str) -> Memory | None:
    """The session's last memory in time order; among memories of one timestamp, the one no sequence link
    leaves (the last written of them), else the greatest id (a stable choice)."""
    flt = MemoryFilter(session_id=session_id, active=None, include_archived=True, include_compressed=True)
    newest = store.list_memories(user_id, flt, limit=TAIL_WINDOW)
    if not newest:
        return None
    top = newest[0].created_at
    if len(newest) == TAIL_WINDOW and all(m.created_at == top for m in newest):
        newest = store.list_memories(user_id, flt, limit=TAIL_WINDOW_TIES)
    ties = [m for m in newest if m.created_at == top]
    if len(ties) == 1:
        return ties[0]
    ids = {m.id for m in ties}
    linked_on = {
        lk.src
        for lk in store.get_links(user_id, list(ids), relations=[Relation.RELATES_TO], direction="out")
        if lk.source is LinkSource.SEQUENCE and lk.dst in ids
    }
    ends = [m for m in ties if m.id not in linked_on] or ties
    return max(ends, key=lambda m: m.id)


def session_links(
    store: GraphStore,
    user_id: str,
    memories: Sequence[Memory],
    settings: Settings,
    given: Sequence[Link] = (),
) -> list[Link]:
    """`RelatesTo {source: sequence}` between consecutive new memories of each session (time order, then the
    order given) and from the session's stored tail to its first new memory; pairs the write already links
    (`given`, e.g. a conversation's own turn order) are left out. A new memory older than the stored tail is
    chained among the new ones only (it is not spliced into the stored sequence)."""
    if not settings.write_structure:
        return []
    by_session: dict[str, list[Memory]] = {}
    for mem in memories:
        if mem.session_id is not None:
            by_session.setdefault(mem.session_id, []).append(mem)
    linked = {frozenset((lk.src, lk.dst)) for lk in given if lk.relation is Relation.RELATES_TO}
    links: list[Link] = []
    for sid, mems in by_session.items():
        ordered = sorted(mems, key=lambda m: m.created_at)  # stable: ties keep the order of writing
        tail = _session_tail(store, user_id, sid)
        chain = ordered
        if tail is not None and tail.id not in {m.id for m in ordered} and tail.created_at <= ordered[0].created_at:
            chain = [tail, *ordered]
        for a, b in zip(chain, chain[1:], strict=False):
            if frozenset((a.id, b.id)) in linked or a.id == b.id:
                continue
            links.append(
                Link(
                    src=a.id,
                    dst=b.id,
                    relation=Relation.RELATES_TO,
                    weight=settings.sequence_link_weight,
                    source=LinkSource.SEQUENCE,
                    reason="next in session",
                )
            )
    return links
