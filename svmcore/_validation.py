"""Input checks shared by every algorithm: each failure is a ``ValueError`` that names
the argument and the rule it broke, so that the app can show the message as it is.

A value of the wrong *type* (a string where a number belongs, a complex, masked or
datetime array, a float as a seed) raises :class:`svmcore.exceptions.ArgumentTypeError`,
which is both a ``TypeError`` and a ``ValueError``: one rule for every argument."""

from __future__ import annotations

import numbers

import numpy as np

from svmcore.exceptions import ArgumentTypeError

#: Largest number of iterations any run accepts; a bigger T is refused rather than
#: left to run for hours (the app caps T far lower and says so).
MAX_T = 100_000_000


def check_X(X, *, name: str = "X", min_samples: int = 1) -> np.ndarray:
    """Return ``X`` as a finite float64 array of shape (n, d).

    Raises
    ------
    ArgumentTypeError
        For a masked array (its masked entries would silently count as numbers), complex
        values (the imaginary part would be dropped), datetime64/timedelta64 values (their
        integer ticks are not coordinates) or anything that is not numeric.
    ValueError
        For a wrong shape, NaN or infinity, or coordinates so large that squared
        distances overflow (:func:`check_magnitude`).
    """
    if np.ma.isMaskedArray(X):
        raise ArgumentTypeError(
            f"{name} must be a plain numeric array, got a masked array: its masked entries "
            f"would be used as numbers (fill them, {name}.filled(value), or drop those rows)"
        )
    try:
        raw = np.asarray(X)
    except (TypeError, ValueError) as exc:
        raise ArgumentTypeError(f"{name} must be a numeric array of shape (n, d): {exc}") from None
    if raw.dtype.kind in "cmM":
        what = {"c": "complex", "m": "timedelta64", "M": "datetime64"}[raw.dtype.kind]
        raise ArgumentTypeError(
            f"{name} must be a real numeric array, got dtype {raw.dtype} ({what} values "
            "are not coordinates)"
        )
    try:
        X = raw.astype(np.float64, copy=False)
    except (TypeError, ValueError) as exc:
        raise ArgumentTypeError(f"{name} must be a numeric array of shape (n, d): {exc}") from None
    if X.ndim != 2:
        raise ValueError(f"{name} must be 2-dimensional of shape (n, d), got shape {X.shape}")
    if X.shape[0] < min_samples:
        raise ValueError(f"{name} must have at least {min_samples} sample(s), got {X.shape[0]}")
    if X.shape[1] < 1:
        raise ValueError(f"{name} must have at least one feature, got shape {X.shape}")
    if X.size and max(float(X.max()), -float(X.min())) <= max_coordinate(X.shape[1]):
        return X  # the fast path (two reductions, no temporaries): NaN fails the test
    if not np.all(np.isfinite(X)):
        bad = np.argwhere(~np.isfinite(X))[0]
        raise ValueError(
            f"{name} must be finite (no NaN or infinity); "
            f"found {X[tuple(bad)]} at row {bad[0]}, column {bad[1]}"
        )
    check_magnitude(X, name=name)
    return X


#: Largest double, and the largest |coordinate| for which every squared distance
#: ‖x − x′‖² = Σ_k (x_k − x′_k)² and every squared norm of a d-dimensional array stays
#: finite: (2 · M)² · d ≤ DBL_MAX.
DBL_MAX = float(np.finfo(np.float64).max)


def max_coordinate(d: int) -> float:
    """The largest |coordinate| whose squared distances in d dimensions cannot overflow."""
    return float(np.sqrt(DBL_MAX / (4.0 * max(int(d), 1))))


