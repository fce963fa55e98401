"""Do features read from the real model's vectors let a learned pair decision keep its precision on parts it has not
seen, where the rules' word shapes do not? (issue 15 item 6; bench/RESULTS.md, "Write-path decisions, pair features
from the vectors").

The features of bench/decisions_model.py (what the rules read in a pair: the cosine, the `Comparison`, both
statements' cues and sizes, the slot verdict; without the rules' verdicts unless `--rule-features`) plus, from the
engine's embedder (all-MiniLM-L6-v2) for the old text u and the new text v: the classic sentence-pair head |u - v|
and u * v, reduced by a PCA fitted on the training parts only to `--dims` dimensions each, and the cosine of the two
texts with their values masked (`values.masked`: "closes at #" / "closes at #"), with its gap to the plain cosine
(what differs when only a value differs). Spelling and voice move word shapes; they move the vectors less.

Leave one part out over the read parts (decisions_model.READ and heldout14, read since 2026-11-27): each part in
turn is held out, the PCA and a logistic regression are fitted on the others, and the thresholds are chosen on the
training parts only (their inner leave-one-part-out predictions): per decision the lowest in 0.50-0.99 keeping its
precision at the goal, pooled over the training parts (`pooled`) or on every training part (`every`). Per part and
pooled: (a) the rules, (b) the rules, else the model over the structural features alone (the existing model), (c)
the rules, else the model with the vector features. The rules were written from these parts (in sample);
`--frozen14` scores held-out 14 with the rules and features of 7c646df, when it was still blind (the honest fold).

    python bench/pair_vectors.py                      # leave one part out, (a) (b) (c), table per part + pooled
    python bench/pair_vectors.py --frozen14           # held-out 14 with the rules of 7c646df
    python bench/pair_vectors.py --dims 16 --select every
    python bench/pair_vectors.py --probe              # what the vectors cannot tell apart (own examples)

Never reads a blind part.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.setdefault("OMP_NUM_THREADS", "1")

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402
from decisions_model import CLASSES, DECISIONS, GOALS, READ, ROOT, extract, scores  # noqa: E402
from decisions_model import FROZEN as FROZEN_PARTS  # noqa: E402

#: The read parts: decisions_model's, and heldout14 (read since 2026-11-27 12:58) where READ does not hold it yet.
PARTS: tuple[str, ...] = READ if "heldout14" in READ else (*READ, "heldout14")
CACHE = ROOT / "bench" / ".cache" / "pair_vectors"
#: The honest estimate (`--frozen`): each part scored with the rules and features of a commit at which it was
#: blind, fitted on the parts read then (decisions_model.FROZEN, whose features `decisions_model.py --frozen` builds
#: under bench/.cache), and held-out 14 at 7c646df, the last commit before it was read (fitted on every READ part).
FROZEN = (*((part, commit) for part, commit, _ in FROZEN_PARTS), ("heldout14", "7c646df"))
THRESHOLDS = [round(float(t), 2) for t in np.arange(0.5, 1.0, 0.01)]
RESULT = ROOT / "bench" / "results" / "pair_vectors.json"


# -- data --------------------------------------------------------------------------------------------------------

def rows_now(refresh: bool = False) -> list[dict[str, Any]]:
    """decisions_model's rows (rules' decision, structural features) for every read part, from this checkout
    (cached: `--refresh` after a change of the rules)."""
    path = CACHE / f"rows-{len(PARTS)}-parts.json"
    if refresh or not path.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        # blind=True only lifts decisions_model's READ check for heldout14, which is read (PARTS)
        path.write_text(json.dumps(extract(list(PARTS), blind=True)) + "\n", encoding="utf-8")
    rows: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    return rows


def rows_frozen(part: str, commit: str) -> list[dict[str, Any]]:
    """The rows `decisions_model.py --frozen` computed with `commit`'s code for `part` and its training parts
    (copied here once: that cache is shared)."""
    path = CACHE / f"rows-frozen-{commit}-{part}.json"
    if not path.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        path.write_bytes((ROOT / "bench" / ".cache" / "decisions_model" / f"frozen-{commit}" /
                          f"features-{part}.json").read_bytes())
    rows: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    return rows


def texts(rows: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """(old, new) of every row, from the pair files."""
    from decisions import load_pairs

    by: dict[tuple[str, str], tuple[str, str]] = {}
    for split in sorted({r["split"] for r in rows}):
        for p in load_pairs(split):
            by[(split, p["id"])] = (p["old"], p["new"])
    return [by[(r["split"], r["id"])] for r in rows]


def vectors(pairs: list[tuple[str, str]]) -> dict[str, np.ndarray]:
    """The embedder's unit vectors of each old (u) and new (v) text, and of each with its values masked (mu, mv);
    cached by text."""
    from memgraph import Settings
    from memgraph.embed import default_embedder
    from memgraph.ingest.values import masked

    path = CACHE / "vectors.npz"
    known: dict[str, np.ndarray] = {}
    if path.exists():
        z = np.load(path, allow_pickle=False)
        known = dict(zip(z["texts"].tolist(), z["vecs"], strict=True))
    olds, news = [o for o, _ in pairs], [n for _, n in pairs]
    mo, mn = [masked(t) for t in olds], [masked(t) for t in news]
    want = sorted({*olds, *news, *mo, *mn} - set(known))
    if want:
        emb = default_embedder(Settings(store=":memory:"))
        for t, vec in zip(want, emb.encode(want), strict=True):
            known[t] = np.asarray(vec, dtype=np.float32)
        CACHE.mkdir(parents=True, exist_ok=True)
        keys = sorted(known)
        np.savez(path, texts=np.array(keys), vecs=np.stack([known[k] for k in keys]))

    def unit(ts: list[str]) -> np.ndarray:
        m: np.ndarray = np.stack([known[t] for t in ts]).astype(np.float64)
        out: np.ndarray = m / np.linalg.norm(m, axis=1, keepdims=True)
        return out

    return {"u": unit(olds), "v": unit(news), "mu": unit(mo), "mv": unit(mn)}


# -- features ----------------------------------------------------------------------------------------------------

def structural(rows: list[dict[str, Any]], *, rule_features: bool) -> tuple[np.ndarray, list[str]]:
    names = sorted(rows[0]["f"])
    if not rule_features:
        names = [k for k in names if not k.startswith(("rules_", "rule_"))]
    return np.array([[r["f"].get(k, 0.0) for k in names] for r in rows], dtype=np.float64), names


def pair_head(vec: dict[str, np.ndarray]) -> np.ndarray:
    """|u - v| and u * v side by side (2 x 384 columns)."""
    return np.hstack([np.abs(vec["u"] - vec["v"]), vec["u"] * vec["v"]])


def scalars(vec: dict[str, np.ndarray]) -> np.ndarray:
    """The masked cosine and its gap to the plain one, the norm of u - v's part off the masked difference."""
    cos = np.sum(vec["u"] * vec["v"], axis=1)
    mcos = np.sum(vec["mu"] * vec["mv"], axis=1)
    return np.column_stack([mcos, mcos - cos])


