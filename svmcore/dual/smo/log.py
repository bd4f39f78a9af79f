"""What the SMO drivers report: snapshots with bounded memory, the first steps, the record.

Snapshots: every k-th event (pair update for plain SMO, outer iteration for the
decomposition) is kept, and k doubles whenever ``n_snapshots`` are held (the first and
the final state are always kept). Steps: the first ``n_steps`` steps of the run, each
(t, kind, i, j, Δα_i, Δα_j, objective) — see :mod:`svmcore.dual.smo.fast` for the fields.
:func:`smo_solution` turns a driver's final state into the
:class:`~svmcore.dual.result.DualSolution` every dual solver returns.

Pure NumPy.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from svmcore.dual.result import DualSolution, bias_from_v

__all__ = ["STEP_FIELDS", "StepLog", "Thinned", "smo_solution"]

#: The fields of one recorded SMO step, in order.
STEP_FIELDS = ("t", "kind", "i", "j", "delta_i", "delta_j", "objective")


class Thinned:
    """Keep at most ``cap`` snapshots: record every k-th event, doubling k when full."""

    def __init__(self, cap: int):
        self.cap = max(cap, 2)
        self.k = 1
        self.items: list[tuple[int, int, dict]] = []  # (event, t, values)

    def wants(self, event: int) -> bool:
        return event % self.k == 0

    def _thin(self) -> None:
        self.k *= 2
        first = self.items[0]
        self.items = [first] + [it for it in self.items[1:] if it[0] % self.k == 0]

    def add(self, event: int, t: int, values: dict, *, final: bool = False) -> None:
        if final:  # make room first: the final state is never thinned away
            while len(self.items) >= self.cap:
                self._thin()
            self.items.append((event, t, values))
            return
        self.items.append((event, t, values))
        if len(self.items) >= self.cap:
            self._thin()


@dataclass
class StepLog:
    """What the solver reports back to the trace: snapshots and the first steps."""

    snaps: Thinned
    n_steps: int
    rows: list = field(default_factory=list)  # tuples in the order of STEP_FIELDS

    @property
    def steps(self) -> dict:
        if not self.rows:
            return {}
        cols = list(zip(*self.rows, strict=True))
        return {name: list(col) for name, col in zip(STEP_FIELDS, cols, strict=True)}


def smo_solution(alpha, G, y, C, n_iter, status, log: StepLog, info: dict) -> DualSolution:
    """The :class:`DualSolution` of an SMO run (snapshots as per-name lists, b by libsvm)."""
    items = log.snaps.items
    names = list(items[0][2])
    return DualSolution(
        alpha=alpha,
        G=G,
        b=bias_from_v(-y * G, alpha, y, C),
        status=status,
        n_iter=n_iter,
        method="smo",
        t=[t for _, t, _ in items],
        snapshots={name: [values[name] for _, _, values in items] for name in names},
        steps=log.steps,
        info=info,
        message="" if status == "optimal" else _MESSAGES.get(status, ""),
    )


_MESSAGES = {
    "max_iter": "SMO stopped at max_iter before m(α) − M(α) ≤ tol: α is not optimal "
    "(raise max_iter or tol)",
    "stalled": "SMO stalled: no pair could be updated although m(α) − M(α) > tol",
    "inaccurate": "SMO met m(α) − M(α) ≤ tol on its running gradient, but not on the "
    "gradient Qα − 1 computed afresh (rounding with a huge Q); rescale X or lower γ",
}
