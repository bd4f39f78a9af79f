"""Exceptions of svmcore."""


class NotSeparableError(ValueError):
    """A hard-margin SVM was asked for on data that no hyperplane separates.

    Raised when the hard-margin dual is unbounded (equivalently, the primal has no
    feasible (b, w)) in the chosen kernel's feature space. Use a soft margin (a
    finite C) instead.
    """


class ArgumentTypeError(TypeError, ValueError):
    """An argument of the wrong type (a string for a number, a complex or masked array,
    a float as a seed): the message names the argument.

    Both a ``TypeError`` (what Python raises for a wrong type) and a ``ValueError`` (what
    every other svmcore input check raises), so that ``except ValueError`` — the app's
    one handler for a refused input — and ``except TypeError`` both catch it.
    """
