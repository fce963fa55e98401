"""The secret scanner: finds credentials in text and redacts them. The bottom layer, beside `errors.py`: every
text that leaves memgraph (error messages, logs, tool results) and every text the write path stores goes
through it, so it imports nothing of memgraph. What to do with a finding (redact or refuse, under
`Settings.secret_policy`) is the write path's policy: `memgraph.ingest.secrets`.

Why a curated regex + entropy set and not `detect-secrets` (PyPI, Yelp): it is line-oriented, so it cannot
redact a multi-line PEM block; it reports the secret value but not its span, and we must cut the exact span;
its hex/base64 high-entropy plugins flag git SHAs, sha256 digests and base64 image data (our near-miss corpus
must stay clean: measured on that corpus, its ad-hoc `scan_line` found 98.4 % of the secrets but flagged 99 % of
the near misses, entropy plugins included); and its plugins are configured through a process-wide settings
singleton, which does not fit two engines with different policies in one process. The rules below are vendor
token formats (public, fixed prefixes and lengths), key=value assignments judged by the key's name, and `.env`
lines judged by key name or by the value's Shannon entropy. `tests/data/secrets_corpus.json` measures them
(detection and false positives).

A finding names its type only: errors and reports carry types and counts, never a value.
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, cast

#: Texts up to this length have their findings cached (per scanner, the last SHORT_SCANS_KEPT of them): tags,
#: metadata keys and values. Longer texts (memory contents) rarely repeat. ~1 MB at most.
SHORT_SCAN_LEN = 160
SHORT_SCANS_KEPT = 4096

#: What a secret becomes in stored text, and the pattern that finds such a marker again.
REDACTION = "[REDACTED:{type}]"
REDACTION_MARKER = re.compile(r"\[REDACTED:[a-z0-9_]+\]")


class _LazyPattern:
    """A pattern compiled at its first use. The scanner's ~60 patterns compiled at import were ~45 ms of every
    command's start (`python -X importtime`), most of which never scan (a recall stores nothing)."""

    __slots__ = ("_args", "_rx")

    def __init__(self, pattern: str, flags: int) -> None:
        self._args = (pattern, flags)
        self._rx: re.Pattern[str] | None = None

    def __getattr__(self, name: str) -> Any:
        rx = self._rx
        if rx is None:
            rx = self._rx = re.compile(*self._args)
        return getattr(rx, name)


