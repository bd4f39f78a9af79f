"""One run as the page draws it: the algorithm, the points, the parameters, the plane, and
then the run's result and the snapshot shown.

:class:`RunContext` is the one record a page hands to everything that draws or reports a
run (the runners and their caches, the panels, export, the exercises' goal box, the
headless renderer): no function takes ``(algorithm, X, y, …, plane)`` one by one. It is
frozen: the arrays are read-only views, ``params`` a private copy. Its inputs are hashed
once, on first use (:attr:`RunContext.run_key` for the run, :attr:`RunContext.key` with the
plane), so the caches key on a short string instead of hashing the points again each.

Pure (NumPy and the standard library): :mod:`svmlab.export.reproduce` rebuilds a page's
figure from the same record, without Streamlit.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from svmlab.state.plane import plane_range

__all__ = ["FIELDS", "RunContext"]

#: The fields of a run context that a page's record (and an old ``svmlab_shown`` dict) hold.
FIELDS = ("algorithm", "X", "y", "params", "plane", "result", "snapshot")

Range = tuple[tuple[float, float], tuple[float, float]]


def _frozen(a: np.ndarray) -> np.ndarray:
    view = a.view()
    view.flags.writeable = False
    return view


def _plane(plane, X: np.ndarray) -> Range:
    if plane is None:
        return plane_range(X)
    try:
        (x0, x1), (y0, y1) = plane
        out = (float(x0), float(x1)), (float(y0), float(y1))
    except (TypeError, ValueError):
        raise ValueError(f"plane must be ((x0, x1), (y0, y1)) or None, got {plane!r}") from None
    return out


def _feed(h, value) -> None:
    """Hash a parameter value by content (arrays by their bytes, never by a shortened repr)."""
    if isinstance(value, np.ndarray):
        h.update(f"array{value.dtype.str}{value.shape}".encode())
        h.update(np.ascontiguousarray(value).tobytes())
    elif isinstance(value, Mapping):
        h.update(b"{")
        for k in sorted(value, key=repr):
            h.update(repr(k).encode())
            _feed(h, value[k])
        h.update(b"}")
    elif isinstance(value, list | tuple):
        h.update(b"(" if isinstance(value, tuple) else b"[")
        for v in value:
            _feed(h, v)
        h.update(b")")
    else:
        h.update(f"{type(value).__name__}:{value!r};".encode())


@dataclass(frozen=True, eq=False)
class RunContext:
    """The run a page draws (see the module docstring).

    Parameters
    ----------
    algorithm : str
        The registry key (the svmcore function's name).
    X : array_like, shape (n, 2)
        The points the run trains on.
    y : array_like, shape (n,)
        Their labels (±1 on binary pages, 0..k−1 on the multiclass page).
    params : mapping
        The page's parameters: the svmcore keyword arguments (the kernel as ``kernel``,
        ``gamma``, ``degree``, ``coef0`` where the spec builds one).
    plane : ((x0, x1), (y0, y1)), optional
        The plane's axis ranges; None: around the points.
    result : object, optional
        The svmcore result of the run (:meth:`with_result`), once it has run.
    snapshot : int, optional
        The snapshot k shown (:meth:`at`).

    Raises
    ------
    ValueError
        If X is not (n, 2), y not (n,), params not a mapping or plane not two ranges.
    """

    algorithm: str
    X: np.ndarray
    y: np.ndarray
    params: Mapping = field(default_factory=dict)
    plane: Range | None = None
    result: Any = None
    snapshot: int | None = None

    def __post_init__(self) -> None:
        X = np.array(self.X, dtype=float)
        y = np.array(self.y)
        if X.size == 0 and X.ndim < 2:
            X = X.reshape(0, 2)
        if X.ndim != 2 or X.shape[1] != 2 or y.shape != (X.shape[0],):
            raise ValueError(f"X must be (n, 2) and y (n,), got {X.shape} and {y.shape}")
        if not isinstance(self.params, Mapping):
            raise ValueError(f"params must be a mapping, got {type(self.params).__name__}")
        if not isinstance(self.algorithm, str):
            raise ValueError(f"algorithm must be a registry key (str), got {self.algorithm!r}")
        set_ = object.__setattr__
        set_(self, "X", _frozen(X))
        set_(self, "y", _frozen(y))
        set_(self, "params", dict(self.params))
        set_(self, "plane", _plane(self.plane, X))
        if self.snapshot is not None:
            set_(self, "snapshot", int(self.snapshot))

    # -- the keys (hashed once) -------------------------------------------------------------
    @cached_property
    def data_key(self) -> str:
        """A short content hash of the points (X, y)."""
        h = hashlib.blake2b(digest_size=8)
        h.update(np.ascontiguousarray(self.X).tobytes())
        h.update(np.ascontiguousarray(self.y, dtype=float).tobytes())
        return h.hexdigest()

    @cached_property
    def run_key(self) -> str:
        """A content hash of the run's inputs: algorithm, points (with y's dtype), params."""
        h = hashlib.blake2b(digest_size=16)
        h.update(self.algorithm.encode())
        h.update(f"{self.X.shape}{self.y.dtype.str}".encode())
        h.update(np.ascontiguousarray(self.X).tobytes())
        h.update(np.ascontiguousarray(self.y).tobytes())
        _feed(h, self.params)
        return h.hexdigest()

    @cached_property
    def key(self) -> str:
        """:attr:`run_key` with the plane: the key of everything drawn on the plane."""
        (x0, x1), (y0, y1) = self.plane
        return f"{self.run_key}:{x0!r},{x1!r},{y0!r},{y1!r}"

    # -- derived contexts -------------------------------------------------------------------
    def _with(self, **changes) -> RunContext:
        """A copy with ``changes`` to result / snapshot (the inputs, and their keys, kept)."""
        out = copy.copy(self)  # the cached keys come along in __dict__
        for name, value in changes.items():
            object.__setattr__(out, name, value)
        return out

    def with_result(self, result) -> RunContext:
        """This context with the run's ``result``."""
        return self._with(result=result)

    def at(self, snapshot: int | None) -> RunContext:
        """This context at snapshot ``snapshot`` (an index k into the run's snapshots)."""
        return self._with(snapshot=None if snapshot is None else int(snapshot))

    def with_params(self, params: Mapping) -> RunContext:
        """The same points and plane with other parameters (a new run: no result yet)."""
        return RunContext(self.algorithm, self.X, self.y, params, self.plane)

    def same_run(self, other) -> bool:
        """Whether ``other`` is a context of the same run (algorithm, points, params)."""
        return isinstance(other, RunContext) and other.run_key == self.run_key

    @classmethod
    def of(cls, shown) -> RunContext:
        """A context from a context or a mapping with its fields (``k`` for ``snapshot``).

        Raises
        ------
        ValueError
            If a field is missing or malformed.
        """
        if isinstance(shown, RunContext):
            return shown
        if not isinstance(shown, Mapping):
            raise ValueError(f"shown must be a RunContext or a mapping, got {type(shown).__name__}")
        snapshot = shown.get("snapshot", shown.get("k"))
        missing = [f for f in ("algorithm", "X", "y", "params") if f not in shown]
        if missing:
            raise ValueError(f"shown must have the fields {FIELDS[:5]}; missing {missing}")
        ctx = cls(shown["algorithm"], shown["X"], shown["y"], shown["params"], shown.get("plane"))
        return ctx._with(
            result=shown.get("result"), snapshot=None if snapshot is None else int(snapshot)
        )

    @property
    def n(self) -> int:
        """The number of points."""
        return int(self.X.shape[0])

    def __repr__(self) -> str:
        k = "" if self.snapshot is None else f", k={self.snapshot}"
        ran = "" if self.result is None else ", ran"
        return f"RunContext({self.algorithm!r}, n={self.n}, params={self.params!r}{k}{ran})"
