"""Seed 002 §2.1's class weights on the multiclass page's SGD runs (SSBD §17.2's SGD and
multiclass Pegasos, seed 002 §2.3): the widget, c_{y_i} in the objective, the code and the
inspector, the caption's c_y = n/(k n_y) and the convergence panel's weighted P*.
"""

import numpy as np
import pytest

import svmcore
from svmlab.algorithms import multiclass_common as mc
from svmlab.algorithms.multiclass_pegasos import SPEC as PEGASOS
from svmlab.algorithms.multiclass_sgd import SPEC as SGD
from svmlab.study.convergence import multiclass_optimum
from tests.conftest import open_page

# Tolerance table: none — the weights by hand are dyadic or exact quotients, the panel's P*
# and svmcore's are the same call (compared exactly); the rest compares text

Y = np.array([0, 0, 0, 0, 1, 1, 2, 2])  # n = 8, k = 3: c = 8/12, 8/6, 8/6


def _params(**kw):
    p = {"T": 50, "averaging": "average", "sampling": "uniform", "random_state": 0}
    return p | {"bias": True} | kw


def test_caption_states_n_over_k_n_y_with_this_datas_numbers():
    text = mc.class_weight_caption(Y, "balanced")
    assert "c_y = n/(k n_y)" in text and "c_{y_i}" in text
    assert "n = 8, k = 3: c_0 = 0.6667 (n_y = 4), c_1 = 1.333 (n_y = 2)" in text
    assert "c_1 = 3 (n_y = 2)" in mc.class_weight_caption(Y, {1: 3.0})


@pytest.mark.parametrize("spec", [SGD, PEGASOS], ids=["sgd", "pegasos"])
def test_objective_and_code_show_c_y_only_with_weights(spec):
    extra = {"eta": 0.1} if spec is SGD else {"lam": 0.1, "schedule": "pegasos"}
    plain, weighted = _params(**extra), _params(**extra, class_weight="balanced")
    assert "c_{y_i}" not in spec.objective(plain)
    assert r"c_{y_i}\max_{y'}" in spec.objective(weighted)
    plain_code = " ".join(line.text for line in spec.code(plain))
    code = " ".join(line.text for line in spec.code(weighted))
    weight = "c_y v_t" if spec is SGD else "η_t c_{y_i} x̃_i"
    assert "c_y" not in plain_code and "c_{y" not in plain_code and weight in code
    if spec is PEGASOS:
        kernel = " ".join(line.text for line in spec.code({**weighted, "kernel": "rbf"}))
        assert "η_t c_{y_i}" in kernel
        ssbd = " ".join(line.text for line in spec.code({**weighted, "schedule": "ssbd"}))
        assert "θ_{y_i} += c_{y_i} x̃_i" in ssbd


def test_inspector_shows_the_class_weight_of_the_step():
    X = np.array([[0.0, 0.0], [1, 0], [0, 1], [1, 1], [3, 3], [4, 3], [0, 4], [1, 4]])
    p = _params(eta=0.1, class_weight="balanced")
    run = svmcore.multiclass_sgd(X, Y, n_steps=5, **p)
    step = {name: run.trace.steps[name][0] for name in run.trace.steps}
    rows = dict(mc.rows(step, Y, p))
    c = {0: 8 / 12, 1: 8 / 6, 2: 8 / 6}[int(step["y"])]
    assert rows["class weight c_y (the step is scaled by it)"] == mc.num(c)
    unweighted = dict(mc.rows(step, Y, _params(eta=0.1)))
    assert "class weight c_y (the step is scaled by it)" not in unweighted


def test_convergence_panel_optimum_is_the_weighted_optimum():
    X = np.array([[0.0, 0.0], [1, 0], [0, 1], [1, 1], [3, 3], [4, 3], [0, 4], [1, 4]])
    kw = _params(lam=0.1, class_weight={0: 1.0, 2: 4.0})
    panel = multiclass_optimum(X, Y, kw)
    direct = svmcore.multiclass_svm_optimum(
        X, Y, lam=0.1, class_weight={0: 1.0, 2: 4.0}, tol=1e-10, max_iter=100_000
    )
    assert panel.objective == direct.objective
    assert panel.objective != multiclass_optimum(X, Y, _params(lam=0.1)).objective
    assert not PEGASOS.check_applies(kw)  # LinearSVC's check: unweighted runs only


@pytest.mark.parametrize("algo", ["multiclass_sgd", "multiclass_pegasos"])
def test_page_weighs_the_run_with_the_widget(algo):
    at = open_page("multiclass")
    at.radio(key="multiclass_algo").set_value(algo).run()
    assert not at.exception, [e.message for e in at.exception]
    assert not any("c_{y_i}" in x.value for x in at.latex)
    at.selectbox(key=f"{algo}_cw").set_value("balanced").run()
    assert not at.exception, [e.message for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    assert any("c_{y_i}" in x.value for x in at.latex)
    assert any("c_y = n/(k n_y)" in c.value for c in at.caption)
    at.selectbox(key=f"{algo}_cw").set_value("custom").run()
    assert not at.exception, [e.message for e in at.exception]
    assert any(s.key == f"{algo}_cw_0" for s in at.select_slider)
