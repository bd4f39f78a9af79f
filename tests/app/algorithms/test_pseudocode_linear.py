"""The linear page's pseudo-code is the run, under every option (seed 002's Algorithm 1,
SSBD §15.5's θ box).

For every combination of schedule, output, sampling, bias, mini-batch size k,
projection, class weights and w_r:

* every symbol is defined on or before the first line that uses it (η_t, w_t, w⁽ᵗ⁾, θ,
  b_t, A_t⁺, w_r, x̃, c_y), and the projection acts on a w_{t+1} the code computed;
* the code, executed as written — the η_t it defines, the update lines it shows (the
  pull towards w_r, the b line, the 1/k sum, the projection) — on the run's indices
  gives the run's last iterate (w, b);
* the inspector's step-size row is the η_t (or the 1/(λt) of w⁽ᵗ⁾ = θ⁽ᵗ⁾/(λt)) the code
  defines, with the value the run used.
"""

import itertools
import re

import numpy as np
import pytest

from svmcore._validation import check_class_weight
from svmlab.algorithms import ALGORITHMS
from svmlab.plot.pseudocode import num

# Tolerance table ------------------------------------------------------------------------
TOL_CODE = 1e-12  # the code executed vs the run, relative to max |w| (the same recursion in another
# order); shown strings: equal

SPEC = ALGORITHMS["pegasos"]
LAM, T = 0.3, 40

rng = np.random.default_rng(4)
X = np.vstack([rng.normal(1.0, 1.0, (8, 2)), rng.normal(-1.0, 1.0, (6, 2))])
Y = np.repeat([1.0, -1.0], [8, 6])

OPTIONS = list(
    itertools.product(
        ["pegasos", "ssbd"],  # schedule
        ["none", "augment", "free"],  # bias
        [1, 4],  # k
        [False, True],  # projection
        [None, {-1: 1.0, 1: 3.0}],  # class weights
        [None, (0.5, -0.25)],  # w_r
    )
)


def _params(schedule, bias, k, projection, class_weight, w_ref, **kw):
    p = {"lam": LAM, "T": T, "schedule": schedule, "averaging": "last", "sampling": "uniform"}
    p |= {"bias": bias, "batch_size": k, "projection": projection, "class_weight": class_weight}
    if w_ref is not None:
        p["w_ref"] = w_ref + ((0.125,) if bias == "augment" else ())
    return p | kw


#: symbol → how its defining line starts (or, for A_t⁺, what it contains)
DEFINITIONS = {
    "η_t": "η_t = ",
    "w⁽ᵗ⁾": "let w⁽ᵗ⁾ = ",
    "θ": "initialize θ⁽¹⁾ = 0",
    "w_t": "initialize w₁ = 0",
    "b_t": "initialize b₁ = 0",
    "A_t": "A_t⁺ = {",
    "w_r": "w_r: ",
    "x̃": "x̃ = (x, 1)",
    "c_{y": "c_y: ",
}


def _defined_before_use(texts):
    for symbol, definition in DEFINITIONS.items():
        uses = [n for n, t in enumerate(texts) if symbol in t]
        if not uses:
            continue
        defs = [n for n, t in enumerate(texts) if t.startswith(definition) or definition in t]
        assert defs and defs[0] <= uses[0], (symbol, texts)
    assigned = [n for n, t in enumerate(texts) if re.match(r"w_\{t\+1\} = ", t)]
    for n, t in enumerate(texts):
        if t.startswith("w_{t+1} ← "):
            assert assigned and assigned[0] < n, texts


def _theta_box(texts) -> bool:
    return any(t.startswith("initialize θ⁽¹⁾ = 0") for t in texts)


ETAS = {"η_t = 1/(λt)": lambda t: 1 / (LAM * t), "η_t = 1/(λ(t+1))": lambda t: 1 / (LAM * (t + 1))}


def _execute(texts, p, idx):
    """Run the code as it reads (the explicit step, or the θ box) on the indices ``idx``;
    return the last iterate (w, b)."""
    k = p["batch_size"]
    augment = any(t.startswith("x̃ = (x, 1)") for t in texts)
    Xa = np.hstack([X, np.ones((len(X), 1))]) if augment else X
    c = check_class_weight(p["class_weight"], Y) if any("c_{y_" in t for t in texts) else None
    c = np.ones(len(Y)) if c is None else c
    if _theta_box(texts):
        theta = np.zeros(Xa.shape[1])
        for t in range(1, T + 1):
            i = idx[t - 1]
            w = theta / (LAM * t)  # let w⁽ᵗ⁾ = (1/(λt)) θ⁽ᵗ⁾
            if Y[i] * (w @ Xa[i]) < 1:
                theta = theta + c[i] * Y[i] * Xa[i]
        assert "output w⁽ᵀ⁺¹⁾ = θ⁽ᵀ⁺¹⁾/(λ(T+1))" in texts
        w = theta / (LAM * (T + 1))
        return (w[:-1], w[-1]) if augment else (w, 0.0)
    (eta_line,) = [t for t in texts if t.startswith("η_t = ")]
    eta_of = ETAS[eta_line.split("   ")[0]]
    pull = any("η_t λ w_r" in t for t in texts)
    w_r = np.asarray(p["w_ref"], dtype=float) if pull else np.zeros(Xa.shape[1])
    free = any(t.startswith("b_{t+1} = b_t +") for t in texts)
    project = any(t.startswith("w_{t+1} ← ") for t in texts)
    w, b = np.zeros(Xa.shape[1]), 0.0
    for t in range(1, T + 1):
        A = idx[(t - 1) * k : t * k]
        eta = eta_of(t)
        viol = [i for i in A if Y[i] * (w @ Xa[i] + b) < 1]
        g = sum((c[i] * Y[i] * Xa[i] for i in viol), np.zeros(Xa.shape[1])) / k
        w_next = (1 - eta * LAM) * w + (eta * LAM * w_r if pull else 0) + eta * g
        if free:
            b = b + eta * sum(c[i] * Y[i] for i in viol) / k
        if project:
            v = w_next - w_r
            w_next = w_r + min(1.0, (1 / np.sqrt(LAM)) / np.linalg.norm(v)) * v
        w = w_next
    assert texts[-1] == "output w_{T+1}"
    return (w[:-1], w[-1]) if augment else (w, b)


