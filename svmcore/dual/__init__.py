"""The dual SVM family (Lin's lectures, seed 003; SSBD §15–16): hard and soft margin.

- :mod:`~svmcore.dual.solver`: :func:`dual_svm`, the dual by QP or SMO (its box);
- :mod:`~svmcore.dual.auto`: ``solver="auto"``, the path that suits the problem (an
  O(n d²) interior point, SMO and an exact active-set step, or SMO with shrinking);
  :mod:`~svmcore.dual.linear_ipm` and :mod:`~svmcore.dual.active_set` are its two fast
  methods;
- :mod:`~svmcore.dual.primal`: :func:`primal_svm`, the primal QP (with a feature map);
- :mod:`~svmcore.dual.result`: the frozen result, its trace and the KKT report;
- :mod:`~svmcore.dual.qp_path`, :mod:`~svmcore.dual.lowrank_ipm`: the QP paths;
- :mod:`~svmcore.dual.separability`: the hard margin's feasibility test;
- :mod:`svmcore.dual.smo`: SMO (the fast run, the textbook step, working-set selection,
  decomposition, kernel cache, step log).

Rule: NumPy only, like all of svmcore.
"""

from svmcore.dual.primal import PrimalSVMResult, primal_svm
from svmcore.dual.result import DualSVMResult
from svmcore.dual.solver import dual_svm

__all__ = ["DualSVMResult", "PrimalSVMResult", "dual_svm", "primal_svm"]
