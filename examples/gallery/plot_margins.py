"""
Margins: the hard and the soft margin
=====================================

Lin's dual SVM (seed 003) on two separable blobs, solved as the quadratic program
QP(Q, p, A, c). With the hard margin (α ≥ 0) the support vectors lie on the margins
f(x) = ±1 (dashed) and the boundary f(x) = 0 is the widest street between the classes.
The soft margin (0 ≤ α ≤ C) with a small C buys a wider street by letting points inside
it: the bounded support vectors (α = C) are ringed apart from the free ones
(0 < α < C), and α is drawn as marker size.
"""

import svmcore
from svmlab.export.reproduce import plane_figure_of, run_shown, view_of

X, y = svmcore.datasets.separable_blobs(n=40, random_state=1)


def final_plane(params):
    """The page's plane for the dual SVM with ``params``, at the run's last snapshot."""
    shown = dict(algorithm="dual_svm", X=X, y=y, params=params, k=0, plane=None)
    result = run_shown(shown)
    shown["k"] = view_of(shown, result).n_snapshots - 1
    return result, plane_figure_of(shown, result)


# %%
# The hard margin: ``C=None``. Two support vectors hold the street.
result, fig = final_plane(dict(kernel="linear", C=None, solver="qp", tol=1e-9))
print(f"hard margin: {len(result.support_)} support vectors, 1/‖w‖ = {result.margin:.3f}")
fig.show()

# %%
# The soft margin with C = 0.05: a wider street, with bounded support vectors inside it.
result, fig = final_plane(dict(kernel="linear", C=0.05, solver="qp", tol=1e-9))
print(
    f"soft margin: {len(result.support_)} support vectors "
    f"({len(result.bounded_)} bounded), 1/‖w‖ = {result.margin:.3f}"
)
fig.show()
