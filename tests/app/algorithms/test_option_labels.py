"""The labels and captions beside the SGD controls say what the texts say, with numbers.

* The Output radio's last iterate: β⁽ᵀ⁺¹⁾/(λT) under the paper's schedule (seed 002,
  Algorithm 2), β⁽ᵀ⁺¹⁾/(λ(T+1)) under SSBD's (seed 000's box) — each checked against
  the run's α and β. The averaged output is SSBD §15.5 (linear) and §16.3 (seed 000).
* Seed 004's λ: its objective (1) λ‖w‖² has half this page's λ; its Algorithm 1 (SSBD's
  box) runs with this page's λ itself — the box transcribed from seed 004 gives the run.
* Seed 002 §2.1's class weights: C = 1/(λN) — the note's objective at that C, divided by
  CN, is the run's weighted objective.
* The feature page's circle button: K₂ at γ = 1, ζ = 0 has the map (x₁², √2x₁x₂, x₂²),
  not seed 004's (1, x₁², x₂²) — checked on the Gram matrices.
* One-vs-all: f_k as each binary learner computes it (w_kᵀx, + b_k only with a bias,
  Σ_j α_{k,j} K(x_j, x) for kernel Pegasos, + b_k for the dual SVM) — checked against
  the trained models.
* Kernel Pegasos with c₊ = 3: the rows say β_j += c_{y_j} and count one update as one.
"""

import numpy as np
import pytest

import svmcore
from svmlab.algorithms import ALGORITHMS, widgets
from svmlab.algorithms.pegasos import class_weight_caption
from svmlab.study import feature_space as fs

# Tolerance table ------------------------------------------------------------------------
TOL_IDENTITY = 1e-12  # identities of the texts, relative (rounding only)

X, Y = svmcore.datasets.load("moons", n=24, noise=0.2, random_state=1)


def _close(a, b):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    np.testing.assert_allclose(a, b, rtol=0, atol=TOL_IDENTITY * max(np.abs(b).max(), 1e-300))


# -- the Output radio ----------------------------------------------------------------------
@pytest.mark.parametrize("schedule, level", [("pegasos", "λT"), ("ssbd", "λ(T+1)")])
def test_kernel_last_output_label_is_the_runs_alpha(schedule, level):
    label = widgets.output_labels("kernel", schedule)["last"]
    assert f"β⁽ᵀ⁺¹⁾/({level})" in label
    lam, T = 0.1, 50
    run = svmcore.kernel_pegasos(
        X, Y, lam=lam, T=T, schedule=schedule, averaging="last", random_state=0
    )
    _close(run.alpha, run.beta / (lam * (T if schedule == "pegasos" else T + 1)))


def test_linear_last_output_label_under_ssbd_is_the_runs_w():
    assert "θ⁽ᵀ⁺¹⁾/(λ(T+1))" in widgets.output_labels("linear", "ssbd")["last"]
    assert widgets.output_labels("linear", "pegasos")["last"].startswith("last iterate w_{T+1}")


def test_average_labels_name_the_right_sections():
    labels = [v for kind in ("linear", "kernel") for v in widgets.OUTPUTS[kind].values()]
    assert not any("seed 000, §15.5" in v for v in labels)  # seed 000 is SSBD §16.3
    assert "SSBD §15.5" in widgets.OUTPUTS["linear"]["average"]
    assert "§16.3" in widgets.OUTPUTS["kernel"]["average"]
    assert "seed 000" in widgets.OUTPUTS["kernel"]["average"]


# -- seed 004's λ -------------------------------------------------------------------------------
def seed_004_algorithm_1(K, y, lam, idx):
    """Seed 004's Algorithm 1 as printed: α^t = β^t/(λt); if y_i Σ_j α_j^t K_ji < 1 then
    β_i += y_i; output α̂ = (1/T) Σ_t α^t."""
    beta, total = np.zeros(len(y)), np.zeros(len(y))
    for t, i in enumerate(idx, start=1):
        alpha = beta / (lam * t)
        total += alpha
        if y[i] * (alpha @ K[:, i]) < 1:
            beta[i] += y[i]
    return total / len(idx)


def test_lambda_caption_states_both_of_seed_004s_conventions():
    lam = 0.02
    caption = widgets.lambda_caption(lam)
    assert "objective (1)" in caption and "λ = 0.01, half of this one" in caption
    assert "Algorithm 1" in caption and "this page's λ = 0.02" in caption
    # Algorithm 1 with this page's λ is the page's run (SSBD's schedule) ...
    idx = np.random.default_rng(2).integers(0, len(Y), 300)
    run = svmcore.kernel_pegasos(X, Y, kernel="rbf", gamma=1.0, lam=lam, T=300, indices=idx)
    _close(run.alpha, seed_004_algorithm_1(run.kernel(X), Y, lam, idx))
    # ... while objective (1) needs λ/2: (λ/2)‖w‖² written as λ′‖w‖² with λ′ = λ/2
    K, a = run.kernel(X), run.alpha
    hinge = np.mean(np.maximum(0.0, 1.0 - Y * (K @ a)))
    _close(run.objective, (lam / 2) * a @ K @ a + hinge)


