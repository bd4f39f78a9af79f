"""SMO for the dual SVM (Platt's pairs; Fan, Chen & Lin's working-set selection WSS3).

- :mod:`~svmcore.dual.smo.fast`: :func:`smo`, the fast run (shrinking-free, cached rows);
- :mod:`~svmcore.dual.smo.textbook`: the textbook step, one pair at a time;
- :mod:`~svmcore.dual.smo.working_set`: the pair each step optimizes;
- :mod:`~svmcore.dual.smo.decomposition`: the decomposition for large n;
- :mod:`~svmcore.dual.smo.kernel_cache`: kernel rows on demand;
- :mod:`~svmcore.dual.smo.log`: the step log that becomes the trace.

Rule: NumPy only.
"""
