"""The write outbox: fail-safe writes for server stores (Neo4j, FalkorDB).

When a write still fails after the store's retry budget (`TransientStoreError`), the call is appended durably
to a local SQLite file (`queue.py`, one per server target: `paths.py`) instead of failing, and returns with its
memories marked `queued`. A background replayer (`replay.py`) applies the queue in order, exactly once, when
the server answers again. `ops.py` is what a queued call holds (never a secret: only what passed the secret
filter is queued); `service.py` is the engine's side; `deferred.py` lets an engine open while its server is
down. README "When the graph server is down" is the user's view.

    outbox/                 data flows: engine -> service -> queue (append) ... replay -> ingest -> store
      paths.py              where a target's file lives
      ops.py                the queued operations (pydantic, JSON in the file)
      queue.py              Outbox: the SQLite queue, its log and the replay lock
      replay.py             Replayer: apply in order, exactly once; the background thread
      service.py            WriteOutbox: must_queue, the queueing side of each call, what reads show
      deferred.py           DeferredStore: a server store connected on first use
"""

from memgraph.outbox.deferred import DeferredStore, open_or_defer
from memgraph.outbox.paths import outbox_name, outbox_path
from memgraph.outbox.queue import Entry, LogRow, Outbox
from memgraph.outbox.replay import Replayer, ReplayReport
from memgraph.outbox.service import OutboxStatus, WriteOutbox

__all__ = [
    "DeferredStore",
    "Entry",
    "LogRow",
    "Outbox",
    "OutboxStatus",
    "ReplayReport",
    "Replayer",
    "WriteOutbox",
    "open_or_defer",
    "outbox_name",
    "outbox_path",
]
