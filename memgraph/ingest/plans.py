"""A change that starts later, followed by another word on it before its day: the plan moves, is called off, or is
followed by a later one.

"The bakery opens at 7am on weekdays." then "From next week the bakery opens at 7:30 on weekdays." is a plan: the old
memory holds until next Monday (`starts.py`, `resolve.apply`). Before that day people change plans:

- **the day moves**: "Actually the 7:30 opening starts on the 14th." The new memory takes the plan's place: the old
  one holds until the day it names (`starts.named`; or the plan's own day when it names none: "Actually it will be
  7:45"), and the plan it corrects is superseded at once.
- **it is called off**: "Scrap that, the bakery is keeping its 7am opening." The plan is superseded at once and the
  old memory simply holds: no `until` day, no lapse.
- **a later change follows it**: "From January it opens at 8." The plan holds from its day until January
  (`resolve.apply` writes that when the new memory supersedes the plan; when the decision was on the old memory,
  the new one follows the plan too: `Follow.followed`).

Which of the three is read from what the texts say, not from their words of regret: what the plan changes in the old
memory (`_changed`: its time, price, place ... that the plan does not say) and what it brings (`_brings`). A new
memory that says again what the plan changes and nothing it brings calls it off ("keeping its 7am opening", "it
stays at 7am"); so does one that denies what it brings and says nothing else ("won't open at 7:30 after all"). One
that says what it brings restates the plan, so a day it names moves it ("the 7:30 opening starts on the 14th").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from functools import partial
from typing import Any

from memgraph.ingest import starts
from memgraph.ingest.values import values
from memgraph.models import Memory
from memgraph.text import stem, stop_words, tokenize

#: Words that make a text deny what it says ("won't open at 7:30 after all").
_DENIES = re.compile(r"(?i)\b(?:not|no|never|cancel(?:l?ed|s)?|off)\b|n['’]t\b")
#: Words that say a change holds already ("The plot rent is now £50."), and words of a future, which make "now" the
#: plan's update rather than today's value ("it will now be 7:45").
_NOW = re.compile(r"(?i)\b(?:now|as\s+of\s+today|from\s+today|already|currently|these\s+days)\b")
_FUTURE = re.compile(r"(?i)\b(?:will|won['’]t|shall|going\s+to)\b|['’]ll\b")
#: Words of a start, not of the value a plan brings ("from next week ...").
_START_WORDS = frozenset(
    "from starting start starts started beginning begin begins as of effective with effect commencing onwards "
    "onward".split()
)


@dataclass
class Follow:
    """What a write does to a plan (a change that starts later) the new memory follows, besides its decision."""

    #: Plans called off or moved: made inactive now, with a Supersedes edge from the new memory (reason).
    ended: list[tuple[str, str]] = field(default_factory=list)
    #: Old memories whose plans changed: the metadata edits, in order (`drop`, then the new memory's own).
    edits: list[tuple[str, Callable[[dict[str, Any]], None]]] = field(default_factory=list)
    #: The new memory takes a moved plan's place: the day it holds from and the old memories it replaces (they
    #: stay active until then, whatever the decision on them).
    begins: date | None = None
    replaces: list[str] = field(default_factory=list)
    #: Plans the new memory follows from its own later day (a chain said of the old memory): each holds until then.
    followed: list[str] = field(default_factory=list)


def follow(
    new: Memory,
    target: Memory,
    *,
    supersede: bool,
    begins: date | None,
    now: datetime,
    lookup: Callable[[str], Memory | None],
) -> Follow | None:
    """What `new`, decided to supersede (`supersede`) or contradict `target`, does to a plan: `target` is a plan not
    yet started, or an old memory a plan replaces later. `begins`: the day `new` itself starts from (`later_start`),
    `lookup`: a memory by id (this write's or the store's, `related`). None when no plan is concerned."""
    today = now.date()
    if _pending(target, today):
        return _after_plan(new, target, supersede=supersede, begins=begins, today=today, lookup=lookup)
    plans = [p for p in (lookup(r) for r in starts.replacers(target.metadata)) if p is not None and _pending(p, today)]
    if not plans:
        return None
    out = Follow()
    for plan in plans:
        if called_off(target.content, plan.content, new.content, today):
            out.ended.append((plan.id, "calls off the change planned"))
            out.edits.append((target.id, _drop(plan.id, lookup)))
        elif (
            supersede and out.begins is None and restates(target.content, plan.content, new.content)
            and (day := begins or starts.named(new.content, new.created_at) or starts.since(plan.metadata))
            and day > today
        ):  # a plan said again, with its day or another: the new memory is the plan, the old one holds till then
            out.begins, out.replaces = day, [target.id]
            out.ended.append((plan.id, f"moves the change planned to {out.begins}"))
            out.edits.append((target.id, _drop(plan.id, lookup)))
        elif supersede and begins is not None and (since := starts.since(plan.metadata)) and since < begins:
            out.followed.append(plan.id)  # "From January it opens at 8" said of the old hours: after the plan
            out.edits.append((plan.id, partial(starts.replaced, new_id=new.id, begins=begins)))
    return out if out.ended or out.followed else None


def _after_plan(
    new: Memory,
    plan: Memory,
    *,
    supersede: bool,
    begins: date | None,
    today: date,
    lookup: Callable[[str], Memory | None],
) -> Follow | None:
    """`new` follows the plan itself: it calls it off, or (a supersede) restates it from the day it names or the
    plan's own. A supersede that brings a value of its own from a later day is a change after the plan (a chain:
    `resolve.apply`'s ordinary path)."""
    olds = [o for o in (lookup(x) for x in _replaces(plan.metadata)) if o is not None and plan.id in
            starts.replacers(o.metadata)]
    if not olds:
        return None
    old = olds[0]
    out = Follow()
    if called_off(old.content, plan.content, new.content, today):
        out.edits = [(o.id, _drop(plan.id, lookup)) for o in olds]
        out.ended.append((plan.id, "calls off the change planned"))
        return out
    if not supersede or (begins is not None and not restates(old.content, plan.content, new.content)):
        return None
    if begins is None and _NOW.search(new.content) and not _FUTURE.search(new.content) and not restates(
        old.content, plan.content, new.content
    ):
        # "The plot rent is now £50." after "... goes up to £45 from next April": a value that holds already, not
        # the plan said again (it took the plan's day, and the £38 was served "until April" beside it): the plan
        # and what it was to replace both end now (a lead's allotment notes)
        out.edits = [(o.id, _drop(plan.id, lookup)) for o in olds]
        out.ended = [(plan.id, "changed from now on, before the change planned"),
                     *((o.id, "changed from now on") for o in olds)]
        return out
    day = begins or starts.named(new.content, new.created_at) or starts.since(plan.metadata)
    if day is None or day <= today:
        return None  # the plan's new day has come already: the new memory supersedes the plan alone, as any
    out.begins, out.replaces = day, [o.id for o in olds]
    out.edits = [(o.id, _drop(plan.id, lookup)) for o in olds]
    out.ended.append((plan.id, f"moves the change planned to {day}"))
    return out


