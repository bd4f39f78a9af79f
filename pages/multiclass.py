"""Multiclass: SSBD's multiclass SGD (seed 001), multiclass Pegasos, one-vs-all (seed 002)."""

import streamlit as st

from svmlab.ui import page as ui
from svmlab.ui.router import enter

enter(__file__)  # first: a cold deep link runs this file alone (svmlab/ui/router.py)

PAGE = "multiclass"

with st.sidebar:
    n_classes = st.select_slider(
        "Classes on this page (k)",
        [2, 3, 4, 5, 6],
        value=3,
        key=f"{PAGE}_k",
        bind="query-params",
        help="The canvas offers this many classes; points of classes ≥ k are left out.",
    )
X, y = ui.page_data(n_classes=int(n_classes), defer=True)  # drawn after a click's plane
k = len(set(y.tolist()))  # classes present in the drawn data


def missing_classes() -> None:
    """Beside the plane: the classes the data lack, and the blobs that bring them."""
    if k < int(n_classes):
        st.info(
            f"The data have {k} of the {n_classes} classes: draw points of the others (pick "
            "the class in the sidebar), or load k Gaussian blobs."
        )
        st.button(
            f"Load {n_classes} blobs",
            key=f"{PAGE}_load_blobs",
            on_click=ui.load_k_blobs,
            args=(int(n_classes),),
        )


ui.algorithm_page(PAGE, X, y, plane=ui.plane_ranges(), title="Multiclass SVM", note=missing_classes)
