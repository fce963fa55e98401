"""The write path (DESIGN.md "Write path"): clean -> secrets -> chunk -> embed -> importance -> classify -> tags
-> reconcile -> one atomic write. `IngestPipeline` runs it for `MemoryEngine.ingest` and `remember`."""

from memgraph.ingest.pipeline import IngestItem, IngestPipeline, IngestResult
from memgraph.ingest.reconcile import Decision, Neighbour, Reconciler, RuleReconciler
from memgraph.ingest.report import Dropped, DropReason, IngestReport

__all__ = [
    "Decision",
    "DropReason",
    "Dropped",
    "IngestItem",
    "IngestPipeline",
    "IngestReport",
    "IngestResult",
    "Neighbour",
    "Reconciler",
    "RuleReconciler",
]
