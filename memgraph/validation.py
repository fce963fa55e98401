"""One validation layer for the public API: `@checked` checks every argument of a public method against its
type hints before the method runs, and answers a wrong type with memgraph's own `ValidationError`.

    class MemoryEngine:
        @checked
        def list(self, *, user_id: str, limit: int = 100, ...) -> list[Memory]: ...

    engine.list(user_id="ada", limit="10")   # ValidationError: list(): limit: expected an integer, got str

It is pydantic's validation in strict mode (the lax default turns `"10"` into 10 and `True` into 1), with NaN
and infinity refused, built once per method from its signature. A few hints get a validator of their own where
strict pydantic would be wrong for a Python API:

- `int` also takes numpy integers (never `bool`) within +-2**53 (a store's 64-bit integers), `float` any real
  number but `bool` (finite only);
- `Iterable[str]` / `Sequence[str]` take one string (as a list of one) or any iterable of strings, read once
  into a list (pydantic would hand the method a lazy iterator, or split a string into characters);
- `Sequence[float]` (an embedding) takes a list, tuple or numpy vector of numbers (its length and NaN/inf
  are checked where it is used, as `EmbeddingDimensionError`);
- `Mapping[str, Any]` (metadata) takes a mapping with string keys nested at most `MAX_NESTING` deep (a
  5,000-deep dict would otherwise end in a `RecursionError` somewhere inside);
- a `Callable`, a `Protocol` or a class pydantic has no schema for is checked with `callable` / `isinstance`.

Errors name the method, the parameter and the type that was given, never the value (it may be a secret or
another tenant's id). A missing or wrong-typed `user_id` is a `MissingOwnerError`. The async twins
(`memgraph/_aio_methods.py`) call the checked sync methods, so they are covered too. `tests/test_argument_types.py`
feeds every public method wrong-typed values and accepts only memgraph errors.
"""

from __future__ import annotations

import collections.abc as cabc
import functools
import inspect
import math
import numbers
import re
import sys
import threading
import types
import typing
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any, ParamSpec, TypeVar

import numpy as np
from pydantic import BaseModel, ConfigDict, PlainValidator, create_model
from pydantic import ValidationError as PydanticValidationError

from memgraph.errors import MissingOwnerError, ValidationError

P = ParamSpec("P")
R = TypeVar("R")

#: Deepest nesting of dicts and lists accepted in metadata (JSON of that depth is already unusual; Python's
#: own recursion limit is 1,000, which every recursive walk over metadata would hit first).
MAX_NESTING = 64
_CONFIG = ConfigDict(strict=True, arbitrary_types_allowed=True, allow_inf_nan=False)


# -- validators for the hints strict pydantic gets wrong for a Python API ----------------------------------------


#: Largest integer argument accepted: counts and limits far beyond any store, that still fit a 64-bit integer
#: (SQLite, Neo4j) after the small multipliers applied to them (a search asks for k x candidate_multiplier).
MAX_INT = 2**53


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError("expected an integer")
    if not -MAX_INT <= int(value) <= MAX_INT:
        raise ValueError("expected an integer between -2**53 and 2**53")
    return int(value)


