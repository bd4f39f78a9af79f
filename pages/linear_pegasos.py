"""Linear Pegasos: SGD on the soft-SVM primal (seed 002, Algorithm 1; SSBD §15.5)."""

from svmlab import controls as ui
from svmlab.router import enter

enter(__file__)  # first: a cold deep link runs this file alone (svmlab/router.py)

ui.binary_page(
    "linear",
    title="Linear Pegasos",
    prose="**What to look for.** Each step samples one point *i*; if its margin "
    "y_i⟨w_t, x_i⟩ is below 1 the step pulls w towards y_i x_i, otherwise it only shrinks "
    "w by (1 − η_t λ). Early steps are huge (η_t = 1/(λt)), so the boundary swings wildly "
    "and then settles; the averaged output w̄ is much calmer than the last iterate. Ringed "
    "points are those with y f(x) ≤ 1 under the model drawn (for the averaged output, "
    "w̄): the points on or inside its margin. The updates themselves use the iterate w_t "
    "and fire when y_i⟨w_t, x_i⟩ < 1. A larger λ means a smaller ‖w‖, i.e. a wider margin "
    "and more ringed points.",
)
