"""What every seed panel shares: :class:`SeedPanel` and the number formats."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

import svmcore

__all__ = ["SeedPanel", "clean", "fmt", "run_indices", "snapshot_t", "vec"]


@dataclass(frozen=True)
class SeedPanel:
    """One item of the texts shown beside a run: the expander's title, its key (widget
    key ``f"{algorithm}_{key}"``) and the pure ``build(result, X, y, k, params)``."""

    key: str
    title: str
    build: Callable


def fmt(v: float) -> str:
    """A number with 10 significant digits (−0 as 0)."""
    return f"{float(v) + 0.0:.10g}"


def vec(v) -> list[str]:
    """A vector's coordinates as :func:`fmt` strings."""
    return [fmt(x) for x in np.asarray(v, dtype=float).ravel()]


def clean(v) -> np.ndarray:
    """``v`` with the rounding residue of w = θ/(λs) times s (below 1e-12 of its scale) as 0."""
    v = np.asarray(v, dtype=float)
    scale = max(1.0, float(np.max(np.abs(v), initial=0.0)))
    return np.where(np.abs(v) <= 1e-12 * scale, 0.0, v)


def snapshot_t(result, k: int) -> int:
    """The iteration t of snapshot k."""
    return int(result.trace.t[k])


def run_indices(params: dict, n: int, t: int) -> np.ndarray:
    """The run's i_1 … i_t (0-based): svmcore's own sampling stream for these settings."""
    return svmcore.sample_indices(
        n, t, params.get("sampling", "uniform"), params.get("random_state")
    )
