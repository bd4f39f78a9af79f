"""The hyperparameter sweep of an algorithm page (generalization), the Streamlit side.

A collapsed section that computes nothing until "Run sweep" is pressed: then the page's
algorithm runs on a λ × γ (SGD) or C × γ (dual) grid (:func:`svmlab.study.sweep.sweep`, cells
in parallel, cached by its inputs, with a progress bar), and the section shows the
validation-accuracy heatmap and small multiples of a few cells' boundaries. Clicking a
cell (or choosing it in the list below) loads its parameters into the page's widgets
(keys ``f"{algorithm}_{name}"``, :mod:`svmlab.algorithms.widgets`). The grid values are options of
those widgets' sliders, so a loaded value is one the slider can show.
"""

from __future__ import annotations

import streamlit as st

from svmlab.algorithms import ALGORITHMS, widgets
from svmlab.plot.sweep_figure import SYMBOLS, cell_label, heatmap_figure, small_multiples
from svmlab.state.run_context import RunContext
from svmlab.study.sweep import SweepResult, sweep, sweep_names, sweep_table
from svmlab.ui import access, plotbox
from svmlab.ui.fragment_state import mark_local

__all__ = [
    "GRID",
    "N_JOBS",
    "cached_sweep",
    "clicked_cell",
    "load_cell",
    "sweep_panel",
    "widget_key",
]

#: The grid of each parameter: 6 values each, options of the page's log sliders
#: (λ: 10⁻⁴ … 10; C: 10⁻² … 10³; γ: 10⁻² … 10^1.75).
GRID = {
    "lam": widgets.log_options(-4, 1)[::4],
    "C": widgets.log_options(-2, 3)[::4],
    "gamma": widgets.log_options(-2, 2)[::3],
}
#: Parallel processes of a sweep (the machine has 2 cores).
N_JOBS = 2
#: The share of the training points each cell is validated on.
VAL_FRACTION = 0.3
#: Grid points per axis of the small multiples.
RESOLUTION = 40


def widget_key(algorithm: str, name: str) -> str:
    """The page widget of parameter ``name`` (:mod:`svmlab.algorithms.widgets`' key convention)."""
    return f"{algorithm}_{name}"


@st.cache_data(show_spinner=False, max_entries=16)
def cached_sweep(algorithm: str, X, y, params: dict, names: tuple, seed: int, plane):
    """:func:`svmlab.study.sweep.sweep` of the registry's ``algorithm`` (cached by its inputs);
    a progress bar while the cells run (made and removed here: a cache hit shows none)."""
    spec = ALGORITHMS[algorithm]
    slot = st.empty()

    def progress(done: int, total: int) -> None:
        slot.progress(done / total, text=f"Sweep: {done} of {total} cells trained")

    try:
        return sweep(
            spec.fn,
            params,
            names,
            [GRID[name] for name in names],
            X,
            y,
            kwargs_of=spec.kwargs,
            val_fraction=VAL_FRACTION,
            random_state=seed,
            plane=plane,
            resolution=RESOLUTION,
            n_jobs=N_JOBS,
            progress=progress,
        )
    finally:
        slot.empty()


def load_cell(algorithm: str, cell: dict) -> None:
    """Put a cell's parameters into the page's widgets (a callback: before the rerun)."""
    for name, value in cell.items():
        st.session_state[widget_key(algorithm, name)] = float(value)
    if "gamma" in cell:  # γ itself, not seed 004's σ = 1/γ
        st.session_state[widget_key(algorithm, "rbf_form")] = "gamma"


def clicked_cell(event, shape: tuple[int, int]) -> tuple[int, int] | None:
    """The cell (i, j) a heatmap selection ``event`` names, or None.

    The cell markers of :func:`svmlab.plot.sweep_figure.heatmap_figure` (trace 1) carry
    ``customdata`` = (i, j), and point k is cell ``divmod(k, b)`` (row-major).
    """
    points = ((event or {}).get("selection") or {}).get("points") or []
    for p in points:
        cd = p.get("customdata")
        if isinstance(cd, dict):  # a typed array arrives as {"0": i, "1": j}
            cd = [cd.get("0"), cd.get("1")]
        if isinstance(cd, (list, tuple)) and len(cd) >= 2 and None not in cd[:2]:
            return int(cd[0]), int(cd[1])
        if p.get("curve_number") == 1 and p.get("point_index") is not None:
            return divmod(int(p["point_index"]), shape[1])
    return None


