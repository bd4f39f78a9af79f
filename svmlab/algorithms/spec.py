"""The shape of one algorithm's entry in the registry, and the helpers the entries share.

An :class:`AlgorithmSpec` holds everything the app needs of one svmcore algorithm: its
title and page, the svmcore function itself, the app's caps, the control builder (the
widgets that make the keyword arguments), the pseudo-code (tagged lines, see
:mod:`svmlab.plot.pseudocode`), the inspector's rows of a step in the text's notation, the
model view of a result (:mod:`svmlab.plot.views`), the metrics, the objective's formula and
the check against scikit-learn. Runners, playback, the inspector and the pages read
these fields; none of them branches on an algorithm's name.
"""

from __future__ import annotations

import functools
import inspect
import typing
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

import svmcore
from svmlab.plot.pseudocode import num

__all__ = [
    "AlgorithmSpec",
    "CapError",
    "Caps",
    "accuracy_row",
    "index_rows",
    "inspected_steps",
    "margin_rows",
    "sgd_metrics",
    "snapshot_rows",
]


class CapError(ValueError):
    """n or T above the app's caps."""


@dataclass(frozen=True)
class Caps:
    """The app's caps on n (points) and T (iterations; None: no T); stated in the UI."""

    n: int
    T: int | None = None

    def check(self, n: int, T: int | None = None) -> None:
        """Raise :class:`CapError` if n or T exceed the caps."""
        if n > self.n:
            raise CapError(
                f"This page runs on at most n = {self.n} points (you have {n}); "
                "remove some points or pick a smaller preset."
            )
        if T is not None and self.T is not None and T > self.T:
            raise CapError(f"T is capped at {self.T:,} on this page (asked for {T:,}).")


#: The functions every entry module defines (see :meth:`AlgorithmSpec.of`).
PARTS = ("controls", "code", "view", "metrics", "rows", "objective")


def _no_check(params: dict) -> bool:
    return True


@dataclass(frozen=True, eq=False)
class AlgorithmSpec:
    """One algorithm of the app, keyed by its svmcore function name ``key``.

    Callables (all but ``controls`` and ``extras`` are pure):

    * ``controls(key, X, y) -> params``: the widgets (keys ``f"{key}_…"``) → svmcore kwargs;
    * ``code(params) -> [Line]``: the pseudo-code of the options chosen (tagged lines);
    * ``view(result, X, y)``: a model view (:mod:`svmlab.plot.views`);
    * ``metrics(result, X, y, k, values) -> {label: text}``; ``values`` are the view's
      grid values at snapshot k;
    * ``rows(step, y, params) -> [(symbol, value)]``: a step in the text's notation;
    * ``objective(params) -> LaTeX``: the objective the options chosen minimise;
    * ``curve_labels(params) -> {snapshot field: name}``: names of the curves under the plane;
    * ``check(X, y, result, params) -> [CheckLine]`` (when ``check_applies(params)``);
    * ``extras(result, params)``: more Streamlit output under the report (the dual's KKT);
    * ``problem(X, params) -> str | None``: why a run cannot start (beyond the data check);
    * ``not_separable()``: what to offer when svmcore says the data are not separable.
    * ``seed_panels``: the texts' derivations shown beside the run, each a lazy expander
      (:class:`svmlab.algorithms.seed_panels.SeedPanel`, pure ``build``).
    * ``optimum(X, y, kwargs)``: the exact minimum of the SGD run's own objective (svmcore
      keyword arguments ``kwargs``; see :mod:`svmlab.study.convergence`), an
      :class:`svmcore.optimum.soft_svm.ExactOptimum` (``objective``, ``duality_gap``, ``status``,
      ``solver``); raises ``ValueError`` when no exact
      solver applies to these options. ``rate``: the text's rate for the guide line
      (:data:`svmlab.study.convergence.RATES`). ``no_optimum``: why an SGD algorithm has no
      convergence view (shown instead of it); both unset: no convergence panel.

    ``n_classes``: 2 for a binary algorithm, None when the page chooses k.
    """

    key: str
    title: str
    page: str
    fn: Callable
    caps: Caps
    controls: Callable
    code: Callable
    view: Callable
    metrics: Callable
    rows: Callable
    objective: Callable
    curve_labels: Callable = lambda params: {}
    kernel_params: bool = False
    bars: bool = False
    dual_curves: bool = False
    check: Callable | None = None
    check_applies: Callable = _no_check
    check_caption: str = ""
    plane_caption: str = ""
    step_title: str = "Step by step: the first steps beside the pseudo-code"
    extras: Callable | None = None
    problem: Callable | None = None
    not_separable: Callable | None = None
    n_classes: int | None = 2
    optimum: Callable | None = None
    rate: str = "log"
    no_optimum: str = ""
    seed_panels: tuple = ()

    @classmethod
    def of(cls, entry: dict, **fields) -> AlgorithmSpec:
        """The spec of an entry module: its functions named as the parts (``controls``,
        ``code``, ``view``, ``metrics``, ``rows``, ``objective``; ``entry`` is the module's
        ``globals()``) plus ``fields``; ``key`` defaults to ``fields["fn"].__name__``."""
        fields.setdefault("key", fields["fn"].__name__)
        parts = {name: entry[name] for name in PARTS if name not in fields}
        return cls(**parts, **fields)

    def kwargs(self, params: dict) -> dict:
        """svmcore keyword arguments from the page's ``params`` (a Kernel built if needed)."""
        kw = dict(params)
        if self.kernel_params:
            kw["kernel"] = svmcore.make_kernel(
                kw.pop("kernel", "rbf"),
                gamma=kw.pop("gamma", 1.0),
                degree=kw.pop("degree", 3),
                coef0=kw.pop("coef0", 1.0),
            )
        return kw

    def fit(self, X, y, params: dict, progress=None):
        """Run the svmcore function on (X, y) after checking the caps."""
        X = np.asarray(X, dtype=float)
        y = np.asarray(y)
        self.caps.check(X.shape[0], params.get("T"))
        kw = self.kwargs(params)
        if progress is not None and "progress" in keywords(self.fn):
            kw["progress"] = progress
        return self.fn(X, y, **kw)


