"""Linear Pegasos: SGD on the soft-SVM primal (seed 002, Algorithm 1; SSBD §15.5)."""

from svmlab.ui import page as ui
from svmlab.ui.prose import prose
from svmlab.ui.router import enter

enter(__file__)  # first: a cold deep link runs this file alone (svmlab/ui/router.py)

ui.binary_page("linear", title="Linear Pegasos", prose=prose("linear_pegasos"))
