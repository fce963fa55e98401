"""FalkorDB parameters as query text. FalkorDB takes parameters as a `CYPHER name=value ...` header in front of
the statement, so every value is written as a Cypher literal here: this is the one place where values are
quoted into query text, and it is security-relevant (tests/test_falkordb_params.py feeds it hostile values).
Strings are double-quoted with backslashes and double quotes escaped (as falkordb-py's quote_string does; the
server's lexer reads exactly those two escapes), map keys must be identifiers, numbers must be finite."""

from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import Any

import numpy as np

from memgraph.errors import StoreError, ValidationError


@lru_cache(maxsize=1024)
def param_key(key: object) -> str:
    """A map key as written in a FalkorDB parameter literal; only identifiers (checked once per key)."""
    text = str(key)
    if not re.fullmatch(r"[A-Za-z_]\w*", text):
        raise StoreError(f"internal: parameter map key {text!r} is not an identifier")
    return text


def quote_string(text: str) -> str:
    """A string literal as falkordb-py's quote_string writes it (backslashes and double quotes escaped)."""
    if not text:
        return '""'
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


class FalkorParams:
    """FalkorDB takes parameters as a `CYPHER name=value ...` header. falkordb-py writes it for plain values;
    here numpy vectors are written directly as their shortest float32 text (a 384-float vector per memory
    would otherwise be 17-digit doubles), and booleans as true/false."""

    @staticmethod
    def literal(value: Any) -> str:
        # The common types first and no per-call imports or regexes: a links job sends 100k+ rows of
        # 8 values through here (the header of one 5000-link batch took ~1 s to write before).
        kind = type(value)
        if kind is str:
            return quote_string(value)
        if kind is float:
            if not math.isfinite(value):
                raise ValidationError("parameters must be finite numbers")
            return repr(value)
        if kind is dict:
            return "{" + ",".join(f"{param_key(k)}:{FalkorParams.literal(v)}" for k, v in value.items()) + "}"
        if kind is list or kind is tuple:
            return "[" + ",".join(FalkorParams.literal(v) for v in value) + "]"
        if isinstance(value, np.ndarray):
            if value.ndim == 1:
                return "[" + ",".join(value.astype(np.float32).astype(str)) + "]"
            return "[" + ",".join(FalkorParams.literal(row) for row in value) + "]"
        if isinstance(value, bool | np.bool_):
            return "true" if value else "false"
        if value is None:
            return "null"
        if isinstance(value, str):
            return quote_string(value)
        if isinstance(value, int | np.integer):
            return str(int(value))
        if isinstance(value, float | np.floating):
            return FalkorParams.literal(float(value))
        if isinstance(value, dict):
            return FalkorParams.literal(dict(value))
        if isinstance(value, list | tuple):
            return FalkorParams.literal(list(value))
        raise StoreError(f"internal: cannot pass {type(value).__name__} as a FalkorDB parameter")

    @classmethod
    def header(cls, params: dict[str, Any]) -> str:
        if not params:
            return ""
        return "CYPHER " + " ".join(f"{k}={cls.literal(v)}" for k, v in params.items()) + " "