def _lazy(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """`re.compile`, deferred to the first call of a method of the pattern (finditer, match, search, sub)."""
    return cast("re.Pattern[str]", _LazyPattern(pattern, flags))


@dataclass(frozen=True)
class Finding:
    """One secret: its type and where its value lies in the scanned text (never the value itself)."""

    type: str
    start: int
    end: int


# --- vendor formats: the whole match is the secret ----------------------------------------------------------
# (type, pattern). Order matters only for overlaps: earlier, then longer, wins.
_TOKEN_RULES: list[tuple[str, str]] = [
    (
        "private_key",
        r"-----BEGIN[A-Z0-9 ]{0,40} PRIVATE KEY(?: BLOCK)?-----.*?"
        r"(?:-----END[A-Z0-9 ]{0,40} PRIVATE KEY(?: BLOCK)?-----|\Z)",
    ),
    (
        "aws_access_key",
        r"(?<![A-Z0-9])(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Z0-9])",
    ),
    ("gcp_api_key", r"(?<![\w-])AIza[0-9A-Za-z_\-]{35}(?![\w-])"),
    ("gcp_oauth_secret", r"(?<![\w-])GOCSPX-[A-Za-z0-9_\-]{28}(?![\w-])"),
    ("gcp_oauth_token", r"(?<![\w.-])ya29\.[0-9A-Za-z_\-]{20,}"),
    ("azure_storage_key", r"(?i:AccountKey)=[A-Za-z0-9+/]{86}==?"),
    ("azure_client_secret", r"(?<![\w~.-])[A-Za-z0-9_~.\-]{3}\dQ~[A-Za-z0-9_~.\-]{31,34}(?![\w~.-])"),
    ("azure_sas_token", r"(?<=[?&])sig=[A-Za-z0-9%+/=]{40,}"),
    ("github_token", r"(?<![\w])(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,255}(?![\w])"),
    ("github_token", r"(?<![\w])github_pat_[A-Za-z0-9_]{60,255}(?![\w])"),
    ("gitlab_token", r"(?<![\w-])(?:glpat|gldt|glrt|glptt|glcbt|glsoat)-[A-Za-z0-9_\-]{20,}(?![\w-])"),
    ("slack_token", r"(?<![\w-])xox[abposre]-[A-Za-z0-9\-]{10,}(?![\w-])"),
    ("slack_token", r"(?<![\w-])xapp-\d-[A-Z0-9]+-\d+-[a-f0-9]{20,}(?![\w-])"),
    ("slack_webhook", r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_\-]{20,}"),
    (
        "discord_webhook",
        r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_\-]{40,}",
    ),
    (
        "discord_token",
        r"(?<![\w.-])[MNO][A-Za-z0-9_\-]{23,27}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,40}(?![\w.-])",
    ),
    ("stripe_key", r"(?<![\w])(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,247}(?![\w])"),
    ("stripe_webhook_secret", r"(?<![\w])whsec_[A-Za-z0-9]{24,}(?![\w])"),
    ("anthropic_key", r"(?<![\w-])sk-ant-(?:api|admin)\d\d-[A-Za-z0-9_\-]{40,}(?![\w-])"),
    (
        "openai_key",
        r"(?<![\w-])sk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_\-]*T3BlbkFJ[A-Za-z0-9_\-]{16,}(?![\w-])",
    ),
    ("openai_key", r"(?<![\w-])sk-(?:proj-|svcacct-|admin-)[A-Za-z0-9_\-]{40,}(?![\w-])"),
    ("openai_key", r"(?<![\w-])sk-[A-Za-z0-9]{48}(?![\w-])"),
    ("huggingface_token", r"(?<![\w])hf_[A-Za-z]{34}(?![\w])"),
    ("npm_token", r"(?<![\w])npm_[A-Za-z0-9]{36}(?![\w])"),
    ("pypi_token", r"(?<![\w])pypi-AgE[A-Za-z0-9_\-]{50,}"),
    ("sendgrid_key", r"(?<![\w])SG\.[A-Za-z0-9_\-]{22}\.[A-Za-z0-9_\-]{43}(?![\w])"),
    ("mailgun_key", r"(?<![\w-])key-[0-9a-z]{32}(?![\w-])"),
    ("twilio_key", r"(?<![\w])SK[0-9a-f]{32}(?![\w])"),
    ("shopify_token", r"(?<![\w])shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}(?![\w])"),
    ("digitalocean_token", r"(?<![\w])do[opr]_v1_[a-f0-9]{64}(?![\w])"),
    ("telegram_bot_token", r"(?<![\w:])\d{8,10}:AA[A-Za-z0-9_\-]{33}(?![\w-])"),
    ("jwt", r"(?<![\w-])eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]*"),
]

