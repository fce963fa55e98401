"""Weights a bench fitted with scikit-learn, applied with numpy: the learned decisions' run-time half.

A learned decision (the duplicate gate, `ingest/pair_model.py`; the gap decision, `retrieve/gap_model.py`) is a
standardised logistic regression whose weights a bench script writes to memgraph/data/*.json. Importing sklearn on
the write or the maintenance path would cost the cold start, and the arithmetic is a dot product.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources

import numpy as np


@dataclass(frozen=True)
class LinearModel:
    """A standardised (multinomial or binary) logistic regression: the weights sklearn fitted."""

    features: tuple[str, ...]
    mean: np.ndarray
    scale: np.ndarray
    coef: np.ndarray  # (classes, features); one row for a binary model
    intercept: np.ndarray
    classes: tuple[str, ...]

    def probabilities(self, features: dict[str, float]) -> dict[str, float]:
        """Each class's probability for one case (as sklearn's predict_proba); a missing feature reads 0."""
        x = (np.array([features.get(k, 0.0) for k in self.features]) - self.mean) / self.scale
        z = self.coef @ x + self.intercept
        if len(self.classes) == 2 and len(z) == 1:  # a binary model stores one row: p(class 1) = sigmoid
            p1 = 1.0 / (1.0 + np.exp(-z[0]))
            return {self.classes[0]: float(1.0 - p1), self.classes[1]: float(p1)}
        e = np.exp(z - z.max())
        return dict(zip(self.classes, (e / e.sum()).tolist(), strict=True))


def read_model(name: str) -> LinearModel:
    """The weights shipped as memgraph/data/`name` (the JSON a bench's `--export` writes)."""
    raw = json.loads(resources.files("memgraph").joinpath("data", name).read_text(encoding="utf-8"))
    return LinearModel(
        features=tuple(raw["features"]),
        mean=np.array(raw["scaler_mean"], dtype=np.float64),
        scale=np.array(raw["scaler_scale"], dtype=np.float64),
        coef=np.array(raw["coef"], dtype=np.float64),
        intercept=np.array(raw["intercept"], dtype=np.float64),
        classes=tuple(raw["classes"]),
    )
