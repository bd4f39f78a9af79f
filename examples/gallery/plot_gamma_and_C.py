"""
The effect of γ and C
=====================

The Gaussian kernel K(x, x′) = exp(−γ‖x − x′‖²) and the penalty C of the soft margin,
on the two moons: a small γ draws a nearly linear boundary, a large γ islands around
single points; a small C tolerates errors, a large C fits every point. The grid is the
app's hyperparameter sweep: each cell trains the dual SVM on 70 % of the points and is
scored on the other 30 % (validation accuracy).
"""

import svmcore
from svmlab.algorithms import ALGORITHMS
from svmlab.plot.sweep_figure import heatmap_figure, small_multiples
from svmlab.study.sweep import sweep

X, y = svmcore.datasets.moons(n=120, noise=0.2, random_state=0)
spec = ALGORITHMS["dual_svm"]
params = dict(kernel="rbf", gamma=1.0, C=1.0, solver="smo", tol=1e-3)
res = sweep(
    svmcore.dual_svm,
    params,
    ("C", "gamma"),
    ((0.1, 1.0, 100.0), (0.1, 1.0, 30.0)),
    X,
    y,
    kwargs_of=spec.kwargs,
    plane=((-1.8, 2.8), (-1.3, 1.8)),
    n_jobs=1,
)

# %%
# The boundaries of the grid's cells (each panel: C, γ and the validation accuracy).
small_multiples(res, X, y).show()

# %%
# The validation accuracy over the grid.
heatmap_figure(res).show()
