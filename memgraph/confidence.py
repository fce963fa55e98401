"""A memory's confidence before time decay, shared by the decay job (which writes decayed confidence) and
recall (which decays it again at read time): both start from this baseline, so a memory is decayed once.

The decay job keeps its state in `metadata["_decay"] = {"c0", "written"}`: the baseline it decayed from and
the value it wrote. Anything that changed the stored confidence since (feedback) is folded into the baseline.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

#: metadata key of the decay job's state.
DECAY_STATE_KEY = "_decay"


class HasConfidence(Protocol):
    @property
    def confidence(self) -> float: ...

    @property
    def metadata(self) -> Mapping[str, Any]: ...


def baseline(memory: HasConfidence) -> float:
    """c0 for a memory: the decay job's remembered baseline plus any outside change since it last wrote, or the
    stored confidence when the job never ran on it."""
    state = memory.metadata.get(DECAY_STATE_KEY)
    if not isinstance(state, dict) or "c0" not in state or "written" not in state:
        return float(memory.confidence)
    outside = float(memory.confidence) - float(state["written"])
    return min(1.0, max(0.0, float(state["c0"]) + outside))
