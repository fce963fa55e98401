"""Files derived from memories that the SQLite store keeps beside the database: written atomically, wiped on
erasure.

They are the saved vector index (ann.py, PQ codes of the vectors) and the read-structure snapshots (snapshot.py:
ids, vectors, words). A reader never sees half a file: each is written under a temporary name and renamed into
place. On erasure the bytes are overwritten before the file is unlinked: erasure promises the bytes are
gone, as SQLite's `secure_delete` does for the database pages, so a plain unlink (which leaves the blocks on disk
until reused) is not enough. Overwriting in place is best effort, with the same limit as `secure_delete`: a
copy-on-write or journaling file system, or an SSD's remapping, may still hold old blocks.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

import numpy as np

#: Zeros written per call while overwriting.
_BLOCK = 1 << 20


def wipe(path: Path) -> None:
    """Overwrite the file with zeros, flush it to disk, then delete it; a missing file is fine."""
    try:
        fd = os.open(path, os.O_WRONLY)
    except FileNotFoundError:
        return
    except OSError:  # not writable: still remove it
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
        return
    try:
        size = os.fstat(fd).st_size
        zeros = bytes(min(_BLOCK, max(size, 1)))
        done = 0
        while done < size:
            done += os.write(fd, zeros[: min(len(zeros), size - done)])
        os.fsync(fd)
    finally:
        os.close(fd)
    with contextlib.suppress(FileNotFoundError):
        path.unlink()


def save_npz(path: Path, arrays: dict[str, Any]) -> None:
    """`np.savez` of `arrays` to `path`, atomically: written beside it under a temporary name, then renamed; the
    temporary file is wiped when the rename did not happen (it holds the same data)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as fh:
            np.savez(fh, **arrays)
        os.replace(tmp, path)
    finally:
        wipe(tmp)