class VectorModel:
    """PCA of each half of the pair head (fitted on the training rows) + scalars + structural features, scaled, into
    a multinomial logistic regression."""

    def __init__(self, dims: int, c: float = 0.5) -> None:
        self.dims, self.c = dims, c

    def _design(self, x: np.ndarray, head: np.ndarray, sc: np.ndarray, fit: bool) -> np.ndarray:
        from sklearn.decomposition import PCA

        parts = [x, sc]
        if self.dims < 0:  # the whole head, no reduction (a stronger penalty: `--c`)
            parts.append(head)
        elif self.dims:
            half = head.shape[1] // 2
            if fit:
                self.pcas = [PCA(n_components=self.dims, random_state=0).fit(head[:, :half]),
                             PCA(n_components=self.dims, random_state=0).fit(head[:, half:])]
            parts += [self.pcas[0].transform(head[:, :half]), self.pcas[1].transform(head[:, half:])]
        return np.hstack(parts)

    def fit(self, x: np.ndarray, head: np.ndarray, sc: np.ndarray, y: np.ndarray) -> VectorModel:
        from sklearn.linear_model import LogisticRegression
        from sklearn.pipeline import make_pipeline
        from sklearn.preprocessing import StandardScaler

        self.model = make_pipeline(StandardScaler(), LogisticRegression(C=self.c, max_iter=3000))
        self.model.fit(self._design(x, head, sc, True), y)
        return self

    def proba(self, x: np.ndarray, head: np.ndarray, sc: np.ndarray) -> np.ndarray:
        p = np.zeros((len(x), len(CLASSES)))
        p[:, self.model.classes_] = self.model.predict_proba(self._design(x, head, sc, False))
        return p


