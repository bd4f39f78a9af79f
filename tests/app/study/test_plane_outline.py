"""The plane's keyboard tree (svmlab.study.plane_outline): its nodes say the run's numbers.

The support vectors are listed by α, largest first, and are the points the plane rings
(the dual's free and bounded support vectors, Lin's KKT conditions, seed 003); every point
is named by its number counted from 1, as the texts count, with its α, status and margin
y f(x); the counts read out after an edit are the description's support vectors and the
training accuracy of sign f(x) (multiclass: the argmax of the scores, seed 002 §2.3).
"""

from __future__ import annotations

import numpy as np
import pytest

import svmcore
from svmlab.algorithms import ALGORITHMS
from svmlab.study.describe import describe_model
from svmlab.study.plane_outline import accuracy_text, class_name, plane_outline
from svmlab.study.plane_words import fmt

# Tolerance table: none — point numbers, counts and printed numbers are compared exactly
# (the numbers as the sentences print them).

PLANE = ((-3.0, 3.0), (-3.0, 3.0))
RES = 40


def _outline(key, X, y, params):
    spec = ALGORITHMS[key]
    view = spec.view(spec.fit(X, y, params), X, y)
    k = view.n_snapshots - 1
    values = view.grid_values(*PLANE, RES, k)
    text = describe_model(view, X, y, k, values=values, xrange=PLANE[0], yrange=PLANE[1])
    return plane_outline(view, X, y, k, description=text), view, k, text


def test_dual_support_vectors_by_alpha_and_the_counts_of_the_description():
    X, y = svmcore.datasets.load("moons", n=60, noise=0.15, random_state=0)
    params = dict(C=1.0, kernel="rbf", gamma=1.0, solver="smo", tol=1e-3)
    out, view, k, text = _outline("dual_svm", X, y, params)
    rings = view.rings(k)
    ringed = set(np.concatenate([rings["free"], rings["bounded"]]).astype(int).tolist())
    assert set(out["sv"]) == ringed
    alpha = np.asarray(view.alpha[k], dtype=float)
    assert np.all(np.diff(alpha[out["sv"]]) <= 0), "largest α first"
    nf, nb = len(rings["free"]), len(rings["bounded"])
    f = view.train_values(k)
    acc = 100 * np.mean(np.where(f > 0, 1, -1) == y)
    assert out["counts"] == (
        f"{nf + nb} support vectors ({nf} free, {nb} bounded), "
        f"training accuracy {accuracy_text(acc)}"
    )
    assert out["n_sv"] == nf + nb and out["n"] == 60
    assert out["summary"] == text.split("\n")[0]
    assert out["boundary"][0].startswith("Boundary") and any(
        ln.startswith("Margin") for ln in out["boundary"]
    )
    assert any(ln.startswith("Support vectors") for ln in out["other"])
    j = out["sv"][0]
    x1, x2, sentence = out["points"][j]
    assert (x1, x2) == (float(X[j, 0]), float(X[j, 1]))
    assert sentence.startswith(f"point {j + 1} at ({fmt(X[j, 0])}, {fmt(X[j, 1])}), class ")
    assert "α = " in sentence and ("free SV" in sentence or "bounded SV" in sentence)
    assert out["sv_label"] == f"Support vectors by α, largest first ({nf + nb})"
    assert f"y f(x) = {fmt(y[j] * f[j])}" in sentence


def test_kernel_pegasos_orders_its_signed_alpha_by_magnitude():
    X, y = svmcore.datasets.load("moons", n=50, noise=0.15, random_state=0)
    params = dict(kernel="rbf", gamma=1.0, lam=0.01, T=500, random_state=0)
    out, view, k, _ = _outline("kernel_pegasos", X, y, params)
    coef = np.asarray(view.coef[k], dtype=float)  # SSBD's α_j, signed (§16.3)
    assert sorted(out["sv"]) == np.flatnonzero(view.support[k]).tolist()
    assert np.all(np.diff(np.abs(coef[out["sv"]])) <= 0), "largest |α| first"
    assert out["sv_label"].startswith("Support vectors by |α|, largest first (")


def test_linear_sgd_lists_the_ringed_points_by_margin_without_alpha():
    X, y = svmcore.datasets.load("moons", n=50, noise=0.15, random_state=0)
    out, view, k, _ = _outline("pegasos", X, y, dict(lam=0.01, T=500, random_state=0))
    ids = np.flatnonzero(view.support[k])
    assert sorted(out["sv"]) == ids.tolist()
    f = view.train_values(k)
    assert np.all(np.diff((y * f)[out["sv"]]) >= 0), "smallest y f(x) first"
    assert out["sv_label"].startswith("Ringed points by y f(x)")
    assert out["counts"].startswith(f"{ids.size} support vectors (y f(x) ≤ 1), training")
    assert "α =" not in out["points"][0][2]
    wrong = np.flatnonzero(np.where(f > 0, 1, -1) != y)
    if wrong.size:  # a misclassified point says so once
        assert out["points"][wrong[0]][2].count("misclassified") == 1


def test_multiclass_points_name_their_class_and_margin():
    X, y = svmcore.datasets.load("k_blobs", k=3, random_state=0)
    params = dict(eta=0.1, bias=True, T=500, averaging="average", random_state=0)
    out, _, _, _ = _outline("multiclass_sgd", X, y, params)
    assert out["sv"] == [] and out["n_sv"] is None
    assert out["counts"].startswith("training accuracy ")
    assert out["points"][0][2].startswith(f"point 1 at ({fmt(X[0, 0])}, {fmt(X[0, 1])}), class")
    assert "margin m = " in out["points"][0][2]
    j = int(np.flatnonzero(y == 1)[0])
    assert (
        out["points"][j][2].startswith(f"point {j + 1} at (")
        and ", class 1: " in out["points"][j][2]
    )


def test_class_names_and_percentages_as_read_out():
    assert class_name(1) == "class +1" and class_name(-1.0) == "class −1"
    assert class_name(2, binary=False) == "class 2"
    assert class_name(1, binary=False) == "class 1", "a multiclass label is no sign"
    assert accuracy_text(99.0) == "99 %" and accuracy_text(98.52) == "98.5 %"
    assert accuracy_text(100) == "100 %"


def test_a_snapshot_out_of_range_is_refused():
    X, y = svmcore.datasets.load("moons", n=20, noise=0.15, random_state=0)
    spec = ALGORITHMS["pegasos"]
    view = spec.view(spec.fit(X, y, dict(lam=0.1, T=50, random_state=0)), X, y)
    with pytest.raises(ValueError, match="k must be"):
        plane_outline(view, X, y, view.n_snapshots, description="x")
    with pytest.raises(ValueError, match="y must have"):
        plane_outline(view, X, y[:-1], 0, description="x")
