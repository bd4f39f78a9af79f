"""Checks of everything a share link or a lesson file holds: nothing read is trusted.

Every value is checked against its type and range, parameters against a :data:`Schema`
(name → :class:`ParamSpec`: type, range or choices, default) that the algorithm registry
supplies per algorithm; :data:`DEFAULT_SCHEMA` is a generic one for tests. A bad value is
dropped with a message naming the field and the rule (``"lam: 'abc' is not a number; the
default 0.01 is used"``), so that the page uses its default instead. Share links
(:mod:`svmlab.state.urlstate`, text values) and lesson files (:mod:`svmlab.state.lesson`,
JSON values)
read through the same functions and so give the same messages. Pure Python: no Streamlit.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass

from svmlab.state.classes import MAX_CLASSES

__all__ = [
    "ALGORITHMS",
    "ANY_VALUE",
    "COORD_BOUND",
    "DEFAULT_SCHEMA",
    "MAX_DONE",
    "MAX_SNAPSHOT",
    "MIN_REL_SPAN",
    "RESERVED",
    "ParamSpec",
    "Scalar",
    "Schema",
    "check_field",
    "check_param",
    "check_plane",
    "exercise_ids",
    "is_name",
    "is_page",
    "plane_problem",
    "read_fields",
    "resolve_schema",
    "show_value",
    "url_text",
    "version_problem",
]

Scalar = str | int | float | bool | None

#: The svmcore run functions a state may name (the generic check; the registry may pass
#: its own schema function instead).
ALGORITHMS = (
    "pegasos",
    "kernel_pegasos",
    "primal_svm",
    "dual_svm",
    "multiclass_sgd",
    "multiclass_pegasos",
    "one_vs_all",
)
#: Largest |coordinate| of a point or the plane (the files' cap is 1e6).
COORD_BOUND = 1e9
#: The smallest plane span, relative to its largest |coordinate| (keeps 16-bit
#: quantization exact under re-encoding: see :mod:`svmlab.state.urlstate`).
MIN_REL_SPAN = 1e-9
MAX_SNAPSHOT = 10**9
MAX_DONE = 64
#: Names a parameter may not take: the link's own keys (``v``, the fields, ``pts``).
RESERVED = ("v", "page", "alg", "classes", "plane", "snap", "present", "theme", "done", "pts")

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,31}")
_PAGE = re.compile(r"[a-z0-9_]{1,40}")
_EXERCISE = re.compile(r"[A-Za-z0-9_.-]{1,32}")
_INT = re.compile(r"[+-]?[0-9]{1,15}")
_TRUE, _FALSE = ("1", "true"), ("0", "false")


@dataclass(frozen=True)
class ParamSpec:
    """One parameter of an algorithm: its type, range or choices, and default.

    Parameters
    ----------
    kind : {"float", "int", "bool", "str", "text"}
        The value's type; "text": any single value (text, a finite number, true/false),
        kept as it is, for a widget to check as :func:`url_text` writes it.
    default : Scalar
        The value the page uses when the link has none (or a bad one).
    low, high : float, optional
        The closed range of a number.
    choices : tuple of str, optional
        The allowed values of a string.
    optional : bool
        Whether ``None`` (written ``none``) is allowed.
    """

    kind: str
    default: Scalar = None
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] | None = None
    optional: bool = False

    def __post_init__(self):
        if self.kind not in ("float", "int", "bool", "str", "text"):
            raise ValueError(f"kind must be float, int, bool, str or text, got {self.kind!r}")


Schema = Mapping[str, ParamSpec]


class AnyValue(dict):
    """A schema taking any parameter name with any single value (kind "text"): for a
    lesson file's settings, which the page's widgets check (:data:`ANY_VALUE`)."""

    def __missing__(self, key):
        return ParamSpec("text")

    def __contains__(self, key):
        return True


ANY_VALUE = AnyValue()

#: A generic schema covering the pages' parameters (for tests and as a fallback).
DEFAULT_SCHEMA: Schema = {
    "kernel": ParamSpec("str", "rbf", choices=("linear", "poly", "rbf")),
    "gamma": ParamSpec("float", 1.0, 1e-3, 1e3),
    "degree": ParamSpec("int", 2, 1, 10),
    "coef0": ParamSpec("float", 1.0, 0.0, 10.0),
    "lam": ParamSpec("float", 0.01, 1e-6, 1e2),
    "C": ParamSpec("float", 1.0, 1e-4, 1e6, optional=True),
    "eta": ParamSpec("float", 0.1, 1e-6, 1e2),
    "B": ParamSpec("float", 1.0, 1e-3, 1e3),
    "T": ParamSpec("int", 1000, 1, 1_000_000),
    "tol": ParamSpec("float", 1e-3, 1e-14, 1.0),
    "schedule": ParamSpec("str", "pegasos", choices=("pegasos", "ssbd", "fixed")),
    "averaging": ParamSpec("str", "last", choices=("last", "average", "suffix")),
    "sampling": ParamSpec("str", "uniform", choices=("uniform", "cyclic", "shuffle")),
    "solver": ParamSpec("str", "smo", choices=("smo", "qp")),
    "bias": ParamSpec("bool", True),
    "projection": ParamSpec("bool", False),
    "batch_size": ParamSpec("int", 1, 1, 1024),
    "random_state": ParamSpec("int", 0, 0, 2**32 - 1, optional=True),
}


def show_value(raw) -> str:
    """A value as a message quotes it: strings quoted, numbers as JSON, lists by kind."""
    if isinstance(raw, (list, tuple)):
        return "a list"
    if isinstance(raw, dict):
        return "an object"
    text = (
        repr(raw) if isinstance(raw, str) else json.dumps(raw, default=lambda o: type(o).__name__)
    )
    return text if len(text) <= 40 else text[:37] + "…"


def _number(raw) -> float:
    """A finite float from text or a JSON number; ValueError with the reason."""
    if isinstance(raw, bool) or not isinstance(raw, (str, int, float)):
        raise ValueError(f"{show_value(raw)} is not a number")
    try:
        value = float(raw)
    except (ValueError, OverflowError):
        raise ValueError(f"{show_value(raw)} is not a number") from None
    if not math.isfinite(value):
        raise ValueError(f"{show_value(raw)} is not a finite number")
    return value


def url_text(raw) -> str:
    """A single value as a URL writes it: text as it is, ``true``/``false``, an integer in
    decimal, a finite float by its shortest repr (``5.0`` → ``5``); ValueError otherwise."""
    if isinstance(raw, str):
        return raw
    if isinstance(raw, bool):
        return "true" if raw else "false"
    if isinstance(raw, int):
        return str(raw)
    if isinstance(raw, float):
        value = _number(raw)
        return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)
    raise ValueError(f"{show_value(raw)} is not a single value")


def _integer(raw) -> int:
    if isinstance(raw, int) and not isinstance(raw, bool):
        return raw
    if isinstance(raw, str) and _INT.fullmatch(raw):
        return int(raw)
    raise ValueError(f"{show_value(raw)} is not an integer")


def _boolean(raw) -> bool:
    if isinstance(raw, bool):
        return raw
    if isinstance(raw, str) and raw.lower() in _TRUE + _FALSE:
        return raw.lower() in _TRUE
    raise ValueError(f"{show_value(raw)} is not true/false (1/0)")


def _bound(value: float) -> str:
    return str(int(value)) if float(value).is_integer() and abs(value) < 1e12 else f"{value:g}"


def _in_range(value, low, high, raw):
    if (low is not None and value < low) or (high is not None and value > high):
        lo = "−∞" if low is None else _bound(low)
        hi = "∞" if high is None else _bound(high)
        raise ValueError(f"{show_value(raw)} is outside {lo}..{hi}")
    return value


def _read(raw, spec: ParamSpec):
    if spec.optional and (raw is None or raw == "none"):
        return None
    if spec.kind == "bool":
        return _boolean(raw)
    if spec.kind == "text":
        url_text(raw)
        return raw
    if spec.kind == "str":
        if not isinstance(raw, str) or (spec.choices is not None and raw not in spec.choices):
            raise ValueError(f"{show_value(raw)} is not one of {', '.join(spec.choices or ())}")
        return raw
    value = _integer(raw) if spec.kind == "int" else _number(raw)
    return _in_range(value, spec.low, spec.high, raw)


def check_param(name: str, raw, spec: ParamSpec) -> tuple[Scalar, str | None]:
    """Read one parameter (text from a link or a JSON value) against its spec.

    Returns
    -------
    (value, message) : tuple
        The value and None, or None and a message naming the parameter, the rule and the
        default used instead (e.g. ``"lam: 'abc' is not a number; the default 0.01 is used"``).
    """
    try:
        return _read(raw, spec), None
    except ValueError as exc:
        if spec.kind == "text":  # no default here: the widget keeps its value
            return None, f"{name}: {exc}; ignored"
        default = "" if spec.default is None else f" {spec.default!r}"
        return None, f"{name}: {exc}; the default{default} is used"


def resolve_schema(alg, schema) -> tuple[Schema | None, str | None]:
    """The parameter schema of algorithm ``alg``; ``schema`` is a mapping or a function.

    A function (the registry's) is called with the algorithm name and returns its schema,
    or None for an unknown algorithm. A mapping applies to the names in :data:`ALGORITHMS`.
    Returns ``(schema, message)``; the message says why there is none.
    """
    if alg is None:
        return (None if callable(schema) else schema), None
    found = schema(alg) if callable(schema) else (schema if alg in ALGORITHMS else None)
    if found is None:
        return None, f"alg: {show_value(alg)} is not a known algorithm; opened with the defaults"
    return found, None


def plane_problem(values) -> str | None:
    """Why ``(x0, x1, y0, y1)`` is not a usable plane range, or None."""
    x0, x1, y0, y1 = values
    for lo, hi, axis in ((x0, x1, "x"), (y0, y1, "y")):
        top = max(abs(lo), abs(hi))
        if top > COORD_BOUND:
            return f"the {axis} range reaches {top:g}, beyond ±{COORD_BOUND:g}"
        if not hi - lo >= MIN_REL_SPAN * max(1.0, top):
            return f"the {axis} range {lo:g}..{hi:g} is empty or reversed"
    return None


def _page(raw, pages):
    if not isinstance(raw, str) or not _PAGE.fullmatch(raw):
        raise ValueError(f"{show_value(raw)} is not a page name")
    if pages is not None and raw not in pages:
        raise ValueError(f"{show_value(raw)} is not a page of the app")
    return raw


def exercise_ids(raw) -> frozenset[str]:
    ids = raw.split(",") if isinstance(raw, str) else raw
    if not isinstance(ids, list):
        raise ValueError(f"{show_value(raw)} is not a list of exercise ids")
    ids = [i for i in ids if i != ""]
    if len(ids) > MAX_DONE:
        raise ValueError(f"{len(ids)} exercise ids, above the cap of {MAX_DONE}")
    bad = next((i for i in ids if not isinstance(i, str) or not _EXERCISE.fullmatch(i)), None)
    if bad is not None:
        raise ValueError(f"{show_value(bad)} is not an exercise id")
    return frozenset(ids)


def check_field(name: str, raw, *, pages: Collection[str] | None = None):
    """Read one of the state's scalar fields (page, classes, snap, present, done).

    Returns ``(value, message)`` like :func:`check_param`; a bad field is left out.
    """
    readers: dict[str, Callable] = {
        "page": lambda r: _page(r, pages),
        "classes": lambda r: _in_range(_integer(r), 2, MAX_CLASSES, r),
        "snap": lambda r: _in_range(_integer(r), 0, MAX_SNAPSHOT, r),
        "present": _boolean,
        "done": exercise_ids,
    }
    try:
        return readers[name](raw), None
    except ValueError as exc:
        return None, f"{name}: {exc}; ignored"


def is_name(text) -> bool:
    """Whether ``text`` is a usable algorithm or parameter name (an identifier, ≤ 32)."""
    return isinstance(text, str) and _NAME.fullmatch(text) is not None


def is_page(text) -> bool:
    """Whether ``text`` is a page's URL path (``[a-z0-9_]``, ≤ 40 characters)."""
    return isinstance(text, str) and _PAGE.fullmatch(text) is not None


def check_plane(raw) -> tuple[tuple[float, ...] | None, str | None]:
    """Read a plane range: ``"x0,x1,y0,y1"`` (a link) or a list of 4 numbers (a file)."""
    parts = raw.split(",") if isinstance(raw, str) else raw
    if not isinstance(parts, list) or len(parts) != 4:
        return None, f"plane: {show_value(raw)} is not 4 numbers x0,x1,y0,y1; ignored"
    try:
        values = tuple(_number(p) for p in parts)
    except ValueError as exc:
        return None, f"plane: {exc}; ignored"
    problem = plane_problem(values)
    return (None, f"plane: {problem}; ignored") if problem else (values, None)


def read_fields(q: Mapping, params: Mapping, schema, *, pages=None):
    """Read the state's fields from ``q`` and the algorithm's parameters from ``params``.

    Parameters
    ----------
    q : mapping
        Field name → raw value (text from a link, JSON values from a file); ``points``
        are read by the caller.
    params : mapping
        Parameter name → raw value.
    schema : mapping or callable
        See :func:`resolve_schema`.
    pages : collection of str, optional
        The app's page paths.

    Returns
    -------
    (fields, messages) : tuple of dict and list of str
        Keyword arguments for ``LabState`` (the fields that were read) and the problems.
    """
    fields: dict = {}
    messages: list[str] = []
    for name in ("page", "classes", "snap", "present", "done"):
        if q.get(name) is not None:
            value, msg = check_field(name, q[name], pages=pages)
            fields[name] = value
            messages += [msg] if msg else []
    alg = q.get("alg")
    if alg is not None and not is_name(alg):
        messages.append(f"alg: {show_value(alg)} is not a function name; opened with the defaults")
        alg = None
    spec, msg = resolve_schema(alg, schema)
    messages += [msg] if msg else []
    fields["alg"] = None if msg else alg
    read = {}
    for key, raw in params.items():
        if not is_name(key) or key in RESERVED:
            messages.append(f"{show_value(key)}: not a usable parameter name; ignored")
        elif spec is None:
            messages.append(f"{str(key)[:40]}: a parameter without a known algorithm; ignored")
        elif key not in spec:
            messages.append(f"{str(key)[:40]}: unknown parameter; ignored")
        else:
            value, msg = check_param(key, raw, spec[key])
            if msg is None:
                read[key] = value
            messages += [msg] if msg else []
    fields["params"] = read
    if q.get("plane") is not None:
        fields["plane"], msg = check_plane(q["plane"])
        messages += [msg] if msg else []
    return {k: v for k, v in fields.items() if v is not None and v != {}}, messages


def version_problem(raw, version: int) -> str | None:
    """Why ``raw`` is not the supported format ``version`` (a refusal message), or None."""
    if not isinstance(raw, bool) and raw in (version, str(version)):
        return None
    plain = isinstance(raw, (int, str)) and not isinstance(raw, bool)
    plain = plain and re.fullmatch(r"-?[0-9]{1,6}", str(raw)) is not None
    return f"version {raw if plain else show_value(raw)} is not supported; opened with the defaults"
