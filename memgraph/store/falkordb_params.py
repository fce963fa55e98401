"""FalkorDB parameters as query text. FalkorDB takes parameters as a `CYPHER name=value ...` header in front of
the statement, so every value is written as a Cypher literal here: this is the one place where values are
quoted into query text, and it is security-relevant (tests/test_falkordb_params.py feeds it hostile values and
checks each comes back from a real FalkorDB unchanged). Strings are double-quoted with backslashes and double
quotes escaped; names and map keys must be ASCII identifiers; numbers must be finite and in the range the
server reads exactly; a NUL character is refused (the server cannot parse it)."""

from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import Any

import numpy as np

from memgraph.errors import StoreError, ValidationError

#: FalkorDB reads an integer literal outside int64 as the nearest bound (2**63 comes back as 2**63 - 1) and a
#: double within a few ulps of the largest one as infinity (1.7976931348623155e308 -> inf; 1e308 is read
#: exactly): values beyond these are refused instead of silently changed.
INT_MIN, INT_MAX = -(2**63), 2**63 - 1
FLOAT_MAX = 1e308
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@lru_cache(maxsize=1024)
def param_key(key: object) -> str:
    """A parameter name or map key as written in a FalkorDB parameter literal: ASCII identifiers only (FalkorDB
    refuses `{_ü: 1}`), checked once per key. Keys come from memgraph's own code (user maps such as metadata
    travel as JSON strings), so another key is a programming error."""
    text = str(key)
    if not _IDENTIFIER.fullmatch(text):
        raise StoreError(f"internal: parameter name or map key {text!r} is not an ASCII identifier")
    return text


def quote_string(text: str) -> str:
    """A string literal as falkordb-py's quote_string writes it: backslashes and double quotes escaped, which
    are the escapes FalkorDB's lexer reads (it also turns a backslash followed by n, t, ... into a control
    character, which is why a backslash is always escaped). A NUL cannot be written at all: FalkorDB fails to
    parse the parameter, so it is refused here with a typed error."""
    if not text:
        return '""'
    if "\x00" in text:
        raise ValidationError("FalkorDB cannot store a NUL character (\\x00) in a string")
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _float(value: float) -> str:
    if not math.isfinite(value) or abs(value) > FLOAT_MAX:
        raise ValidationError(f"parameters must be finite numbers of magnitude at most {FLOAT_MAX:g}")
    return repr(value)


def _int(value: int) -> str:
    if not INT_MIN <= value <= INT_MAX:
        raise ValidationError("integer parameters must fit in 64 bits")
    return str(value)


class FalkorParams:
    """FalkorDB takes parameters as a `CYPHER name=value ...` header. falkordb-py writes it for plain values;
    here numpy vectors are written directly as their shortest float32 text (a 384-float vector per memory
    would otherwise be 17-digit doubles), booleans as true/false, and out-of-range numbers, NUL characters and
    keys that are not identifiers are refused (see above) instead of being changed by the server."""

    @staticmethod
    def literal(value: Any) -> str:
        # The common types first and no per-call imports or regexes: a links job sends 100k+ rows of
        # 8 values through here (the header of one 5000-link batch took ~1 s to write before).
        kind = type(value)
        if kind is str:
            return quote_string(value)
        if kind is float:
            return _float(value)
        if kind is dict:
            return "{" + ",".join(f"{param_key(k)}:{FalkorParams.literal(v)}" for k, v in value.items()) + "}"
        if kind is list or kind is tuple:
            return "[" + ",".join(FalkorParams.literal(v) for v in value) + "]"
        if kind is int:
            return _int(value)
        if isinstance(value, np.ndarray):
            if value.ndim == 1:
                vec = value.astype(np.float32)
                if not np.isfinite(vec).all():
                    raise ValidationError("parameters must be finite numbers")
                return "[" + ",".join(vec.astype(str)) + "]"
            return "[" + ",".join(FalkorParams.literal(row) for row in value) + "]"
        if isinstance(value, bool | np.bool_):
            return "true" if value else "false"
        if value is None:
            return "null"
        if isinstance(value, str):
            return quote_string(value)
        if isinstance(value, int | np.integer):
            return _int(int(value))
        if isinstance(value, float | np.floating):
            return _float(float(value))
        if isinstance(value, dict):
            return FalkorParams.literal(dict(value))
        if isinstance(value, list | tuple):
            return FalkorParams.literal(list(value))
        raise StoreError(f"internal: cannot pass {type(value).__name__} as a FalkorDB parameter")

    @classmethod
    def header(cls, params: dict[str, Any]) -> str:
        if not params:
            return ""
        return "CYPHER " + " ".join(f"{param_key(k)}={cls.literal(v)}" for k, v in params.items()) + " "
