"""The per-point table names the support vectors the plane rings and the metrics count.

* the dual: free SVs (0 < α < C) and bounded SVs (α = C) as the plane rings them and the
  metrics' "free / bounded SVs" counts them — a bounded SV stays "bounded SV" wherever it
  lies (KKT: α_n = C ⇒ y_n f(x_n) ≤ 1, on or inside its margin, possibly misclassified),
  its position is a column of its own;
* kernel Pegasos: the points with SSBD's α_j ≠ 0 (β_j ≠ 0) — the ringed ones, the
  metrics' "support vectors" — are "SV", whatever their y f.
"""

from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from svmcore.datasets import load
from svmlab.algorithms import ALGORITHMS
from svmlab.study.point_table import POSITIONS, STATUSES, table_columns

# Tolerance table ------------------------------------------------------------------------
TOL_KKT_BOUND = 1e-3  # the KKT bound y f ≤ 1 of the bounded SVs, absolute (SMO's tol on the dual
# page); statuses are exact sets (the plane's rings); positions use the table's tol 1e-6 on y f


def _table(key, X, y, params):
    spec = ALGORITHMS[key]
    result = spec.fit(X, y, params)
    view = spec.view(result, X, y)
    k = view.n_snapshots - 1
    return spec, result, view, k, table_columns(view, y, k)


@pytest.fixture(scope="module")
def moons():
    return load("moons")


def test_dual_table_counts_are_the_metrics_and_the_rings(moons):
    X, y = moons
    params = dict(kernel="rbf", gamma=1.0, C=1.0, solver="smo", tol=1e-3)
    spec, result, view, k, cols = _table("dual_svm", X, y, params)
    status = cols["status"]
    n_free, n_bounded = (
        int(v) for v in spec.metrics(result, X, y, k)["free / bounded SVs"].split(" / ")
    )
    assert (n_free, n_bounded) == (8, 24)
    assert np.count_nonzero(status == "free SV") == n_free
    assert np.count_nonzero(status == "bounded SV") == n_bounded
    rings = view.rings(k)
    np.testing.assert_array_equal(np.flatnonzero(status == "free SV"), rings["free"])
    np.testing.assert_array_equal(np.flatnonzero(status == "bounded SV"), rings["bounded"])
    # bounded SVs lie on or inside their margin: y f ≤ 1 (some misclassified)
    bounded = status == "bounded SV"
    assert np.all(cols["y f(x)"][bounded] <= 1.0 + TOL_KKT_BOUND)
    assert set(cols["position"][bounded]) <= {"on the margin", "inside the margin", "misclassified"}
    assert set(status) <= set(STATUSES) and set(cols["position"]) <= set(POSITIONS)
    # the misclassified points are the training errors, whatever their status
    wrong = np.where(result.decision_function(X) > 0, 1.0, -1.0) != y
    np.testing.assert_array_equal(cols["position"] == "misclassified", wrong)


def test_kernel_pegasos_svs_are_the_nonzero_alpha(moons):
    X, y = moons
    params = dict(kernel="rbf", gamma=1.0, lam=0.01, T=1000, random_state=0)
    spec, result, view, k, cols = _table("kernel_pegasos", X, y, params)
    alpha = np.asarray(result.trace.snapshots["alpha"][k])
    np.testing.assert_array_equal(cols["α"], alpha)
    np.testing.assert_array_equal(cols["status"] == "SV", alpha != 0)
    np.testing.assert_array_equal(np.flatnonzero(cols["status"] == "SV"), view.rings(k)["support"])
    n_sv = int(spec.metrics(result, X, y, k)["support vectors"])
    assert np.count_nonzero(cols["status"] == "SV") == n_sv == 53
    # SVs beyond their margin exist (SSBD's α_j keeps an old update): still SVs
    assert np.any((cols["status"] == "SV") & (cols["position"] == "beyond the margin"))


def test_primal_view_statuses_follow_its_multipliers():
    X, y = load("blobs_outlier")
    *_, view, k, cols = _table("primal_svm", X, y, dict(C=1.0, transform=None))
    rings = view.rings(k)
    assert len(rings["bounded"]) > 0
    np.testing.assert_array_equal(np.flatnonzero(cols["status"] == "free SV"), rings["free"])
    np.testing.assert_array_equal(np.flatnonzero(cols["status"] == "bounded SV"), rings["bounded"])


def test_the_dual_pages_table_and_caption():
    root = Path(__file__).resolve().parents[3]
    at = AppTest.from_file(str(root / "app.py"), default_timeout=180)
    at.run()
    at.switch_page("pages/dual_svm.py")
    at.run()
    at.session_state["data_preset_box"] = True
    at.run()
    at.selectbox(key="data_preset").set_value("moons").run()
    at.button(key="data_load").click().run()
    at.session_state["dual_svm_points"] = True
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    metrics = {m.label: m.value for m in at.metric}
    (df,) = [d.value for d in at.dataframe if list(d.value.columns[:2]) == ["i", "y"]]
    n_free, n_bounded = (int(v) for v in metrics["free / bounded SVs"].split(" / "))
    assert n_bounded > 0
    assert (df["status"] == "free SV").sum() == n_free
    assert (df["status"] == "bounded SV").sum() == n_bounded
    caption = " ".join(c.value for c in at.caption)
    assert "bounded SV (α = C: on or inside the margin, y f ≤ 1" in caption
    assert "on or outside the margin" not in caption
