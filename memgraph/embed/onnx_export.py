"""One-time export of a model's encoder to an fp32 ONNX graph, verified against sentence-transformers.

This is the only module of the ONNX path that imports torch (and transformers, onnx, onnxscript,
sentence-transformers): it runs once per model, in the first process that needs the graph (~20-40 s on two
cores), and never again while the cached graph matches the model files.

The graph maps (input_ids, attention_mask[, token_type_ids]) of any batch size and length to the encoder's
token embeddings (`last_hidden_state`); pooling and normalisation stay in numpy (onnx_backend.pool). Before a
graph is published, it runs the whole ONNX pipeline (tokenizer, graph, pooling) on probe texts, one by one and
in a padded batch, against sentence-transformers on the same texts: any vector below `MIN_COSINE` refuses the
export, and the model stays on sentence-transformers.
"""

from __future__ import annotations

import contextlib
import inspect
import logging
import warnings
from collections.abc import Iterator
from datetime import UTC, datetime

import numpy as np

from memgraph.embed.model import ModelSpec
from memgraph.errors import MemgraphError

log = logging.getLogger("memgraph.embed")

#: The least cosine between an ONNX vector and sentence-transformers' for the same text that is accepted.
MIN_COSINE = 0.9999

#: Probe texts of the verification: short, empty-ish, long past the window, non-Latin scripts, emoji, code.
PROBES = [
    "hi",
    "I prefer tabs over spaces in Python.",
    "The standup moved to 9:30 on Tuesdays; Ada will run it while Grace is away in Lisbon.",
    "東京の会議は来週の火曜日に延期されました。",
    "naïve café résumé — Ünïcödé façade",
    "party time 🎉🚀 👩‍👩‍👧 ✅",
    "def area(r: float) -> float:\n    return 3.14159 * r ** 2  # circle",
    " ".join(f"token{i}" for i in range(400)),
    "Long memory about a long conversation. " * 60,
]


class ExportRefusedError(MemgraphError):
    """The model cannot be exported, or its ONNX vectors differ from sentence-transformers' (reason given)."""


def export_verified(spec: ModelSpec, key: str) -> bytes:
    """Export `spec`'s encoder, verify it, and return the serialized graph with its provenance in metadata."""
    import onnx
    import torch  # noqa: F401 - imported before _quiet(): torch sets its loggers' levels when first imported
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]  # a library must not draw bars on the caller's terminal
    with _quiet():
        data = export_encoder(spec)
        worst = verify(spec, data)
    model = onnx.load_from_string(data)
    meta = {
        "memgraph.model_key": key,
        "memgraph.model_dir": str(spec.path),
        "memgraph.exported_at": datetime.now(UTC).isoformat(),
        "memgraph.min_cosine": f"{worst:.7f}",
        "memgraph.max_length": str(spec.max_length),
        "memgraph.pooling": spec.pooling,
    }
    for name in ("torch", "transformers", "onnx", "onnxscript", "onnxruntime"):
        with contextlib.suppress(ImportError, AttributeError):
            meta[f"memgraph.{name}"] = str(__import__(name).__version__)
    onnx.helper.set_model_props(model, meta)
    log.info("exported %s to ONNX (worst cosine against sentence-transformers %.7f)", spec.path, worst)
    return bytes(model.SerializeToString())


def export_encoder(spec: ModelSpec) -> bytes:
    """The encoder as ONNX (torch's dynamo exporter, dynamic batch and length, weights inside the file)."""
    import torch
    from transformers import AutoModel

    try:
        model = AutoModel.from_pretrained(str(spec.encoder_dir)).eval()
    except MemoryError:
        raise
    except Exception as exc:  # noqa: BLE001 - any load failure is a reason to stay on sentence-transformers
        raise ExportRefusedError(f"transformers cannot load the encoder: {exc}") from exc
    names = ["input_ids", "attention_mask"]
    if "token_type_ids" in inspect.signature(model.forward).parameters:
        names.append("token_type_ids")

    class Encoder(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.model = model

        def forward(
            self, input_ids: torch.Tensor, attention_mask: torch.Tensor, token_type_ids: torch.Tensor | None = None
        ) -> torch.Tensor:
            given = {"input_ids": input_ids, "attention_mask": attention_mask, "token_type_ids": token_type_ids}
            return self.model(**{n: given[n] for n in names}).last_hidden_state  # type: ignore[no-any-return]

    # sizes 2 and 8: an example of size 0 or 1 would be specialised into the graph
    ids = torch.full((2, 8), 1000, dtype=torch.long)
    mask = torch.ones_like(ids)
    mask[1, 5:] = 0
    example = {"input_ids": ids, "attention_mask": mask, "token_type_ids": torch.zeros_like(ids)}
    args = tuple(example[n] for n in names)
    batch, length = torch.export.Dim("batch"), torch.export.Dim("length")
    try:
        with torch.no_grad():
            program = torch.onnx.export(
                Encoder(),
                args,
                dynamo=True,
                input_names=names,
                output_names=["last_hidden_state"],
                dynamic_shapes={n: {0: batch, 1: length} for n in names},
                optimize=True,
                verbose=False,
            )
    except MemoryError:
        raise
    except Exception as exc:  # noqa: BLE001 - an unexportable architecture is a reason, not a crash
        raise ExportRefusedError(f"torch.onnx.export failed: {type(exc).__name__}: {exc}") from exc
    if program is None:  # pragma: no cover - dynamo=True always returns a program
        raise ExportRefusedError("torch.onnx.export returned no program")
    return bytes(program.model_proto.SerializeToString())


def verify(spec: ModelSpec, graph: bytes) -> float:
    """Worst cosine between the ONNX pipeline and sentence-transformers over PROBES, one by one and batched."""
    from memgraph.embed.onnx_backend import make_session, pool
    from memgraph.embed.st_backend import SentenceTransformerEmbedder
    from memgraph.embed.tokens import EncoderInputs

    reference = SentenceTransformerEmbedder(spec.path, device="cpu").encode(PROBES)
    session = make_session(graph)
    names = [i.name for i in session.get_inputs()]
    inputs = EncoderInputs(spec.encoder_dir, spec.max_length, do_lower_case=spec.do_lower_case)
    rows = inputs.ids(PROBES)

    def run(batch: list[list[int]]) -> np.ndarray:
        ids, mask = inputs.pad(batch)
        feed = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        hidden = session.run(None, {n: feed[n] for n in names})[0]
        return pool(np.asarray(hidden, dtype=np.float32), mask, spec.pooling)

    batched = run(rows)
    single = np.vstack([run([r]) for r in rows])
    if batched.shape != reference.shape:
        raise ExportRefusedError(
            f"ONNX vectors have shape {batched.shape[1:]}, sentence-transformers' {reference.shape[1:]}"
        )
    worst = float(min((batched * reference).sum(axis=1).min(), (single * reference).sum(axis=1).min()))
    if not worst >= MIN_COSINE:
        raise ExportRefusedError(
            f"ONNX vectors differ from sentence-transformers' (worst cosine {worst:.6f} < {MIN_COSINE})"
        )
    return worst


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """The exporter's progress lines, warnings and log records are not the caller's business."""
    names = (
        "torch",
        "torch.onnx",
        "torch.onnx._internal.exporter._registration",  # "torchvision is not installed" x4
        "torch.export",
        "onnxscript",
        "onnx_ir",
        "transformers",
        "sentence_transformers",
    )
    loggers = [logging.getLogger(n) for n in names]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.ERROR)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        for lg, level in zip(loggers, levels, strict=True):
            lg.setLevel(level)
