"""Seed 003 (Lin) beside a run: w_PLA = Σ β_n y_n z_n, the Lagrangian and strong duality,
the distance to the hyperplane and the large-margin bound, with the run's numbers."""

from __future__ import annotations

import numpy as np

from svmlab.algorithms.seed_panels.base import SeedPanel, fmt, run_indices, snapshot_t, vec
from svmlab.plot.seed_figures import Caption, Figure, Latex, Markdown, Table, mistake_bars
from svmlab.study import lagrange
from svmlab.study import pegasos_derivation as pd

__all__ = ["LAGRANGE", "MARGIN_BOUND", "MISTAKE_COUNTS"]


# -- seed 003: w_PLA = Σ β_n y_n z_n ------------------------------------------------------
def mistake_count_blocks(result, X, y, k: int, params: dict) -> list:
    """The Perceptron's mistake counts β_n as bars, and w_PLA = Σ β_n y_n z_n = the run's w."""
    X = np.asarray(X, dtype=float)
    t = snapshot_t(result, k)
    bias = params.get("bias", "none")
    pc = pd.perceptron_counts(X, y, indices=run_indices(params, X.shape[0], t), bias=bias)
    s = result.trace.snapshots
    w_run = np.asarray(s["w"][k], dtype=float)
    aug = bias in ("augment", "free")
    if aug:
        w_run = np.append(w_run, float(s["b"][k]))
    z = "x̃_n = (x_n, 1)" if aug else "x_n"
    names = [f"w[{j + 1}]" for j in range(w_run.shape[0])]
    if aug:
        names[-1] = "b (the last weight)"
    diff = float(np.max(np.abs(pc.w_from_counts - w_run)))
    return [
        Markdown(
            "Seed 003 (*Representation of Fattest Hyperplane*): both the SVM and the "
            "Perceptron (PLA) write w as a linear combination of the y_n z_n — the SVM with "
            "its dual α_n, PLA with β_n, the number of mistake corrections at point n."
        ),
        Latex(
            r"w_{SVM}=\sum_{n=1}^{N}\alpha_n y_n z_n\qquad "
            r"w_{PLA}=\sum_{n=1}^{N}\beta_n y_n z_n"
        ),
        Figure(mistake_bars(pc.counts, y)),
        Table(
            {
                "coordinate": names,
                f"Σ β_n y_n z_n (z_n = {z})": vec(pc.w_from_counts),
                f"the run's w at t = {t:,}": vec(w_run),
            }
        ),
        Markdown(
            f"**w_PLA = Σ β_n y_n z_n equals the run's w to {diff:.2g}**: Σ_n β_n = "
            f"{pc.n_fired:,} corrections in {t:,} steps, at "
            f"{int(np.count_nonzero(pc.counts))} of the {X.shape[0]} points (the bars)."
        ),
    ]


MISTAKE_COUNTS = SeedPanel(
    "mistakes",
    "Seed 003: the Perceptron's mistake counts β_n — w_PLA = Σ β_n y_n z_n",
    mistake_count_blocks,
)


# -- seed 003: the Lagrangian and strong duality -----------------------------------------
def _dual_state(result, X, k: int):
    """(K, α, b, C, kernel or None, dim d of z, t) of a dual or primal SVM result."""
    X = np.asarray(X, dtype=float)
    if hasattr(result, "training_features"):  # the primal QP on z_n = Φ(x_n)
        Z, _ = result.training_features()
        return Z @ Z.T, np.asarray(result.alpha), float(result.b), result.C, None, Z.shape[1], 1
    s = result.trace.snapshots
    if k >= result.trace.n_snapshots - 1 or k < 0:  # the last snapshot: the solver's answer
        alpha, b = np.asarray(result.alpha, dtype=float), float(result.b)
    else:
        alpha = np.asarray(s["alpha"][k], dtype=float)
        b = float(s["b"][k]) if "b" in s else float(result.b)
    d = lagrange.feature_dimension(result.kernel, X.shape[1])
    return result.kernel(X), alpha, b, result.C, result.kernel, d, snapshot_t(result, k)


