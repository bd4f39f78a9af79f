"""Kernel Pegasos: SSBD's SGD for soft-SVM with kernels (seed 000; seed 002, Algorithm 2)."""

from svmlab.ui import page as ui
from svmlab.ui.prose import prose
from svmlab.ui.router import enter

enter(__file__)  # first: a cold deep link runs this file alone (svmlab/ui/router.py)

ui.binary_page("kernel", title="Kernel Pegasos", prose=prose("kernel_pegasos"))