def check_magnitude(X: np.ndarray, *, name: str = "X") -> None:
    """Refuse coordinates so large that squared distances overflow double precision.

    A silent ``inf`` (and then NaN) in a Gram matrix or a norm would otherwise surface as
    a wrong verdict ("not separable") or a NaN model; naming the overflow is the truth.
    """
    if X.size == 0:
        return
    limit = max_coordinate(X.shape[1])
    big = float(np.max(np.abs(X)))
    if big > limit:
        bad = np.unravel_index(int(np.argmax(np.abs(X))), X.shape)
        raise ValueError(
            f"{name} has a coordinate of magnitude {big:.3g} (row {bad[0]}, column {bad[1]}): "
            f"squared distances between points would overflow double precision; "
            f"coordinates must be at most {limit:.3g} in absolute value for d = {X.shape[1]} "
            "(rescale the data)"
        )


def check_binary_y(y, n: int, *, name: str = "y") -> np.ndarray:
    """Return ``y`` as a float64 vector of −1/+1 labels with both classes present."""
    y_arr = np.asarray(y)
    if y_arr.ndim != 1:
        raise ValueError(f"{name} must be 1-dimensional, got shape {y_arr.shape}")
    if y_arr.shape[0] != n:
        raise ValueError(f"{name} has {y_arr.shape[0]} labels but X has {n} rows")
    try:
        y_f = y_arr.astype(np.float64)
    except (TypeError, ValueError):
        raise ValueError(
            f"{name} must contain only the labels -1 and +1, got {np.unique(y_arr)[:5]}"
        ) from None
    if not np.all((y_f == 1.0) | (y_f == -1.0)):
        bad = np.unique(y_f[(y_f != 1.0) & (y_f != -1.0)])
        raise ValueError(
            f"{name} must contain only the labels -1 and +1 (found {bad[:5].tolist()}); "
            "the estimator classes accept any two labels"
        )
    if np.all(y_f == y_f[0]):
        raise ValueError(
            f"{name} must contain both classes -1 and +1; all {n} labels are {int(y_f[0]):+d}"
        )
    return y_f


