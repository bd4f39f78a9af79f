"""The registry: one :class:`~svmlab.algorithms.spec.AlgorithmSpec` per algorithm.

``ALGORITHMS`` maps an svmcore function name (the one key of an algorithm everywhere in
the app: runners, caches, widget keys, pseudo-code) to its spec. A page shows the specs
whose ``page`` is its own (:func:`on_page`). One entry module per algorithm, named after
its svmcore function; adding an algorithm is one svmcore module, one entry module and
one line here.

Rule: the registry may import svmcore, ``svmlab.state``, ``svmlab.study`` and
``svmlab.plot``; its control builders (``widgets``, ``bound_widgets`` and each entry's
``controls``) are the only Streamlit code outside ``svmlab.ui``.
"""

from __future__ import annotations

from svmlab.algorithms.dual_svm import SPEC as DUAL_SVM
from svmlab.algorithms.kernel_pegasos import SPEC as KERNEL_PEGASOS
from svmlab.algorithms.multiclass_pegasos import SPEC as MULTICLASS_PEGASOS
from svmlab.algorithms.multiclass_sgd import SPEC as MULTICLASS_SGD
from svmlab.algorithms.one_vs_all import SPEC as ONE_VS_ALL
from svmlab.algorithms.pegasos import SPEC as PEGASOS
from svmlab.algorithms.perceptron import SPEC as PERCEPTRON
from svmlab.algorithms.primal_svm import SPEC as PRIMAL_SVM
from svmlab.algorithms.spec import AlgorithmSpec, CapError, Caps, inspected_steps

__all__ = ["ALGORITHMS", "AlgorithmSpec", "CapError", "Caps", "inspected_steps", "on_page"]

ALGORITHMS: dict[str, AlgorithmSpec] = {
    spec.key: spec
    for spec in (
        PEGASOS,
        PERCEPTRON,
        KERNEL_PEGASOS,
        DUAL_SVM,
        PRIMAL_SVM,
        MULTICLASS_SGD,
        MULTICLASS_PEGASOS,
        ONE_VS_ALL,
    )
}


def on_page(page: str) -> list[AlgorithmSpec]:
    """The specs shown on ``page`` ("linear", "kernel", "dual", "multiclass"), in order."""
    return [spec for spec in ALGORITHMS.values() if spec.page == page]
