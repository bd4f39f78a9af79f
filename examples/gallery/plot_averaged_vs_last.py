"""
Averaged output vs last iterate
===============================

Pegasos (seed 002) and SSBD's SGD return the average w̄ = (1/T) Σ_t w_t of the iterates,
not the last one. The last iterate jumps with every sampled point; the average moves less
and less. Below: the averaged output's boundary (solid) and the last iterate's (dashed)
of one run (the same seed, so the same sampled points), then P(w_t) − P* of both against
t, P* the exact minimum of the same objective (:func:`svmcore.soft_svm_optimum`).
"""

import svmcore
from svmlab.export.reproduce import plane_figure_of, plane_of, run_shown, view_of
from svmlab.plot.convergence_figure import convergence_figure

X, y = svmcore.datasets.overlapping_blobs(n=100, random_state=0)
params = dict(
    lam=0.01, T=20_000, schedule="pegasos", averaging="average", sampling="uniform",
    bias="none", batch_size=1, projection=False, class_weight=None, random_state=0,
)  # fmt: skip
averaged = dict(algorithm="pegasos", X=X, y=y, params=params, k=0, plane=None)
last = dict(averaged, params=dict(params, averaging="last"))
run_avg, run_last = run_shown(averaged), run_shown(last)

# %%
# The plane at the end of the run: w̄ solid, the last iterate dashed.
view = view_of(averaged, run_avg)
averaged["k"] = last["k"] = view.n_snapshots - 1
fig = plane_figure_of(averaged, run_avg)
xr, yr = plane_of(averaged)
values = view_of(last, run_last).grid_values(xr, yr, 120, last["k"])
fig.add_trace(view.other_iterate(values, "last iterate (dashed)"))
fig.show()

# %%
# The gaps to the optimum: the average converges like the text's rate (1 + ln t)/(λt);
# the last iterate's gap fluctuates.
P_star = svmcore.soft_svm_optimum(X, y, lam=params["lam"], bias="none")
t, gap_avg = svmcore.suboptimality_curve(run_avg, X, y, P_star)
_, gap_last = svmcore.suboptimality_curve(run_last, X, y, P_star)
print(f"P* = {P_star.objective:.6f}; at T: averaged {gap_avg[-1]:.2e}, last {gap_last[-1]:.2e}")
convergence_figure(t, gap_avg, gap_last, floor=1e-9).show()
