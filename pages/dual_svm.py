"""The dual SVM (seed 003, Lin): hard / soft margin as a QP, solved by a QP solver or SMO."""

from svmlab.ui import page as ui
from svmlab.ui.prose import prose
from svmlab.ui.router import enter

enter(__file__)  # first: a cold deep link runs this file alone (svmlab/ui/router.py)

ui.binary_page("dual", title="Dual SVM: the QP and SMO", prose=prose("dual_svm"))
