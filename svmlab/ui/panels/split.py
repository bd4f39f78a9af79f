"""The train/test split of every algorithm page (generalization), the Streamlit side.

:func:`train_part` draws the split's options in the sidebar (bound to the share link:
``split``, ``test_frac``, ``test_seed``) and returns the points the run trains on; the
test points of this run are kept in the session (:data:`svmlab.ui.session.SPLIT`: a
:class:`TestSet` or None) for the page's look (drawn hollow on the plane,
:func:`svmlab.ui.page.page_look`) and :func:`generalization_report` (test error beside
training error, per snapshot, then the hyperparameter sweep). The maths is in
:mod:`svmlab.study.split`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import streamlit as st

from svmcore.datasets import REGISTRY
from svmlab.plot.split_figure import error_curve_figure
from svmlab.state.pointset import PointSet
from svmlab.state.run_context import RunContext
from svmlab.study.split import drawn_from, fresh_test_set, snapshot_errors, train_test_split
from svmlab.ui import plotbox, runners, session
from svmlab.ui.panels.sweep import sweep_panel
from svmlab.ui.session import get_session

__all__ = [
    "MODES",
    "SPLIT_KEY",
    "TestSet",
    "active_test_set",
    "generalization_report",
    "train_part",
]

#: Session key of the active test set (a :class:`TestSet`) or None.
SPLIT_KEY = session.SPLIT
#: Session key of the split's options, kept across pages: {widget key: value}.
OPTIONS_KEY = session.SPLIT_OPTIONS
#: The split's modes (the share link's values) and their captions.
MODES = {
    "none": "train on every point",
    "holdout": "hold out a share of the points",
    "fresh": "a fresh sample of the preset",
}
DEFAULT_FRACTION = 0.3
MAX_SEED = 1_000_000


@dataclass(frozen=True, eq=False)
class TestSet:
    """The test points of the page's run and where they come from (a sentence)."""

    X: np.ndarray
    y: np.ndarray
    n_classes: int
    source: str


def active_test_set() -> TestSet | None:
    """The test set of this run (None: no split)."""
    test = st.session_state.get(SPLIT_KEY)
    return test if isinstance(test, TestSet) else None


def _remember(wkey: str) -> None:
    st.session_state.setdefault(OPTIONS_KEY, {})[wkey] = st.session_state[wkey]


def _next_test_draw() -> None:
    seed = int(st.session_state.get("test_seed", 0))
    st.session_state["test_seed"] = (seed + 1) % (MAX_SEED + 1)
    _remember("test_seed")


def _fresh(X, y, n_classes: int) -> TestSet:
    """A fresh sample of the preset the points were drawn from, in the page's labels.

    The preset: the menu's last load if the points are exactly its draw, else any preset
    at its defaults (seed 0) that drew them (the multiclass page's "Load k blobs", the
    session's first points); failing both (points edited or drawn by hand), the menu's
    last load, with a warning.
    """
    recorded = dict(get_session().preset)
    defaults = [dict(name=name, n=d.n, noise=d.noise, seed=0) for name, d in REGISTRY.items()]
    p = drawn_from(X, y, [recorded, *defaults], n_classes=n_classes)
    if p is None:
        p = recorded
        st.warning(
            "Your points are not an unedited draw of a preset: the fresh test set follows "
            f"the preset last loaded ({REGISTRY[p['name']].title}), not necessarily them."
        )
    name, seed = p["name"], int(p["seed"])
    test_seed = int(st.session_state.get("test_seed", 0))
    Xt, yt = fresh_test_set(
        name, n=p["n"], noise=p["noise"], seed=seed, test_seed=test_seed, k=n_classes
    )
    Xt, yt = PointSet.from_labels(Xt, yt).labels(n_classes)  # the page's labels
    source = (
        f"{len(yt)} fresh points of {REGISTRY[name].title} (n = {p['n']}, noise = "
        f"{float(p['noise']):g}), seed pair ({seed}, {test_seed}): the preset's "
        "distribution, an independent draw"
    )
    return TestSet(Xt, yt, n_classes, source)


