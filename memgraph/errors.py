"""Typed errors. Every failure a caller can cause is a `MemgraphError` with a message that says what to do."""

from __future__ import annotations

from memgraph.secrets import scrub


class MemgraphError(Exception):
    """Base class of every error memgraph raises on purpose. Its message never carries a secret: a message
    quoting input back (an unknown id, kind or mode; a store URI) has any secret in it redacted, because error
    texts end up in logs, CLI output and tool results."""

    def __init__(self, *args: object) -> None:
        super().__init__(*(scrub(a) if isinstance(a, str) else a for a in args))


class ValidationError(MemgraphError, ValueError):
    """Input is malformed: empty or oversized content, bad ids, NaN embeddings, unknown relation names."""


class InvalidIdentifierError(ValidationError):
    """A user, session or memory id breaks the identifier rule (`memgraph.ids`): empty, too long, surrounding
    whitespace, control/format/separator characters, lone surrogates, not NFC, or holding a secret. The message
    names the rule broken, never the value (it may be another tenant's look-alike, or a secret)."""


class MissingOwnerError(InvalidIdentifierError):
    """A call had no valid `user_id` (none, not a string, or one that breaks the identifier rule). Memory is
    never written to or read from a shared default owner."""


class EmbeddingDimensionError(ValidationError):
    """An embedding does not have the store's dimension, or holds NaN/inf."""


class SecretDetectedError(ValidationError):
    """Text holds a secret and the policy is `reject`. The message names the kind of secret, never its value."""


class NotFoundError(MemgraphError, KeyError):
    """No memory (or tag, cluster) with that id for that user."""

    def __str__(self) -> str:  # KeyError quotes its argument; we want the plain message.
        return str(self.args[0]) if self.args else ""


class StoreError(MemgraphError):
    """The store failed in a way the caller cannot fix by changing the input."""


class TransientStoreError(StoreError):
    """A retryable failure (lock, leader switch, connection reset). Raised only after retries ran out."""


class OutboxFullError(TransientStoreError):
    """The graph server is unreachable and its local outbox holds `outbox_max_entries` calls: nothing was
    queued. Replay it (`memgraph outbox replay` once the server answers) or raise the limit."""


class QueuedWritesWarning(UserWarning):
    """Issued by `search`, `list` and `stats` while writes of the user wait in the outbox: their results do not
    show them yet (`recall` says so in `RecallResult.warnings`)."""


class SchemaVersionError(StoreError):
    """The store was written by a newer memgraph (a schema version this code does not know): upgrade."""


class ReadOnlyQueryError(ValidationError):
    """A statement given to `query()` / `memgraph cypher` would write; those run read-only Cypher only."""


class EngineClosedError(MemgraphError):
    """The engine was closed (`close()`, or the end of its `with` block): open the store again."""


class UnsupportedOperationError(MemgraphError):
    """This store cannot do that (e.g. Cypher on the SQLite store)."""


class ModelMismatchError(MemgraphError):
    """The store was built with another embedding model or dimension."""


class EmbedderUnavailableError(MemgraphError):
    """The embedding model could not be loaded (missing package or path)."""


class UnknownUserError(NotFoundError):
    """A job or export named a user who has no memories in this store (a typo, or the wrong --store)."""


class ProvenanceError(ValidationError):
    """A summary/derived memory was about to be written without evidence (DerivedFrom to its sources)."""


class JobLockedError(MemgraphError):
    """Another maintenance job holds the store's job lock."""


class ExportFormatError(ValidationError):
    """An export file is truncated, corrupt, or from a newer format version."""


class AgentAlreadyRunningError(MemgraphError):
    """A `MemoryAgent` already runs on this store (one agent per store: two would race on session buffers)."""


class AgentClosedError(MemgraphError):
    """The `MemoryAgent` was closed; create a new one to observe more turns."""
