"""The per-point reasoning table (svmlab.study.point_table)."""

import numpy as np
import pytest

import svmcore
from svmcore import datasets
from svmlab.study.point_table import STATUSES, point_rows

# Tolerance table ------------------------------------------------------------------------
TOL_WORKED = 1e-9  # seed 003's worked example: SMO's α and f at its optimum, absolute
# the hand-made tables are exact; status rules use the table's own ``tol``


def test_seed003_four_points_hard_margin():
    # Seed 003: x = (0,0), (2,2), (2,0), (3,0), y = (−1, −1, +1, +1); the hard-margin
    # SVM has w = (1, −1), b = −1, so f = x₁ − x₂ − 1 = (−1, −1, 1, 2), y f = (1, 1, 1, 2),
    # ξ = 0 and α = (½, ½, 1, 0): three support vectors on the margin, one non-SV.
    X, y = datasets.load("lin_four_points")
    r = svmcore.dual_svm(X, y, kernel="linear", tol=1e-12)
    f = r.decision_function(X)
    rows = point_rows(f, y, r.alpha)
    np.testing.assert_array_equal(rows["index"], [1, 2, 3, 4])
    np.testing.assert_array_equal(rows["label"], [-1, -1, 1, 1])
    np.testing.assert_allclose(rows["f"], [-1, -1, 1, 2], atol=TOL_WORKED)
    np.testing.assert_allclose(rows["yf"], [1, 1, 1, 2], atol=TOL_WORKED)
    np.testing.assert_allclose(rows["xi"], 0.0, atol=TOL_WORKED)
    np.testing.assert_allclose(rows["alpha"], [0.5, 0.5, 1.0, 0.0], atol=TOL_WORKED)
    assert rows["status"].tolist() == ["free SV", "free SV", "free SV", "non-SV"]


def test_soft_margin_statuses_by_hand():
    # C = 1, y = +1 throughout; f chosen to hit each rule. The status is the dual's α
    # (a bounded SV stays one wherever it lies); the position is y f's:
    # α = 0, yf = 3      → non-SV,     beyond the margin
    # α = ½, yf = 1      → free SV,    on the margin
    # α = 1, yf = 1      → bounded SV, on the margin
    # α = 1, yf = ½      → bounded SV, inside the margin (ξ = ½)
    # α = 1, yf = −2     → bounded SV, misclassified (ξ = 3)
    # α = 1, f = 0, y=+1 → bounded SV, misclassified (sign(0) is −1 by the prediction rule)
    f = [3.0, 1.0, 1.0, 0.5, -2.0, 0.0]
    rows = point_rows(f, np.ones(6), [0.0, 0.5, 1.0, 1.0, 1.0, 1.0], C=1.0)
    assert rows["status"].tolist() == ["non-SV", "free SV", *["bounded SV"] * 4]
    assert rows["position"].tolist() == [
        "beyond the margin",
        "on the margin",
        "on the margin",
        "inside the margin",
        "misclassified",
        "misclassified",
    ]
    np.testing.assert_array_equal(rows["xi"], [0.0, 0.0, 0.0, 0.5, 3.0, 1.0])


def test_sgd_rows_by_yf_only():
    # Without α: y f > 1 → non-SV, y f = 1 (to tol) → free SV (on the margin), below:
    # violator / misclassified; the α column is NaN.
    y = np.array([-1.0, -1.0, 1.0, 1.0])
    f = np.array([-1.5, -1.0 + 1e-9, 0.2, -0.1])
    rows = point_rows(f, y)
    assert rows["status"].tolist() == ["non-SV", "free SV", "margin violator", "misclassified"]
    assert rows["position"].tolist() == [
        "beyond the margin",
        "on the margin",
        "inside the margin",
        "misclassified",
    ]
    np.testing.assert_allclose(rows["yf"], [1.5, 1.0 - 1e-9, 0.2, -0.1])
    assert np.all(np.isnan(rows["alpha"]))
    assert set(rows["status"]) <= set(STATUSES)


def test_statuses_match_the_dual_optimum():
    # At an exact soft-margin optimum the table's status is the KKT split of
    # DualSVMResult: free_ ↔ "free SV", bounded_ ↔ "bounded SV", α = 0 ↔ "non-SV"; the
    # bounded SVs lie on or inside their margin (some misclassified).
    X, y = datasets.load("overlapping_blobs")
    r = svmcore.dual_svm(X, y, kernel="linear", C=0.5, tol=1e-10)
    rows = point_rows(r.decision_function(X), y, r.alpha, C=0.5)
    status, position = rows["status"], rows["position"]
    assert np.all(status[r.free_] == "free SV")
    assert np.all(status[r.bounded_] == "bounded SV")
    assert set(position[r.bounded_]) <= {"on the margin", "inside the margin", "misclassified"}
    assert "misclassified" in set(position[r.bounded_])
    non_sv = np.setdiff1d(np.arange(len(y)), r.support_)
    assert np.all(status[non_sv] == "non-SV")
    assert np.mean(position == "misclassified") == pytest.approx(
        np.mean(r.predict(X) != y), abs=1e-15
    )


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"f": [1.0, 2.0], "y": [1.0]}, "y must have length 2"),
        ({"f": [1.0], "y": [2.0]}, "labels"),
        ({"f": [np.nan], "y": [1.0]}, "finite"),
        ({"f": [1.0], "y": [1.0], "alpha": [-1.0]}, "alpha must lie"),
        ({"f": [1.0], "y": [1.0], "alpha": [2.0], "C": 1.0}, "alpha must lie"),
        ({"f": [1.0], "y": [1.0], "C": 1.0}, "C needs alpha"),
        ({"f": [1.0], "y": [1.0], "alpha": [0.0], "C": 0.0}, "C must be"),
        ({"f": [1.0], "y": [1.0], "tol": -1.0}, "tol"),
        ({"f": [[1.0]], "y": [1.0]}, "one dimension"),
        ({"f": ["a"], "y": [1.0]}, "real numbers"),
    ],
)
def test_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        point_rows(**kwargs)
