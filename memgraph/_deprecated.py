"""Old names of renamed public classes keep working for a while, with a DeprecationWarning that names the new one.

    def __getattr__(name: str) -> object:  # in the module that renamed `Decision`
        return deprecated_alias(__name__, name, {"Decision": ReconcileDecision})
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping


def deprecated_alias(module: str, name: str, renamed: Mapping[str, type]) -> type:
    """For a module's `__getattr__`: the class an old name now has (warning once per call site), else the
    AttributeError Python raises for an unknown module attribute."""
    new = renamed.get(name)
    if new is None:
        raise AttributeError(f"module {module!r} has no attribute {name!r}")
    warnings.warn(
        f"{module}.{name} is deprecated, use {new.__name__} (same class, new name)", DeprecationWarning, stacklevel=3
    )
    return new
