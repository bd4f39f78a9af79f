"""A small app for the browser tests of the data canvas: the data panel, the canvas with a
plain scatter figure, and the numbers the tests read (kept while the real pages land)."""

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from svmlab import data_panel
from svmlab.style import CLASS_COLORS, CLASS_SYMBOLS, class_names

st.set_page_config(page_title="SVM Lab canvas test", layout="wide")
n_classes = int(st.query_params.get("k", 2))
data_panel.data_controls(n_classes=n_classes)
X, y = data_panel.get_data(n_classes)
c = np.where(y < 0, 0, 1) if n_classes == 2 else y.astype(int)

fig = go.Figure()
for j, name in enumerate(class_names(n_classes)):
    idx = np.flatnonzero(c == j)
    fig.add_trace(
        go.Scatter(
            x=X[idx, 0],
            y=X[idx, 1],
            mode="markers",
            name=name,
            meta="points",
            customdata=idx,
            marker=dict(color=CLASS_COLORS[j], symbol=CLASS_SYMBOLS[j], size=10),
        )
    )
fig.update_layout(
    xaxis=dict(range=[-3, 3], zeroline=False),
    yaxis=dict(range=[-3, 3], zeroline=False),
    margin=dict(l=40, r=10, t=10, b=40, autoexpand=False),
    legend=dict(x=0.01, y=0.99, bgcolor="rgba(255,255,255,0.7)"),
    showlegend=True,
)
changed = data_panel.data_canvas(fig, key="canvas", height=480)
st.markdown(f"Points on the page: **{X.shape[0]}** (changed this run: {changed})")
