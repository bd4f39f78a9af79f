"""Kernels as in the lectures.

Seed 003 (Lin, *Kernel SVM*) defines the polynomial kernel
``K_Q(x, x') = (ζ + γ xᵀx')^Q`` with γ > 0, ζ ≥ 0, and the Gaussian kernel
``K(x, x') = exp(−γ ‖x − x'‖²)`` with γ > 0; the linear kernel is the special case
``K(x, x') = xᵀx'``. Seed 004 (kernels lecture) writes the Gaussian kernel as
``exp(−‖x − x'‖² / σ)`` (σ, not 2σ², and not squared): :func:`rbf_sigma` builds that
form, which is the same kernel with γ = 1/σ.

A kernel is a small frozen object: ``k(X, Z)`` returns the Gram matrix of shape
(n, m), it is hashable and comparable (it keys caches) and it carries its name,
parameters and a LaTeX formula for the UI. The parameter names follow scikit-learn
(``gamma``, ``degree``, ``coef0``) so that ``k(X, Z)`` equals
``sklearn.metrics.pairwise.*_kernel`` with the same parameters.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np

from svmcore._validation import ArgumentTypeError, check_int, check_positive, check_X

__all__ = [
    "Kernel",
    "gaussian",
    "linear",
    "make_kernel",
    "polynomial",
    "rbf",
    "rbf_sigma",
    "resolve_gamma",
    "scale_gamma",
]


def _fmt(value: float) -> str:
    return f"{value:.4g}"


@dataclass(frozen=True)
class Kernel:
    """A positive semi-definite kernel K(x, x').

    Build one with :func:`linear`, :func:`polynomial`, :func:`rbf` or
    :func:`rbf_sigma` rather than directly.

    Attributes
    ----------
    name : {"linear", "poly", "rbf"}
        scikit-learn's name of the kernel.
    gamma, degree, coef0 : float, int, float or None
        The parameters that the kernel uses (None where unused).
    sigma : float or None
        Set when the Gaussian kernel was built in seed 004's σ-form (γ = 1/σ).
    """

    name: str
    gamma: float | None = None
    degree: int | None = None
    coef0: float | None = None
    sigma: float | None = None

    # -- evaluation ---------------------------------------------------------------
    def __call__(self, X, Z=None) -> np.ndarray:
        """Gram matrix ``K[i, j] = K(X[i], Z[j])`` of shape (n, m); ``Z=None`` means X.

        X and Z are checked as every svmcore input (:func:`svmcore._validation.check_X`):
        NaN, infinity, complex, masked or datetime values and coordinates whose squared
        distances overflow are refused with a ``ValueError`` naming X or Z, so a Gram
        matrix is never silently NaN or infinite (a polynomial kernel that overflows on
        valid inputs is refused too).
        """
        same = Z is None or Z is X
        X = check_X(X, name="X", min_samples=0)
        Z = X if same else check_X(Z, name="Z", min_samples=0)
        if X.shape[1] != Z.shape[1]:
            raise ValueError(
                f"kernel inputs X and Z must have the same number of features, "
                f"got shapes {X.shape} and {Z.shape}"
            )
        if self.name == "linear":
            return X @ Z.T
        if self.name == "poly":
            with np.errstate(over="ignore", invalid="ignore"):
                K = (self.coef0 + self.gamma * (X @ Z.T)) ** self.degree
            if not np.all(np.isfinite(K)):
                raise ValueError(
                    f"polynomial kernel overflowed: (ζ + γ xᵀx')^Q with ζ={self.coef0}, "
                    f"γ={self.gamma}, Q={self.degree} exceeds the float range on X and Z; "
                    "rescale X or lower γ or the degree"
                )
            return K
        # rbf: exp(−γ ‖x − z‖²) with ‖x − z‖² = ‖x‖² − 2xᵀz + ‖z‖², clipped at 0
        # because rounding can make the expansion slightly negative.
        D = squared_distances(X, Z, same=same)
        with np.errstate(over="ignore"):  # γD = inf gives exp(−inf) = 0, the right limit
            D *= -self.gamma
            return np.exp(D, out=D)

    def diag(self, X) -> np.ndarray:
        """The diagonal K(x_i, x_i), shape (n,), without forming the Gram matrix.

        X is checked as in :meth:`__call__`; a polynomial diagonal that overflows double
        precision raises ``ValueError`` (never a silent infinity).
        """
        X = check_X(X, name="X", min_samples=0)
        sq = np.einsum("ij,ij->i", X, X)
        if self.name == "linear":
            return sq
        if self.name == "poly":
            with np.errstate(over="ignore"):
                diag = (self.coef0 + self.gamma * sq) ** self.degree
            if not np.all(np.isfinite(diag)):
                raise ValueError(
                    f"kernel {self} overflows double precision on X (K(x, x) = "
                    f"(ζ + γ‖x‖²)^Q exceeds {np.finfo(np.float64).max:.3g}); use a lower "
                    "degree or gamma, or rescale X"
                )
            return diag
        return np.ones(X.shape[0])

    # -- description --------------------------------------------------------------
    @property
    def params(self) -> dict:
        """The parameters the kernel uses, by scikit-learn's names."""
        if self.name == "linear":
            return {}
        if self.name == "poly":
            return {"degree": self.degree, "gamma": self.gamma, "coef0": self.coef0}
        if self.sigma is not None:
            return {"gamma": self.gamma, "sigma": self.sigma}
        return {"gamma": self.gamma}

    @property
    def latex(self) -> str:
        """The kernel's formula in LaTeX, with the lectures' symbols."""
        if self.name == "linear":
            return r"K(x, x') = x^\top x'"
        if self.name == "poly":
            return r"K(x, x') = (\zeta + \gamma\, x^\top x')^{Q}"
        if self.sigma is not None:
            return r"K(x, x') = \exp\left(-\lVert x - x' \rVert^2 / \sigma\right)"
        return r"K(x, x') = \exp\left(-\gamma \lVert x - x' \rVert^2\right)"

    @property
    def latex_values(self) -> str:
        """The formula with the parameter values substituted, in LaTeX."""
        if self.name == "linear":
            return r"K(x, x') = x^\top x'"
        if self.name == "poly":
            return (
                rf"K(x, x') = ({_fmt(self.coef0)} + {_fmt(self.gamma)}\, x^\top x')"
                rf"^{{{self.degree}}}"
            )
        if self.sigma is not None:
            return rf"K(x, x') = \exp\left(-\lVert x - x' \rVert^2 / {_fmt(self.sigma)}\right)"
        return rf"K(x, x') = \exp\left(-{_fmt(self.gamma)} \lVert x - x' \rVert^2\right)"

    def __str__(self) -> str:
        args = ", ".join(f"{k}={v}" for k, v in self.params.items())
        return f"{self.name}({args})"


def squared_distances(X: np.ndarray, Z: np.ndarray, *, same: bool = False) -> np.ndarray:
    """‖x_i − z_j‖² of shape (n, m), clipped at 0 (and exactly 0 on the diagonal if X is Z)."""
    xx = np.einsum("ij,ij->i", X, X)[:, None]
    zz = xx.T if same else np.einsum("ij,ij->i", Z, Z)[None, :]
    # (xx − 2 XZᵀ) + zz, in place (no (n, m) temporaries): the same bits, less memory traffic
    D = X @ Z.T
    D *= -2.0
    D += xx
    D += zz
    np.maximum(D, 0.0, out=D)
    if same:
        np.fill_diagonal(D, 0.0)
    return D


def linear() -> Kernel:
    """The linear kernel K(x, x') = xᵀx'."""
    return Kernel("linear")


def polynomial(degree: int = 3, gamma: float = 1.0, coef0: float = 1.0) -> Kernel:
    """Seed 003's polynomial kernel K_Q(x, x') = (ζ + γ xᵀx')^Q.

    Parameters
    ----------
    degree : int >= 1
        Q, the degree.
    gamma : float > 0
        γ, the scale of the inner product.
    coef0 : float >= 0
        ζ, the constant (ζ ≥ 0 keeps the kernel positive semi-definite).
    """
    degree = check_int(degree, "degree", low=1, high=20)
    gamma = check_positive(gamma, "gamma")
    coef0 = check_positive(coef0, "coef0", allow_zero=True)
    return Kernel("poly", gamma=gamma, degree=degree, coef0=coef0)


def rbf(gamma: float = 1.0) -> Kernel:
    """The Gaussian (RBF) kernel K(x, x') = exp(−γ ‖x − x'‖²), γ > 0 (seed 003)."""
    return Kernel("rbf", gamma=check_positive(gamma, "gamma"))


def rbf_sigma(sigma: float = 1.0) -> Kernel:
    """Seed 004's form of the Gaussian kernel, K(x, x') = exp(−‖x − x'‖² / σ), σ > 0.

    The same kernel as ``rbf(gamma=1/sigma)`` (σ here divides the *squared* distance;
    it is not the 2σ² of a normal density).
    """
    sigma = check_positive(sigma, "sigma")
    return Kernel("rbf", gamma=1.0 / sigma, sigma=sigma)


def gaussian(sigma: float = 1.0) -> Kernel:
    """Seed 004's Gaussian kernel exp(−‖x − x'‖² / σ); the same as :func:`rbf_sigma`."""
    return rbf_sigma(sigma)


def scale_gamma(X) -> float:
    """scikit-learn's ``gamma="scale"``: 1/(d · Var X), or 1 when X has no variance."""
    X = np.asarray(X, dtype=np.float64)
    var = float(X.var())
    with np.errstate(over="ignore", divide="ignore"):
        return 1.0 / (X.shape[1] * var) if var > 0 else 1.0


def resolve_gamma(gamma, X, *, names=("scale", "auto")) -> float:
    """An estimator's ``gamma`` as a number: "scale" is 1/(d·Var X) (:func:`scale_gamma`),
    "auto" 1/d, as in scikit-learn; a number must be > 0. ``names`` lists the strings
    accepted."""
    if isinstance(gamma, str) and gamma in names:
        value = scale_gamma(X) if gamma == "scale" else 1.0 / np.asarray(X).shape[1]
        if not np.isfinite(value):
            raise ValueError(
                f"gamma={gamma!r} is 1/(d · Var X) = {value}: the variance of X underflows "
                "double precision; rescale X or pass gamma as a number"
            )
        return value
    if isinstance(gamma, bool) or not isinstance(gamma, numbers.Real):
        allowed = ", ".join(repr(v) for v in names)
        raise ArgumentTypeError(f"gamma must be {allowed} or a float > 0, got {gamma!r}")
    return check_positive(gamma, "gamma")


def make_kernel(kernel="rbf", *, gamma=1.0, degree=3, coef0=1.0) -> Kernel:
    """A kernel from scikit-learn-style arguments (what the estimators and the app use).

    ``kernel`` may be a :class:`Kernel` (returned unchanged) or one of ``"linear"``,
    ``"poly"`` (alias ``"polynomial"``) and ``"rbf"``.
    """
    if isinstance(kernel, Kernel):
        return kernel
    if kernel == "linear":
        return linear()
    if kernel in ("poly", "polynomial"):
        return polynomial(degree=degree, gamma=gamma, coef0=coef0)
    if kernel == "rbf":
        return rbf(gamma=gamma)
    if not isinstance(kernel, str | numbers.Number):
        kernel = type(kernel).__name__
    raise ValueError(f"kernel must be 'linear', 'poly', 'rbf' or a Kernel, got {kernel!r}")
