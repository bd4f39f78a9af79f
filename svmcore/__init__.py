"""svmcore: support vector machines as the lecture texts define them, in NumPy.

Binary labels are −1/+1 in the functional API; every run returns a frozen result
with a replayable :class:`~svmcore.trace.Trace`. The estimator classes (which accept
any labels and follow scikit-learn's contract) are imported lazily, so that importing
``svmcore`` needs NumPy only.
"""

from importlib import import_module

from svmcore import datasets, kernels, trace
from svmcore.exceptions import ArgumentTypeError, NotSeparableError
from svmcore.kernels import Kernel, linear, make_kernel, polynomial, rbf, rbf_sigma
from svmcore.trace import Trace

__version__ = "0.1.0"

# name -> module that defines it; imported on first use (PEP 562).
_LAZY = {
    "sample_indices": "svmcore._sampling",
    "perceptron": "svmcore.sgd.perceptron",
    "PerceptronResult": "svmcore.sgd.perceptron",
    "pegasos": "svmcore.sgd.pegasos",
    "PegasosResult": "svmcore.sgd.pegasos",
    "kernel_pegasos": "svmcore.sgd.kernel_pegasos",
    "KernelPegasosResult": "svmcore.sgd.kernel_pegasos",
    "solve_qp": "svmcore.qp",
    "QPSolution": "svmcore.qp",
    "primal_svm": "svmcore.dual.primal",
    "PrimalSVMResult": "svmcore.dual.primal",
    "phi2": "svmcore.feature_maps",
    "dual_svm": "svmcore.dual.solver",
    "DualSVMResult": "svmcore.dual.solver",
    "KKTCondition": "svmcore.dual.result",
    "kkt_residuals": "svmcore.dual.result",
    "multiclass_sgd": "svmcore.sgd.multiclass_sgd",
    "MulticlassSGDResult": "svmcore.sgd.multiclass_sgd",
    "multiclass_pegasos": "svmcore.sgd.multiclass_pegasos",
    "MulticlassPegasosResult": "svmcore.sgd.multiclass_pegasos",
    "one_vs_all": "svmcore.sgd.one_vs_all",
    "ambiguity_regions": "svmcore.sgd.one_vs_all",
    "soft_svm_optimum": "svmcore.optimum.soft_svm",
    "OptimumResult": "svmcore.optimum.soft_svm",
    "suboptimality_curve": "svmcore.optimum.soft_svm",
    "multiclass_svm_optimum": "svmcore.optimum.multiclass",
    "MulticlassOptimumResult": "svmcore.optimum.multiclass",
    "seed004_circle_map": "svmcore.feature_maps",
    "rbf_taylor_features": "svmcore.feature_maps",
    "rbf_truncation_error": "svmcore.feature_maps",
    "poly_features": "svmcore.feature_maps",
    "kernel_features": "svmcore.feature_maps",
    # estimators (these import scikit-learn)
    "PegasosClassifier": "svmcore.estimators.pegasos",
    "KernelPegasosClassifier": "svmcore.estimators.pegasos",
    "DualSVC": "svmcore.estimators.dual",
    "MulticlassSGDClassifier": "svmcore.estimators.multiclass",
    "MulticlassPegasosClassifier": "svmcore.estimators.multiclass",
}

__all__ = [
    "ArgumentTypeError",
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


# submodules reachable as attributes (``svmcore.dual``), old names included
_MODULES = {
    "qp": "svmcore.qp",
    "dual": "svmcore.dual",
    "primal": "svmcore.dual.primal",
    "smo": "svmcore.dual.smo",
    "sgd": "svmcore.sgd",
    "estimators": "svmcore.estimators",
    "optimum": "svmcore.optimum",
    "losses": "svmcore.losses",
}


def __getattr__(name):
    if name in _LAZY:
        value = getattr(import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    if name in _MODULES:
        return import_module(_MODULES[name])
    raise AttributeError(f"module 'svmcore' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