# --- contextual rules: group "v" is the secret value ----------------------------------------------------------
_SENSITIVE_KEY = (
    r"(?:pass(?:word|wd|phrase)?|pwd|pw|secret|client[_\- ]?secret|api[_\- ]?key|apikey|access[_\- ]?key|"
    r"secret[_\- ]?key|private[_\- ]?key|auth[_\- ]?token|access[_\- ]?token|refresh[_\- ]?token|"
    r"bearer[_\- ]?token|token|credentials?|db[_\- ]?pass(?:word)?|signing[_\- ]?key|encryption[_\- ]?key)"
)
#: Between an id and its secret in an unlabelled pair: a CSV/TSV delimiter, `:`, `/`, or spaces.
_PAIR_SEP = r"[ \t]*[,;:|\t/ ][ \t]*"
_VALUE = r"(?:\"(?P<dq>[^\"\n]{4,200})\"|'(?P<sq>[^'\n]{4,200})'|(?P<bare>[^\s\"',;}{)\]]{4,200}))"
#: Between a PIN's or a card code's name and its digits: what it is for ("the pin for my card"), then "is", a colon,
#: an equals sign or a space, and "now" ("the new PIN is now 9931").
_OWNED_BY = (
    r"\b(?:\s+(?:for|to|of|on)\s+(?:(?:the|my|our|his|her|their|your)\s+)?[\w'-]+(?:\s+[\w'-]+)?)?"
    r"(?:\s+(?:is|was|are)\s*:?|\s*[:=]|\s)\s*(?:now\s+)?"
)
_CONTEXT_RULES: list[tuple[str, re.Pattern[str], str]] = [
    # (type, pattern, check): check names how the value is judged (see `_value_ok`).
    (
        "aws_secret_key",
        _lazy(
            r"(?i)(?:(?:aws_?)?secret[_ ]?access[_ ]?key[\"']?\s*[:=]|aws_secret_access_key[\"']?[ \t])\s*[\"']?"
            r"(?P<v>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])"
        ),
        "any",
    ),
    # Unlabelled pairs: a vendor's secret right after the id it belongs to (a CSV row, `id:secret`, `id secret`),
    # written from the vendors' documented formats. AWS: key id AKIA/ASIA... + 40-character secret (the console's
    # "Download .csv file" row); Twilio: Account SID AC + 32-hex auth token, API key SID SK + 32-character secret.
    (
        "aws_secret_key",
        _lazy(
            r"(?<![A-Z0-9])(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ABIA|ACCA)[A-Z0-9]{16}[\"']?"
            rf"{_PAIR_SEP}[\"']?(?P<v>[A-Za-z0-9/+]{{40}})(?![A-Za-z0-9/+=])"
        ),
        "paired",
    ),
    (
        "twilio_auth_token",
        _lazy(rf"(?<![\w])AC[0-9a-f]{{32}}[\"']?{_PAIR_SEP}[\"']?(?P<v>[0-9a-f]{{32}})(?![\w])"),
        "any",
    ),
    (
        "twilio_api_secret",
        _lazy(rf"(?<![\w])SK[0-9a-f]{{32}}[\"']?{_PAIR_SEP}[\"']?(?P<v>[A-Za-z0-9]{{32}})(?![\w])"),
        "paired",
    ),
    # GCP service-account key files: the key's id (40 hex) sits beside the PEM private key (`private_key`,
    # found by the private_key rule even with its newlines escaped as \n inside the JSON string).
    (
        "gcp_private_key_id",
        _lazy(r"(?i)[\"']?private[_ ]key[_ ]id[\"']?\s*[:=]\s*[\"']?(?P<v>[0-9a-f]{40})(?![0-9a-f])"),
        "any",
    ),
    (
        "basic_auth",
        _lazy(r"(?i)\bauthorization\s*[:=]\s*[\"']?basic\s+(?P<v>[A-Za-z0-9+/]{12,}={0,2})"),
        "any",
    ),
    ("bearer_token", _lazy(r"(?i)\bbearer\s+(?P<v>[A-Za-z0-9\-._~+/]{16,}=*)"), "token"),
    (
        "connection_string",
        _lazy(
            r"(?i)\b[a-z][a-z0-9+.\-]{1,30}://(?P<user>[^\s:/@\"'<>]{1,128}):(?P<v>[^\s@/\"'<>]{1,256})@"
            r"[^\s/\"'<>]+"
        ),
        "any",
    ),
    (
        "connection_string",
        # Azure connection strings: storage/Cosmos AccountKey, Service Bus/Event Hubs/IoT SharedAccessKey, SignalR
        # AccessKey, App Configuration Secret, SQL Password/Pwd
        _lazy(
            r"(?i)(?<![\w])(?:SharedAccessKey|AccountKey|AccessKey|Secret|Password|Pwd)\s*=\s*(?P<v>[^;\s\"']{8,})"
            r"(?=;|\s|$)"
        ),
        "any",
    ),
    (
        "password",
        _lazy(rf"(?i)(?<![\w-])[\"']?(?P<key>[\w\-.]*?{_SENSITIVE_KEY})[\"']?\s*(?::=|=>|[:=])\s*{_VALUE}"),
        "assignment",
    ),
    # Payment cards: 13-19 digits, in groups of four (Amex 4-6-5) or run together, with an issuer's prefix (Visa 4,
    # Mastercard 51-55 / 2221-2720, Amex 34 / 37, Discover 6011 / 65, Diners 36 / 38, JCB 35, UnionPay 62), and a
    # valid Luhn check digit (`_luhn`): an order number or a timestamp of the same length rarely has all three.
    (
        "payment_card",
        _lazy(
            r"(?<![\w.,/-])(?P<v>(?=4|5[1-5]|2[2-7]|3[4-8]|6[025])\d{4}(?:[ -]?\d{4}){2}[ -]?\d{1,7}"
            r"|3[47]\d{2}[ -]?\d{6}[ -]?\d{5})(?![\w/-]|[.,]\d)"
        ),
        "luhn",
    ),
    # A card's security code, a PIN or a device's passcode: digits after the word that names them ("PIN: 4512",
    # "my phone passcode is 190284", "cvv 737"). Prose's password rule wants letters and digits, so digits alone
    # passed it. A door, gate or key-safe code is kept: a household shares it, and people keep such notes to share
    # them (the labelled parts hold several); a PIN or a card code opens an account.
    (
        "pin",
        _lazy(
            r"(?i)\b(?P<key>pin(?:\s+(?:number|code))?|passcode|pass\s+code|unlock\s+code)"
            rf"{_OWNED_BY}(?P<v>\d{{4,12}})(?![\d.,:/-]?\d)"
        ),
        "digits",
    ),
    (
        "card_security_code",
        _lazy(rf"(?i)\b(?P<key>cvv2?|cvc2?|cv2|card\s+security\s+code){_OWNED_BY}(?P<v>\d{{3,4}})(?![\d.,:/-]?\d)"),
        "digits",
    ),
    # A US social security number after its name ("SSN 078-05-1120", "social security number: 078051120").
    (
        "national_id",
        _lazy(
            r"(?i)\b(?:ssn|social\s+security(?:\s+(?:number|no\.?|#))?)\b[^\d\n]{0,12}"
            r"(?P<v>\d{3}[- ]?\d{2}[- ]?\d{4})(?!\d)"
        ),
        "digits",
    ),
    (
        "password",
        _lazy(
            r"(?i)\b(?:my|the|our|your|his|her|their)\s+(?:[\w-]+\s+)?(?P<key>password|passphrase|passcode|pin|pw|"
            r"api\s+key|token|secret)\s+(?:is|was)\s*:?\s*[\"'`]?(?P<v>[^\s\"'`]{4,128})"
        ),
        "prose",
    ),
]
_ENV_LINE = _lazy(
    r"(?m)^[ \t]*(?:export[ \t]+)?(?P<key>[A-Za-z_][A-Za-z0-9_]{1,100})[ \t]*=[ \t]*"
    r"(?:\"(?P<dq>[^\"\n]*)\"|'(?P<sq>[^'\n]*)'|(?P<bare>[^\s#]+))[ \t]*(?:#.*)?$"
)
_ENV_SENSITIVE = _lazy(
    r"(?i)(?:^|_)(?:KEY|SECRET|TOKEN|PASSWORD|PASSWD|PASS|PWD|CREDENTIALS?|AUTH|PRIVATE|SIGNATURE|SALT|"
    r"DSN|APIKEY|SESSION|COOKIE|WEBHOOK)(?:_|$)"
)
_ENV_NOT_SECRET_KEY = _lazy(
    r"(?i)(?:_|^)(?:PUBLIC|PUBLISHABLE|ID|NAME|USER|USERNAME|URL|HOST|PORT|PATH|FILE|"
    r"REGION|ALGORITHM|LENGTH|TTL|EXPIRY|EXPIRES|TIMEOUT|ENABLED|VERSION)$"
)

