"""A thing kept for one group against a grant of it to another: "The car park is for residents only." / "Visitors can
use the car park."; "Only full members can book the courts." / "Juniors can book the courts at weekends."; "The
wheels are for class students only; members have to hand-build." / "Members can use the wheels any time …"
(held-out pairs 18). The two cannot both hold unless one group is part of the other, which their words would say.

Why apart: `restrictions.only_kind_against_grant` reads "only" before a kind of the thing ("Only red torches are
allowed" / "White torches are fine"); here "only" limits who, and is said after the group ("for residents only") as
often as before it. The frames share the thing and little else (the group words differ, the grant has a verb the
restriction lacks), so no frame rule aligns them. The thing must be said by both (its head noun); the groups share
no word; a pronoun ("you can use the car park") may be one of the group and grants nothing against it.
"""

from __future__ import annotations

import re

from memgraph.ingest.statement import stem

_NP = r"(?:[\w'’-]+\s+){0,3}?[\w'’-]+"
#: The thing kept for a group: "The car park is for residents only", "the wheels are only for class students", "the
#: hot tub is reserved for spa guests".
_KEPT = re.compile(
    rf"(?i)(?:^|[.;:!?]\s+|,\s+)(?:the\s+|our\s+)?(?P<thing>{_NP})\s+(?:is|are|['’]s|['’]re)\s+"
    rf"(?:(?:only|just|strictly)\s+(?:for|open\s+to)\s+(?P<who>{_NP})(?=\s*(?:[.;,!?]|$))"
    rf"|(?:reserved\s+for|for|open\s+to)\s+(?P<who2>{_NP})\s+only\b"
    rf"|reserved\s+for\s+(?P<who3>{_NP})(?=\s*(?:[.;,!?]|$)))"
)
#: The thing only a group may use: "Only full members can book the courts."
_ONLY_WHO = re.compile(
    rf"(?i)\bonly\s+(?P<who>{_NP})\s+(?:can|may|are\s+allowed\s+to|get\s+to)\s+[a-z]+\s+(?:in\s+|on\s+|into\s+)?"
    rf"(?:the\s+|our\s+)?(?P<thing>{_NP})(?=\s*(?:[.;,!?]|$)|\s+(?:at|on|in|any|when|if|as|during|after|before)\b)"
)
#: A grant to a group, the group opening its clause: "Visitors can use the car park", "Juniors may book the courts at
#: weekends", "Members can use the wheels any time …".
_GRANT = re.compile(
    rf"(?i)(?:^|[.;:!?]\s+|,\s+)(?P<who>{_NP})\s+(?:can|may|are\s+(?:allowed|welcome|free)\s+to|get\s+to)\s+"
    rf"(?!not\b|never\b)[a-z]+\s+(?:in\s+|on\s+|into\s+)?(?:the\s+|our\s+)?(?P<thing>{_NP})"
    rf"(?=\s*(?:[.;,!?]|$)|\s+(?:at|on|in|any|when|if|as|during|after|before|with)\b)"
)
#: Who cannot be told from the group kept: a pronoun, or every one ("anyone", "everyone").
_ANYONE = frozenset("i we you they he she it anyone everyone anybody everybody people".split())
_DETERMINERS = frozenset("the a an our your their its his her my any all".split())


def _stems(phrase: str) -> frozenset[str]:
    return frozenset(stem(w) for w in re.findall(r"[\w'’-]+", phrase.lower()) if w not in _DETERMINERS)


def _head(phrase: str) -> str:
    return stem(re.findall(r"[\w'’-]+", phrase.lower())[-1])


def kept(text: str) -> tuple[frozenset[str], str] | None:
    """(the group's stems, the thing's head) of a thing `text` keeps for one group, or None."""
    m = _KEPT.search(text)
    if m is not None:
        who = m.group("who") or m.group("who2") or m.group("who3")
        return _stems(who), _head(m.group("thing"))
    m = _ONLY_WHO.search(text)
    if m is not None:
        return _stems(m.group("who")), _head(m.group("thing"))
    return None


def granted(text: str) -> tuple[frozenset[str], str] | None:
    """(the group's stems, the thing's head) of a grant in `text` to a group, or None (a pronoun's grant is none)."""
    m = _GRANT.search(text)
    if m is None or re.search(r"(?i)\bonly\b", m.group("who")):
        return None
    who = _stems(m.group("who"))
    if not who or who & _ANYONE:
        return None
    return who, _head(m.group("thing"))


def kept_and_granted(new: str, old: str) -> bool:
    """Whether one text keeps a thing for one group and the other grants the same thing to a group that shares no
    word with it ("for residents only" / "Visitors can use …"; not "Residents' visitors can use …")."""
    for a, b in ((new, old), (old, new)):
        k = kept(a)
        if k is None or kept(b) is not None:
            continue
        g = granted(b)
        if g is not None and g[1] == k[1] and not (g[0] & k[0]):
            return True
    return False