def train_part(X, y, n_classes: int = 2):
    """The split's widgets (sidebar); returns the points the run trains on.

    "none": every point. "holdout": a stratified share (``test_frac``, seed
    ``test_seed``) is held out as test points. "fresh": every point trains, and a new
    sample of the preset that drew the points is the test set ("Draw another test set"
    moves the seed on). A refused split (a class would vanish from the training part) is
    said in the sidebar and every point trains. Each call replaces the active test set
    (:data:`svmlab.ui.session.SPLIT`), so a page that draws the canvas calls this
    first (through ``controls.page_data``).
    """
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    y = np.asarray(y)
    st.session_state[SPLIT_KEY] = None
    remembered = st.session_state.setdefault(OPTIONS_KEY, {})
    for wkey, value in remembered.items():
        # Each page has its own widgets (Streamlit's ids include the page), so a value
        # set on another page is given again; the on_change callbacks keep it current.
        st.session_state[wkey] = value
    with st.sidebar.expander("Train / test split", expanded=False):
        mode = st.radio(
            "Test points",
            list(MODES),
            captions=list(MODES.values()),
            key="split",
            bind="query-params",  # the option itself is the link's value: split=holdout
            on_change=_remember,
            args=("split",),
        )
        remembered["split"] = mode
        if mode == "none":
            return X, y
        if mode == "holdout":
            frac = st.slider(
                "test fraction (per class)",
                0.1,
                0.5,
                DEFAULT_FRACTION,
                0.05,
                key="test_frac",
                bind="query-params",
                on_change=_remember,
                args=("test_frac",),
            )
            remembered["test_frac"] = frac
        st.number_input(
            "split seed",
            0,
            MAX_SEED,
            0,
            key="test_seed",
            bind="query-params",
            on_change=_remember,
            args=("test_seed",),
            help="The same seed gives the same split (np.random.default_rng(seed)).",
        )
        remembered["test_seed"] = st.session_state.get("test_seed", 0)
        if len(y) < 2:
            st.caption("Draw points first: there is nothing to split yet.")
            return X, y
        try:
            if mode == "fresh":
                st.button("Draw another test set", key="test_redraw", on_click=_next_test_draw)
                test = _fresh(X, y, n_classes)
                train = np.arange(len(y))
            else:
                seed = int(st.session_state.get("test_seed", 0))
                part = train_test_split(y, test_fraction=float(frac), random_state=seed)
                train = part.train
                test = TestSet(
                    X[part.test],
                    y[part.test],
                    n_classes,
                    f"{part.test.size} of the {len(y)} points held out (stratified, "
                    f"{frac:.0%} of each class, seed {seed})",
                )
        except ValueError as exc:
            st.error(f"**No test set:** {exc}. Training on every point.")
            return X, y
        if len(test.y) == 0:
            st.error("**No test set:** the sample has no point of this page's classes.")
            return X, y
        st.caption(test.source + ". Test points are drawn hollow.")
        st.session_state[SPLIT_KEY] = test
        return X[train], y[train]


def generalization_report(shown: RunContext) -> None:
    """Test error beside training error at the snapshot shown and over the run (with a test
    set), then the hyperparameter sweep (:func:`svmlab.ui.panels.sweep.sweep_panel`)."""
    test = active_test_set()
    X, y, k = shown.X, shown.y, shown.snapshot
    if test is not None:
        view = runners.view(shown)
        train_err = snapshot_errors(view, X, y)
        test_err = snapshot_errors(view, test.X, test.y)
        k = min(int(k), len(test_err) - 1)
        st.header("Generalization: training and test error")
        cols = st.columns(4)
        cols[0].metric("training error", f"{train_err[k]:.1%}")
        cols[1].metric("test error", f"{test_err[k]:.1%}")
        cols[2].metric("gap (test − training)", f"{test_err[k] - train_err[k]:+.1%}")
        cols[3].metric("training / test points", f"{len(y)} / {len(test.y)}")
        st.caption(
            f"At the snapshot shown (t = {int(view.t[k]):,}). Test set: {test.source}. "
            + (
                "The error of the model drawn on the plane, +1 where f(x) > 0."
                if test.n_classes == 2
                else "The error of the model drawn on the plane (the class of the largest score)."
            )
        )
        if len(test_err) > 1:
            plotbox.chart(
                error_curve_figure(view.t, train_err, test_err),
                key=f"{shown.algorithm}_test_curve",
                config={"displaylogo": False},
            )
    sweep_panel(shown)
