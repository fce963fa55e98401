"""One rule for identifiers, applied at every entry point (API, tools, MCP, CLI, import, the agent).

User, session and memory ids are opaque strings compared byte for byte, and they are *refused*, never repaired,
when they could mean two things. A store's index may not compare them exactly: FalkorDB's string index trims
surrounding whitespace (measured on FalkorDB 4.22: `MATCH (m) WHERE m.u = 'ada'` returns `'ada '`, `' ada'`,
`'ada\\t'` and `'ada\\n'` once `u` is indexed, and `MERGE` matches all of them), and people cannot see a
zero-width space or tell a composed `é` from `e` + combining accent. Rewriting such an id would silently merge
two tenants, so an id is refused (`InvalidIdentifierError`; `MissingOwnerError` for a `user_id`) when it

- is empty or longer than `MAX_ID_LEN` characters,
- has leading or trailing whitespace,
- holds a control (Cc), format (Cf: zero-width and bidi marks), line/paragraph separator (Zl, Zp) or a space
  other than U+0020 (Zs: no-break and other look-alike spaces),
- holds a lone surrogate (Cs: not text; it cannot even be encoded to UTF-8),
- is not in Unicode NFC form (the composed and decomposed spellings of one name would be two tenants),
- mixes letters of Latin, Greek and Cyrillic (`"аda"` with a Cyrillic `а` is not `"ada"` but looks it: the
  mixed-script rule of Unicode's security mechanisms, UTS #39; an id in one of them, or beside CJK, is fine),
- holds a secret (a token, a JWT, a password assignment): ids are stored, logged and shown as they are, and
  redacting one would make two different ids collide, so there is no redact policy for them.

Case is significant (`ADA` and `ada` are two users, as in every store's index). Messages name the rule that
was broken and never quote the value: it may be a secret, or another tenant's look-alike name.

Tags are names, not ids: they are *normalised* (`normalize_tag`: NFC, lowercase, whitespace collapsed, `#` and
surrounding punctuation dropped), and a tag with a control or format character is refused.

Ids that were stored before this rule existed are never rewritten; `invalid_id_problems` lets the store report
them on open (`memgraph.engine`, `StoreStats.invalid_user_ids`).
"""

from __future__ import annotations

import logging
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

from memgraph.errors import InvalidIdentifierError, MissingOwnerError, SecretDetectedError, ValidationError
from memgraph.secrets import SecretScanner

#: Longest id accepted (user, session, memory): far above any real one (UUIDs are 36, memory ids 34).
MAX_ID_LEN = 256
#: Longest tag name after normalisation.
MAX_TAG_LEN = 128

#: Unicode categories refused anywhere in an id: control, format (zero-width, bidi), line and paragraph
#: separators, surrogates.
_REFUSED = {"Cc": "a control character", "Cf": "a format (zero-width or bidi) character",
            "Zl": "a line separator", "Zp": "a paragraph separator", "Cs": "a lone surrogate"}
#: Scripts with letters that look alike (first word of a letter's Unicode name -> the script's name).
_LOOKALIKE_SCRIPTS = {"LATIN": "Latin", "GREEK": "Greek", "CYRILLIC": "Cyrillic"}
#: Refused in a tag after normalisation (whitespace of any kind is collapsed to one space first).
_REFUSED_IN_TAG = ("Cc", "Cf", "Cs")


class SecretInIdentifierError(SecretDetectedError, InvalidIdentifierError):
    """An id holding a secret: both a refused secret and an invalid id."""


class SecretInOwnerError(SecretDetectedError, MissingOwnerError):
    """A user_id holding a secret."""


_SCANNER = SecretScanner()
log = logging.getLogger(__name__)


def identifier_problem(value: str) -> str | None:
    """What is wrong with `value` as an id (a phrase such as "has leading or trailing whitespace"), or None.
    Never quotes the value. The secret check is separate (`secret_in`)."""
    if not value or not value.strip():
        return "is empty"
    if len(value) > MAX_ID_LEN:
        return f"is longer than {MAX_ID_LEN} characters"
    if value != value.strip():
        return "has leading or trailing whitespace"
    for ch in value:
        cat = unicodedata.category(ch)
        if cat in _REFUSED:
            return f"contains {_REFUSED[cat]}"
        if cat == "Zs" and ch != " ":
            return "contains a space character other than U+0020 (a look-alike space)"
    if not unicodedata.is_normalized("NFC", value):
        return "is not in Unicode NFC form (normalise it with unicodedata.normalize('NFC', ...))"
    mixed = _confusable_scripts(value)
    if len(mixed) > 1:
        return f"mixes {' and '.join(sorted(mixed))} letters (a look-alike of another id)"
    return None


