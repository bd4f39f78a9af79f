"""Every seed panel under every option of its algorithm: it builds, or says why it does not
apply (a ValueError with a sentence) — never another exception; and where it builds on
the seeds' worked examples its numbers agree with the run.
"""

import itertools
import re

import numpy as np
import pytest

from svmlab.algorithms import ALGORITHMS
from svmlab.plot.seed_figures import Markdown, Table

# Tolerance table ------------------------------------------------------------------------
TOL_AGREEMENT = 1e-12  # a panel's stated agreement with the run on Lin's integer points
TOL_PRIMAL_REL = 1e-9  # the Lagrangian's P vs svmcore's primal objective (relative)


X = np.array([[0.0, 0.0], [2.0, 2.0], [2.0, 0.0], [3.0, 0.0]])
Y = np.array([-1.0, -1.0, 1.0, 1.0])


def _build_all(key, params, X=X, y=Y, snapshots=None):
    spec = ALGORITHMS[key]
    result = spec.fit(X, y, params)
    n = result.trace.n_snapshots if getattr(result, "trace", None) is not None else 1
    out = []
    for k in snapshots or sorted({0, n // 2, n - 1}):
        for panel in spec.seed_panels:
            try:
                out.append((panel.key, panel.build(result, X, y, k, params)))
            except ValueError as exc:
                assert str(exc) and str(exc)[0].isupper(), exc
                out.append((panel.key, None))
    return out


def _agreement(blocks, phrase) -> float:
    text = "\n".join(b.text for b in blocks if isinstance(b, Markdown))
    m = re.search(re.escape(phrase) + r" ([0-9.e+-]+)", text)
    assert m, text
    return float(m.group(1).rstrip(".:"))


NAMES = ("schedule", "averaging", "sampling", "bias", "batch_size", "projection", "cw")
PEGASOS = [
    dict(zip(NAMES, v, strict=True))
    for v in itertools.product(
        ["pegasos", "ssbd"],
        ["average", "last"],
        ["uniform", "cyclic"],
        ["none", "augment", "free"],
        [1, 2],
        [False, True],
        [None, "balanced"],
    )
]


@pytest.mark.parametrize("o", PEGASOS, ids=lambda o: "-".join(map(str, o.values())))
def test_pegasos_panels_under_every_option(o):
    params = {**o, "lam": 0.1, "T": 200, "random_state": 0}
    params["class_weight"] = params.pop("cw")
    built = dict(_build_all("pegasos", params, snapshots=[-1]))
    one_sample = o["batch_size"] == 1 and not o["projection"] and o["bias"] != "free"
    assert (built["telescoping"] is not None) == one_sample
    if one_sample:
        assert _agreement(built["telescoping"], "The sum and the run agree to") <= TOL_AGREEMENT
    assert built["perceptron_pegasos"] is not None


@pytest.mark.parametrize("bias", ["none", "augment", "free"])
@pytest.mark.parametrize("sampling", ["uniform", "cyclic", "shuffle"])
def test_perceptron_panels(bias, sampling):
    params = {"T": 50, "sampling": sampling, "bias": bias, "random_state": 3}
    for key, blocks in _build_all("perceptron", params):
        assert blocks is not None, key
        if key == "mistakes":
            assert _agreement(blocks, "equals the run's w to") <= TOL_AGREEMENT


@pytest.mark.parametrize("C", [None, 0.562, 10.0])
@pytest.mark.parametrize("kernel", ["linear", "poly", "rbf"])
@pytest.mark.parametrize("solver", ["smo", "qp"])
def test_dual_panels(C, kernel, solver):
    params = {"kernel": kernel, "gamma": 0.5, "degree": 2, "coef0": 1.0, "C": C}
    params.update(solver=solver, tol=1e-3 if solver == "smo" else 1e-9)
    built = _build_all("dual_svm", params)
    assert all(b is not None for key, b in built if key == "lagrange")
    result = ALGORITHMS["dual_svm"].fit(X, Y, params)
    last = ALGORITHMS["dual_svm"].seed_panels[0].build(result, X, Y, -1, params)
    (table,) = [b for b in last if isinstance(b, Table)]
    P = float(table.columns["value"][0])
    assert P == pytest.approx(result.primal_objective, rel=TOL_PRIMAL_REL)


@pytest.mark.parametrize("C", [None, 1.0])
@pytest.mark.parametrize("phi2", [False, True])
def test_primal_panels(C, phi2):
    from svmlab.algorithms.primal_svm import Phi2

    built = _build_all("primal_svm", {"C": C, "transform": Phi2() if phi2 else None})
    assert all(b is not None for _, b in built)
    lagrange = dict(built)["lagrange"]
    assert "Strong duality" in "\n".join(b.text for b in lagrange if isinstance(b, Markdown))


@pytest.mark.parametrize("kernel", ["linear", "poly", "rbf"])
@pytest.mark.parametrize("schedule", ["pegasos", "ssbd"])
@pytest.mark.parametrize("cw", [None, "balanced"])
def test_kernel_pegasos_panels(kernel, schedule, cw):
    params = {"kernel": kernel, "gamma": 0.5, "degree": 2, "coef0": 1.0, "lam": 0.1, "T": 100}
    params.update(schedule=schedule, averaging="average", class_weight=cw, random_state=0)
    for key, blocks in _build_all("kernel_pegasos", params):
        assert blocks is not None, key
        if key == "problem_5":
            assert _agreement(blocks, "the run's objective** to") <= TOL_AGREEMENT


@pytest.mark.parametrize("algo", ["multiclass_sgd", "multiclass_pegasos"])
@pytest.mark.parametrize("bias", [True, False])
def test_multiclass_panels(algo, bias):
    rng = np.random.default_rng(0)
    Xm = np.vstack([rng.normal(c, 0.5, (8, 2)) for c in ([0, 0], [3, 0], [0, 3])])
    ym = np.repeat([0, 1, 2], 8)
    params = {"bias": bias, "T": 300, "averaging": "average", "sampling": "uniform"}
    params.update({"eta": 0.1} if algo == "multiclass_sgd" else {"lam": 0.01})
    params["random_state"] = 0
    assert all(b is not None for _, b in _build_all(algo, params, Xm, ym))
    if algo == "multiclass_pegasos":  # kernelized: Remark 17.3 is for the linear Ψ only
        kern = {**params, "kernel": "rbf", "gamma": 1.0}
        assert all(b is None for _, b in _build_all(algo, kern, Xm, ym))