def lagrange_blocks(result, X, y, k: int, params: dict) -> list:
    """Lin's ℒ(b, w, α), the min–max, the max–min dual and strong duality, in numbers."""
    K, alpha, b, C, _, _, t = _dual_state(result, X, k)
    chk = lagrange.lagrangian_at(K, y, alpha, b, C)
    soft = C is not None
    if soft:
        lag = (
            r"\mathcal{L}(b,w,\xi,\alpha,\beta)=\tfrac12w^\top w+C\sum_n\xi_n"
            r"+\sum_n\alpha_n\big(1-\xi_n-y_n(w^\top z_n+b)\big)+\sum_n\beta_n(-\xi_n)"
        )
    else:
        lag = (
            r"\mathcal{L}(b,w,\alpha)=\underbrace{\tfrac12w^\top w}_{\text{objective}}"
            r"+\sum_{n=1}^{N}\alpha_n\underbrace{\big(1-y_n(w^\top z_n+b)\big)}_{\text{constraint}}"
        )
    inner = "∞" if not np.isfinite(chk.inner_max) else fmt(chk.inner_max)
    rows = {
        "P(b, w) = ½wᵀw" + (" + C Σ ξ_n" if soft else ""): fmt(chk.primal),
        (
            "largest violation of y_n(wᵀz_n + b) ≥ 1"
            if not soft
            else "largest violation of y_n(wᵀz_n + b) ≥ 1 − ξ_n, ξ_n ≥ 0"
        ): fmt(chk.violation),
        "max over α ≥ 0 of ℒ(b, w, α) (∞ if a constraint is violated)": inner,
        "Σ y_n α_n (min over b is −∞ unless 0)": fmt(chk.sum_y_alpha),
        "D(α) = Σ α_n − ½‖Σ α_n y_n z_n‖² = min over (b, w) of ℒ": fmt(chk.dual),
        (
            "ℒ(b, w, ξ, α, β) at the run's values (β_n = C − α_n)"
            if soft
            else "ℒ(b, w, α) at the run's (b, w, α)"
        ): fmt(chk.lagrangian),
        "Σ α_n (1 − ξ_n − y_n(wᵀz_n + b)) (complementary slackness: 0)": fmt(chk.slackness),
        "P − D (duality gap)": f"{chk.gap:.3g}",
    }
    optimal = abs(chk.gap) <= 1e-6 * max(1.0, abs(chk.primal)) and chk.violation <= 1e-6
    last = not hasattr(result, "trace") or k >= result.trace.n_snapshots - 1
    if optimal:
        verdict = (
            f"**Strong duality: P = D = ℒ** ({fmt(chk.primal)}, {fmt(chk.dual)}, "
            f"{fmt(chk.lagrangian)}; gap {chk.gap:.2g}): the run's (b, w, α) is the "
            "primal–dual optimal solution."
        )
    elif last and getattr(result, "status", "") == "optimal":
        verdict = (
            "**Strong duality up to the solver's tolerance**"
            + (f" (tol = {result.tol:g})" if hasattr(result, "tol") else "")
            + ": "
            f"P = {fmt(chk.primal)}, D = {fmt(chk.dual)}, ℒ = {fmt(chk.lagrangian)}, gap "
            f"{chk.gap:.2g} — a smaller tol (or the QP solver) closes it further."
        )
    else:
        verdict = (
            f"**Not the optimum at this snapshot:** D(α) = {fmt(chk.dual)} ≤ P = "
            f'{inner if not soft else fmt(chk.primal)} (weak duality, "max ≥ any")'
            + ("; scrub to the last snapshot for the solver's answer." if not last else ".")
        )
    return [
        Markdown(
            f"Seed 003, *Dual SVM* — the run's (b, w, α) at t = {t:,}, with "
            "w = Σ α_n y_n z_n (z_n = Φ(x_n); w ᵀz_n = Σ_m α_m y_m K(x_m, x_n))"
            + (", ξ_n = max(0, 1 − y_n(wᵀz_n + b)) and β_n = C − α_n" if soft else "")
            + "."
        ),
        Latex(lag),
        Latex(
            r"\text{SVM}\equiv\min_{b,w}\Big(\max_{\text{all }\alpha_n\ge0}\mathcal{L}\Big)"
            r"\;\ge\;\max_{\text{all }\alpha_n\ge0}\Big(\min_{b,w}\mathcal{L}\Big)"
            r"=\max_{\alpha\ge0,\;\sum y_n\alpha_n=0}\;\sum_n\alpha_n"
            r"-\tfrac12\Big\|\sum_n\alpha_ny_nz_n\Big\|^2"
        ),
        Caption(
            "Left: the primal (the max hides the constraints: it is ½wᵀw"
            + (" + C Σ ξ_n" if soft else "")
            + " where (b, w) is feasible, ∞ where not); right: the Lagrange dual (a lower "
            "bound: max ≥ any). Strong duality of QP: equal at the optimum."
        ),
        Table({"quantity": list(rows), "value": list(rows.values())}),
        Markdown(verdict),
    ]


