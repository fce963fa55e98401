# Two entry points (see README):
#   make demo   set up and run the main job on the embedded default (SQLite, no server)
#   make test   install what the tests need and run them (CI runs exactly this)
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export HF_HUB_DISABLE_PROGRESS_BARS := 1
export TOKENIZERS_PARALLELISM := false

.PHONY: setup setup-dev demo test lint typecheck bench notebooks

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

# torch is installed first and pinned: the CPU build lies on disk; an unpinned torch pulls GBs of CUDA.
setup: $(BIN)/python
	$(BIN)/pip install -q torch==2.13.0
	$(BIN)/pip install -q -e .

# falkordblite (embedded FalkorDB for the Cypher conformance suite) declares Python >= 3.12 but builds and
# works on 3.11; it compiles from source (6-8 min the first time, then pip's wheel cache serves it).
# The Neo4j Cypher linter (Neo4j's own parser and semantic analysis) comes from npm.
# The Neo4j test server (tools/neo4j-server) is built here when Java and Maven are present: Maven fetches
# Neo4j's jars into ~/.m2 once (~160 MB, ~45 s), outside any test's time limit.
setup-dev: $(BIN)/python
	$(BIN)/pip install -q torch==2.13.0
	$(BIN)/pip install -q -e '.[dev]'
	for i in 1 2 3; do $(BIN)/pip install -q --ignore-requires-python falkordblite==0.11.0 && break; sleep 5; done
	cd tools/cypher-lint && npm ci --no-audit --no-fund --loglevel=error
	if command -v java >/dev/null && command -v mvn >/dev/null; then tools/neo4j-server/run --build; fi

demo: setup
	$(BIN)/python -m memgraph demo

test: setup-dev
	$(BIN)/python -m ruff check .
	$(BIN)/python -m mypy
	$(BIN)/python -m pytest -q -ra

bench: setup-dev
	$(BIN)/python bench/storage.py

# Regenerate the notebooks from notebooks/build_notebooks.py and execute them (their outputs are committed).
notebooks: setup-dev
	$(BIN)/python notebooks/build_notebooks.py --execute

lint:
	$(BIN)/python -m ruff check .

typecheck:
	$(BIN)/python -m mypy
