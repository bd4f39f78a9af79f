"""Helpers shared by the SGD family: step-size schedules, harmonic sums, the run's
validation preamble, the ±1 prediction rule and the hinge objective.

Every SGD algorithm of the texts keeps its iterate as a scaled sum,
w_t = θ_t/(λ s(t)), with s(t) = t − 1 (``schedule="pegasos"``: the paper and seed 002,
η_t = 1/(λt)) or s(t) = t (``schedule="ssbd"``: SSBD §15.5 and §16.3, which is the same
recursion with η_t = 1/(λ(t+1))). The average (1/T) Σ_t w_t then needs the harmonic sums
H(t) = Σ_{τ≤t} 1/s(τ) = H_{s(t)} (terms with s = 0 skipped).

The margin test, in both engines. The texts' test y_i⟨w_t, x_i⟩ < 1 (seed 002's
(1 − η_tλ) recursion, SSBD's w(t) = θ(t)/(λt)) is, since λ s(t) > 0, the same test as
y_i⟨θ_t, x_i⟩ < λ s(t). Both engines compute it in that form: first the sum of the data,
m = y_i⟨θ_t, x_i⟩ (θ_t = Σ c_j y_j x_j over the accepted steps; y_i Σ_j β_j K_ji with
kernels), then one division, margin = m/(λ s(t)), and the step fires when margin < 1.
For integer-valued data (the texts' worked examples, Lin's four points) m is an exact
integer, so the only rounding is that of λ s(t), the same number in both engines, and
exact ties y_i f(x_i) = 1 are resolved as exact arithmetic resolves them (no update).
Dividing m/L (L > 0, a float) keeps the strict order against 1 (m < L ⇔ fl(m/L) < 1,
since the largest double below 1 is 1 − 2⁻⁵³), so the fast engine's chunks may test
m < L directly. Any other order — w_t carried by the recursion w_{t+1} = (1 − η_tλ) w_t + …,
or θ/(λ s) formed before the dot product — rounds at every step and decides the exact
ties by its accumulated rounding error, differently from one engine to the other. The
multiclass scores are likewise (⟨θ, Ψ(x, y′) − Ψ(x, y)⟩ + L Δ(y′, y))/L in both engines,
with W(t) = θ(t)/L (:func:`svmcore.sgd.multiclass_common.scaled_scores`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypedDict

import numpy as np

from svmcore._sampling import IndexStream
from svmcore._validation import check_choice, check_int, check_T, check_X
from svmcore.trace import TraceRecorder, snapshot_times

__all__ = [
    "AVERAGINGS",
    "ENGINES",
    "RUN_OPTIONS",
    "SCHEDULES",
    "LinearDecision",
    "QueuedUpdates",
    "RunOptions",
    "RunSetup",
    "factor",
    "harmonic",
    "harmonic_array",
    "pegasos_eta",
    "predict_sign",
    "prepare_run",
    "schedule_shift",
]

SCHEDULES = ("pegasos", "ssbd")
AVERAGINGS = ("average", "last")
#: ``"fast"``: the vectorised engine; ``"textbook"``: the text's box, one step at a time.
ENGINES = ("fast", "textbook")

_H_TABLE_SIZE = 1 << 16
_H_TABLE = np.concatenate([[0.0], np.cumsum(1.0 / np.arange(1, _H_TABLE_SIZE + 1))])
_EULER_GAMMA = 0.57721566490153286061


def _harmonic_tail(n, log=np.log):
    """Euler–Maclaurin for H_n at n > 65536 (accurate to ~1e-30)."""
    n2 = 1.0 / (n * n)
    return log(n) + _EULER_GAMMA + 0.5 / n - n2 / 12.0 + n2 * n2 / 120.0 - n2**3 / 252.0


_H_LIST = _H_TABLE.tolist()  # Python floats: the scalar lookup of the fast engines


def harmonic(n: int) -> float:
    """The harmonic number H_n = Σ_{k=1..n} 1/k (H_0 = 0), to full double precision."""
    if n <= _H_TABLE_SIZE:
        return _H_LIST[n]
    return _harmonic_tail(float(n), math.log)


def harmonic_array(n) -> np.ndarray:
    """:func:`harmonic` for an integer array."""
    n = np.asarray(n, dtype=np.int64)
    out = np.empty(n.shape)
    small = n <= _H_TABLE_SIZE
    out[small] = _H_TABLE[n[small]]
    if not np.all(small):
        out[~small] = _harmonic_tail(n[~small].astype(np.float64))
    return out


def schedule_shift(schedule: str) -> int:
    """1 under "pegasos" (s(t) = t − 1), 0 under "ssbd" (s(t) = t)."""
    return 1 if schedule == "pegasos" else 0


def pegasos_eta(t: int, lam: float, schedule: str) -> float:
    """η_t of w_{t+1} = (1 − η_t λ) w_t + η_t g_t: 1/(λt) ("pegasos"), 1/(λ(t+1)) ("ssbd")."""
    return 1.0 / (lam * (t + 1 - schedule_shift(schedule)))


def factor(t: int, lam: float, schedule: str) -> float:
    """1/(λ s(t)) in w_t = θ_t/(λ s(t)); NaN where s(t) = 0 (t = 1 under "pegasos")."""
    s = t - schedule_shift(schedule)
    return 1.0 / (lam * s) if s > 0 else float("nan")


def predict_sign(f):
    """±1 labels from decision values: +1 where f > 0 (scikit-learn's rule)."""
    return np.where(f > 0, 1.0, -1.0)


class LinearDecision:
    """``decision_function`` and ``predict`` of a binary linear model (attributes w, b)."""

    w: np.ndarray
    b: float

    def decision_function(self, X) -> np.ndarray:
        """f(x) = ⟨w, x⟩ + b for each row of X, shape (n,)."""
        X = check_X(X)
        if X.shape[1] != self.w.shape[0]:
            raise ValueError(
                f"X has {X.shape[1]} features but the model was fitted on {self.w.shape[0]}"
            )
        return X @ self.w + self.b

    def predict(self, X) -> np.ndarray:
        """±1 predictions, sign(f(x)) (+1 where f > 0, −1 where f ≤ 0)."""
        return predict_sign(self.decision_function(X))


class QueuedUpdates:
    """For the binary fast models: accepted steps (i, t) are queued in ``queue_i`` and
    ``queue_t`` and folded in bulk, ``fold(ai, H)`` with H = H_{s(t)} per step, when
    :meth:`flush` is called (by the model, at each chunk and snapshot)."""

    shift: int
    queue_i: list
    queue_t: list

    def flush(self, limit: int = 0) -> None:
        """Fold the queued steps if there are more than ``limit``."""
        if len(self.queue_i) > limit:
            ai = np.asarray(self.queue_i, dtype=np.int64)
            H = harmonic_array(np.asarray(self.queue_t, dtype=np.int64) - self.shift)
            self.queue_i, self.queue_t = [], []
            self.fold(ai, H)

    def fold(self, ai: np.ndarray, H: np.ndarray) -> None:
        raise NotImplementedError


@dataclass
class RunSetup:
    """What every SGD run needs besides its data: the sampled indices, the snapshot
    times and the recorder (built by :func:`prepare_run`)."""

    T: int
    stream: IndexStream
    times: np.ndarray
    recorder: TraceRecorder
    textbook: bool


class RunOptions(TypedDict, total=False):
    """How a run is carried out and recorded: the keyword options every SGD function
    takes as ``**options: Unpack[RunOptions]`` (PEP 692), defined once here.

    Keys
    ----
    engine : {"fast", "textbook"}
        The vectorised engine, or the text's box one step at a time (the same decisions
        on every step, the same numbers to 1e-12).
    n_snapshots : int
        Number of snapshots in the trace (t = 1 and t = T always among them); default 100.
    snapshot_spacing : {"geometric", "linear"}
        Where the snapshots fall in 1..T; default geometric.
    n_steps : int
        Number of first steps recorded in detail; default 300.
    progress : callable, optional
        ``progress(t, T)``, called after each snapshot (for a progress bar) and at least
        every 2²⁰ steps between two snapshots
        (:data:`svmcore.trace.PROGRESS_EVERY`); raise an exception inside it to stop
        the run (it propagates).

    Cost: the fast engines take roughly 0.1–1 µs per step (a run of T = 10⁸, the cap,
    takes a minute or two: 86 s measured for linear Pegasos), the textbook engines ~10×
    more; memory does not grow with T beyond the snapshots.
    """

    engine: str
    n_snapshots: int
    snapshot_spacing: str
    n_steps: int
    progress: Callable[[int, int], None] | None


#: The arguments every SGD function shares, read by :func:`prepare_run` (with defaults):
#: the :class:`RunOptions` and the sampling/output options named in each signature.
RUN_OPTIONS = {
    "engine": "fast",
    "n_snapshots": 100,
    "snapshot_spacing": "geometric",
    "n_steps": 300,
    "progress": None,
    "sampling": "uniform",
    "indices": None,
    "random_state": None,
    "averaging": "average",
    "schedule": "pegasos",
    "batch_size": 1,
}


def prepare_run(algorithm: str, n: int, info: dict, arguments: dict) -> RunSetup:
    """Validate the arguments every SGD function shares and build its run.

    Parameters
    ----------
    algorithm : str
        The name stored in the trace.
    n : int
        Number of samples.
    info : dict
        Stored in the trace, with T, the sampling actually used and the engine.
    arguments : dict
        The calling function's arguments (its ``locals()``): ``T``, the keys of
        :data:`RUN_OPTIONS` and the ``options`` dict of its ``**options`` are read from it
        (the defaults where absent). ``batch_size`` must already be checked.

    Raises
    ------
    TypeError
        For a keyword in ``options`` that is not one of :class:`RunOptions`.
    """
    extra = dict(arguments.get("options") or {})
    unknown = sorted(set(extra) - set(RunOptions.__annotations__))
    if unknown:
        raise TypeError(f"{algorithm}() got an unexpected keyword argument {unknown[0]!r}")
    T = check_T(arguments["T"])
    arguments = {**arguments, **extra}
    options = {name: arguments.get(name, default) for name, default in RUN_OPTIONS.items()}
    check_choice(options["engine"], "engine", ENGINES)
    check_choice(options["averaging"], "averaging", AVERAGINGS)
    check_choice(options["schedule"], "schedule", SCHEDULES)
    check_int(options["n_steps"], "n_steps", low=0)
    stream = IndexStream(
        n,
        T * options["batch_size"],
        options["sampling"],
        options["indices"],
        options["random_state"],
    )
    times = snapshot_times(T, options["n_snapshots"], options["snapshot_spacing"])
    info = {**info, "T": T, "sampling": stream.sampling, "engine": options["engine"]}
    recorder = TraceRecorder(
        algorithm, times, n_steps=options["n_steps"], progress=options["progress"], info=info
    )
    return RunSetup(T, stream, times, recorder, options["engine"] == "textbook")
