"""What the Compare page says about the smallest objective holds on the fits it shows.

On one feature space the exact minimum with a free b is the smallest P any model there can
have (b = 0 is one of its choices), and the exact minimum without b the smallest of the
homogeneous models. Across feature spaces nothing is ordered: on separable blobs at
λ = 0.01 with the RBF kernel γ = 100, LinearSVC (on x itself) has P ≈ 0.0012 while the
dual SVM with b (on K) has P ≈ 0.172 — "the dual with b has the smallest P" is false there.
"""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from svmcore.datasets import load
from svmlab.study import compare
from svmlab.study.compare_ordering import feature_space, ordering, ordering_text

# Tolerance table ------------------------------------------------------------------------
TOL_P = 1e-6  # P of the exact solvers (SMO at tol 1e-6, coordinate descent at 1e-8) against each
# other and against scikit-learn's fits, absolute

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module", params=[dict(kernel="rbf", gamma=100.0), dict(kernel="linear")])
def run(request):
    X, y = load("separable_blobs")
    return compare.compare_runs(X, y, lam=0.01, T=10_000, random_state=0, **request.param)


def test_each_claim_of_the_ordering_holds_on_the_fits(run):
    groups = ordering(run)
    assert sorted(k for g in groups for k in g.keys) == sorted(compare.MODELS)
    for g in groups:
        P = {k: run.objective(k) for k in g.keys}
        assert g.P_smallest == min(P.values()) == P[g.smallest]
        homogeneous = [k for k in g.keys if compare.MODELS[k].solves.startswith("homogeneous")]
        assert all(P[k] >= g.P_star_homogeneous - TOL_P for k in homogeneous), P
        if g.P_star_free_b is not None:
            assert g.P_star_free_b <= g.P_star_homogeneous + TOL_P  # a free b only lowers it
            assert all(p >= g.P_star_free_b - TOL_P for p in P.values()), P
            assert P["dual_bias"] <= g.P_smallest + TOL_P  # the dual with b: smallest here
    text = ordering_text(run)
    for g in groups:
        assert f"the smallest P is {g.P_smallest:.6g}" in text
        assert compare.MODELS[g.smallest].label in text


def test_across_feature_spaces_the_smallest_is_named_not_assumed():
    X, y = load("separable_blobs")
    cmp = compare.compare_runs(X, y, lam=0.01, T=10_000, kernel="rbf", gamma=100.0)
    P = {k: cmp.objective(k) for k in compare.MODELS}
    assert P["sk_linearsvc"] == pytest.approx(0.0012, abs=1e-4)
    assert P["dual_bias"] == pytest.approx(0.172, abs=1e-3)
    smallest = min(P, key=P.get)
    assert feature_space(cmp, smallest) == "linear"
    text = ordering_text(cmp)
    assert f"the smallest of all is *{compare.MODELS[smallest].label}*'s" in text
    assert "Different feature spaces are different problems" in text


def test_with_a_linear_kernel_every_model_is_on_one_space():
    X, y = load("separable_blobs")
    cmp = compare.compare_runs(X, y, lam=0.01, T=2_000, kernel="linear")
    (only,) = ordering(cmp)
    assert only.space == "linear" and len(only.keys) == len(compare.MODELS)
    assert cmp.objective("dual_bias") <= only.P_smallest + TOL_P


def test_the_page_says_only_what_holds():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.run()
    at.switch_page("pages/compare.py")
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    prose = " ".join(m.value for m in at.markdown)
    assert "so the dual with b has the smallest P" not in prose
    assert "among the models on the kernel K" in prose
    assert any(m.value.startswith("**On the kernel K's feature space**") for m in at.markdown)