def _float(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError("expected a number")
    out = float(value)
    if not math.isfinite(out):
        raise ValueError("expected a finite number")
    return out


def _str_list(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, bytes | Mapping) or not isinstance(value, cabc.Iterable):
        raise ValueError("expected a string or a list of strings")
    out = list(value)
    if not all(isinstance(v, str) for v in out):
        raise ValueError("expected a list of strings")
    return out


def _vector(value: Any) -> list[float]:
    if isinstance(value, np.ndarray):
        if value.ndim != 1 or not np.issubdtype(value.dtype, np.number) or np.issubdtype(value.dtype, np.bool_):
            raise ValueError("expected a 1-dimensional numeric vector")
        items: list[Any] = value.tolist()
    elif isinstance(value, list | tuple):
        items = list(value)
    else:
        raise ValueError("expected a list of numbers")
    if not all(isinstance(v, numbers.Real) and not isinstance(v, bool) for v in items):
        raise ValueError("expected a list of numbers")
    # NaN/inf and the length are the embedding's own checks (EmbeddingDimensionError, memgraph.models)
    return [float(v) for v in items]


def nesting_depth(value: Any, limit: int = MAX_NESTING) -> int:
    """How deep dicts and lists nest in `value` (a scalar is 0), counted without recursion; stops at limit + 1."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, Mapping):
            children: cabc.Iterable[Any] = item.values()
        elif isinstance(item, list | tuple):
            children = item
        else:
            continue
        depth += 1
        deepest = max(deepest, depth)
        if deepest > limit:
            return deepest
        stack.extend((child, depth) for child in children)
    return deepest


def check_nesting(value: Any, what: str = "metadata") -> None:
    """`ValidationError` when dicts and lists in `value` nest deeper than MAX_NESTING."""
    if nesting_depth(value) > MAX_NESTING:
        raise ValidationError(f"{what} nests deeper than {MAX_NESTING} levels")


def _mapping(value: Any) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise ValueError("expected a mapping (a dict)")
    if not all(isinstance(k, str) for k in value):
        raise ValueError("expected a mapping with string keys")
    if nesting_depth(value) > MAX_NESTING:
        raise ValueError(f"nests deeper than {MAX_NESTING} levels")
    return dict(value)


#: Earliest and latest timestamps accepted (`created_at`, `session_date`): a year inside Python's datetime range
#: on either side, so that converting a time zone (`0001-01-01T00:00+05:00` is in year 0 in UTC) or the offsets
#: memgraph adds (a conversation's turn seconds, decay and episodic windows) cannot overflow in a store.
MIN_DATETIME = datetime(2, 1, 1, tzinfo=UTC)
MAX_DATETIME = datetime(9998, 12, 31, 23, 59, 59, tzinfo=UTC)


def utc_datetime(value: datetime, what: str) -> datetime:
    """`value` in UTC (a naive datetime is taken as UTC), or `ValidationError` when it is outside
    MIN_DATETIME..MAX_DATETIME."""
    aware = value if value.tzinfo else value.replace(tzinfo=UTC)
    try:
        out = aware.astimezone(UTC)
    except OverflowError:
        out = None
    if out is None or not MIN_DATETIME <= out <= MAX_DATETIME:
        raise ValidationError(f"{what} must be between the years {MIN_DATETIME.year} and {MAX_DATETIME.year}")
    return out


#: Most strings in one list argument (a memory's tags, file globs or trigger patterns; a recall's files): far
#: above real use, while 50,000 tags took 23 s to write and were carried by every read of the memory.
MAX_LIST_ITEMS = 1000
#: Longest file glob or trigger pattern (characters): a path is at most 4,096 bytes on Linux; a 5 MB
#: "path" was stored and matched against every recall's files.
MAX_PATTERN_CHARS = 4096


def nested_quantifier(pattern: str) -> bool:
    """Whether a regular expression repeats, without bound, something that itself repeats without bound
    (`(a+)+`, `(\\w+\\s*)*`), or alternatives that can start alike (`(a|a)*`, `(\\w|\\d)+`, `(ab|ac)+`): the
    shapes whose backtracking grows exponentially with the input (ReDoS; Python's `re` has no time limit), so a
    trigger pattern of that shape could hang every recall of its owner. Alternatives that start alike are refused
    whether or not they could match one string in two ways (`(ab|ac)+` could not: write it `a(b|c)` and it
    passes). Patterns that do not compile count as unsafe too; call `re.compile` first for the error message."""
    return _nested_quantifier(pattern)


#: The characters the alternatives' first characters are compared over: Latin-1 and a letter of a few other
#: scripts (a class's overlap is read by testing its members, `_first_chars`).
_ALPHABET = frozenset(map(chr, range(256))) | frozenset("ąаα中ب")


def _in_class(items: list[tuple[Any, Any]], ch: str) -> bool:
    """Whether `ch` is in a parsed character class (`[...]`, `\\d`, `\\w`, `\\s` and their negations)."""
    from re import _constants as c  # type: ignore[attr-defined]

    negate, hit = False, False
    for op, av in items:
        if op is c.NEGATE:
            negate = True
        elif op is c.LITERAL:
            hit = hit or ord(ch) == av
        elif op is c.RANGE:
            hit = hit or av[0] <= ord(ch) <= av[1]
        elif op is c.CATEGORY:
            name = str(av).lower()
            test = ch.isdigit() if "digit" in name else ch.isspace() if "space" in name else ch.isalnum() or ch == "_"
            hit = hit or (test != ("not" in name))
        else:  # anything else: taken to match
            hit = True
    return hit != negate


def _first_chars(seq: Any) -> frozenset[str]:
    """The characters a parsed (sub)pattern can start with (over `_ALPHABET`; unknown constructs: all of it)."""
    from re import _constants as c  # type: ignore[attr-defined]

    repeats = {c.MAX_REPEAT, c.MIN_REPEAT, getattr(c, "POSSESSIVE_REPEAT", c.MAX_REPEAT)}
    out: set[str] = set()
    for op, av in seq:
        if op is c.LITERAL:
            return frozenset(out | {chr(av)})
        if op is c.NOT_LITERAL:
            return frozenset(out | (_ALPHABET - {chr(av)}))
        if op is c.IN:
            return frozenset(out | {ch for ch in _ALPHABET if _in_class(av, ch)})
        if op is c.AT:
            continue  # an anchor takes no character
        if op is c.SUBPATTERN:
            return frozenset(out | _first_chars(av[-1]))
        if op is c.BRANCH:
            return frozenset(out.union(*(_first_chars(b) for b in av[1])))
        if op in repeats:
            out |= _first_chars(av[2])
            if av[0] > 0:
                return frozenset(out)
            continue  # may repeat zero times: what follows can start it too
        return _ALPHABET
    return frozenset(out | {""})  # "": it can match nothing


def _branches_overlap(branches: list[Any], loop_first: frozenset[str]) -> bool:
    """Whether two alternatives inside an unbounded repeat can start alike. An alternative that can match nothing
    starts as the repeat's next round does (`loop_first`): `(a|aa)*` is parsed `(?:a(?:|a))*`, whose empty
    alternative and "a" both go on with an "a"; two empty ones (`(a|a)*` is parsed `(?:a(?:|))*`) always overlap."""
    firsts = []
    for b in branches:
        f = _first_chars(b)
        firsts.append(f - {""} | loop_first | {""} if "" in f else f)
    return any(firsts[i] & firsts[j] for i in range(len(firsts)) for j in range(i + 1, len(firsts)))


@functools.lru_cache(maxsize=4096)
def _nested_quantifier(pattern: str) -> bool:
    from re import _constants as c  # type: ignore[attr-defined]
    from re import _parser  # type: ignore[attr-defined]

    try:
        tree = _parser.parse(pattern)
    except (re.error, RecursionError, OverflowError):
        return True
    repeats = {c.MAX_REPEAT, c.MIN_REPEAT, getattr(c, "POSSESSIVE_REPEAT", c.MAX_REPEAT)}
    # (a subpattern, inside an unbounded repeat, the first characters of that repeat's body)
    stack: list[tuple[Any, bool, frozenset[str]]] = [(tree, False, frozenset())]
    while stack:
        node, inside, loop_first = stack.pop()
        for op, av in node:
            if op in repeats:
                _lo, hi, sub = av
                unbounded = hi == c.MAXREPEAT
                if unbounded and inside:
                    return True
                stack.append((sub, inside or unbounded, _first_chars(sub) - {""} if unbounded else loop_first))
            elif op is c.SUBPATTERN:
                stack.append((av[-1], inside, loop_first))
            elif op is c.BRANCH:
                if inside and _branches_overlap(av[1], loop_first):
                    return True
                stack.extend((branch, inside, loop_first) for branch in av[1])
            elif op in (c.ASSERT, c.ASSERT_NOT):
                stack.append((av[1], inside, loop_first))
            elif op is c.GROUPREF_EXISTS:
                stack.extend((branch, inside, loop_first) for branch in av[1:] if branch is not None)
            elif op is getattr(c, "ATOMIC_GROUP", None):
                stack.append((av, inside, loop_first))
    return False


def _instance_of(kind: type) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        if not isinstance(value, kind):
            raise ValueError(f"expected {kind.__name__}")
        return value

    return check


def _callable(value: Any) -> Any:
    if not callable(value):
        raise ValueError("expected a callable")
    return value


def _adapt(hint: Any) -> Any:
    """The hint pydantic validates for a parameter annotated `hint` (see the module docstring)."""
    if hint is int:
        return typing.Annotated[int, PlainValidator(_int)]
    if hint is float:
        return typing.Annotated[float, PlainValidator(_float)]
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        parts = tuple(_adapt(a) for a in args)
        return typing.Union[parts]  # noqa: UP007 - built from a tuple
    if origin is typing.Literal or hint is Any:
        return hint
    if origin in (cabc.Iterable, cabc.Sequence, list) and args and args[0] is str:
        return typing.Annotated[list[str], PlainValidator(_str_list)]
    if origin in (cabc.Sequence, list) and args and args[0] is float:
        return typing.Annotated[list[float], PlainValidator(_vector)]
    if origin in (cabc.Mapping, dict) and args and args[0] is str:
        return typing.Annotated[dict[str, Any], PlainValidator(_mapping)]
    if origin in (cabc.Sequence, list) and args:
        return cabc.Sequence[_adapt(args[0])]  # type: ignore[misc]
    if origin is cabc.Callable or hint is cabc.Callable:
        return typing.Annotated[Any, PlainValidator(_callable)]
    if isinstance(hint, type) and getattr(hint, "_is_protocol", False):
        if getattr(hint, "_is_runtime_protocol", False):
            return typing.Annotated[Any, PlainValidator(_instance_of(hint))]
        return Any
    return hint


# -- the decorator ----------------------------------------------------------------------------------------------


class _Checker:
    """The argument model of one method, built on its first call (every name its hints use is defined by then)."""

    def __init__(self, fn: Callable[..., Any]) -> None:
        self.fn = fn
        self.signature = inspect.signature(fn)
        self._model: type[BaseModel] | None = None
        self._lock = threading.Lock()
        self.name = f"{fn.__name__}()"

    def model(self) -> type[BaseModel]:
        if self._model is None:
            with self._lock:
                if self._model is None:
                    self._model = self._build()
        return self._model

    def _build(self) -> type[BaseModel]:
        module = sys.modules[self.fn.__module__]
        namespace = {**vars(typing), **vars(module)}
        fields: dict[str, Any] = {}
        for name, param in self.signature.parameters.items():
            if name in ("self", "cls"):
                continue
            hint = param.annotation
            if isinstance(hint, str):
                hint = eval(hint, namespace)  # noqa: S307 - the method's own annotation, written in this package
            if hint is inspect.Parameter.empty:
                hint = Any
            if param.kind is inspect.Parameter.VAR_KEYWORD:
                hint = dict[str, hint]  # type: ignore[valid-type]
            elif param.kind is inspect.Parameter.VAR_POSITIONAL:
                hint = tuple[hint, ...]  # type: ignore[valid-type]
            adapted = _adapt(hint)
            try:
                create_model("_probe", __config__=_CONFIG, x=(adapted, ...))
            except Exception:  # a hint pydantic has no schema for: checked inside the method instead
                adapted = Any
            default: Any = ... if param.default is inspect.Parameter.empty else param.default
            if param.kind is inspect.Parameter.VAR_KEYWORD:
                default = {}
            elif param.kind is inspect.Parameter.VAR_POSITIONAL:
                default = ()
            fields[name] = (adapted, default)
        model: type[BaseModel] = create_model(f"{self.fn.__qualname__}.arguments", __config__=_CONFIG, **fields)
        return model

    def arguments(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> inspect.BoundArguments:
        try:
            bound = self.signature.bind(*args, **kwargs)
        except TypeError as exc:
            missing = "user_id" not in kwargs and "'user_id'" in str(exc)
            error = MissingOwnerError if missing else ValidationError
            raise error(f"{self.name}: {exc}") from None
        given = {k: v for k, v in bound.arguments.items() if k not in ("self", "cls")}
        try:
            valid = self.model().model_validate(given)
        except PydanticValidationError as exc:
            raise self._error(exc) from None
        for name in given:
            bound.arguments[name] = getattr(valid, name)
        return bound

    def inner_error(self, exc: PydanticValidationError) -> ValidationError:
        """A pydantic error raised inside the method (a model it built from its arguments): the fields and what
        they expected, never the values."""
        parts = []
        for err in exc.errors(include_url=False)[:5]:
            where = ".".join(str(p) for p in err["loc"]) or exc.title
            msg = str(err["msg"]).removeprefix("Value error, ").replace("Input should be ", "expected ")
            parts.append(f"{where}: {msg}")
        return ValidationError(f"{self.name}: " + "; ".join(parts))

    def _error(self, exc: PydanticValidationError) -> ValidationError:
        """Parameter, what was expected and the type given; never the value."""
        found: dict[str, tuple[list[str], str]] = {}  # where -> (what was expected, the type given)
        owner = False
        for err in exc.errors(include_url=False):
            loc = err["loc"]
            # positions in lists only: the other parts of a location name pydantic's union branches
            where = str(loc[0]) + "".join(f"[{p}]" for p in loc[1:] if isinstance(p, int))
            owner = owner or loc[:1] == ("user_id",)
            msg = str(err["msg"]).removeprefix("Value error, ").replace("Input should be ", "expected ")
            got = "" if err["type"] == "missing" else f", got {type(err.get('input')).__name__}"
            expected, _ = found.setdefault(where, ([], got))
            if msg not in expected:
                expected.append(msg)
        parts = [f"{where}: {' or '.join(msgs)}{got}" for where, (msgs, got) in list(found.items())[:5]]
        error = MissingOwnerError if owner else ValidationError
        return error(f"{self.name}: " + "; ".join(parts))


def checked(fn: Callable[P, R]) -> Callable[P, R]:
    """Validate every argument of `fn` against its type hints (see the module docstring) before it runs."""
    checker = _Checker(fn)

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        bound = checker.arguments(args, kwargs)
        try:
            return fn(*bound.args, **bound.kwargs)
        except PydanticValidationError as exc:  # a model built inside from the arguments (settings, filters)
            raise checker.inner_error(exc) from None

    wrapper.__memgraph_checked__ = True  # type: ignore[attr-defined]
    return wrapper


def is_checked(fn: object) -> bool:
    """True when `fn` (a function or bound method) validates its arguments with `@checked`."""
    return bool(getattr(getattr(fn, "__func__", fn), "__memgraph_checked__", False))
