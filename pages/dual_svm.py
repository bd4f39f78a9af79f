"""The dual SVM (seed 003, Lin): hard / soft margin as a QP, solved by a QP solver or SMO."""

from svmlab import controls as ui
from svmlab.router import enter

enter(__file__)  # first: a cold deep link runs this file alone (svmlab/router.py)

ui.binary_page(
    "dual",
    title="Dual SVM: the QP and SMO",
    prose="**What to look for.** Only the support vectors (α_n > 0) shape the boundary "
    "g(x) = sign(Σ_n α_n y_n K(x_n, x) + b). With a soft margin, **free** support vectors "
    "(0 < α_n < C, round rings) sit exactly on the margins f = ±1 and fix b; **bounded** "
    "ones (α_n = C, grey squares) are inside the margin or misclassified. SMO minimises "
    "½αᵀQα − 1ᵀα two multipliers at a time (the yellow pair): scrub through its iterations "
    "and watch the dual objective fall (with a soft margin, the duality gap closes too). "
    "A hard margin on data that no boundary separates has no solution — try it on the "
    '"blobs with one outlier" preset.',
)
