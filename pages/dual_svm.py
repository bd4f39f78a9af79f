"""The dual SVM (seed 003, Lin): hard / soft margin as a QP, solved by a QP solver or SMO."""

from svmlab import controls as ui
from svmlab.prose import prose
from svmlab.router import enter

enter(__file__)  # first: a cold deep link runs this file alone (svmlab/router.py)

ui.binary_page("dual", title="Dual SVM: the QP and SMO", prose=prose("dual_svm"))
