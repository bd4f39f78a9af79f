"""A small app for the browser tests of the data canvas: the data panel, the canvas, and the
numbers the tests read.

Query parameters:

* ``k`` – classes of the page (2 by default);
* ``plane=1`` – the app's own plane figure (:func:`svmlab.plot.figures.plane_figure`) on the
  session's axes (:func:`svmlab.ui.data_panel.plane_ranges`) instead of a fixed ±3 scatter;
* ``bars=1`` – the plane with α as marker size and the α bar chart drawn by the canvas
  component below it (``data_canvas(..., bars=...)``); α is a fixed function of the points
  (no training: the tests are about the link, not the model);
* ``slow=<seconds>`` – every run of this script sleeps that long first (at most 5 s): a
  slow server for the delivery test.
"""

import json
import time

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from svmlab.plot.figures import alpha_bar_figure, plane_figure
from svmlab.state.classes import CLASS_COLORS, CLASS_SYMBOLS, class_names
from svmlab.ui import data_panel

st.set_page_config(page_title="SVM Lab canvas test", layout="wide")
time.sleep(min(float(st.query_params.get("slow", 0)), 5.0))
n_classes = int(st.query_params.get("k", 2))
data_panel.data_controls(n_classes=n_classes)
X, y = data_panel.get_data(n_classes)
c = np.where(y < 0, 0, 1) if n_classes == 2 else y.astype(int)

bars = None
if st.query_params.get("plane") == "1" or st.query_params.get("bars") == "1":
    xr, yr = data_panel.plane_ranges()
    alpha = None
    if st.query_params.get("bars") == "1":
        # Some zeros and distinct heights: α_j = |x_j1| rounded, 0 below 0.3.
        alpha = np.where(np.abs(X[:, 0]) < 0.3, 0.0, np.round(np.abs(X[:, 0]), 2))
        bars = alpha_bar_figure(alpha, y)
    fig = plane_figure(X, y, alpha=alpha, xrange=xr, yrange=yr)
else:
    # One scatter per class, tagged meta="points" (the tests read these traces).
    groups = [(name, np.flatnonzero(c == j)) for j, name in enumerate(class_names(n_classes))]
    style = [
        dict(color=col, symbol=sym, size=10)
        for col, sym in zip(CLASS_COLORS, CLASS_SYMBOLS, strict=True)
    ]
    fig = go.Figure(
        [
            go.Scatter(
                x=X[i, 0],
                y=X[i, 1],
                mode="markers",
                name=name,
                meta="points",
                customdata=i,
                marker=style[j],
            )
            for j, (name, i) in enumerate(groups)
        ]
    )
    fig.update_layout(
        xaxis=dict(range=[-3, 3], zeroline=False),
        yaxis=dict(range=[-3, 3], zeroline=False),
        margin=dict(l=40, r=10, t=10, b=40, autoexpand=False),
        legend=dict(x=0.01, y=0.99, bgcolor="rgba(255,255,255,0.7)"),
        showlegend=True,
    )
changed = data_panel.data_canvas(fig, key="canvas", height=480, bars=bars)
st.markdown(f"Points on the page: **{X.shape[0]}** (changed this run: {changed})")
if bars is not None or st.query_params.get("plane") == "1":
    (x0, x1), (y0, y1) = data_panel.plane_ranges()
    head = X[:8].tolist()  # the table's first rows, for the table test
    st.code(json.dumps({"plane": [x0, x1, y0, y1], "n": int(X.shape[0]), "head": head}))
