"""Step 3 of the write path: the secret policy. Runs before anything is embedded, cached, stored or logged.

The scanner (`memgraph.secrets`) finds secrets; this module decides what the write path does with them under
`Settings.secret_policy`: `redact` stores the text with each secret replaced by `[REDACTED:type]`, `reject`
refuses it with `SecretDetectedError` (naming the types found, never a value). Text left with nothing but
redaction markers is not worth storing (`only_redactions`).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from memgraph.errors import SecretDetectedError
from memgraph.secrets import REDACTION_MARKER, SecretScanner, redact
from memgraph.text import content_tokens

if TYPE_CHECKING:
    from memgraph.config import Settings


@dataclass
class Filtered:
    """Text after the filter and what was found in it (types and counts only)."""

    text: str
    counts: Counter[str] = field(default_factory=Counter)

    @property
    def found(self) -> bool:
        return bool(self.counts)


def only_redactions(text: str) -> bool:
    """True when nothing but redaction markers, punctuation and key names is left: nothing worth storing."""
    rest = REDACTION_MARKER.sub(" ", text)
    words = [t for t in content_tokens(rest) if not _ENV_LINE_KEYWORD.match(t)]
    return not words


_ENV_LINE_KEYWORD = re.compile(
    r"^(?:export|password|passwd|pwd|pass|secret|token|key|api|apikey|bearer|authorization|basic|"
    r"[a-z0-9]+_(?:key|secret|token|password|id)|aws|access|private|credentials?)$"
)


class SecretFilter:
    """Applies `Settings.secret_policy` to text and to nested values (tags, metadata, file paths)."""

    def __init__(self, policy: str = "redact", scanner: SecretScanner | None = None) -> None:
        if policy not in ("redact", "reject"):
            raise ValueError("secret policy must be 'redact' or 'reject'")
        self.policy = policy
        self.scanner = scanner or SecretScanner()

    @classmethod
    def from_settings(cls, settings: Settings) -> SecretFilter:
        """The filter the write path uses: the configured policy and entropy rule (import uses it too)."""
        return cls(
            settings.secret_policy,
            SecretScanner(entropy_min=settings.secret_entropy_min, entropy_min_len=settings.secret_entropy_min_len),
        )

    def text(self, text: str, *, what: str = "text") -> Filtered:
        """Redact (or, under `reject`, raise SecretDetectedError naming the types found)."""
        findings = self.scanner.scan(text)
        counts: Counter[str] = Counter(f.type for f in findings)
        if not findings:
            return Filtered(text, counts)
        if self.policy == "reject":
            raise SecretDetectedError(
                f"{what} contains {_describe(counts)}; nothing was stored "
                "(remove the secret, or set MEMGRAPH_SECRET_POLICY=redact to store it redacted)"
            )
        return Filtered(redact(text, findings), counts)

    def redacted(self, text: str) -> str:
        """`text` with secrets replaced, whatever the policy (for text that is never stored, such as queries)."""
        findings = self.scanner.scan(text)
        return redact(text, findings) if findings else text

    def value(self, value: Any, counts: Counter[str], *, what: str) -> Any:
        """Filter every string inside a JSON-like value (keys too); counts are added to `counts`."""
        if isinstance(value, str):
            res = self.text(value, what=what)
            counts.update(res.counts)
            return res.text
        if isinstance(value, dict):
            out: dict[Any, Any] = {}
            for k, v in value.items():
                key = self.value(k, counts, what=f"{what} key") if isinstance(k, str) else k
                out[key] = self.value(v, counts, what=what)
            return out
        if isinstance(value, list | tuple):
            return [self.value(v, counts, what=what) for v in value]
        return value


def _describe(counts: Counter[str]) -> str:
    kinds = ", ".join(sorted(counts))
    n = sum(counts.values())
    return f"{n} secret{'s' if n != 1 else ''} (type{'s' if len(counts) != 1 else ''}: {kinds})"
