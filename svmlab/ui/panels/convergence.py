"""The convergence panel (convergence to P*): P(w_t) − P* of the averaged output and the last
iterate on log–log axes, the text's rate as a guide, and the two boundaries on a plane.

Shown under every SGD page whose spec names an exact optimum (``spec.optimum``) or says
why there is none (``spec.no_optimum``). It computes nothing while collapsed (a lazy
expander): P* and the other output's run are cached (``st.cache_data``) and made only
when a student opens it.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from svmlab.algorithms import ALGORITHMS
from svmlab.plot.convergence_figure import convergence_figure
from svmlab.state.run_context import RunContext
from svmlab.study.convergence import (
    RATES,
    companion_params,
    fit_slope,
    gap_curves,
    objective_params,
    rate_guide,
)
from svmlab.ui import plotbox, runners

__all__ = ["exact_optimum", "panel"]

_CONFIG = {"displaylogo": False}


@st.cache_data(show_spinner="Solving for the exact optimum P*… (cached afterwards)", max_entries=16)
def exact_optimum(algorithm: str, X, y, **params) -> dict:
    """P* of the run's objective from the spec's exact solver, as plain numbers and text
    (``params``: :func:`svmlab.study.convergence.objective_params` of the page's, so that a new
    T or seed does not solve again)."""
    spec = ALGORITHMS[algorithm]
    res = spec.optimum(np.asarray(X, dtype=float), np.asarray(y), spec.kwargs(params))
    return {
        "objective": float(res.objective),
        "gap": float(res.duality_gap),
        "status": str(res.status),
        "solver": str(res.solver),
    }


def panel(shown: RunContext) -> None:
    """The expander with the convergence figure (nothing for a non-SGD algorithm)."""
    algorithm, X, y, params = shown.algorithm, shown.X, shown.y, dict(shown.params)
    spec = ALGORITHMS[algorithm]
    if spec.optimum is None and not spec.no_optimum:
        return
    box = st.expander(
        "Convergence to the optimum: P(w_t) − P* on log–log axes",
        key=f"{algorithm}_conv",
        on_change="rerun",
    )
    if not box.open:
        return
    with box:
        if spec.optimum is None:
            st.info(spec.no_optimum)
            return
        try:
            opt = exact_optimum(algorithm, X, y, **objective_params(params))
        except ValueError as exc:
            st.info(f"No exact optimum for these options — {exc}")
            return
        other = companion_params(params)
        traces = {params.get("averaging", "average"): shown.result.trace}
        if other is not None:
            traces[other["averaging"]] = runners.run(shown.with_params(other)).trace
        show_curves(spec, traces, opt, shown.snapshot, params)


def show_curves(spec, traces: dict, opt: dict, k: int, params: dict) -> None:
    """The log–log figure, P* and its solver, the guide's anchoring and the slopes."""
    P_star = opt["objective"]
    curves = gap_curves(traces["average"], traces.get("last"), P_star)
    # below the solver's certified gap (or rounding) a gap cannot be told from 0
    floor = max(opt["gap"], 1e-12 * max(1.0, abs(P_star)))
    guide, c = rate_guide(curves.t, curves.averaged, params.get("lam"), spec.rate)
    fig = convergence_figure(
        curves.t,
        curves.averaged,
        curves.last,
        guide=guide,
        guide_label=f"guide c·{RATES[spec.rate].split(' — ')[0]}",
        floor=floor,
    )
    t_k = int(curves.t[k])
    gap_k = curves.averaged[k] if params.get("averaging", "average") == "average" else None
    if gap_k is None and curves.last is not None:
        gap_k = curves.last[k]
    if gap_k is not None and gap_k > floor:
        fig.add_scatter(
            x=[t_k],
            y=[gap_k],
            mode="markers",
            name=f"snapshot shown (t = {t_k:,})",
            marker=dict(size=12, symbol="circle-open", color="black", line=dict(width=2)),
        )
    plotbox.chart(fig, key=f"{spec.key}_conv_fig", config=_CONFIG)
    slopes = {
        "averaged": fit_slope(curves.t, curves.averaged, floor=floor),
        "last iterate": None
        if curves.last is None
        else fit_slope(curves.t, curves.last, floor=floor),
    }
    cols = st.columns(4)
    cols[0].metric("P* (exact minimum)", f"{P_star:.8g}")
    cols[1].metric("P(w̄_T) − P*", f"{curves.averaged[-1]:.3e}")
    for col, (name, s) in zip(cols[2:], slopes.items(), strict=True):
        col.metric(
            f"slope, {name} (last 2 decades)", "—" if s is None or np.isnan(s) else f"{s:.2f}"
        )
    st.caption(
        f"**P\\* solver:** {opt['solver']}. P\\* is the minimum of the same objective as the "
        "run (the same λ, bias choice, class weights, kernel and Δ); the run's own objective "
        f"is evaluated at every snapshot. Gaps ≤ {floor:.1e} (the solver's certified "
        "duality gap, or rounding) cannot be told from 0 and are not drawn."
    )
    st.caption(
        f"**Guide:** the text's rate {RATES[spec.rate]}, drawn as c·g(t) with c = {c:.3g} the "
        "smallest constant that puts it above every averaged gap plotted: the slope is the "
        "text's, the constant is anchored on this run — it is not the theorem's constant, "
        "which comes from a bound on the subgradients' norm and bounds the expectation over "
        "the sampling, around which one run fluctuates. Slopes: least-squares fit of "
        "log(P − P*) against log t over the last two decades of t."
    )


def other_boundary(ctx: RunContext, *, toggle: bool = True) -> tuple[RunContext, str] | None:
    """A toggle above the plane; when on, the other output of the run ``ctx`` (the last
    iterate beside the averaged output, or the reverse) as ``(its run context, its trace's
    name)`` for :func:`svmlab.ui.runners.plane_at` to draw dashed, else None. Same seed,
    same sampled points: only the output differs. ``toggle=False``: the toggle's value
    without drawing it (a fragment run that redraws the plane only)."""
    params = ctx.params
    other = companion_params(dict(params))
    if other is None:
        return None
    this = "averaged w̄" if params.get("averaging", "average") == "average" else "last iterate"
    that = "last iterate" if this == "averaged w̄" else "averaged w̄"
    key = f"{ctx.algorithm}_conv_two"
    on = bool(st.session_state.get(key, False))
    if toggle:
        on = st.toggle(
            f"Also draw the {that}'s boundary (dashed)",
            key=key,
            help="Averaging calms the boundary: the last iterate jumps with every sampled "
            "point, the average (1/t) Σ w_τ moves less and less. Scrub the run to compare.",
        )
    if not on:
        return None
    return ctx.with_params(other), f"{that} (dashed)"
