"""svmcore: support vector machines as the lecture texts define them, in NumPy.

Binary labels are −1/+1 in the functional API; every run returns a frozen result
with a replayable :class:`~svmcore.trace.Trace`. The estimator classes (which accept
any labels and follow scikit-learn's contract) are imported lazily, so that importing
``svmcore`` needs NumPy only.
"""

from importlib import import_module

from svmcore import datasets, kernels, trace
from svmcore.exceptions import NotSeparableError
from svmcore.kernels import Kernel, linear, make_kernel, polynomial, rbf, rbf_sigma
from svmcore.trace import Trace

__version__ = "0.1.0"

# name -> module that defines it; imported on first use (PEP 562).
_LAZY = {
    "pegasos": "svmcore.linear_pegasos",
    "PegasosResult": "svmcore.linear_pegasos",
    "kernel_pegasos": "svmcore.kernel_sgd",
    "KernelPegasosResult": "svmcore.kernel_sgd",
    "solve_qp": "svmcore.qp",
    "QPSolution": "svmcore.qp",
    "primal_svm": "svmcore.primal",
    "PrimalSVMResult": "svmcore.primal",
    "phi2": "svmcore.primal",
    "dual_svm": "svmcore.dual",
    "DualSVMResult": "svmcore.dual",
    "multiclass_sgd": "svmcore.multiclass",
    "multiclass_pegasos": "svmcore.crammer_singer",
    "one_vs_all": "svmcore.ova",
    "ambiguity_regions": "svmcore.ova",
    # estimators (these import scikit-learn)
    "PegasosClassifier": "svmcore.estimators",
    "KernelPegasosClassifier": "svmcore.estimators",
    "DualSVC": "svmcore.dual_estimator",
    "MulticlassSGDClassifier": "svmcore.multiclass_estimators",
    "MulticlassPegasosClassifier": "svmcore.multiclass_estimators",
}

__all__ = [
    "Kernel",
    "NotSeparableError",
    "Trace",
    "datasets",
    "kernels",
    "linear",
    "make_kernel",
    "polynomial",
    "rbf",
    "rbf_sigma",
    "trace",
    *_LAZY,
]


def __getattr__(name):
    if name in _LAZY:
        value = getattr(import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    if name in ("qp", "dual", "primal", "smo", "multiclass", "estimators"):
        return import_module(f"svmcore.{name}")
    raise AttributeError(f"module 'svmcore' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
