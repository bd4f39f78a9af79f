"""
Lemma 16.3: kernel SGD is SGD in the feature space
==================================================

SSBD's SGD for soft-SVM with kernels (seed 000, §16.3) never forms ψ(x): it keeps α with
w⁽ᵗ⁾ = Σ_j α_j⁽ᵗ⁾ ψ(x_j). Lemma 16.3 says its output w̄ = Σ_j ᾱ_j ψ(x_j) is the w̄ of SGD
run on the vectors ψ(x_i). Here ψ is an explicit map with ψ(x)ᵀψ(x′) = K(x, x′) — the
monomials of the polynomial kernel (1 + xᵀx′)² — and both runs see the same sampled
indices i_1, …, i_T: their decision values agree to rounding.
"""

import numpy as np

import svmcore
from svmlab.export.reproduce import plane_figure_of, run_shown, view_of
from svmlab.study.feature_run import explicit_vs_kernel

X, y = svmcore.datasets.circles(n=80, noise=0.05, random_state=0)
kernel = svmcore.polynomial(degree=2, gamma=1.0, coef0=1.0)
run = explicit_vs_kernel(X, y, kernel, lam=0.01, T=5000, random_state=0)
print(f"ψ has D = {run.n_features} features; max |ψ(x)ᵀψ(x′) − K(x, x′)| = {run.map_error:.1e}")
print(f"max_k |w̄_explicit − w̄_kernel| = {run.max_dw:.1e}")
print(f"max_i |f_explicit(x_i) − f_kernel(x_i)| = {run.max_df:.1e} (agree: {run.agree})")

# %%
# The kernel run's boundary on the plane (the explicit run's is the same curve).
params = dict(
    kernel="poly", gamma=1.0, degree=2, coef0=1.0, lam=0.01, T=5000, schedule="ssbd",
    averaging="average", sampling="uniform", class_weight=None, random_state=0,
)  # fmt: skip
shown = dict(algorithm="kernel_pegasos", X=X, y=y, params=params, k=0, plane=None)
result = run_shown(shown)
shown["k"] = view_of(shown, result).n_snapshots - 1
plane_figure_of(shown, result).show()
assert np.isclose(run.f_kernel, result.decision_function(X)).all()
