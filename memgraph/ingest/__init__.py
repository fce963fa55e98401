"""The write path (docs/design.md "Write path"): clean -> secrets -> chunk -> embed -> importance -> classify -> tags
-> reconcile -> one atomic write. `IngestPipeline` runs it for `MemoryEngine.ingest` and `remember`.

Stage by module: `items` (the input; validate, clean, filter secrets), `clean`, `secrets`, `chunk`, `embedding`,
`importance`, `classify`, `tags`, `reconcile` (a new memory against its neighbours: the pluggable `Reconciler`),
`resolve` (what each chunk does to the store: decide, apply, record), `report` (what a call did, and why).
"""

from memgraph._deprecated import deprecated_alias
from memgraph.ingest.items import IngestItem
from memgraph.ingest.pipeline import IngestPipeline, IngestResult
from memgraph.ingest.reconcile import Neighbour, ReconcileAction, ReconcileDecision, Reconciler, RuleReconciler
from memgraph.ingest.report import Dropped, DropReason, IngestDecision, IngestReport

__all__ = [
    "DropReason",
    "Dropped",
    "IngestDecision",
    "IngestItem",
    "IngestPipeline",
    "IngestReport",
    "IngestResult",
    "Neighbour",
    "ReconcileAction",
    "ReconcileDecision",
    "Reconciler",
    "RuleReconciler",
]


def __getattr__(name: str) -> type:
    return deprecated_alias(__name__, name, {"Decision": ReconcileDecision})
