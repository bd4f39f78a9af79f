"""Shared by the svmcore fuzz tests: feed hostile arguments to public functions and sort
what comes back.

An outcome is one of

* ``"finite"``: the call returned and every number in the result is finite;
* ``"refused"``: a ``ValueError`` (``ArgumentTypeError`` and ``NotSeparableError`` are
  ValueErrors) whose message names the argument that was made hostile;
* ``"wrong type"``: any other exception (IndexError, OverflowError, NumPy's own
  TypeError, a RuntimeWarning turned into an error, …) or a ValueError that does not
  name the argument;
* ``"non-finite"``: a returned NaN or infinity that the function does not document.

The targets are 0 "wrong type" and 0 "non-finite".
"""

from __future__ import annotations

import dataclasses
import math
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning

#: Values that are not numbers, or numbers at or beyond every limit.
HOSTILE_NUMBERS = (
    "a",
    None,
    [1.0],
    {},
    math.nan,
    math.inf,
    -math.inf,
    -1,
    0,
    1e300,
    1e-300,
    True,
    1 + 1j,
    2**70,
)
#: Values that are not seeds.
HOSTILE_SEEDS = ("a", 1.5, math.nan, {}, -1, True, [], 2.5e9 + 0.5, object())


#: Result fields whose infinities are documented: a QP's bounds (±inf = no bound).
DOCUMENTED_INFINITE = ("problem",)


def numbers_in(value, seen=None, *, skip=DOCUMENTED_INFINITE):
    """Every float reachable in a result (arrays, dataclass fields, dicts, lists, traces)."""
    seen = set() if seen is None else seen
    if id(value) in seen:
        return
    seen.add(id(value))
    if isinstance(value, bool | str | bytes) or value is None or callable(value):
        return
    if isinstance(value, float | int | np.floating | np.integer):
        yield float(value)
    elif isinstance(value, np.ndarray):
        if value.dtype.kind in "fiu" and value.size:
            yield from np.asarray(value, dtype=float).ravel().tolist()
    elif isinstance(value, dict):
        for k, v in value.items():
            if k not in skip:
                yield from numbers_in(v, seen, skip=skip)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from numbers_in(v, seen, skip=skip)
    elif dataclasses.is_dataclass(value):
        for f in dataclasses.fields(value):
            if f.name not in skip:
                yield from numbers_in(getattr(value, f.name), seen, skip=skip)


def classify(call, name: str) -> tuple[str, str]:
    """Run ``call()`` with warnings as errors (but scikit-learn's ConvergenceWarning, the
    documented word of an estimator whose run stops before its tolerance, e.g. at
    tol=1e-300; its result must still be finite); return (outcome, detail)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.simplefilter("ignore", ConvergenceWarning)
        try:
            result = call()
        except ValueError as exc:  # includes ArgumentTypeError and NotSeparableError
            if name in str(exc):
                return "refused", ""
            return "wrong type", f"ValueError not naming {name}: {exc}"
        except Exception as exc:  # sorting every other outcome is the point
            return "wrong type", f"{type(exc).__name__}: {exc}"
    bad = [v for v in numbers_in(_documented(result)) if not math.isfinite(v)]
    if bad:
        return "non-finite", f"{len(bad)} non-finite numbers, e.g. {bad[0]}"
    return "finite", ""


def _documented(result):
    """The result without its documented non-finite entries: Algorithm 2's ``factor``
    1/(λ(t−1)) at t = 1 (seed 002 leaves it undefined; recorded as NaN)."""
    trace = getattr(result, "trace", None)
    if trace is None or "factor" not in getattr(trace, "steps", {}):
        return result
    steps = {k: (v[1:] if k == "factor" else v) for k, v in trace.steps.items()}
    fields = {f.name: getattr(result, f.name) for f in dataclasses.fields(result)}
    fields["trace"] = {"snapshots": trace.snapshots, "steps": steps}
    return fields


def sweep(calls) -> tuple[dict, list]:
    """``calls``: (label, argument name, zero-argument callable). Returns the counts per
    outcome and the list of failures (label, outcome, detail)."""
    counts: dict[str, int] = {}
    failures = []
    for label, name, call in calls:
        outcome, detail = classify(call, name)
        counts[outcome] = counts.get(outcome, 0) + 1
        if outcome in ("wrong type", "non-finite"):
            failures.append((label, outcome, detail))
    return counts, failures


def hostile_calls(fn, base: dict, names, values=HOSTILE_NUMBERS, *, label=None):
    """One call of ``fn(**base)`` per (argument in ``names``, hostile value)."""
    label = label or fn.__name__
    for name in names:
        for value in values:
            kwargs = {**base, name: value}
            yield f"{label}({name}={value!r})", name, (lambda kw=kwargs: fn(**kw))
