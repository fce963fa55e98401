"""The garbage collector's full collections held back while a reconciled batch is built and written.

A reconciled write builds everything it needs before it writes anything: the candidates, the stored neighbours'
rows (~25k `Memory` objects for 5,000 new memories past 60k), the new texts' statements, the verdicts. They live
to the end of the write, so the collector promotes them to its oldest generation, and each quarter added to that
generation sets off a full collection, which scans every object the process tracks (the statement and row caches
as well) and frees next to nothing: the batch still holds it. A reconciled batch of 5,000 past 60k memories ran
3-6 full collections, 1.4-1.9 s of its 10-12 s of CPU (`off` 3-4, ~0.3 s); held back, it runs one, after the
write (bench/RESULTS.md, "Bulk writes, eleventh round").

Only the oldest generation waits: young collections still run, so short-lived garbage and its cycles are freed
as before, and the threshold the process had is put back when the last write in flight leaves (writes on other
threads nest: the first in sets it, the last out restores it, unless the application set its own meanwhile).
`gc.freeze()` was measured before and not taken: it keeps every frozen object from ever being collected. Off
with `Settings.reconcile_hold_full_collections = False`.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

#: The third threshold while a batch is reconciled: young-generation collections before a full one may run
#: (CPython's default is 10). High enough that none runs in a batch of 100k memories (~2 per 1,000 here).
HELD_THRESHOLD = 1_000_000

_lock = threading.Lock()
_depth = 0
_saved: tuple[int, int, int] | None = None


@contextmanager
def full_collections_held(enabled: bool = True) -> Iterator[None]:
    """Hold back the collector's full collections inside the block (see the module docstring)."""
    if not enabled:
        yield
        return
    global _depth, _saved
    with _lock:
        if _depth == 0:
            _saved = gc.get_threshold()
            gc.set_threshold(_saved[0], _saved[1], max(_saved[2], HELD_THRESHOLD))
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _saved is not None:
                now = gc.get_threshold()
                if now[2] == max(_saved[2], HELD_THRESHOLD):  # the application set none of its own meanwhile
                    gc.set_threshold(now[0], now[1], _saved[2])
                _saved = None
