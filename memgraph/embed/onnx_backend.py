"""The encoder as an fp32 ONNX graph on ONNX Runtime, tokenised by `tokenizers`: no torch, no
sentence-transformers when a process embeds. Loading costs ~0.5 s (imports ~0.15 s, session ~0.3 s) against
~8 s for sentence-transformers; vectors equal its own (cosine >= 0.9999, tests/embed/test_equivalence.py).

The graph is exported once per model (memgraph/embed/onnx_export.py, which needs torch) and cached on disk
(memgraph/embed/graph_cache.py); pooling and normalisation run here, in numpy, as sentence-transformers'
`Pooling` and `Normalize` modules compute them.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from memgraph.embed.graph_cache import GraphCache
from memgraph.embed.model import ModelSpec, read_model_spec, resolve_model_path
from memgraph.embed.protocol import LazyLoad
from memgraph.embed.tokens import EncoderInputs, TokenCounter
from memgraph.errors import EmbedderUnavailableError

if TYPE_CHECKING:
    import onnxruntime

log = logging.getLogger("memgraph.embed")


class OnnxUnsupportedError(EmbedderUnavailableError):
    """This model cannot be reproduced on ONNX (its modules, or the export, or the verification said no)."""


class OnnxEmbedder(LazyLoad):
    """A sentence-transformers model directory run as an ONNX graph. `load()` finds the cached graph (or
    exports and verifies it, once) and opens the session; it raises `OnnxUnsupportedError` with the reason when
    the model is not one the ONNX path reproduces exactly."""

    def __init__(
        self,
        model_path: str | Path | None = None,
        *,
        model_name: str = "all-MiniLM-L6-v2",
        dim: int = 384,
        batch_size: int = 32,
        cache_dir: str | Path | None = None,
        threads: int | None = None,
        export: bool = True,
    ) -> None:
        super().__init__()
        self.model_path = resolve_model_path(model_path)
        self.model_name = model_name
        self.dim = dim
        self.batch_size = batch_size
        self.cache = GraphCache(cache_dir)
        self.threads = threads
        self.export = export
        self.spec: ModelSpec | None = None
        self.graph_path: Path | None = None
        self._session: onnxruntime.InferenceSession | None = None
        self._inputs: EncoderInputs | None = None
        self._input_names: list[str] = []
        self._counter: TokenCounter | None = None
        self._counter_lock = threading.Lock()

    # -- loading ------------------------------------------------------------------------------------------

    def _load_model(self) -> None:
        spec = read_model_spec(self.model_path)
        if spec.unsupported:
            raise OnnxUnsupportedError(spec.unsupported)
        try:
            import onnxruntime  # noqa: F401 - fail here, before any export work, when it is missing
        except ImportError as exc:
            raise OnnxUnsupportedError(f"onnxruntime is not installed ({exc})") from exc
        key = self.cache.model_key(self.model_path)
        graph: Path | bytes | None = self._cached(key)
        if graph is None:
            if not self.export:
                raise OnnxUnsupportedError(f"no exported graph for {self.model_path} in {self.cache.root}")
            with self.cache.exporting(key):
                graph = self._cached(key)  # another process may have exported while this one waited
                if graph is None:
                    graph = self._export(key, spec)
        self._open(graph, spec)

    def _cached(self, key: str) -> Path | None:
        reason = self.cache.unsupported_reason(key)
        if reason:
            raise OnnxUnsupportedError(reason)
        path = self.cache.graph_path(key)
        return path if path.is_file() else None

    def _export(self, key: str, spec: ModelSpec) -> Path | bytes:
        from memgraph.embed.onnx_export import ExportRefusedError, export_verified

        # info, not a warning: it happens once per machine and model; a CLI shows its own spinner meanwhile
        log.info("exporting %s to ONNX once (needs torch; later processes reuse %s)", self.model_path, self.cache.root)
        try:
            data = export_verified(spec, key)
        except ExportRefusedError as exc:
            self.cache.mark_unsupported(key, str(exc), self.model_path)
            raise OnnxUnsupportedError(str(exc)) from exc
        except ImportError as exc:
            raise OnnxUnsupportedError(f"the ONNX exporter needs torch, transformers, onnx, onnxscript: {exc}") from exc
        try:
            return self.cache.publish_graph(key, data)
        except OSError as exc:
            log.warning("could not cache the ONNX graph in %s (%s); it is kept in memory only", self.cache.root, exc)
            return data

    def _open(self, graph: Path | bytes, spec: ModelSpec) -> None:
        self._session = self._session_for(graph)
        self._input_names = [i.name for i in self._session.get_inputs()]
        self._inputs = EncoderInputs(spec.encoder_dir, spec.max_length, do_lower_case=spec.do_lower_case)
        self.spec = spec
        self.graph_path = graph if isinstance(graph, Path) else None
        if spec.dim:
            self.dim = spec.dim

    def _session_for(self, graph: Path | bytes) -> onnxruntime.InferenceSession:
        """A session on the graph as ONNX Runtime optimised it, saved beside the exported graph by the first
        session on this machine (keyed by the runtime's version) and opened with optimisation off afterwards:
        the optimisation was ~0.1 s of CPU of every cold start (session 0.24-0.31 s -> 0.13-0.16 s, load 9);
        the saved graph gives the same outputs (max difference 0.0 on a query; tests/embed)."""
        import onnxruntime as ort

        if isinstance(graph, bytes):  # the cache could not be written: nowhere to keep an optimised copy either
            return make_session(graph, threads=self.threads)
        optimized = self.cache.optimized_path(graph.stem, ort.__version__)
        if optimized.is_file():
            try:
                return make_session(optimized, threads=self.threads, optimized=True)
            except Exception as exc:  # noqa: BLE001 - a damaged copy: optimise again from the exported graph
                log.debug("could not open the optimised graph %s (%s); optimising again", optimized, exc)
        with self.cache.temporary(optimized) as tmp:
            session = make_session(graph, threads=self.threads, save_to=tmp)
        if optimized.is_file():
            self.cache.drop_optimized(graph.stem, keep=optimized)  # copies made by other runtime versions
        return session

    def graph_ready(self) -> bool:
        """Whether loading will find a cached graph (or a cached refusal) instead of exporting: a CLI can say
        "first run: exporting the model (~20 s)" beside its spinner. Stats the model files; no model load."""
        if read_model_spec(self.model_path).unsupported:
            return True
        key = self.cache.model_key(self.model_path)
        return self.cache.graph_path(key).is_file() or self.cache.unsupported_reason(key) is not None

    # -- embedding ----------------------------------------------------------------------------------------

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        self.load()
        assert self._inputs is not None and self.spec is not None
        rows = self._inputs.ids(texts)
        # longest first, as sentence-transformers batches: similar lengths share a batch, so little padding
        order = sorted(range(len(rows)), key=lambda i: -len(rows[i]))
        out = np.empty((len(rows), self.dim), dtype=np.float32)
        for chunk in _batches([len(rows[i]) for i in order], self.batch_size):
            picked = [order[i] for i in chunk]
            out[picked] = self._run([rows[i] for i in picked])
        return out

    def _run(self, rows: list[list[int]]) -> np.ndarray:
        assert self._session is not None and self._inputs is not None and self.spec is not None
        ids, mask = self._inputs.pad(rows)
        feed = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        hidden = self._session.run(None, {name: feed[name] for name in self._input_names})[0]
        return pool(np.asarray(hidden, dtype=np.float32), mask, self.spec.pooling)

    def count_tokens(self, text: str) -> int:
        if self._counter is None:
            with self._counter_lock:
                if self._counter is None:
                    self._counter = TokenCounter(self.spec.encoder_dir if self.spec else self.model_path)
        return self._counter.count(text)


#: A batch of texts longer than this (tokens) is closed when the next text is at most half as long: every text
#: of a batch is padded to its longest, so one 40-token memory among 16 single words (gap detection's focus
#: test) made the words cost 40 tokens each (~95 ms a call on 2 cores; ~25 ms split in two).
_SPLIT_FROM_TOKENS = 16


def _batches(lengths: Sequence[int], size: int) -> list[range]:
    """Positions of `lengths` (sorted longest first) cut into batches of at most `size`, a new one also where a
    text is at most half as long as its batch's first (for batches of texts over `_SPLIT_FROM_TOKENS`)."""
    out: list[range] = []
    start = 0
    for i, n in enumerate(lengths):
        first = lengths[start]
        if i > start and (i - start >= size or (first > _SPLIT_FROM_TOKENS and 2 * n <= first)):
            out.append(range(start, i))
            start = i
    if lengths:
        out.append(range(start, len(lengths)))
    return out


def make_session(
    graph: Path | bytes, *, threads: int | None = None, optimized: bool = False, save_to: Path | None = None
) -> onnxruntime.InferenceSession:
    """A CPU session. Thread spinning is off: ONNX Runtime's pool otherwise busy-waits after every call, burning
    cores that other processes share (an idle MCP server spins after each tool call). Its effect on our own
    latency measured within noise on two loaded cores (bench/embed.py: query p50 8.7 ms off, 11.2 ms on).

    `optimized`: the graph was saved already optimised (`save_to` of an earlier session): no optimisation pass.
    `save_to`: optimise at the extended level (fusions, no hardware-specific layouts, so the copy is portable)
    and save the optimised graph there."""
    import onnxruntime as ort

    opts = ort.SessionOptions()
    if optimized:
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    elif save_to is not None:
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
        opts.optimized_model_filepath = str(save_to)
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    opts.log_severity_level = 3  # errors only: no optimizer chatter on the caller's terminal
    if threads:
        opts.intra_op_num_threads = threads
    source: Any = str(graph) if isinstance(graph, Path) else graph
    return ort.InferenceSession(source, opts, providers=["CPUExecutionProvider"])


def pool(hidden: np.ndarray, mask: np.ndarray, mode: str) -> np.ndarray:
    """sentence-transformers' Pooling (one mode) followed by L2 normalisation, in float32.

    hidden: (batch, tokens, dim) token embeddings; mask: (batch, tokens) 1 for real tokens."""
    m = mask[..., None].astype(np.float32)
    if mode == "mean":
        vec = (hidden * m).sum(axis=1) / np.clip(m.sum(axis=1), 1e-9, None)
    elif mode == "cls":
        vec = hidden[:, 0]
    elif mode == "max":
        vec = np.where(m > 0, hidden, np.float32(-1e9)).max(axis=1)
    else:  # read_model_spec admits only the modes above
        raise OnnxUnsupportedError(f"pooling {mode!r}")
    norm = np.linalg.norm(vec, axis=1, keepdims=True)
    return np.asarray(vec / np.clip(norm, 1e-12, None), dtype=np.float32)