def _on_cell_click(algorithm: str, chart_key: str, res: SweepResult) -> None:
    cell = clicked_cell(st.session_state.get(chart_key), res.shape)
    if cell is not None:
        load_cell(algorithm, res.cell(*cell))


def sweep_panel(ctx: RunContext) -> None:
    """The collapsed sweep section of the page (nothing runs before "Run sweep"), for the
    run ``ctx`` (its algorithm, training points, params and plane)."""
    algorithm, X, y, params, plane = ctx.algorithm, ctx.X, ctx.y, dict(ctx.params), ctx.plane
    names = sweep_names(params)
    box = st.expander(
        "Hyperparameter sweep: validation accuracy over a grid",
        key=f"{algorithm}_sweep_box",
        on_change=mark_local,
    )
    if not box.open:  # closed: nothing sent (a click's rerun stays small)
        return
    with box:
        if not names:
            st.caption("This algorithm has no λ, C or γ to sweep.")
            return
        axes = " × ".join(SYMBOLS[n] for n in names)
        sizes = " × ".join(str(len(GRID[n])) for n in names)
        st.caption(
            f"Trains the algorithm above on a {axes} grid ({sizes} "
            f"runs, the other settings as chosen) on {1 - VAL_FRACTION:.0%} of the training "
            f"points and scores each run on the other {VAL_FRACTION:.0%} (stratified; the "
            "test points are never used). A cell with a high accuracy is a good choice; "
            "its neighbours show how sensitive that choice is."
        )
        base = {k: v for k, v in params.items() if k not in names}
        seed = int(params.get("random_state", 0))
        signature = (ctx.data_key, repr(sorted(base.items())), seed, repr(plane))
        sig_key = f"{algorithm}_sweep_sig"
        if st.button("Run sweep", key=f"{algorithm}_sweep_run", type="primary"):
            st.session_state[sig_key] = signature
        if st.session_state.get(sig_key) != signature:
            st.caption("Press **Run sweep** to compute the grid (cached afterwards).")
            return
        try:
            res = cached_sweep(algorithm, X, y, base, names, seed, plane)
        except ValueError as exc:
            st.error(f"**Cannot sweep:** {exc}")
            return
        show_sweep(algorithm, X, y, res)


def show_sweep(algorithm: str, X, y, res: SweepResult) -> None:
    """The heatmap (click a cell to load it), the best cell, the small multiples."""
    chart_key = f"{algorithm}_sweep_map"
    plotbox.chart(
        heatmap_figure(res),
        key=chart_key,
        on_select=lambda: _on_cell_click(algorithm, chart_key, res),
        selection_mode="points",
        config={"displaylogo": False, "modeBarButtonsToRemove": ["lasso2d", "select2d"]},
    )
    access.table_box(
        "View the sweep as a table",
        lambda: sweep_table(res),
        key=f"{algorithm}_sweep_table",
        on_change=mark_local,
    )
    bi, bj = res.best()
    st.markdown(f"**Best cell** (outlined): {cell_label(res, bi, bj)}. Click a cell to load it.")
    a, b = res.shape
    cells = [(i, j) for i in range(a) for j in range(b)]
    c1, c2 = st.columns([3, 1], vertical_alignment="bottom")
    pick = c1.selectbox(
        "Or choose a cell",
        range(len(cells)),
        index=bi * b + bj,
        format_func=lambda c: cell_label(res, *cells[c]),
        key=f"{algorithm}_sweep_cell",
    )
    c2.button(
        "Load its parameters",
        key=f"{algorithm}_sweep_load",
        on_click=load_cell,
        args=(algorithm, res.cell(*cells[pick])),
    )
    failed = [(i, j) for i, j in cells if res.errors[i][j]]
    if failed:
        i, j = failed[0]
        st.caption(f"{len(failed)} run(s) failed, e.g. {cell_label(res, i, j)}: {res.errors[i][j]}")
    plotbox.chart(
        small_multiples(res, X, y),
        key=f"{algorithm}_sweep_multiples",
        config={"displaylogo": False},
    )
    st.caption(
        "Small multiples: the boundary (f = 0) of the first, middle and last value of each "
        "axis, trained on the same points; the titles give the validation accuracy."
    )