class Data:
    """The rows of one estimate and their feature blocks."""

    def __init__(self, rows: list[dict[str, Any]], *, rule_features: bool, neighbour_folds: int = 1) -> None:
        self.rows = rows
        self.split = np.array([_part(r, neighbour_folds) for r in rows])
        self.y = np.array([CLASSES.index(r["label"]) for r in rows])
        self.labels = [r["label"] for r in rows]
        self.rules = [r["rules"] for r in rows]
        self.veto = [r.get("veto") is not None for r in rows]
        self.x, self.names = structural(rows, rule_features=rule_features)
        vec = vectors(texts(rows))
        self.head, self.sc = pair_head(vec), scalars(vec)
        self.none_x = np.zeros((len(rows), 0))


def _part(r: dict[str, Any], folds: int) -> str:
    """The part a row is held out with: its split, the neighbour pairs cut into `folds` parts (as
    `decisions_model.py --gate` does: a shipped model has seen real neighbours)."""
    if r["split"] != "neighbours" or folds == 1:
        return str(r["split"])
    return f"neighbours{(int(r['id'][2:]) - 1) * folds // 300 + 1}"


#: `--fixed`: thresholds set beforehand (decision -> probability) instead of chosen on the training parts.
FIXED: dict[str, float] = {}
#: `--c`: the logistic regression's inverse penalty for the vector variants (decisions_model's 0.5 by default).
C_VECTOR = [0.5]


def probs(d: Data, train: np.ndarray, test: np.ndarray, variant: str, dims: int) -> np.ndarray:
    """Out-of-sample probabilities of `test` rows from a model fitted on `train` rows (index arrays).
    variant "struct": the structural features only (the existing model); "vec": with the vector features;
    "veconly": the vector features and the cosine alone."""
    if variant == "struct":
        m = VectorModel(0)
        sc = np.zeros((len(d.rows), 0))
        return m.fit(d.x[train], d.head[train], sc[train], d.y[train]).proba(d.x[test], d.head[test], sc[test])
    x = d.x if variant == "vec" else d.x[:, [d.names.index("cosine")]]
    m = VectorModel(dims, C_VECTOR[0])
    return m.fit(x[train], d.head[train], d.sc[train], d.y[train]).proba(x[test], d.head[test], d.sc[test])


def combine(rules: list[str], p: np.ndarray, th: dict[str, float], veto: list[bool]) -> list[str]:
    """The rules' decision where they made one, else the model's most probable decision above its threshold; a
    duplicate only where no veto of the write path's duplicate gate holds (`reconcile.gate_veto`, the cosine
    floor), as the shipped gate runs."""
    out = []
    for r, q, vetoed in zip(rules, p, veto, strict=True):
        k = int(np.argmax(q[1:])) + 1
        dec = CLASSES[k]
        out.append(r if r != "none" else dec if q[k] >= th[dec] and not (vetoed and dec == "duplicate") else "none")
    return out


def pick(labels: list[str], rules: list[str], p: np.ndarray, parts: np.ndarray, select: str,
         veto: list[bool]) -> dict[str, float]:
    """Per decision the lowest threshold keeping its precision at the goal on these out-of-part predictions: pooled
    (`pooled`), or on every part that makes such a decision (`every`); 1.01 (never) when none does."""
    out = {}
    groups = [np.arange(len(labels))] if select == "pooled" else [np.flatnonzero(parts == q) for q in
                                                                     sorted(set(parts))]
    for dec in DECISIONS:
        out[dec] = 1.01
        for t in THRESHOLDS:
            th = dict.fromkeys(DECISIONS, 1.01) | {dec: t}
            made = combine(rules, p, th, veto)
            ok = True
            for g in groups:
                s = scores([labels[i] for i in g], [made[i] for i in g])[dec]
                if s["precision"] is not None and s["precision"] < GOALS[dec]:
                    ok = False
                    break
            if ok:
                out[dec] = t
                break
    return out


def fold(d: Data, test_part: str, variant: str, dims: int, select: str) -> tuple[dict[str, float], np.ndarray]:
    """Thresholds from the training parts' inner leave-one-part-out predictions, and the held-out part's
    probabilities from a model fitted on all training parts."""
    train = np.flatnonzero(d.split != test_part)
    test = np.flatnonzero(d.split == test_part)
    if FIXED:
        return dict(FIXED), probs(d, train, test, variant, dims)
    inner = np.zeros((len(train), len(CLASSES)))
    for q in sorted(set(d.split[train])):
        held = np.flatnonzero(d.split[train] == q)
        fit_on = train[d.split[train] != q]
        inner[held] = probs(d, fit_on, train[held], variant, dims)
    th = pick([d.labels[i] for i in train], [d.rules[i] for i in train], inner, d.split[train], select,
              [d.veto[i] for i in train])
    return th, probs(d, train, test, variant, dims)


