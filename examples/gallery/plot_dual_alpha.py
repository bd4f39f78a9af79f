"""
The dual's α: who holds the boundary
====================================

In Lin's dual (seed 003) every point n has a multiplier α_n with 0 ≤ α_n ≤ C, and
f(x) = Σ_n α_n y_n K(x_n, x) + b: only the support vectors (α_n > 0) count. By the KKT
conditions a point outside the margin has α_n = 0, a free support vector (0 < α_n < C)
lies on f(x) = ±1, and a bounded one (α_n = C) is inside the margin or misclassified.
The bar chart is the app's α panel, in point order, with C drawn as a line.
"""

import svmcore
from svmlab.export.reproduce import plane_figure_of, run_shown, view_of
from svmlab.plot.figures import alpha_bar_figure

X, y = svmcore.datasets.moons(n=60, noise=0.25, random_state=2)
params = dict(kernel="rbf", gamma=2.0, C=1.0, solver="smo", tol=1e-3)
shown = dict(algorithm="dual_svm", X=X, y=y, params=params, k=0, plane=None)
result = run_shown(shown)
shown["k"] = view_of(shown, result).n_snapshots - 1
print(
    f"{len(result.support_)} support vectors: {len(result.free_)} free, "
    f"{len(result.bounded_)} bounded (α = C); status {result.status}"
)

# %%
# The plane: marker size ∝ α, free and bounded support vectors ringed apart.
plane_figure_of(shown, result).show()

# %%
# α in point order.
alpha_bar_figure(result.alpha, y, C=params["C"]).show()
