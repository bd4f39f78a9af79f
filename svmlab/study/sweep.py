"""A hyperparameter sweep (generalization): validation accuracy over a grid of two parameters.

The regularization (λ of the SGD texts, or C of Lin's soft-margin dual) against the
kernel width γ, as scikit-learn's "RBF SVM parameters" example draws it: for each cell
the svmcore function is trained on a seeded share of the training points and scored on
the rest (the validation part, :func:`svmlab.study.split.train_test_split`); the test points
of the page are never used. The cells are independent, so they run in parallel with
joblib (loky processes). Pure: no Streamlit, no figures.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from svmlab.study.split import train_test_split

__all__ = [
    "REGULARIZATION",
    "SweepResult",
    "cell_params",
    "fit_cell",
    "sweep",
    "sweep_names",
    "sweep_table",
]

#: The page parameters a sweep's first axis can vary, in the order they are looked for.
REGULARIZATION = ("lam", "C")


def sweep_names(params: dict) -> tuple[str, ...]:
    """The parameters of ``params`` a sweep varies: λ or C (when set), then γ (when set).

    An empty tuple: nothing to sweep (the perceptron; the hard margin without a kernel γ).
    """
    names = [name for name in REGULARIZATION if params.get(name) is not None][:1]
    if params.get("gamma") is not None:
        names.append("gamma")
    return tuple(names)


@dataclass(frozen=True, eq=False)
class SweepResult:
    """A sweep's grid: ``names`` (1 or 2 parameter names) and their ``values``.

    ``accuracy`` and ``train_accuracy`` (a, b) are the validation and training accuracy of
    each cell (NaN where the run failed; ``errors[i][j]`` says why, "" otherwise); ``Z``
    (a, b, r, r) what each cell's model gives on the plane's grid ``xs``, ``ys``: f(x) for a
    binary model, the predicted class index for a multiclass one. b = 1 with one name.
    """

    names: tuple[str, ...]
    values: tuple[tuple[float, ...], ...]
    accuracy: np.ndarray
    train_accuracy: np.ndarray
    errors: tuple[tuple[str, ...], ...]
    xs: np.ndarray
    ys: np.ndarray
    Z: np.ndarray
    n_train: int
    n_val: int

    @property
    def shape(self) -> tuple[int, int]:
        return self.accuracy.shape

    def cell(self, i: int, j: int) -> dict:
        """The parameters of cell (i, j) as {name: value}."""
        return {name: self.values[a][(i, j)[a]] for a, name in enumerate(self.names)}

    def best(self) -> tuple[int, int]:
        """The cell of the highest validation accuracy (the first one on a tie)."""
        if np.all(np.isnan(self.accuracy)):
            return 0, 0
        flat = int(np.nanargmax(self.accuracy))
        return divmod(flat, self.shape[1])


def cell_params(params: dict, names: Sequence[str], values: Sequence[Sequence[float]]):
    """The page's ``params`` with each grid cell's values, row-major: a list of dicts."""
    rows = values[0]
    cols = values[1] if len(names) > 1 else [None]
    out = []
    for r in rows:
        for c in cols:
            p = dict(params, **{names[0]: float(r)})
            if c is not None:
                p[names[1]] = float(c)
            out.append(p)
    return out


def fit_cell(fn: Callable, kwargs: dict, X_train, y_train, X_val, y_val, G):
    """Train ``fn(X_train, y_train, **kwargs)``; ``(val accuracy, train accuracy, Z, error)``.

    ``Z`` is f on the grid points ``G`` (binary) or the predicted class index (multiclass).
    A ``ValueError`` of svmcore (not separable, bad settings) gives NaN accuracies, no Z
    and its message.
    """
    try:
        result = fn(X_train, y_train, **kwargs)
    except (ValueError, FloatingPointError, OverflowError) as exc:
        return np.nan, np.nan, None, str(exc)
    val = float(np.mean(result.predict(X_val) == y_val))
    train = float(np.mean(result.predict(X_train) == y_train))
    F = np.asarray(result.decision_function(G), dtype=float)
    if F.ndim == 2:  # k scores: the class index of the largest
        F = np.argmax(F, axis=1).astype(float)
    return val, train, F, ""


def sweep(
    fn: Callable,
    params: dict,
    names: Sequence[str],
    values: Sequence[Sequence[float]],
    X,
    y,
    *,
    kwargs_of: Callable[[dict], dict] = dict,
    val_fraction: float = 0.3,
    random_state: int = 0,
    plane=((-3.0, 3.0), (-3.0, 3.0)),
    resolution: int = 40,
    n_jobs: int = 2,
    progress: Callable[[int, int], None] | None = None,
) -> SweepResult:
    """The validation accuracy of ``fn`` over the grid ``names`` × ``values``.

    Parameters
    ----------
    fn : callable
        The svmcore run function (``fn(X, y, **kwargs)`` with ``predict`` and
        ``decision_function`` on its result).
    params : dict
        The page's parameters; each cell replaces those named in ``names``.
    names, values : sequences
        One or two parameter names and their grid values (a and b values).
    X, y : arrays (n, 2), (n,)
        The training points; a stratified ``val_fraction`` of them (seed
        ``random_state``) is the validation part, the rest trains every cell.
    kwargs_of : callable
        Page parameters -> ``fn``'s keyword arguments (e.g. a spec's ``kwargs``, which
        builds the Kernel); called here, not in the workers.
    plane : ((x0, x1), (y0, y1))
        The plane of the small multiples; ``resolution`` grid points per axis.
    n_jobs : int
        Parallel processes (joblib's loky backend); 1 runs in this process.
    progress : callable, optional
        ``progress(done, total)`` after each cell.

    Raises
    ------
    ValueError
        If ``names`` is not one or two names with as many value lists, a value list is
        empty, or the validation split is refused (:func:`svmlab.study.split.train_test_split`).
    """
    names = tuple(names)
    values = tuple(tuple(float(v) for v in vs) for vs in values)
    if not 1 <= len(names) <= 2 or len(values) != len(names):
        raise ValueError(f"names must be 1 or 2 names with one value list each, got {names}")
    if any(len(vs) == 0 for vs in values):
        raise ValueError("values must hold at least one value per axis")
    n_jobs = int(n_jobs)
    if n_jobs < 1:
        raise ValueError(f"n_jobs must be >= 1, got {n_jobs}")
    from svmlab.state.plane import grid  # here, not at the top: the workers need no Plotly

    X = np.asarray(X, dtype=float).reshape(-1, 2)
    y = np.asarray(y)
    part = train_test_split(y, test_fraction=val_fraction, random_state=random_state)
    Xt, yt, Xv, yv = X[part.train], y[part.train], X[part.test], y[part.test]
    xs, ys, G = grid(plane[0], plane[1], int(resolution))
    cells = [kwargs_of(p) for p in cell_params(params, names, values)]
    if n_jobs == 1:
        jobs = (fit_cell(fn, kw, Xt, yt, Xv, yv, G) for kw in cells)
    else:
        from joblib import Parallel, delayed  # scikit-learn's dependency; only for sweeps

        run = Parallel(n_jobs=n_jobs, backend="loky", return_as="generator")
        jobs = run(delayed(fit_cell)(fn, kw, Xt, yt, Xv, yv, G) for kw in cells)
    out = []
    for done, cell in enumerate(jobs, start=1):
        out.append(cell)
        if progress is not None:
            progress(done, len(cells))
    a, b = len(values[0]), (len(values[1]) if len(names) > 1 else 1)
    r = int(resolution)
    Z = np.stack([np.full(r * r, np.nan) if c[2] is None else c[2] for c in out]).reshape(
        a, b, r, r
    )
    return SweepResult(
        names=names,
        values=values,
        accuracy=np.array([c[0] for c in out], dtype=float).reshape(a, b),
        train_accuracy=np.array([c[1] for c in out], dtype=float).reshape(a, b),
        errors=tuple(tuple(c[3] for c in out[i * b : (i + 1) * b]) for i in range(a)),
        xs=xs,
        ys=ys,
        Z=Z,
        n_train=int(part.train.size),
        n_val=int(part.test.size),
    )


def sweep_table(res: SweepResult) -> dict[str, list]:
    """The sweep's grid as columns, one row per cell: its parameters (by name), the
    validation and training accuracy (None where the run failed) and why it failed."""
    a, b = res.shape
    cells = [(i, j) for i in range(a) for j in range(b)]
    table: dict[str, list] = {name: [] for name in res.names}
    table.update({"validation accuracy": [], "training accuracy": [], "error": []})
    for i, j in cells:
        for name, value in res.cell(i, j).items():
            table[name].append(float(value))
        for col, arr in (
            ("validation accuracy", res.accuracy),
            ("training accuracy", res.train_accuracy),
        ):
            v = float(arr[i, j])
            table[col].append(None if np.isnan(v) else v)
        table["error"].append(res.errors[i][j])
    return table
