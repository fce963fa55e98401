"""The on-disk cache of exported ONNX graphs: one file per model, keyed by a hash of the model's files.

    <cache dir>/onnx/<key>.onnx               the fp32 graph (metadata: model path, versions, verification)
    <cache dir>/onnx/<key>.unsupported.json   why this model cannot run on ONNX (sentence-transformers serves it)
    <cache dir>/onnx/<key>.ort-<version>.optimized the same graph as ONNX Runtime <version> optimised it (saved by the
                                              first session, opened without an optimisation pass afterwards)
    <cache dir>/onnx/<key>.lock               held while one process exports, so a second one waits for it
    <cache dir>/onnx/file-hashes.json         (path, size, mtime, inode) -> sha256 of each model file

The key hashes every file of the model directory by content (plus the export recipe's version), so a changed
or replaced model exports again and an old graph is never used for new weights. Hashing all-MiniLM-L6-v2's
90 MB of weights takes 0.12-0.17 s here, on every cold start; `file-hashes.json` remembers each file's hash
under its stat signature (as git's index does), so a start with unchanged files only stats them.
Every file is written to a temporary name and renamed into place: a reader sees a whole graph or none, and
two processes exporting at once both publish a complete file.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

#: Bumped when the export recipe changes (inputs, outputs, opset, pooling split): old graphs are then ignored.
EXPORT_VERSION = 1
_STALE_TEMP_S = 3600.0


def default_cache_dir() -> Path:
    """$XDG_CACHE_HOME/memgraph, else ~/.cache/memgraph."""
    base = os.environ.get("XDG_CACHE_HOME")
    return (Path(base) if base else Path.home() / ".cache") / "memgraph"


class GraphCache:
    """Find, publish and mark exported graphs under `root` (created on first write)."""

    def __init__(self, root: str | Path | None = None) -> None:
        self.root = (Path(root).expanduser() if root else default_cache_dir()) / "onnx"

    # -- keys ---------------------------------------------------------------------------------------------

    def model_key(self, model_dir: Path) -> str:
        """sha256 over the export version and every model file's relative path and content hash."""
        files = sorted(p for p in Path(model_dir).rglob("*") if p.is_file() and ".git" not in p.parts)
        known = self._read_json(self.root / "file-hashes.json")
        fresh: dict[str, Any] = {}
        outer = hashlib.sha256(f"memgraph-onnx-export-v{EXPORT_VERSION}\n".encode())
        for file in files:
            st = file.stat()
            sig = [st.st_size, st.st_mtime_ns, st.st_ino]
            name = str(file.resolve())
            entry = known.get(name)
            if isinstance(entry, dict) and entry.get("stat") == sig and isinstance(entry.get("sha256"), str):
                digest = entry["sha256"]
            else:
                with file.open("rb") as fh:
                    digest = hashlib.file_digest(fh, "sha256").hexdigest()
            fresh[name] = {"stat": sig, "sha256": digest}
            outer.update(f"{file.relative_to(model_dir).as_posix()}\0{digest}\n".encode())
        if any(known.get(k) != v for k, v in fresh.items()):
            with contextlib.suppress(OSError):  # a read-only cache only costs the hashing next time
                self._write_atomic(self.root / "file-hashes.json", json.dumps({**known, **fresh}).encode())
        return outer.hexdigest()[:32]

    # -- entries ------------------------------------------------------------------------------------------

    def graph_path(self, key: str) -> Path:
        return self.root / f"{key}.onnx"

    def optimized_path(self, key: str, runtime_version: str) -> Path:
        return self.root / f"{key}.ort-{runtime_version}.optimized"

    def drop_optimized(self, key: str, *, keep: Path) -> None:
        """Remove this graph's optimised copies other than `keep` (saved by earlier ONNX Runtime versions: ~90 MB
        each for all-MiniLM-L6-v2, never opened again)."""
        for old in self.root.glob(f"{key}.ort-*.optimized"):
            if old != keep:
                with contextlib.suppress(OSError):
                    old.unlink()

    @contextlib.contextmanager
    def temporary(self, path: Path) -> Iterator[Path | None]:
        """A temporary name beside `path` for a writer that names its own output file (ONNX Runtime saving an
        optimised graph), renamed onto `path` when the block ends without error; None when the directory cannot
        be written (the block then writes nothing)."""
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._sweep_temps(path.parent)
            fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
            os.close(fd)
        except OSError:
            yield None
            return
        tmp = Path(name)
        try:
            yield tmp
            if tmp.stat().st_size > 0:
                os.chmod(tmp, 0o644)
                os.replace(tmp, path)
        finally:
            with contextlib.suppress(OSError):
                tmp.unlink()

    def unsupported_reason(self, key: str) -> str | None:
        data = self._read_json(self.root / f"{key}.unsupported.json")
        reason = data.get("reason")
        return str(reason) if reason else None

    def publish_graph(self, key: str, data: bytes) -> Path:
        path = self.graph_path(key)
        self._write_atomic(path, data)
        return path

    def mark_unsupported(self, key: str, reason: str, model_dir: Path) -> None:
        record = {"reason": reason, "model_dir": str(model_dir), "at": time.time()}
        with contextlib.suppress(OSError):
            self._write_atomic(self.root / f"{key}.unsupported.json", json.dumps(record).encode())

    @contextlib.contextmanager
    def exporting(self, key: str) -> Iterator[None]:
        """Hold `<key>.lock` while exporting: a second process waits, then finds the graph published. Advisory
        only (the rename is what keeps readers safe); where file locks are unavailable it just proceeds."""
        try:
            import fcntl
        except ImportError:  # pragma: no cover - Windows
            yield
            return
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.root / f"{key}.lock", os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:
            yield
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)

    # -- files --------------------------------------------------------------------------------------------

    def _write_atomic(self, path: Path, data: bytes) -> None:
        """Write to a temporary file in the same directory, fsync it, rename it over `path`."""
        path.parent.mkdir(parents=True, exist_ok=True)
        self._sweep_temps(path.parent)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        try:
            os.fchmod(fd, 0o644)  # mkstemp makes it private; the cache is as readable as its directory
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        with contextlib.suppress(OSError):  # the rename itself survives a power cut once the directory is synced
            dfd = os.open(path.parent, os.O_RDONLY)
            try:
                os.fsync(dfd)
            finally:
                os.close(dfd)

    @staticmethod
    def _sweep_temps(directory: Path) -> None:
        """Temporary files left by a process killed mid-write (older than an hour) are removed."""
        now = time.time()
        for tmp in directory.glob(".*.tmp"):
            with contextlib.suppress(OSError):
                if now - tmp.stat().st_mtime > _STALE_TEMP_S:
                    tmp.unlink()

    @staticmethod
    def _read_json(path: Path) -> dict[str, Any]:
        try:
            data = json.loads(path.read_text())
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}
