"""Step 6: tags. Explicit tags plus inferred ones, all normalised with `normalize_tag`:

- file paths in the text or given by the caller -> `project:<name>` tags, and the paths go to `file_paths`;
- `#hashtags` (not in code, not `#123` issue numbers, not Markdown headings);
- capitalised entities ("FastAPI", "New York"), switchable with `Settings.tag_infer_entities`, and the lower-case
  names of things a developer's notes use: identifiers with a number or an underscore ("db-pay-01", "kafka-02",
  "billing_v2") and a single identifier in backticks ("`payments-api`", "`ruff`").

The project of a path is its first directory that is not a generic root (`/home/<user>`, `src`, `projects`, …):
`/home/ada/projects/billing/api/app.py` and `billing/api/app.py` both give `project:billing`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from memgraph.config import Settings
from memgraph.errors import ValidationError
from memgraph.ingest import signals
from memgraph.ingest.clean import strip_code
from memgraph.models import normalize_tag
from memgraph.text import stop_words

_HASHTAG = re.compile(r"(?<![\w&#/])#([^\W\d_][\w-]{0,48}[\w]|[^\W\d_])", re.UNICODE)
# A path: at least one slash, a file name with an extension, or a leading ~/ ./ / with two components.
_PATH = re.compile(
    r"(?<![\w:/.@-])(?:~/|\./|\.\./|/)?(?:[\w.-]+/)+[\w.-]*\.[A-Za-z0-9]{1,8}(?![\w/])"
    r"|(?<![\w:/.@-])(?:~/|\./|/)(?:[\w.-]+/){1,}[\w.-]+(?![\w/])"
)
#: A lower-case identifier: words joined by "-" or "_" ("db-pay-01", "rq_worker"); kept when a part is a number
#: ("01", "v2", "ec2") or it has an underscore, which English compounds ("on-call", "under-14s") never have.
_IDENT = re.compile(r"(?<![\w./@:#$-])[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+(?![\w/@$-]|\.\w)")
_NUMBERED_PART = re.compile(r"[a-z]*\d+")
#: One identifier alone in an inline code span ("`payments-api`", "`ruff`"): a named thing, not a command.
_CODE_NAME = re.compile(r"`([A-Za-z][\w.-]*[A-Za-z0-9])`")
_INLINE_CODE = re.compile(r"`[^`\n]+`")
_GENERIC_DIRS = frozenset(
    "home users user root src source sources lib libs app apps pkg pkgs packages projects project repos repo "
    "code dev work workspace workspaces git github gitlab tmp temp var opt usr etc mnt srv data docs doc test "
    "tests spec specs bin scripts internal cmd . .. ~".split()
)


@dataclass(frozen=True)
class TagResult:
    tags: list[str]
    file_paths: list[str]
    inferred: list[str]  # the tags that were inferred (for the report)


def normalise_tags(tags: Iterable[str]) -> list[str]:
    out: list[str] = []
    for t in tags:
        if not isinstance(t, str):
            raise ValidationError(f"tags must be strings, got {type(t).__name__}")
        out.append(normalize_tag(t))
    return list(dict.fromkeys(out))


def find_paths(text: str) -> list[str]:
    """File paths mentioned in prose (URLs are not paths)."""
    prose = strip_code(text)
    out: list[str] = []
    for m in _PATH.finditer(prose):
        path = m.group(0).rstrip(".")
        start = m.start()
        if "://" in prose[max(0, start - 12) : start + 3]:
            continue
        if path.count("/") == 0 or re.fullmatch(r"[\d/.-]+", path):  # dates like 05/06/2024
            continue
        out.append(path)
    return list(dict.fromkeys(out))


def project_of(path: str) -> str | None:
    """The project a path belongs to: its first non-generic directory."""
    parts = [p for p in re.split(r"[\\/]+", path) if p]
    if not parts:
        return None
    dirs = parts[:-1] if "." in parts[-1] or len(parts) > 1 else parts
    if path.startswith(("/home/", "/Users/")) and len(dirs) >= 2:
        dirs = dirs[2:]  # /home/<user>/...
    for d in dirs:
        if d.lower() not in _GENERIC_DIRS and not d.startswith("."):
            return d
    return None


def infer_tags(
    text: str,
    settings: Settings,
    *,
    explicit: Iterable[str] = (),
    files: Iterable[str] = (),
) -> TagResult:
    """Explicit tags first, then inferred ones (at most `max_inferred_tags`), all normalised."""
    tags = normalise_tags(explicit)
    file_paths = list(dict.fromkeys([*files, *(find_paths(text) if settings.tag_infer_projects else [])]))
    inferred: list[str] = []

    def add(name: str) -> None:
        if len(inferred) >= settings.max_inferred_tags:
            return
        try:
            tag = normalize_tag(name)
        except ValidationError:
            return
        if tag not in tags and tag not in inferred:
            inferred.append(tag)

    if settings.tag_infer_projects:
        for path in file_paths:
            project = project_of(path)
            if project:
                add(f"project:{project}")
    if settings.tag_infer_hashtags:
        for m in _HASHTAG.finditer(strip_code(text)):
            add(m.group(1))
    if settings.tag_infer_entities:
        # a capitalised word inside inline code is code ("`make release ENV=prod`" names no "env")
        for ent in signals.entities(_INLINE_CODE.sub(" ", text) if "`" in text else text):
            add(ent)
        for ident in identifiers(text):
            add(ident)
    return TagResult([*tags, *inferred], file_paths, inferred)


def identifiers(text: str) -> list[str]:
    """The lower-case names of hosts, services and code a text mentions outside code blocks (capitalised ones are
    `signals.entities`'): a team's notes name "db-pay-01" and "`payments-api`" more often than any capitalised
    word, and two notes about one host are about one thing."""
    prose = strip_code(text)
    out: list[str] = []
    for m in _IDENT.finditer(prose):
        word = m.group(0)
        parts = re.split(r"[-_]", word)
        if parts[0] in stop_words() or len(parts[0]) < 2:
            continue  # "am-4" of "9 am-4 pm"
        if "_" in word or any(_NUMBERED_PART.fullmatch(p) for p in parts[1:]):
            out.append(word)
    for m in _CODE_NAME.finditer(prose):
        name = m.group(1)
        if len(name) >= 3 and not name.startswith("-") and "." not in name.strip("."):
            out.append(name)
    return list(dict.fromkeys(out))