LAGRANGE = SeedPanel(
    "lagrange",
    "Seed 003: the Lagrangian ℒ(b, w, α), the max–min dual and strong duality, in numbers",
    lagrange_blocks,
)


def margin_bound_blocks(result, X, y, k: int, params: dict) -> list:
    """Lin's distance, margin(b, w) and the large-margin bound min(R²/ρ², d) + 1."""
    K, alpha, b, C, kernel, d, t = _dual_state(result, X, k)
    chk = lagrange.lagrangian_at(K, y, alpha, b, C)
    if not chk.w_norm2 > 0:
        raise ValueError("At this snapshot w = 0: no hyperplane yet (scrub further).")
    w_norm = float(np.sqrt(chk.w_norm2))
    dist, rho = lagrange.distances(chk.f, y, w_norm)
    R = lagrange.ball_radius(K)
    linear = kernel.name == "linear" if kernel is not None else result.transform is None
    space = "x" if linear else "z = Φ(x)"
    closest = np.flatnonzero(np.isclose(dist, dist.min(), rtol=1e-9, atol=1e-12)) + 1
    blocks = [
        Markdown(
            "Seed 003, *Linear SVM*: distance(x, b, w) = |wᵀx + b|/‖w‖ and margin(b, w) = "
            "min_n y_n(wᵀx_n + b)/‖w‖ (the per-point table lists every point's distance)."
            f" Here, at t = {t:,} (in {space}): ‖w‖ = {w_norm:.6g}, 1/‖w‖ = {1 / w_norm:.6g}, "
            f"margin(b, w) = {rho:.6g}; the closest point(s): "
            f"{', '.join(map(str, closest[:8].tolist()))} at distance {dist.min():.6g}."
        ),
        Latex(
            r"d_{VC}(\mathcal{A}_\rho)\le\min\Big(\frac{R^2}{\rho^2},\,d\Big)+1"
            r"\le\underbrace{d+1}_{d_{VC}(\text{perceptron})}"
        ),
    ]
    if rho <= 0:
        blocks.append(
            Markdown(
                f"margin(b, w) = {rho:.4g} ≤ 0: this hyperplane does not separate the points "
                "(a soft margin gave some up), so it is no output of a large-margin algorithm "
                "A_ρ and the bound does not apply. Try a separable data set or a larger C."
            )
        )
        return blocks
    mb = lagrange.large_margin_bound(R, rho, d)
    dname = "∞" if not np.isfinite(d) else f"{int(d)}"
    blocks += [
        Table(
            {
                "": [
                    "R: radius of a ball holding every point (around their mean)",
                    "ρ = margin(b, w)",
                    "R²/ρ²",
                    f"d (the dimension of {space})",
                    "min(R²/ρ², d) + 1",
                    "d + 1 (the perceptron's d_VC)",
                ],
                "value": [
                    f"{R:.6g}",
                    f"{rho:.6g}",
                    f"{mb.ratio:.6g}",
                    dname,
                    f"{mb.bound:.6g}",
                    "∞" if not np.isfinite(d) else f"{int(d) + 1}",
                ],
            }
        ),
        Caption(
            "Fewer dichotomies ⇒ smaller VC dimension: a fat margin (large ρ against R) "
            "bounds d_VC below d + 1 — for the Gaussian kernel (d = ∞) only R²/ρ² bounds it."
        ),
    ]
    return blocks


MARGIN_BOUND = SeedPanel(
    "vc_bound",
    "Seed 003: distance to the hyperplane and the large-margin bound min(R²/ρ², d) + 1",
    margin_bound_blocks,
)