@functools.cache
def keywords(fn) -> frozenset[str]:
    """The keyword arguments ``fn`` takes: its named parameters and the keys of a
    ``**options: Unpack[RunOptions]`` (svmcore's SGD functions, PEP 692)."""
    params = inspect.signature(fn, eval_str=True).parameters
    names = set(params)
    for p in params.values():
        if p.kind is p.VAR_KEYWORD and typing.get_origin(p.annotation) is typing.Unpack:
            names |= set(typing.get_args(p.annotation)[0].__annotations__)
    return frozenset(names)


def inspected_steps(spec: AlgorithmSpec, X, y, params: dict, trace) -> dict:
    """The first recorded steps of a run as the inspector shows them: the text's step.

    When the svmcore function offers ``engine="textbook"`` (the plain loop of the text,
    one iteration at a time), the first ``n_steps`` recorded indices are replayed through
    it (``indices=``, 0-based) and its steps are returned; otherwise the run's own
    recorded steps. Either way a dict of arrays, one entry per step field.
    """
    steps = dict(trace.steps)
    n = trace.n_steps
    names = keywords(spec.fn)
    one_sample = int(params.get("batch_size", 1)) == 1  # mini-batches record A_t's first index
    if n == 0 or "engine" not in names or "indices" not in names or "i" not in steps:
        return steps
    if not one_sample:
        return steps
    kw = spec.kwargs(params)
    kw.update(T=n, indices=np.asarray(steps["i"][:n], dtype=np.int64), engine="textbook")
    if "n_steps" in names:
        kw["n_steps"] = n
    kw.pop("progress", None)
    replay = spec.fn(np.asarray(X, dtype=float), np.asarray(y), **kw)
    return dict(replay.trace.steps)


# -- rows shared by the entries ---------------------------------------------------------
def accuracy_row(train_error: float) -> str:
    """Training accuracy from a training error, as shown."""
    return f"{100 * (1 - float(train_error)):.1f} %"


def snapshot_rows(s: dict, k: int, labels: dict) -> dict:
    """Rows from the snapshot fields ``labels`` (field -> label) present at snapshot k."""
    out = {}
    if "train_error" in s:
        out["training accuracy"] = accuracy_row(s["train_error"][k])
    if "n_support" in s:
        out["support vectors"] = f"{int(s['n_support'][k])}"
    for name, label in labels.items():
        if name in s:
            out[label] = f"{float(s[name][k]):.6g}"
    return out


def margin_rows(norm2: float, where: str = "") -> dict:
    """Lin's margin 1/‖w‖ and the band width 2/‖w‖ between f = ±1, from ‖w‖²."""
    if not norm2 > 0:
        return {f"margin 1/‖w‖{where}": "∞ (w = 0)"}
    nw = float(np.sqrt(norm2))
    return {f"margin 1/‖w‖{where}": f"{1 / nw:.4g}", f"band width 2/‖w‖{where}": f"{2 / nw:.4g}"}


def sgd_metrics(s: dict, k: int, norm2: float, where: str = "") -> dict:
    """A binary SGD snapshot's rows: accuracy, #SV, Lin's margin from ‖w‖², the objective."""
    out = snapshot_rows(s, k, {})
    out.update(margin_rows(norm2, where))
    out.update(snapshot_rows(s, k, {"objective": "primal objective"}))
    return out


def index_rows(step: dict, y, symbol: str = "i") -> list[tuple[str, str]]:
    """t, the sampled index (1-based, as the texts count) and its label."""
    rows = [("t", num(step.get("t")))]
    i = step.get("i")
    if i is not None:
        rows.append((f"sampled {symbol} (1-based)", num(int(i) + 1)))
        if y is not None and 0 <= int(i) < len(y):
            rows.append((f"y_{symbol}", num(int(y[int(i)]))))
    return rows


def loop_lines(o: dict, i: str = "i", m: str = "n") -> list:
    """The loop head and the sampling of the SGD codes under the options ``o``.

    Cyclic sampling is seed 002's ``for iter … for j …`` epoch loop; uniform sampling
    the texts' "choose i uniformly at random"; shuffled epochs a fresh random order.
    """
    from svmlab.plot.pseudocode import Line

    if o.get("sampling") == "cyclic":
        return [
            Line("for iter = 1, 2, … do", "step"),
            Line(f"  for {i} = 1, 2, …, {m} do   (t = t + 1)", "step"),
        ]
    lines = [Line("for t = 1, 2, …, T do", "step")]
    if o.get("sampling") == "shuffle":
        lines.append(
            Line(f"    {i} = the next index of a fresh random order of {{1, …, {m}}}", "step")
        )
    else:
        lines.append(Line(f"    choose {i} uniformly at random from {{1, …, {m}}}", "step"))
    return lines


def sample_symbol(o: dict) -> str:
    """The sampled index's name in the text: seed 002's j in its epoch loop, else i."""
    return "j" if o.get("sampling") == "cyclic" else "i"
