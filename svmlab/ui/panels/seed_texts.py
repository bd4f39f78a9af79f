"""The seeds' derivations beside the run: one lazy expander per item of the spec's
``seed_panels`` (:mod:`svmlab.algorithms.seed_panels`).

Closed, an expander computes and sends nothing; opened (its key ``f"{algorithm}_{key}"``),
it builds the panel's blocks at the snapshot shown (cached by the run's inputs and the
snapshot) and renders each with one Streamlit call. A panel that does not apply to the
options chosen says why (its ``ValueError``), never a traceback.
"""

from __future__ import annotations

import streamlit as st

from svmlab.algorithms import ALGORITHMS
from svmlab.plot.seed_figures import Caption, Figure, Html, Latex, Markdown, Table
from svmlab.state.run_context import RunContext
from svmlab.ui import plotbox

__all__ = ["panel", "render"]

_CONFIG = {"displaylogo": False}


@st.cache_data(max_entries=32, show_spinner="Replaying the run for the text's derivation…")
def _built(run_key: str, key: str, k: int, _shown: RunContext) -> list:
    """The blocks of panel ``key`` (cached by the run's key and the snapshot k; the run
    context itself, its result included, is the run of that key, so it is not hashed)."""
    spec = ALGORITHMS[_shown.algorithm]
    (item,) = [p for p in spec.seed_panels if p.key == key]
    return item.build(_shown.result, _shown.X, _shown.y, k, dict(_shown.params))


def render(blocks, *, key: str) -> None:
    """Each block with its Streamlit call (figures keyed ``f"{key}_{position}"``)."""
    for n, block in enumerate(blocks):
        if isinstance(block, Latex):
            st.latex(block.text)
        elif isinstance(block, Markdown):
            st.markdown(block.text)
        elif isinstance(block, Caption):
            st.caption(block.text)
        elif isinstance(block, Html):
            st.markdown(block.text, unsafe_allow_html=True)
        elif isinstance(block, Table):
            st.dataframe(block.columns, hide_index=True)
        elif isinstance(block, Figure):
            plotbox.chart(block.figure, key=f"{key}_{n}", config=_CONFIG)


def panel(shown: RunContext) -> None:
    """The spec's seed panels of the run drawn, ``shown``, each a lazy expander."""
    algorithm, k = shown.algorithm, int(shown.snapshot)
    for item in ALGORITHMS[algorithm].seed_panels:
        key = f"{algorithm}_{item.key}"
        box = st.expander(item.title, key=key, on_change="rerun")
        if not box.open:
            continue
        with box:
            try:
                blocks = _built(shown.run_key, item.key, k, shown)
            except ValueError as exc:
                st.info(str(exc))
                continue
            render(blocks, key=f"{key}_fig")