#: Values that only stand in for a secret: templates, env references, code expressions, type names.
_PLACEHOLDER = _lazy(
    r"(?ix)^(?:"
    r"<[^>]*>|\$\{?[\w.:-]+\}?|\{\{.*\}\}|%\(?\w*\)?s|\*+|x{3,}|\.{3,}|…|"
    r"(?:none|null|nil|undefined|true|false|yes|no|string|str|bytes|int|optional\[?.*|required|empty|"
    r"redacted|hidden|masked|secret|password|passwd|changeme|change[_-]?me|your[_-]?\w*|my[_-]?\w*|"
    r"example\w*|dummy\w*|placeholder|todo|tbd|n/?a|env|getpass\(?\)?)"
    r")$"
)
# Code, not a credential: `os.environ[...]`, `settings.api_key`, `generate_token(user)`, `[...]` literals.
_CODE_EXPR = _lazy(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?:[(\[].*)?$|^[A-Za-z_]\w*[(\[].*$|^[\[{(]")
_REDACTED_VALUE = _lazy(r"^\[?REDACTED(?::[a-z0-9_]+)?\]?$", re.I)


#: After a bare all-letter value: more words on the same line. `secret: create the new one in the dashboard` is a
#: sentence that names a secret; a value ends its line or its clause (`password: tulip`, `token=abc123 # ci`).
_PROSE_GOES_ON = _lazy(r"[ \t]+[A-Za-z]")


def shannon_entropy(value: str) -> float:
    """Bits per character of `value` (a random base62 string of 20+ characters scores about 4.5+)."""
    if not value:
        return 0.0
    counts = Counter(value)
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in counts.values())


def _char_classes(value: str) -> int:
    return sum(
        (
            any(c.islower() for c in value),
            any(c.isupper() for c in value),
            any(c.isdigit() for c in value),
            any(not c.isalnum() for c in value),
        )
    )


_URLISH = _lazy(r"://|^[\w.-]+\.[a-z]{2,}(?:[:/]|$)|^[~./]|/")
_HEX = _lazy(r"^(?:sha\d*:|0x)?[0-9a-fA-F]+$")
_UUID = _lazy(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
_NUMBERISH = _lazy(r"^[\d.,:+\-_/ ]+$")
_VERSIONISH = _lazy(r"^v?\d+(?:\.\d+)+(?:[-+][\w.]+)?$")


def _is_placeholder(value: str) -> bool:
    v = value.strip()
    return (
        not v
        or bool(_PLACEHOLDER.match(v))
        or bool(_REDACTED_VALUE.match(v))
        or bool(_NUMBERISH.match(v))
        or bool(_VERSIONISH.match(v))
        or bool(_CODE_EXPR.match(v))
        or v.lower() in {"os.environ", "process.env", "env.get"}
    )


def _looks_random(value: str, *, min_len: int, min_entropy: float) -> bool:
    """High-entropy, mixed-class strings that are not hashes or UUIDs (those are ids, not credentials)."""
    if len(value) < min_len or _HEX.match(value) or _UUID.match(value):
        return False
    return _char_classes(value) >= 3 and shannon_entropy(value) >= min_entropy


def _value_ok(value: str, check: str) -> bool:
    """Is this captured value a real credential (not a placeholder, a code expression or a plain word)?"""
    if check == "luhn":  # digits are what these are: the placeholder test would take them for a number
        return _luhn(re.sub(r"[ -]", "", value))
    if check == "digits":  # the rule's pattern says how many digits
        return True
    if _is_placeholder(value):
        return False
    if check == "token":
        return _char_classes(value) >= 2 and any(c.isdigit() for c in value)
    if check == "prose":
        return _looks_like_password(value)
    if check == "assignment":
        return len(value) >= 6 or _char_classes(value) >= 2
    if check == "paired":  # random, not a hash or a word: a secret's shape, not just its length
        return not _HEX.match(value) and _char_classes(value) >= 2 and shannon_entropy(value) >= 3.5
    return True


def _luhn(digits: str) -> bool:
    """The Luhn check every payment card number passes (ISO/IEC 7812): 13-19 digits."""
    if not digits.isdigit() or not 13 <= len(digits) <= 19:
        return False
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch) * (2 if i % 2 else 1)
        total += d - 9 if d > 9 else d
    return total % 10 == 0


def _looks_like_password(value: str) -> bool:
    """For prose ("my password is X"): a word alone is not a password, a word with digits/symbols is."""
    if _is_placeholder(value):
        return False
    return _char_classes(value) >= 2 and not value.isalpha()


@functools.cache
def _compiled_token_rules() -> list[tuple[str, re.Pattern[str]]]:
    """The vendor-format rules compiled, once per process, at the first scan (not at import: `memgraph.ids`
    builds a scanner at import, and a command that stores nothing never scans)."""
    return [(t, re.compile(p, re.DOTALL)) for t, p in _TOKEN_RULES]


@dataclass
class SecretScanner:
    """Finds secrets in text. `entropy_min`/`entropy_min_len` judge `.env` values whose key names say nothing."""

    entropy_min: float = 3.5
    entropy_min_len: int = 20

    def __post_init__(self) -> None:
        self._short = functools.lru_cache(maxsize=SHORT_SCANS_KEPT)(self._scan_short)

    @property
    def _token_rules(self) -> list[tuple[str, re.Pattern[str]]]:
        return _compiled_token_rules()

    def scan(self, text: str) -> list[Finding]:
        """Non-overlapping findings in text order. Short texts are answered from a cache: the write path scans
        every tag, metadata key and value of every memory, and those repeat (a conversation turn's 16 short
        strings are mostly the same speaker, date and key names; each scan is ~60 regexes, 0.25 ms measured)."""
        if len(text) <= SHORT_SCAN_LEN:
            return list(self._short(text))
        return self._scan(text)

    def _scan_short(self, text: str) -> tuple[Finding, ...]:
        return tuple(self._scan(text))

    def _scan(self, text: str) -> list[Finding]:
        found: list[Finding] = []
        for type_, rx in self._token_rules:
            for m in rx.finditer(text):
                found.append(Finding(type_, m.start(), m.end()))
        for type_, rx, check in _CONTEXT_RULES:
            for m in rx.finditer(text):
                value, start, end = _value_of(m)
                if value is None:
                    continue
                value = value.rstrip(".,;:!?)")
                if check == "assignment" and _PROSE_GOES_ON.match(text, end) and value.isalpha():
                    continue  # "the webhook secret: create a new one, then ...": a sentence, not a value
                if _value_ok(value, check):
                    key = (m.groupdict().get("key") or "").lower()
                    kind = type_
                    if type_ == "password" and key and not re.search(r"pass|pwd|pw|pin", key):
                        kind = "credential"  # api_key=..., client_secret: ..., token: ...
                    found.append(Finding(kind, start, start + len(value)))
        for m in _ENV_LINE.finditer(text):
            value, start, end = _value_of(m)
            if value is None or _is_placeholder(value):
                continue
            key = m.group("key")
            if not any(c.isupper() for c in key) or any(c.islower() for c in key):
                continue  # .env keys are UPPER_SNAKE; `x=y` in prose or code is not an env line
            if _ENV_NOT_SECRET_KEY.search(key):
                continue
            if (_ENV_SENSITIVE.search(key) and len(value) >= 6) or (
                not _URLISH.search(value)
                and _looks_random(value, min_len=self.entropy_min_len, min_entropy=self.entropy_min)
            ):
                found.append(Finding("env_secret", start, end))
        if "\n" in text or any(d in text for d in _TABLE_DELIMITERS):
            found += _table_findings(text)
        return _resolve(found)


# --- tables: a column whose header names a secret ----------------------------------------------------------
# The AWS console hands out `Access key ID,Secret access key` then `AKIA...,<secret>`; IAM user exports add
# `User name,Password,...`; people paste such tables as CSV, TSV or Markdown. A header row names the columns, so
# the cells below a secret-named header are secrets whatever they look like (if they look like one at all: no
# spaces, not a placeholder, not purely alphabetic unless long).
_TABLE_DELIMITERS = ",\t;|"
_TABLE_SECRET_HEADER = _lazy(
    r"(?i)^(?:aws[ _]?)?(?:secret(?:[ _]?access)?[ _]?key|secret|client[ _]?secret|api[ _]?secret|password|passwd|"
    r"passphrase|auth[ _]?token|access[ _]?token|refresh[ _]?token|session[ _]?token|api[ _]?key|private[ _]?key|"
    r"token|account[ _]?key|primary[ _]?key|secondary[ _]?key|key ?[12]|connection[ _]?string|signing[ _]?secret|"
    r"webhook[ _]?secret)$"
)
_TABLE_HEADER_CELL = _lazy(r"^[A-Za-z][A-Za-z0-9 _\-()/.#]{0,40}$")


def _cells(line: str, delimiter: str, offset: int) -> list[tuple[str, int, int]]:
    """The cells of one table row: (value without surrounding spaces and quotes, start, end in the text)."""
    out: list[tuple[str, int, int]] = []
    pos = 0
    for raw in line.split(delimiter):
        start, end = pos, pos + len(raw)
        while start < end and line[start] in " \t\"'`":
            start += 1
        while end > start and line[end - 1] in " \t\"'`":
            end -= 1
        out.append((line[start:end], offset + start, offset + end))
        pos += len(raw) + 1
    return out


def _table_type(header: str) -> str:
    h = header.lower()
    if "access" in h and "secret" in h:
        return "aws_secret_key"
    return "password" if "pass" in h else "credential"


def _table_value(value: str) -> bool:
    return (
        len(value) >= 6
        and not any(c.isspace() for c in value)
        and not _is_placeholder(value)
        and (not value.isalpha() or len(value) >= 20)
    )


def _table_findings(text: str) -> list[Finding]:
    """Cells under a secret-named column header, in CSV/TSV/`;`/Markdown tables; the value beside a secret-named
    label in a two-cell row (`Auth Token<TAB>...`); the line under a one-column header (`Secret access key`)."""
    found: list[Finding] = []
    table: tuple[str, int, dict[int, str]] | None = None  # delimiter, cells per row, secret columns -> type
    offset = 0
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        start, offset = offset, offset + len(line)
        if table is not None:
            delimiter, width, columns = table
            cells = _cells(body, delimiter, start) if delimiter in body else []
            if width == 1 and not any(d in body for d in _TABLE_DELIMITERS):
                cells = _cells(body, "\n", start)
            if len(cells) == width:
                found += [Finding(t, cells[i][1], cells[i][2]) for i, t in columns.items() if _table_value(cells[i][0])]
                continue
            table = None
        label = body.strip(" \t\"'`|")
        if _TABLE_SECRET_HEADER.match(label):  # a one-column table: its header alone on the line
            table = ("\n", 1, {0: _table_type(label)})
            continue
        for delimiter in _TABLE_DELIMITERS:
            if delimiter not in body:
                continue
            cells = [c for c in _cells(body, delimiter, start) if c[0]]
            if len(cells) == 2 and _TABLE_SECRET_HEADER.match(cells[0][0]) and _table_value(cells[1][0]):
                found.append(Finding(_table_type(cells[0][0]), cells[1][1], cells[1][2]))
                break
        for delimiter in _TABLE_DELIMITERS:
            if delimiter not in body:
                continue
            cells = _cells(body, delimiter, start)
            names = [c[0] for c in cells]
            if len(cells) >= 2 and all(not n or _TABLE_HEADER_CELL.match(n) for n in names):
                columns = {i: _table_type(n) for i, n in enumerate(names) if _TABLE_SECRET_HEADER.match(n)}
                if columns:
                    table = (delimiter, len(cells), columns)
                    break
    return found


def _value_of(m: re.Match[str]) -> tuple[str | None, int, int]:
    for name in ("v", "dq", "sq", "bare"):
        if name in m.re.groupindex and m.group(name) is not None:
            return m.group(name), m.start(name), m.end(name)
    return None, 0, 0


def _resolve(found: list[Finding]) -> list[Finding]:
    """Drop findings that overlap an earlier/longer one (a vendor token inside `api_key=...` is reported once)."""
    found.sort(key=lambda f: (f.start, -(f.end - f.start)))
    out: list[Finding] = []
    for f in found:
        if out and f.start < out[-1].end:
            continue
        out.append(f)
    return out


def redact(text: str, findings: Iterable[Finding]) -> str:
    """Replace each finding's span with `[REDACTED:type]`."""
    out: list[str] = []
    pos = 0
    for f in sorted(findings, key=lambda f: f.start):
        out.append(text[pos : f.start])
        out.append(REDACTION.format(type=f.type))
        pos = f.end
    out.append(text[pos:])
    return "".join(out)


_DEFAULT_SCANNER: SecretScanner | None = None


def scrub(text: str) -> str:
    """`text` with any secret redacted, by the default rules (for messages: errors, logs)."""
    global _DEFAULT_SCANNER
    if _DEFAULT_SCANNER is None:
        _DEFAULT_SCANNER = SecretScanner()
    findings = _DEFAULT_SCANNER.scan(text)
    return redact(text, findings) if findings else text
