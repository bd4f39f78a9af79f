"""The seeds' derivations beside a run: one :class:`SeedPanel` per item, in the registry.

Each panel shows one item of the texts that the algorithm's pseudo-code does not — a
derivation, a duality, a bound — with the current run's numbers at the snapshot shown.
An entry lists its panels in its spec (``AlgorithmSpec.seed_panels``); the page shows each
as a lazy expander (``svmlab.ui.panels.seed_texts``: nothing is computed while it is
closed). ``build(result, X, y, k, params)`` is pure: it returns blocks
(:mod:`svmlab.plot.seed_figures`) from the maths in ``svmlab.study``
(:mod:`~svmlab.study.pegasos_derivation`, :mod:`~svmlab.study.lagrange`,
:mod:`~svmlab.study.kernel_alpha`, :mod:`~svmlab.study.label_set`), and raises
``ValueError`` with a sentence for the student when the item does not apply.
"""

from svmlab.algorithms.seed_panels.base import SeedPanel
from svmlab.algorithms.seed_panels.seed_001 import REMARK_17_3
from svmlab.algorithms.seed_panels.seed_002 import PERCEPTRON_TO_PEGASOS, TELESCOPING
from svmlab.algorithms.seed_panels.seed_003 import LAGRANGE, MARGIN_BOUND, MISTAKE_COUNTS
from svmlab.algorithms.seed_panels.seed_004 import PROBLEM_IN_ALPHA, REPRESENTER, mercer_blocks

__all__ = [
    "LAGRANGE",
    "MARGIN_BOUND",
    "MISTAKE_COUNTS",
    "PERCEPTRON_TO_PEGASOS",
    "PROBLEM_IN_ALPHA",
    "REMARK_17_3",
    "REPRESENTER",
    "TELESCOPING",
    "SeedPanel",
    "mercer_blocks",
]
