"""scikit-learn estimators over svmcore's run functions (thin: fit calls the run function).

Rule: the only part of svmcore that imports scikit-learn (for its base classes and
checks); importing :mod:`svmcore` itself never does.
"""

from svmcore.estimators.dual import DualSVC
from svmcore.estimators.multiclass import MulticlassPegasosClassifier, MulticlassSGDClassifier
from svmcore.estimators.pegasos import KernelPegasosClassifier, PegasosClassifier

__all__ = [
    "DualSVC",
    "KernelPegasosClassifier",
    "MulticlassPegasosClassifier",
    "MulticlassSGDClassifier",
    "PegasosClassifier",
]