@pytest.mark.parametrize("option", OPTIONS, ids=str)
def test_the_code_shown_is_the_run(option):
    p = _params(*option)
    texts = [line.text.strip() for line in SPEC.code(p)]
    _defined_before_use(texts)
    idx = np.random.default_rng(1).integers(0, len(Y), T * p["batch_size"])
    run = SPEC.fit(X, Y, {**p, "indices": idx})
    w, b = _execute(texts, p, idx)
    scale = float(np.abs(run.w).max())
    np.testing.assert_allclose(run.w, w, rtol=0, atol=TOL_CODE * scale)
    np.testing.assert_allclose(run.b, b, rtol=0, atol=TOL_CODE * scale)


@pytest.mark.parametrize("option", OPTIONS, ids=str)
def test_the_step_size_row_is_the_codes(option):
    p = _params(*option)
    texts = [line.text.strip() for line in SPEC.code(p)]
    run = SPEC.fit(X, Y, {**p, "random_state": 0})
    steps = run.trace.steps
    for s in range(5):
        step = {name: v[s] for name, v in steps.items()}
        row = dict(SPEC.rows(step, Y, p))
        t = s + 1
        if _theta_box(texts):
            assert row["1/(λt) in w⁽ᵗ⁾ = θ⁽ᵗ⁾/(λt)"] == num(1 / (LAM * t))
            continue
        (eta_line,) = [x.split("   ")[0] for x in texts if x.startswith("η_t = ")]
        assert row[eta_line] == num(ETAS[eta_line](t)) == num(step["eta"])


def test_ssbd_code_under_each_extension_reads_as_the_issue_asks():
    """The four cases the SSBD schedule used to get wrong, line by line."""
    base = _params("ssbd", "none", 1, False, None, None)
    batch = [x.text.strip() for x in SPEC.code({**base, "batch_size": 4})]
    eta = "η_t = 1/(λ(t+1))   (SSBD §15.5's schedule, written as a step)"
    assert eta in batch and not any("θ" in x for x in batch[: batch.index(eta)])
    assert batch.index(eta) < batch.index("w_{t+1} = (1 − η_t λ) w_t + (η_t/k) Σ_{i∈A_t⁺} y_i x_i")
    proj = [x.text.strip() for x in SPEC.code({**base, "projection": True})]
    assert proj.index("w_{t+1} = (1 − η_t λ) w_t + η_t y_i x_i") < proj.index(
        "w_{t+1} ← min{1, (1/√λ)/‖w_{t+1}‖} w_{t+1}"
    )
    free = [x.text.strip() for x in SPEC.code({**base, "bias": "free"})]
    assert "if y_i (⟨w_t, x_i⟩ + b_t) < 1 then" in free
    assert "b_{t+1} = b_t + η_t y_i" in free and "initialize b₁ = 0" in free
    ref = _params("ssbd", "none", 1, False, None, (0.5, -0.25))
    texts = [x.text.strip() for x in SPEC.code(ref)]
    assert any(x.startswith("η_t = 1/(λ(t+1))") for x in texts)
    row = dict(SPEC.rows({"t": 3, "i": 0, "eta": 1 / (LAM * 4), "margin": 0.5}, Y, ref))
    assert row["η_t = 1/(λ(t+1))"] == num(1 / (LAM * 4)) and "1/(λt) in w⁽ᵗ⁾ = θ⁽ᵗ⁾/(λt)" not in row


def test_the_theta_box_is_kept_where_it_covers_the_options():
    for bias in ("none", "augment"):
        for cw in (None, {-1: 1.0, 1: 3.0}):
            p = _params("ssbd", bias, 1, False, cw, None, sampling="cyclic")
            texts = [x.text.strip() for x in SPEC.code(p)]
            assert texts.count("let w⁽ᵗ⁾ = (1/(λt)) θ⁽ᵗ⁾") == 1
            assert not any(x.startswith("η_t") for x in texts)
            assert any("initialize θ⁽¹⁾ = 0, t = 0" in x for x in texts)  # seed 002's t = t + 1


@pytest.mark.parametrize("sampling", ["uniform", "cyclic", "shuffle"])
def test_mini_batch_line_names_the_sampling(sampling):
    p = _params("pegasos", "none", 4, False, None, None, sampling=sampling)
    (line,) = [x.text.strip() for x in SPEC.code(p) if "A_t⁺ = {" in x.text]
    expected = {"uniform": "uniformly", "cyclic": "1, 2, …, n, 1, 2, …", "shuffle": "random order"}
    assert expected[sampling] in line and "k = 4" in line
    assert line.endswith("A_t⁺ = {i ∈ A_t : y_i ⟨w_t, x_i⟩ < 1}")