def check_positive(value, name: str, *, allow_zero: bool = False) -> float:
    """Return ``value`` as a float that is > 0 (or >= 0 with ``allow_zero``)."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
        raise ArgumentTypeError(f"{name} must be a real number, got {value!r}")
    value = float(value)
    if not np.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value}")
    if allow_zero:
        if value < 0:
            raise ValueError(f"{name} must be >= 0, got {value}")
    elif value <= 0:
        raise ValueError(f"{name} must be > 0, got {value}")
    return value


def check_bool(value, name: str) -> bool:
    """Return ``value`` as a bool; anything but True/False (or NumPy's) is refused."""
    if not isinstance(value, bool | np.bool_):
        raise ArgumentTypeError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def check_int(value, name: str, *, low: int = 1, high: int | None = None) -> int:
    """Return ``value`` as an int in [low, high]."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Integral):
        if isinstance(value, numbers.Real) and float(value).is_integer():
            value = int(value)
        else:
            raise ArgumentTypeError(f"{name} must be an integer, got {value!r}")
    value = int(value)
    if value < low:
        raise ValueError(f"{name} must be >= {low}, got {value}")
    if high is not None and value > high:
        raise ValueError(f"{name} must be <= {high}, got {value}")
    return value


def check_T(T) -> int:
    """The number of iterations: an integer in [1, MAX_T]."""
    return check_int(T, "T", low=1, high=MAX_T)


#: What ``random_state`` may be besides None and integers (NumPy's own seed objects).
_RNG_TYPES = (np.random.Generator, np.random.BitGenerator, np.random.SeedSequence)


def check_random_state(random_state, name: str = "random_state") -> np.random.Generator:
    """The ``np.random.default_rng`` of a seed, the one place randomness enters svmcore.

    Accepted: None (fresh entropy), an integer >= 0 (an integer-valued float too, as
    :func:`check_int` accepts), a non-empty sequence of such integers, or a NumPy
    ``Generator`` (used as it is), ``BitGenerator`` or ``SeedSequence``. Anything else
    — a string, 1.5, NaN, a dict, a bool — raises :class:`ArgumentTypeError` (a
    ``TypeError`` and a ``ValueError``) naming ``name``; a negative integer a
    ``ValueError``. The same seed gives the same generator as NumPy's own
    ``default_rng`` (no bits change).
    """
    if random_state is None or isinstance(random_state, _RNG_TYPES):
        return np.random.default_rng(random_state)
    scalar = isinstance(random_state, numbers.Real)
    if scalar or (np.iterable(random_state) and not isinstance(random_state, str | bytes | dict)):
        values = [random_state] if scalar else list(np.asarray(random_state, dtype=object).ravel())
        ints = [_seed_int(v) for v in values]
        if values and None not in ints:
            if min(ints) < 0:
                raise ValueError(f"{name} must be >= 0 (a seed), got {random_state!r}")
            return np.random.default_rng(ints[0] if scalar else ints)
    raise ArgumentTypeError(
        f"{name} must be None, an integer >= 0, a sequence of such integers or a numpy "
        f"Generator, got {random_state!r}"
    )


def _seed_int(value) -> int | None:
    """``value`` as a Python int if it is an integer (or an integer-valued float)."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
        return None
    if isinstance(value, numbers.Integral):
        return int(value)
    value = float(value)
    return int(value) if np.isfinite(value) and value.is_integer() else None


def check_progress(progress, name: str = "progress"):
    """A run's progress callback: None or a callable ``progress(k, K)`` (refused otherwise)."""
    if progress is not None and not callable(progress):
        raise ArgumentTypeError(f"{name} must be a callable {name}(k, K) or None, got {progress!r}")
    return progress


def check_choice(value, name: str, choices) -> str:
    """Return ``value`` if it is one of ``choices``."""
    if value not in choices:
        raise ValueError(f"{name} must be one of {list(choices)}, got {value!r}")
    return value


def check_indices(indices, n: int, T: int, *, name: str = "indices") -> np.ndarray:
    """Explicit 0-based sample indices: exactly T integers in [0, n)."""
    idx = np.asarray(indices)
    if idx.ndim != 1:
        raise ValueError(f"{name} must be 1-dimensional, got shape {idx.shape}")
    if idx.shape[0] != T:
        raise ValueError(f"{name} must have length T = {T}, got {idx.shape[0]}")
    if idx.size and not np.issubdtype(idx.dtype, np.integer):
        if np.issubdtype(idx.dtype, np.floating) and np.all(np.mod(idx, 1) == 0):
            idx = idx.astype(np.int64)
        else:
            raise ValueError(f"{name} must be integers (0-based sample indices)")
    idx = idx.astype(np.int64)
    if idx.size and (idx.min() < 0 or idx.max() >= n):
        bad = idx[(idx < 0) | (idx >= n)][0]
        raise ValueError(f"{name} must lie in [0, {n - 1}] (0-based); found {bad}")
    return idx


def check_class_weight(class_weight, y: np.ndarray) -> np.ndarray:
    """Per-sample weights c_i for ±1 labels, as in seed 002 §2.1.

    ``None`` gives 1 for everyone; ``"balanced"`` gives n / (2 n_y), so each class
    carries the same total weight (scikit-learn's rule); a dict maps -1 and +1 to
    positive weights (missing labels get 1).
    """
    n = y.shape[0]
    if class_weight is None:
        return np.ones(n)
    if isinstance(class_weight, str):
        check_choice(class_weight, "class_weight", ["balanced"])
        weights = {}
        for label in (-1.0, 1.0):
            weights[label] = n / (2.0 * np.count_nonzero(y == label))
        return np.where(y > 0, weights[1.0], weights[-1.0])
    if isinstance(class_weight, dict):
        out = np.ones(n)
        for label, weight in class_weight.items():
            if label not in (-1, 1):
                raise ValueError(f"class_weight keys must be the labels -1 and +1, got {label!r}")
            check_positive(weight, f"class_weight[{label}]")
            out[y == label] = float(weight)
        return out
    raise ValueError(
        f"class_weight must be None, 'balanced' or a dict {{-1: c, +1: c}}, got {class_weight!r}"
    )


#: Headroom below DBL_MAX kept by :func:`check_overflow` for sums and rounding.
OVERFLOW_HEADROOM = 16.0


def check_overflow(
    value, name: str, *, quadratic=0.0, linear=0.0, fixed=0.0, what: str, upper: bool = False
) -> None:
    """Refuse a step-size parameter for which a run's numbers could overflow.

    A run's largest magnitude is bounded a priori by max{(q/λ)², l/λ, f} with
    q = ``quadratic``, l = ``linear``, f = ``fixed`` (for λ = ``value``; with ``upper``
    the parameter is a step size η and λ = 1/η). ``ValueError`` names the parameter,
    what would overflow and the limit on ``value`` that keeps every number finite.
    """
    limit = DBL_MAX / OVERFLOW_HEADROOM
    if not fixed <= limit:
        raise ValueError(
            f"X is too large for this run: {what} would overflow double precision "
            "whatever the step size (rescale X, or use a smaller T)"
        )
    lam_min = max(quadratic / np.sqrt(limit), linear / limit)
    lam = 1.0 / value if upper else value
    if lam >= lam_min:
        return
    if upper:
        bound = f"{name} must be at most {1.0 / lam_min:.3g}"
        size = "large"
    else:
        bound = f"{name} must be at least {lam_min:.3g}"
        size = "small"
    raise ValueError(
        f"{name} = {value:.3g} is too {size} for this data: {what} would overflow double "
        f"precision; {bound} here (or rescale X)"
    )


def check_kernel_range(kernel, X: np.ndarray) -> float:
    """The largest |K(x, x′)| on X (≤ max_i K(x_i, x_i), K being PSD), refused when it
    overflows double precision (a polynomial kernel of a high degree on large inputs)."""
    with np.errstate(over="ignore", invalid="ignore"):
        k_max = float(np.max(np.abs(kernel.diag(X))))
    if not k_max <= DBL_MAX / OVERFLOW_HEADROOM:
        raise ValueError(
            f"kernel {kernel} overflows double precision on X (K(x, x) reaches {k_max:.3g}); "
            "use a lower degree or gamma, or rescale X"
        )
    return k_max


def check_reference(w_ref, d: int, da: int) -> np.ndarray:
    """Pegasos's reference vector w_ref (seed 002 §2.2) as a finite vector of length da
    (d, or d + 1 with an augmented bias: b_ref defaults to 0); zeros when not given."""
    if w_ref is None:
        return np.zeros(da)
    w_ref = np.asarray(w_ref, dtype=np.float64)
    if w_ref.ndim != 1 or w_ref.shape[0] not in (d, da):
        raise ValueError(f"w_ref must have shape ({d},), got {w_ref.shape}")
    if not np.all(np.isfinite(w_ref)):
        raise ValueError("w_ref must be finite (no NaN or infinity)")
    w_ref = check_X(w_ref[None, :], name="w_ref")[0]
    return np.concatenate([w_ref, [0.0]]) if w_ref.shape[0] < da else w_ref


#: Largest soft-margin penalty C the dual and primal SVMs accept. Beyond it the
#: multipliers (up to C) make the gradient Qα − 1 so large that its rounding error exceeds
#: any useful KKT tolerance in double precision; a hard margin is C=None.
MAX_C = 1e10


def check_penalty(C, name: str = "C") -> float:
    """The soft-margin penalty: a finite float in (0, MAX_C] (the limit named if broken)."""
    C = check_positive(C, name)
    if C > MAX_C:
        raise ValueError(
            f"{name} must be at most {MAX_C:.0e}, got {C:.3g}: beyond that the multipliers "
            "(0 ≤ α ≤ C) and the gradient Qα − 1 lose, in double precision, the accuracy "
            f"the KKT check needs; for a hard margin pass {name}=None"
        )
    if C < MIN_C:
        raise ValueError(
            f"{name} must be at least {MIN_C:.0e}, got {C:.3g}: below that every multiplier "
            "(0 ≤ α ≤ C) is smaller than the rounding error of the objective"
        )
    return C


#: Smallest soft-margin penalty C accepted (see :func:`check_penalty`).
MIN_C = 1e-12