# -- seed 002 §2.1 ------------------------------------------------------------------------------
def test_class_weight_caption_says_c_is_one_over_lambda_n():
    y = np.array([1.0] * 5 + [-1.0] * 15)
    caption = class_weight_caption(y)
    assert "C = 1/(λN)" in caption and "(C = 1/λ)" not in caption
    Xc = np.random.default_rng(0).normal(size=(20, 2)) + y[:, None]
    lam = 0.05
    run = svmcore.pegasos(Xc, y, lam=lam, T=400, class_weight="balanced", random_state=1)
    N, Np, Nm = len(y), 5, 15
    C = 1 / (lam * N)
    xi = np.maximum(0.0, 1 - y * (Xc @ run.w))
    note = 0.5 * run.w @ run.w + C * N / (2 * Np) * xi[y > 0].sum()
    note += C * N / (2 * Nm) * xi[y < 0].sum()
    _close(note / (C * N), run.objective)


# -- the feature page's circle -------------------------------------------------------------------
def test_circle_button_names_k2s_map_not_seed_004s():
    help_text = fs.CIRCLE_HELP
    assert "Φ₂(x) = (x₁², √2x₁x₂, x₂²)" in help_text
    assert "K₂ with γ = 1, ζ = 0: φ(x) = (1, x₁², x₂²)" not in help_text
    Xc, _ = svmcore.datasets.load("circle")
    K = svmcore.make_kernel("poly", gamma=1.0, degree=2, coef0=0.0)(Xc)
    phi2 = np.column_stack([Xc[:, 0] ** 2, np.sqrt(2) * Xc[:, 0] * Xc[:, 1], Xc[:, 1] ** 2])
    phi004 = np.column_stack([np.ones(len(Xc)), Xc[:, 0] ** 2, Xc[:, 1] ** 2])
    _close(K, phi2 @ phi2.T)
    assert not np.allclose(K, phi004 @ phi004.T)
    # seed 004's plane w = (−1, 1, 1) on φ is w = (1, 0, 1) on Φ₂ with b = −1
    _close(phi004 @ [-1.0, 1.0, 1.0], phi2 @ [1.0, 0.0, 1.0] - 1.0)


# -- one-vs-all -----------------------------------------------------------------------------------
OVA = [
    ({"learner": "pegasos", "bias": "none"}, "f_k(x) = w_kᵀx   (no b"),
    ({"learner": "pegasos", "bias": "augment"}, "f_k(x) = w_kᵀx + b_k"),
    ({"learner": "pegasos", "bias": "free"}, "f_k(x) = w_kᵀx + b_k"),
    (
        {"learner": "kernel_pegasos", "kernel": "rbf", "gamma": 1.0},
        "f_k(x) = Σ_j α_{k,j} K(x_j, x)",
    ),
    ({"learner": "dual_svm", "kernel": "rbf", "gamma": 1.0, "C": 1.0}, "+ b_k"),
]


@pytest.mark.parametrize("params, shown", OVA, ids=lambda v: str(v)[:40])
def test_one_vs_all_shows_each_learners_f_k(params, shown):
    spec = ALGORITHMS["one_vs_all"]
    texts = [line.text for line in spec.code(params)]
    (train,) = [t for t in texts if "train " in t]
    assert shown in train
    latex = spec.objective(params)
    X3, Y3 = svmcore.datasets.load("k_blobs", k=3)
    fit = {**params, "T": 200, "lam": 0.1, "random_state": 0}
    if params["learner"] == "dual_svm":
        fit = {k: v for k, v in params.items()}
    result = spec.fit(X3, Y3, fit)
    model = result.models[0]
    if params["learner"] == "pegasos":
        has_b = params["bias"] != "none"
        assert ("+ b_k" in train) == has_b and ("+ b_k" in latex) == has_b
        assert has_b or model.b == 0.0
        _close(model.decision_function(X3), X3 @ model.w + model.b)
    elif params["learner"] == "kernel_pegasos":
        assert "b_k" not in train and "b_k" not in latex and r"\alpha_{k,j}" in latex
        _close(model.decision_function(X3), model.kernel(X3, model.X_fit) @ model.alpha)
    else:
        assert "y⁽ᵏ⁾_j K(x_j, x) + b_k" in train
    assert "w_kᵀx" not in train or params["learner"] == "pegasos"


# -- kernel Pegasos with c₊ = 3 ---------------------------------------------------------------
@pytest.mark.parametrize("schedule", ["pegasos", "ssbd"])
def test_kernel_rows_with_class_weights_read_as_the_code(schedule):
    spec = ALGORITHMS["kernel_pegasos"]
    params = dict(kernel="rbf", gamma=1.0, lam=0.1, T=1, schedule=schedule, averaging="last")
    params |= dict(sampling="uniform", class_weight={-1: 1.0, 1: 3.0})
    j = int(np.flatnonzero(Y > 0)[0])
    result = spec.fit(X, Y, {**params, "indices": [j]})  # one step on a + point: it updates
    step = {k: v[0] for k, v in result.trace.steps.items()}
    assert step["update"]
    row = dict(spec.rows(step, Y, params))
    code = "\n".join(line.text for line in spec.code(params))
    if schedule == "pegasos":
        assert "β_j⁽ᵗ⁺¹⁾ = β_j⁽ᵗ⁾ + c_{y_j}" in code and row["< 1 → β_j += c_{y_j}"] == "yes"
        assert row["β_j⁽ᵗ⁺¹⁾ (c_{y_j} × the updates of j)"] == "3"
        assert row["updates of j so far (β_j/c_{y_j})"] == "1"
    else:
        assert "+ c_{y_i} y_i" in code and row["β_i⁽ᵗ⁺¹⁾ (signed: += c_{y_i} y_i)"] == "3"
        assert row["updates of i so far (|β_i|/c_{y_i})"] == "1"
    assert code.index("c_y: the weight of class y") < code.index("c_{y_")  # defined first
