"""Exact optima of the objectives the SGD algorithms minimise (for suboptimality curves).

- :mod:`~svmcore.optimum.soft_svm`: SSBD's soft-SVM (16.5) and its variants;
- :mod:`~svmcore.optimum.multiclass`: the multiclass SVM of SSBD §17.2;
- :mod:`~svmcore.optimum.box_ipm`: the box-constrained interior point behind them.

Rule: NumPy only.
"""
