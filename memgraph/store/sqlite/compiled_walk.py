"""When the graph walk runs compiled (walk_jit.py, numba) instead of as numpy calls (csr.py).

Importing numba and loading the walk's cached machine code costs ~0.4 s, compiling it the first time on a
machine ~2 s more; a compiled walk saves ~1-2 ms a recall. So a long-lived engine warms it on a daemon thread
after it opens (`warm_in_background`, like the embedding model) and its walks switch over once it is ready;
the CLI's one-shot commands never import it (Settings.compiled_walk). Without numba, or if compiling fails,
the numpy walk goes on (logged once). numba keeps its cache beside walk_jit.py, or in the user's cache
directory when the package directory is read-only (or where NUMBA_CACHE_DIR says).
"""

from __future__ import annotations

import logging
import threading
from types import ModuleType

log = logging.getLogger("memgraph")

_ready: ModuleType | None = None
_started = False
_enabled = True
_lock = threading.Lock()


def kernels() -> ModuleType | None:
    """walk_jit once warmed (and not switched off by `use`), else None: the caller walks with numpy."""
    return _ready if _enabled else None


def use(enabled: bool) -> None:
    """Switch the compiled walk on or off for this process (tests compare the two walks)."""
    global _enabled
    _enabled = enabled


def warm() -> ModuleType | None:
    """Import walk_jit and run one small walk (compiling it, or loading numba's cache), on this thread."""
    global _ready
    if _ready is not None:
        return _ready
    try:
        from memgraph.store.sqlite import walk_jit

        walk_jit.warm_up()
    except Exception as exc:  # noqa: BLE001 - numba missing or failing: the numpy walk is the same walk
        log.info("the graph walk stays numpy (the compiled walk is unavailable: %s)", exc)
        return None
    _ready = walk_jit
    return _ready


def warm_in_background() -> threading.Thread | None:
    """`warm` on a daemon thread, once per process; None when already started."""
    global _started
    with _lock:
        if _started:
            return None
        _started = True
    thread = threading.Thread(target=warm, name="memgraph-walk-jit", daemon=True)
    thread.start()
    return thread
