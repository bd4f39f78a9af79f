"""Kernel Pegasos: SSBD's SGD for soft-SVM with kernels (seed 000; seed 002, Algorithm 2)."""

from svmlab import controls as ui
from svmlab.prose import prose
from svmlab.router import enter

enter(__file__)  # first: a cold deep link runs this file alone (svmlab/router.py)

ui.binary_page("kernel", title="Kernel Pegasos", prose=prose("kernel_pegasos"))
