"""`memgraph recall` on the command line (a real subprocess on a real data directory)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _cli(*args: str, store: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1", "MEMGRAPH_STORE": str(store)}
    return subprocess.run(
        [sys.executable, "-m", "memgraph", *args], capture_output=True, text=True, env=env, timeout=300
    )


def test_recall_prompt_json_and_trace(tmp_path: Path) -> None:
    store = tmp_path / "data"
    assert (
        _cli("remember", "The spare key is under the blue flowerpot", "--user", "ada", store=store).returncode
        == 0
    )
    out = _cli("recall", "where is the spare key", "--user", "ada", "--prompt", store=store)
    assert out.returncode == 0, out.stderr
    assert out.stdout == "<memory>\n[FACT] The spare key is under the blue flowerpot\n</memory>\n"
    js = _cli("recall", "where is the spare key", "--user", "ada", "--json", "--mode", "hybrid", store=store)
    data = json.loads(js.stdout)
    assert data["mode"] == "hybrid" and data["memories"][0]["content"].startswith("The spare key")
    assert "embedding" not in data["memories"][0] and data["trace"][0]["seed_rank"] == 1
    tr = _cli("recall", "where is the spare key", "--user", "ada", "--trace", store=store)
    assert tr.returncode == 0 and "flowerpot" in tr.stdout and "search hit #1" in tr.stdout
    bad = _cli("recall", "x", "--user", "ada", "--mode", "nonsense", store=store)
    assert bad.returncode == 1 and "unknown recall mode" in bad.stderr
