"""Machine-readable benchmark results: bench/results/<bench>.json holds one row per store and size (a rerun of
the same store and size replaces its row), each with the date, the machine and the command that produced it."""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

RESULTS_DIR = Path(__file__).resolve().with_name("results")


def machine() -> dict[str, Any]:
    model = platform.processor() or "unknown CPU"
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=False).stdout
        model = next((ln.split(":", 1)[1].strip() for ln in out.splitlines() if ln.startswith("Model name:")), model)
    except OSError:
        pass
    return {
        "cpu": model,
        "cores": os.cpu_count(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "python": platform.python_version(),
        "platform": platform.platform(),
    }


def _sortable(value: Any) -> tuple[int, Any]:
    return (0, value) if isinstance(value, int | float) else (1, str(value))


def write_rows(
    bench: str,
    rows: list[dict[str, Any]],
    *,
    keys: tuple[str, ...] = ("store", "size"),
    directory: str | Path | None = None,
) -> Path:
    """Merge `rows` into <directory>/<bench>.json (default bench/results/): a row replaces the stored row with
    the same keys."""
    folder = Path(directory) if directory else RESULTS_DIR
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{bench}.json"
    stored = json.loads(path.read_text(encoding="utf-8"))["rows"] if path.exists() else []
    stamp = {
        "date": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "machine": machine(),
        "command": " ".join(["python", f"bench/{Path(sys.argv[0]).name}", *sys.argv[1:]]),
    }
    fresh = [{**row, **stamp} for row in rows]
    new_keys = {tuple(r[k] for k in keys) for r in fresh}
    merged = [r for r in stored if tuple(r.get(k) for k in keys) not in new_keys] + fresh
    merged.sort(key=lambda r: tuple(_sortable(r.get(k)) for k in keys))
    path.write_text(json.dumps({"bench": bench, "keys": list(keys), "rows": merged}, indent=2) + "\n")
    return path
