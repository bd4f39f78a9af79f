"""The seeds' derivations on the pages (AppTest): each lazy expander shows its item with the
run's numbers, without an error; closed, it shows and computes nothing.
"""

import re

import pytest

from tests.conftest import assert_clean, open_page

# Tolerance table ------------------------------------------------------------------------
TOL_PAGE = 1e-9  # the agreement a page states (sum vs run, counts vs w, (5) vs objective)
TOL_PAGE_REPRESENTER = 1e-8  # the page's explicit w vs the kernel form (polynomial kernel)
# the exact numbers are tested in tests/app/study/; here only what is on the page


def _open(page: str, algo: str | None = None, **state):
    at = open_page(page)
    if algo is not None:
        group = {"linear_pegasos": "linear", "dual_svm": "dual"}.get(page, page)
        at.radio(key=f"{group}_algo").set_value(algo).run()
    for key, value in state.items():
        at.session_state[key] = value
    if state:
        at.run()
    assert_clean(at)
    return at


def _markdown(at) -> str:
    return "\n".join(m.value for m in at.markdown)


def _agreement(text: str, phrase: str) -> float:
    m = re.search(re.escape(phrase) + r" ([0-9.e+-]+)", text)
    assert m, f"{phrase!r} not on the page"
    return float(m.group(1).rstrip("."))


def test_closed_panels_show_nothing():
    at = _open("linear_pegasos")
    assert "telescoping" not in _markdown(at) and "Seed 002 §3" not in _markdown(at)
    titles = [e.label for e in at.expander]
    assert any("telescoping sum" in t for t in titles)
    assert any("Perceptron → Pegasos" in t for t in titles)


def test_linear_pegasos_telescoping_and_the_side_by_side():
    at = _open("linear_pegasos", pegasos_telescoping=True, pegasos_perceptron_pegasos=True)
    text = _markdown(at)
    assert _agreement(text, "The sum and the run agree to") <= TOL_PAGE
    assert "Pegasos' y_j w_tᵀx_j < 1" in text and "Perceptron's test" in text
    assert any("<table" in m.value and "η_t = 1/(tλ)" in m.value for m in at.markdown)
    at.radio(key="pegasos_avg").set_value("last").run()
    assert_clean(at)
    assert _agreement(_markdown(at), "The sum and the run agree to") <= TOL_PAGE
    at.checkbox(key="pegasos_proj").check().run()  # no telescoping with the projection
    assert_clean(at)
    assert any("projection" in i.value for i in at.info)


def test_perceptron_mistake_counts_as_bars():
    at = _open("linear_pegasos", "perceptron", perceptron_mistakes=True)
    assert _agreement(_markdown(at), "equals the run's w to") <= TOL_PAGE
    assert any("β_n" in c.proto.spec for c in at.get("plotly_chart"))


@pytest.mark.parametrize("algo", ["dual_svm", "primal_svm"])
def test_dual_page_lagrangian_and_margin_bound(algo):
    at = _open("dual_svm", algo, **{f"{algo}_lagrange": True, f"{algo}_vc_bound": True})
    text = _markdown(at)
    assert "Strong duality" in text
    assert "margin(b, w)" in text
    assert any("d_{VC}" in la.value for la in at.latex)
    assert any("min(R²/ρ², d) + 1" in str(df.value) for df in at.dataframe) or (
        "does not separate" in text
    )


def test_dual_points_table_has_the_distance():
    at = _open("dual_svm", dual_svm_points=True)
    frames = [d.value for d in at.dataframe if list(d.value.columns[:2]) == ["i", "y"]]
    assert frames and "distance |f(x)|/‖w‖" in frames[0].columns


def test_kernel_page_problem_in_alpha_and_representer():
    at = _open("kernel_pegasos", kernel_pegasos_problem_5=True, kernel_pegasos_representer=True)
    text = _markdown(at)
    assert _agreement(text, "the run's objective** to") <= TOL_PAGE
    assert "infinite-dimensional" in text and "smallest eigenvalue of K" in text
    at.selectbox(key="kernel_pegasos_kernel").set_value("poly").run()
    assert_clean(at)
    assert (
        _agreement(_markdown(at), "The explicit w and the kernel form agree to")
        <= TOL_PAGE_REPRESENTER
    )


@pytest.mark.parametrize("algo", ["multiclass_sgd", "multiclass_pegasos"])
def test_multiclass_remark_17_3(algo):
    at = _open("multiclass", algo, **{f"{algo}_remark_17_3": True})
    assert "Remark 17.3" in _markdown(at)
    rows = [str(df.value) for df in at.dataframe]
    assert any("Corollary 17.1" in r for r in rows)


def test_one_vs_all_takes_class_weights():
    at = _open("multiclass", "one_vs_all")
    at.selectbox(key="one_vs_all_cw").set_value("balanced").run()
    assert_clean(at)
    assert any("N₊" in c.value and "c₊" in c.value for c in at.caption)
    assert any("c_{y^{(k)}_j}" in la.value for la in at.latex)


def test_feature_page_mercer():
    at = _open("feature_space", feature_mercer=True)
    assert "smallest eigenvalue" in _markdown(at) and "**PSD** ✓" in _markdown(at)