def _confusable_scripts(value: str) -> set[str]:
    """Which of the scripts whose letters look alike (Latin, Greek, Cyrillic) the id's letters come from."""
    if value.isascii():
        return {"Latin"} if any(c.isalpha() for c in value) else set()
    found: set[str] = set()
    for ch in value:
        if ch.isalpha():
            script = unicodedata.name(ch, "").split(" ", 1)[0]
            if script in _LOOKALIKE_SCRIPTS:
                found.add(_LOOKALIKE_SCRIPTS[script])
    return found


def secret_in(value: str) -> list[str]:
    """The types of secret found in `value` (empty when none)."""
    return sorted({f.type for f in _SCANNER.scan(value)})


@lru_cache(maxsize=8192)
def _check(value: str, what: str, owner: bool) -> str:
    """The rule for one string id (cached for valid ids: an engine call checks its owner every time)."""
    problem = identifier_problem(value)
    if problem is not None:
        raise (MissingOwnerError if owner else InvalidIdentifierError)(f"{what} {problem}")
    found = secret_in(value)
    if found:
        raise (SecretInOwnerError if owner else SecretInIdentifierError)(
            f"{what} holds a secret (type{'s' if len(found) > 1 else ''}: {', '.join(found)}); ids are stored and "
            "shown as they are, so it is refused (use an opaque id such as a UUID)"
        )
    return value


def check_id(value: object, what: str) -> str:
    """`value` as a session or memory id, or `InvalidIdentifierError` (see the module docstring)."""
    if not isinstance(value, str):
        raise InvalidIdentifierError(f"{what} must be a string, got {type(value).__name__}")
    return _check(value, what, False)


def check_owner(user_id: object) -> str:
    """`user_id` as an owner, or `MissingOwnerError`: every call is scoped by a user; a missing or invalid owner
    is an error, never a shared default."""
    if user_id is None:
        raise MissingOwnerError("user_id is required: every memory belongs to exactly one user")
    if not isinstance(user_id, str):
        raise MissingOwnerError(f"user_id must be a string, got {type(user_id).__name__}")
    return _check(user_id, "user_id", True)


def check_optional_id(value: object, what: str) -> str | None:
    """`check_id`, with None passed through (an optional session id)."""
    return None if value is None else check_id(value, what)


def normalize_tag(name: object) -> str:
    """Tags are lowercase, NFC, single-spaced; `#` and surrounding punctuation are dropped; a control or format
    character (a NUL, a zero-width space, a bidi mark) is refused."""
    if not isinstance(name, str):
        raise ValidationError(f"tag must be a string, got {type(name).__name__}")
    return _normalized_tag(name)


@lru_cache(maxsize=8192)
def _normalized_tag(name: str) -> str:
    """Cached: the write path normalises each memory's tags several times (inferred, structural, stored), ~25
    calls per conversation turn, and the per-character checks were 30 s of a 20k-turn bulk load (profiled).
    An error is raised again on every call (lru_cache keeps results only)."""
    if any(unicodedata.category(ch) == "Cs" for ch in name):
        raise ValidationError("tag contains a lone surrogate")
    norm = " ".join(unicodedata.normalize("NFC", name).strip().lower().split())
    norm = norm.strip("#.,;:!?\"'`")
    if not norm:
        raise ValidationError("tag is empty after normalisation")
    if len(norm) > MAX_TAG_LEN:
        raise ValidationError(f"tag is longer than {MAX_TAG_LEN} characters")
    if any(unicodedata.category(ch) in _REFUSED_IN_TAG for ch in norm):
        raise ValidationError("tag contains a control or format (zero-width or bidi) character")
    return norm


def invalid_id_problems(ids: Iterable[str]) -> dict[str, int]:
    """For stored ids (reported on open, never rewritten): how many break each part of the rule, by problem.
    Counts only: the ids themselves are other tenants' names."""
    out: dict[str, int] = {}
    for value in ids:
        problem = identifier_problem(value) if isinstance(value, str) else "is not a string"
        if problem is not None:
            out[problem] = out.get(problem, 0) + 1
    return out


def report_invalid_user_ids(where: str, user_ids: Iterable[str]) -> int:
    """Log (a warning, counts only) how many stored user ids break the rule; the engine calls it on open.
    They are never rewritten: renaming a tenant is the operator's decision."""
    problems = invalid_id_problems(user_ids)
    total = sum(problems.values())
    if total:
        log.warning(
            "%s: %d stored user id(s) break the identifier rule (%s); they are kept as they are, new writes under "
            "such ids are refused, and on FalkorDB their own reads may miss data (memgraph stats counts them)",
            where,
            total,
            "; ".join(f"{n} {what}" for what, n in sorted(problems.items())),
        )
    return total