VARIANTS = {"struct": "(b) rules|struct model", "vec": "(c) rules|vector model", "veconly": "(c') rules|vectors only"}


def frozen(args: argparse.Namespace, variants: list[str]) -> dict[str, Any]:
    """Each FROZEN part scored as `run` scores a fold, with the rows of its commit; then pooled over them."""
    res: dict[str, Any] = {"folds": {}}
    pooled: dict[str, tuple[list[str], list[str]]] = {m: ([], []) for m in ["rules", *variants]}
    for part, commit in FROZEN:
        d = Data(rows_frozen(part, commit), rule_features=args.rule_features, neighbour_folds=args.neighbour_folds)
        print(f"== {part} with the rules of {commit}, fitted on {', '.join(sorted(set(d.split) - {part}))}")
        one = run(d, [part], args.dims, args.select, variants, quiet=True, made_out=pooled)
        res["folds"][part] = {"commit": commit, **one["folds"][part]}
    return summary(res, pooled, variants)


def summary(res: dict[str, Any], pooled: dict[str, tuple[list[str], list[str]]],
            variants: list[str]) -> dict[str, Any]:
    """The pooled table and the worst part's precision per method and decision."""
    res["pooled"] = {m: scores(*v) for m, v in pooled.items()}
    print_block("pooled", res["pooled"], variants)
    res["worst"] = {v: {dec: min((b[v][dec]["precision"] for b in res["folds"].values()
                                  if b[v][dec]["precision"] is not None), default=None) for dec in DECISIONS}
                    for v in ["rules", *variants]}
    print("  worst part's precision: " + "; ".join(
        f"{v}: " + " / ".join(f"{res['worst'][v][dec]}" for dec in DECISIONS) for v in ["rules", *variants]))
    return res


def run(d: Data, test_parts: list[str], dims: int, select: str, variants: list[str], *, quiet: bool = False,
        made_out: dict[str, tuple[list[str], list[str]]] | None = None) -> dict[str, Any]:
    """Leave each of `test_parts` out in turn: (a) and each variant's (rules, else model) decisions, per part;
    pooled into `made_out` when given, else summarised here."""
    res: dict[str, Any] = {"folds": {}}
    pooled = made_out if made_out is not None else {m: ([], []) for m in ["rules", *variants]}
    for part in test_parts:
        idx = np.flatnonzero(d.split == part)
        labels, rules = [d.labels[i] for i in idx], [d.rules[i] for i in idx]
        block: dict[str, Any] = {"rules": scores(labels, rules), "thresholds": {}}
        pooled["rules"][0].extend(labels)
        pooled["rules"][1].extend(rules)
        for v in variants:
            th, p = fold(d, part, v, dims, select)
            made = combine(rules, p, th, [d.veto[i] for i in idx])
            block[v] = scores(labels, made)
            block["thresholds"][v] = th
            pooled[v][0].extend(labels)
            pooled[v][1].extend(made)
        res["folds"][part] = block
        print_block(part, block, variants)
        sys.stdout.flush()
    return res if quiet else summary(res, pooled, variants)


def _cell(s: dict[str, Any]) -> str:
    p = "  -  " if s["precision"] is None else f"{s['precision']:.3f}"
    r = "  -  " if s["recall"] is None else f"{s['recall']:.3f}"
    return f"{p}/{r} ({s['decided']:>3})"


def print_block(title: str, block: dict[str, Any], variants: list[str]) -> None:
    print(f"\n-- {title}" + (f"   thresholds {block['thresholds']}" if "thresholds" in block else ""))
    print(f"  {'method':<26}" + "".join(f"{d + ' P/R (decided)':>28}" for d in DECISIONS))
    for m in ["rules", *variants]:
        label = "(a) rules" if m == "rules" else VARIANTS[m]
        print(f"  {label:<26}" + "".join(f"{_cell(block[m][d]):>28}" for d in DECISIONS))


# -- what the vectors cannot tell apart ---------------------------------------------------------------------------

