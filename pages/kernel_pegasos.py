"""Kernel Pegasos: SSBD's SGD for soft-SVM with kernels (seed 000; seed 002, Algorithm 2)."""

from svmlab import controls as ui
from svmlab.router import enter

enter(__file__)  # first: a cold deep link runs this file alone (svmlab/router.py)

ui.binary_page(
    "kernel",
    title="Kernel Pegasos",
    prose="**What to look for.** The model is f(x) = Σ_j α_j K(x_j, x): every point that "
    "was ever sampled with a margin below 1 gets a bump of the kernel around it "
    "(β_i += y_i), and α(t) = β(t)/(λt) shrinks all bumps as t grows. Watch the **support "
    "vectors** — the ringed points with α_j ≠ 0, marker size ∝ |α_j| — appear in the first "
    "steps, then only the points near the boundary keep growing. With the RBF kernel, γ "
    "sets the width of each bump: a large γ draws islands around single points "
    "(overfitting), a small γ a nearly linear boundary. There is no bias b: SSBD's "
    "soft-SVM is homogeneous.",
)
