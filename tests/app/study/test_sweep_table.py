"""A sweep's grid as a table (svmlab.study.sweep.sweep_table): one row per cell, its
parameters, validation and training accuracy (None for a failed run) and why it failed."""

from __future__ import annotations

import numpy as np

from svmlab.study.sweep import SweepResult, sweep_table

# Tolerance table: none — the table's values are the result's own numbers, compared exactly.


def test_one_row_per_cell_with_its_parameters_and_accuracies():
    res = SweepResult(
        names=("lam", "gamma"),
        values=((0.01, 0.1), (1.0, 10.0)),
        accuracy=np.array([[0.9, np.nan], [0.8, 0.7]]),
        train_accuracy=np.array([[1.0, np.nan], [0.85, 0.75]]),
        errors=(("", "diverged"), ("", "")),
        xs=np.zeros(2),
        ys=np.zeros(2),
        Z=np.zeros((2, 2, 2, 2)),
        n_train=10,
        n_val=5,
    )
    table = sweep_table(res)
    assert table["lam"] == [0.01, 0.01, 0.1, 0.1]
    assert table["gamma"] == [1.0, 10.0, 1.0, 10.0]
    assert table["validation accuracy"] == [0.9, None, 0.8, 0.7]
    assert table["error"] == ["", "diverged", "", ""]
