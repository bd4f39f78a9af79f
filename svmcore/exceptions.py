"""Exceptions of svmcore."""


class NotSeparableError(ValueError):
    """A hard-margin SVM was asked for on data that no hyperplane separates.

    Raised when the hard-margin dual is unbounded (equivalently, the primal has no
    feasible (b, w)) in the chosen kernel's feature space. Use a soft margin (a
    finite C) instead.
    """