#: Pairs of my own (no data file's): (kind, old, new). A changed value, a negation, a permission against a
#: prohibition, a swap, against paraphrases in the voices of the blind part (terse chat, a long conditional,
#: non-native word order, an agent's third-person note, a pasted message).
PROBES = (
    ("value", "The gym opens at 6am on weekdays.", "The gym opens at 7am on weekdays."),
    ("value", "Invoice INV-2291 is due on the 15th.", "Invoice INV-2291 is due on the 16th."),
    ("value", "Our rent is 1450 a month.", "Our rent is 1540 a month."),
    ("value", "Dana's flight lands at Gate B12.", "Dana's flight lands at Gate B21."),
    ("negation", "Marta is allergic to peanuts.", "Marta is not allergic to peanuts."),
    ("prohibition", "Parking is allowed on the street after 6pm.", "Parking is forbidden on the street after 6pm."),
    ("swap", "Ravi moved from Leeds to Bristol.", "Ravi moved from Bristol to Leeds."),
    ("swap", "We ship to Canada but not to Mexico.", "We ship to Mexico but not to Canada."),
    ("other", "The gym opens at 6am on weekdays.", "The pool opens at 6am on weekdays."),
    ("paraphrase", "The service contract runs for five years.", "svc contract 5-yr, fyi"),
    ("paraphrase", "The deposit is 7.42 per ticket.", "tkt deposit 7.42 ea"),
    ("paraphrase", "Client wants weekly status reports.",
     "Per the call on 2/9, client is asking that status reports go out every week."),
    ("paraphrase", "Client wants weekly status reports.",
     "hi both - client wants the status reports weekly now. thx, M"),
    ("paraphrase", "The team meets on Mondays.", "On Mondays the team is meeting, always."),
    ("paraphrase", "Send invoices to accounts@halden.example.",
     "If an invoice is to be sent, and it does not matter which client it is for, it should go to "
     "accounts@halden.example."),
)


def probe() -> None:
    """Cosines, plain and with values masked, of the pairs above: what the vectors tell apart and what not."""
    from memgraph import Settings
    from memgraph.embed import default_embedder
    from memgraph.ingest.values import masked

    emb = default_embedder(Settings(store=":memory:"))
    for kind, a, b in PROBES:
        m = emb.encode([a, b, masked(a), masked(b)]).astype(np.float64)
        m /= np.linalg.norm(m, axis=1, keepdims=True)
        print(f"  {kind:<12}cos {m[0] @ m[1]:.3f}  masked {m[2] @ m[3]:.3f}  {a!r} / {b!r}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dims", type=int, default=24, help="PCA dimensions of |u-v| and of u*v each (-1: the whole head)")
    ap.add_argument("--c", type=float, default=0.5, help="inverse penalty of the vector variants")
    ap.add_argument("--fixed", help="thresholds set beforehand, e.g. duplicate=0.9 (the others never)")
    ap.add_argument("--select", default="pooled", choices=("pooled", "every"))
    ap.add_argument("--variants", default="struct,vec")
    ap.add_argument("--neighbour-folds", type=int, default=1,
                    help="cut the neighbour pairs into this many parts (1: held out whole, a model that saw none)")
    ap.add_argument("--rule-features", action="store_true", help="the rules' verdicts as features too")
    ap.add_argument("--frozen", action="store_true",
                    help="each FROZEN part with the rules and features of a commit at which it was blind")
    ap.add_argument("--parts", help="held-out parts to score (default: every read part)")
    ap.add_argument("--refresh", action="store_true", help="recompute this checkout's rows (after a rule change)")
    ap.add_argument("--probe", action="store_true")
    ap.add_argument("--write-results", metavar="KEY")
    args = ap.parse_args()
    if args.probe:
        probe()
        return
    started = time.process_time()
    C_VECTOR[0] = args.c
    if args.fixed:
        FIXED.update(dict.fromkeys(DECISIONS, 1.01))
        FIXED.update({k: float(v) for k, v in (kv.split("=") for kv in args.fixed.split(","))})
    variants = [v for v in args.variants.split(",") if v]
    if args.frozen:
        res = frozen(args, variants)
    else:
        rows = rows_now(args.refresh)
        d = Data(rows, rule_features=args.rule_features, neighbour_folds=args.neighbour_folds)
        every = sorted(set(d.split), key=lambda q: [*PARTS, q].index(q.rstrip("0123") if q.startswith("neigh") else q))
        test_parts = args.parts.split(",") if args.parts else every
        print(f"{len(rows)} pairs, {len(d.names)} structural features, dims {args.dims}, select {args.select}")
        res = run(d, test_parts, args.dims, args.select, variants)
    print(f"{time.process_time() - started:.0f} s CPU, load average {os.getloadavg()[0]:.2f}")
    if args.write_results:
        old = json.loads(RESULT.read_text(encoding="utf-8")) if RESULT.exists() else {}
        old[args.write_results] = {**res, "args": vars(args)}
        RESULT.write_text(json.dumps(old, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