def _pending(mem: Memory, today: date) -> bool:
    """Whether `mem` is a plan not started by `today`: a change that starts later, replacing some memory."""
    since = starts.since(mem.metadata)
    return mem.active and since is not None and since > today and bool(_replaces(mem.metadata))


def _replaces(metadata: object) -> list[str]:
    value = metadata.get(starts.REPLACES) if isinstance(metadata, dict) else None
    return [x for x in value if isinstance(x, str)] if isinstance(value, list) else []


def _drop(plan_id: str, lookup: Callable[[str], Memory | None]) -> Callable[[dict[str, Any]], None]:
    """The metadata edit of an old memory whose plan `plan_id` no longer replaces it: the day it holds until is the
    earliest of the plans left (read through `lookup`), or none when none is left."""

    def edit(meta: dict[str, Any]) -> None:
        left = [r for r in starts.replacers(meta) if r != plan_id]
        days = [d for d in (starts.since(m.metadata) for m in map(lookup, left) if m is not None) if d is not None]
        if not left:
            meta.pop(starts.REPLACED_BY, None)
            meta.pop(starts.VALID_UNTIL, None)
            return
        meta[starts.REPLACED_BY] = left
        if days:
            meta[starts.VALID_UNTIL] = min(days).isoformat()

    return edit


def called_off(old: str, plan: str, new: str, today: date) -> bool:
    """Whether `new` calls off `plan`, a change of `old` that starts later, saying no value of its own and no day
    ("... 8am from January instead of 7am" is another change): it says again what the plan changes and nothing it
    brings ("Scrap that, the bakery is keeping its 7am opening"), or it denies what the plan brings ("The bakery won't
    open at 7:30 after all")."""
    was, will, said = _said(old), _said(plan), _said(new)
    changed, brings = was - will, will - was
    if not brings or not _values(new) <= _values(old) | _values(plan) or starts.named(new, today) is not None:
        return False
    if said & changed:
        return not said & brings
    return bool(said & brings) and bool(_DENIES.search(new))


def restates(old: str, plan: str, new: str) -> bool:
    """Whether `new` says what `plan` brings to `old` ("the 7:30 opening" of "... opens at 7:30 from next week")."""
    was, will = _said(old), _said(plan)
    return bool(_said(new) & (will - was))


def _said(text: str) -> frozenset[object]:
    """What a text says, to compare: its values (a time, a price, a weekday ...) and its content words' stems, less
    the words of a start and of a day ("from next week")."""
    words = [
        w for w in tokenize(text)
        if w not in stop_words() and w not in _START_WORDS and not w.isdigit() and not starts.day_word(w)
    ]
    return frozenset(_values(text)) | frozenset(stem(words))


def _values(text: str) -> set[tuple[str, object]]:
    return {(k, v) for k, vs in values(text).kinds().items() for v in vs}


def related(read: Callable[[Sequence[str]], list[Memory]], targets: Sequence[Memory]) -> dict[str, Memory]:
    """The memories `follow` may look up for these decisions' targets, in at most two reads, and none when no
    target is part of a plan (most writes): a plan's old memories and the plans of an old memory, and theirs."""
    known = {t.id for t in targets}
    first = {x for t in targets for x in (*_replaces(t.metadata), *starts.replacers(t.metadata))} - known
    if not first:
        return {}
    out = {m.id: m for m in read(sorted(first))}
    second = {x for m in out.values() for x in starts.replacers(m.metadata)} - known - set(out)
    if second:
        out.update({m.id: m for m in read(sorted(second))})
    return out
